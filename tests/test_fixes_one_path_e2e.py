"""One code path for fixes: the server over stdio offers, for each diagnostic, exactly the fixes
`awl check --format json` reports for the same problem — same titles, same edits, same preferred
one — and a client that takes snippet edits gets the placeholders as tab stops."""

from __future__ import annotations

import atexit
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest_lsp
from helpers import accept_registrations, example, published
from lsp_edits import apply_edits
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

FOLDER = Path(tempfile.mkdtemp(prefix="awl-fixes-e2e-"))
atexit.register(shutil.rmtree, FOLDER, True)
# Four mistakes: a misspelt call, `tolerance 3`, a missing argument (a placeholder value, a tab stop
# for a client that takes snippets) and a hatch without its key.
TEXT = (
    example("inbox_sweep.awl")
    .replace("workloop inbox_sweep", "workloop sweep_e2e")
    .replace("  list_new(inbox", "  list_nwe(inbox", 1)
    .replace("tolerance unconfirmed for 1h", "tolerance 3")
    .replace("  archive(inbox: inbox, upto: last_seen)", "  archive(inbox: inbox)")
    .replace(" key message.id\n", "\n")
)
PATH = FOLDER / "sweep.awl"
PATH.write_text(TEXT)
URI = PATH.as_uri()
SNIPPETS: dict[int, bool] = {}


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "awl_lsp", "lsp"]),
    params=[False, True],
    ids=["plain", "snippets"],
)
async def client(lsp_client: LanguageClient, request):  # noqa: ANN001, ANN201
    capabilities = client_capabilities("visual-studio-code")
    workspace = capabilities.workspace or lsp.WorkspaceClientCapabilities()
    edits = workspace.workspace_edit or lsp.WorkspaceEditClientCapabilities()
    edits.snippet_edit_support = request.param
    workspace.workspace_edit = edits
    capabilities.workspace = workspace
    SNIPPETS[id(lsp_client)] = request.param
    accept_registrations(lsp_client)
    await lsp_client.initialize_session(
        lsp.InitializeParams(capabilities=capabilities, root_uri=FOLDER.as_uri())
    )
    yield
    await lsp_client.shutdown_session()


def _cli_fixes() -> dict[tuple[str, int, int], list[tuple]]:
    result = subprocess.run(
        [sys.executable, "-m", "awl_lsp", "check", "--format", "json", str(FOLDER)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    out = {}
    for r in json.loads(result.stdout):
        out[(r["code"], r["line"], r["column"])] = [
            (
                f["title"],
                f["preferred"],
                [(e["line"], e["column"], e["end_line"], e["end_column"], e["text"]) for e in f["edits"]],
            )
            for f in r["fixes"]
        ]
    return out


def _edits(action: lsp.CodeAction) -> list[lsp.TextEdit | lsp.SnippetTextEdit]:
    assert action.edit is not None
    if action.edit.changes is not None:
        return list(action.edit.changes[URI])
    (change,) = action.edit.document_changes or []
    assert isinstance(change, lsp.TextDocumentEdit) and change.text_document.uri == URI
    return list(change.edits)


def _as_cli(edit: lsp.TextEdit | lsp.SnippetTextEdit) -> tuple:
    r = edit.range  # the document is ASCII: UTF-16 units are code points
    text = edit.new_text if isinstance(edit, lsp.TextEdit) else edit.snippet.value
    return (r.start.line + 1, r.start.character + 1, r.end.line + 1, r.end.character + 1, text)


async def test_the_server_offers_the_fixes_the_command_line_reports(client: LanguageClient) -> None:
    snippets = SNIPPETS[id(client)]
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri=URI, language_id="awl", version=1, text=TEXT))
    )
    await published(client, URI)
    cli = _cli_fixes()
    served = {}
    for diag in client.diagnostics[URI]:
        actions = await client.text_document_code_action_async(
            lsp.CodeActionParams(
                lsp.TextDocumentIdentifier(URI),
                diag.range,
                lsp.CodeActionContext(diagnostics=[diag], only=[lsp.CodeActionKind.QuickFix]),
            )
        )
        key = (str(diag.code), diag.range.start.line + 1, diag.range.start.character + 1)
        served[key] = [
            (a.title, bool(a.is_preferred), [_as_cli(e) for e in _edits(a)]) for a in actions or []
        ]
    assert sum(map(len, served.values())) >= 4, served
    assert set(served) == set(cli)
    (missing,) = [k for k in served if k[0] == "arguments"]
    (title, _, [(*_, text)]) = served[missing][0]
    assert title == "Add missing argument `upto`"
    if snippets:  # the placeholder is a tab stop; the command line has its plain text
        assert text == ', upto: ${1:""}'
        served[missing] = [(title, True, [(*cli[missing][0][2][0][:4], ', upto: ""')])]
    else:
        assert text == ', upto: ""'
    assert served == cli


async def test_fix_all_on_save_writes_what_check_fix_writes(client: LanguageClient, tmp_path: Path) -> None:
    uri = (FOLDER / "fix_all.awl").as_uri()
    text = TEXT.replace("workloop sweep_e2e", "workloop fix_all_e2e").replace(
        "  input inbox: String\n", "  input inbox: String\n  input tags: [String\n"
    )
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri=uri, language_id="awl", version=1, text=text))
    )
    await published(client, uri)
    everything = lsp.Range(lsp.Position(0, 0), lsp.Position(len(text.splitlines()), 0))
    (action,) = await client.text_document_code_action_async(
        lsp.CodeActionParams(
            lsp.TextDocumentIdentifier(uri),
            everything,
            lsp.CodeActionContext([], only=[lsp.CodeActionKind.SourceFixAll]),
        )
    )
    assert action.kind == "source.fixAll.awl"
    assert action.edit is not None and action.edit.changes is not None
    fixed = apply_edits(text, list(action.edit.changes[uri]))
    copy = tmp_path / "fix_all.awl"
    copy.write_text(text)
    subprocess.run(
        [sys.executable, "-m", "awl_lsp", "check", "--fix", str(copy)], capture_output=True, timeout=60
    )
    assert fixed == copy.read_text() != text
    assert "tolerance 3 windows" in fixed and "[String]" in fixed and "list_nwe" in fixed  # safe fixes only
