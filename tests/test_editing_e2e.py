"""End to end over stdio, the editing features as an editor sees them: structured diagnostics (code,
data, related information), quick fixes chosen from `data`, focused hovers with a link to the full
entry (and the `awl.guide` command behind it), completion that follows the client's capabilities,
prepareRename / rename refusals, and definition on `route start`."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest_lsp
from helpers import accept_registrations, open_doc
from lsp_edits import apply_edits
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
WORKLOOP = (EXAMPLES / "inbox_sweep.awl").read_text()
SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "awl_lsp", "lsp"])


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient):
    caps = client_capabilities("visual-studio-code")
    params = lsp.InitializeParams(capabilities=caps, root_uri=EXAMPLES.as_uri())
    accept_registrations(lsp_client)
    await lsp_client.initialize_session(params)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=SERVER)
async def bare(lsp_client: LanguageClient):
    """A client that supports neither snippets nor Markdown."""
    params = lsp.InitializeParams(capabilities=lsp.ClientCapabilities(), root_uri=EXAMPLES.as_uri())
    accept_registrations(lsp_client)
    await lsp_client.initialize_session(params)
    yield
    await lsp_client.shutdown_session()


def pos_of(text: str, needle: str, offset: int = 0) -> lsp.Position:
    index = text.index(needle) + offset
    return lsp.Position(text.count("\n", 0, index), index - (text.rfind("\n", 0, index) + 1))


def doc(uri: str) -> lsp.TextDocumentIdentifier:
    return lsp.TextDocumentIdentifier(uri)


async def test_misspelt_argument_is_one_error_with_data_and_a_safe_fix(client: LanguageClient) -> None:
    text = WORKLOOP.replace("list_new(inbox: inbox,", "list_new(inbxo: inbox,")
    uri = await open_doc(client, "inbox_sweep.awl", text)
    errors = [d for d in client.diagnostics[uri] if d.severity == lsp.DiagnosticSeverity.Error]
    assert len(errors) == 1, [d.message for d in errors]
    (diag,) = errors
    assert diag.code == "arguments" and "did you mean `inbox`?" in diag.message
    assert diag.data == {"name": "inbxo", "candidates": ["inbox"]}
    actions = await client.text_document_code_action_async(
        lsp.CodeActionParams(doc(uri), diag.range, lsp.CodeActionContext(diagnostics=[diag]))
    )
    assert [a.title for a in actions if a.kind == lsp.CodeActionKind.QuickFix] == ["Change to `inbox`"]
    new = apply_edits(text, list(actions[0].edit.changes[uri]))
    assert new == WORKLOOP


async def test_unreachable_step_is_a_hint_related_to_the_misspelt_route(client: LanguageClient) -> None:
    text = WORKLOOP.replace("route hand_off", "route hand_of")
    uri = await open_doc(client, "inbox_sweep.awl", text)
    route = next(d for d in client.diagnostics[uri] if d.code == "route-target")
    hint = next(d for d in client.diagnostics[uri] if d.code == "unreachable-step")
    assert hint.severity == lsp.DiagnosticSeverity.Hint
    (related,) = hint.related_information
    assert related.location.uri == uri and related.location.range == route.range


async def test_keyword_hover_is_short_and_links_the_full_entry(client: LanguageClient) -> None:
    uri = await open_doc(client, "inbox_sweep.awl", WORKLOOP)
    at = pos_of(WORKLOOP, "tolerance", 1)
    hover = await client.text_document_hover_async(lsp.HoverParams(doc(uri), at))
    value = hover.contents.value
    assert len(value.splitlines()) <= 15
    assert "    tolerance 3 windows" in value
    assert "(command:awl.guide?" in value
    text = await client.workspace_execute_command_async(
        lsp.ExecuteCommandParams(command="awl.guide", arguments=["tolerance"])
    )
    assert "tolerance" in text and len(text.splitlines()) > len(value.splitlines())


async def test_hover_and_completion_follow_what_a_bare_client_supports(bare: LanguageClient) -> None:
    text = WORKLOOP.replace("upto: last_seen)\n", "upto: last_seen)\n  \n")
    uri = await open_doc(bare, "inbox_sweep.awl", text)
    result = await bare.text_document_completion_async(
        lsp.CompletionParams(doc(uri), pos_of(text, "last_seen)\n  \n", len("last_seen)\n  ")))
    )
    items = result.items if isinstance(result, lsp.CompletionList) else result
    assert items
    assert all(i.insert_text_format in (None, lsp.InsertTextFormat.PlainText) for i in items)
    assert all(not isinstance(i.documentation, lsp.MarkupContent) for i in items)
    labels = [i.label for i in items]
    assert len(labels) == len(set(labels))
    sleep = next(i for i in items if i.label == "sleep")
    assert sleep.text_edit.new_text == "sleep 5m"
    hover = await bare.text_document_hover_async(lsp.HoverParams(doc(uri), pos_of(text, "tolerance", 1)))
    assert hover.contents.kind == lsp.MarkupKind.PlainText
    assert "```" not in hover.contents.value and "Full entry: awl guide tolerance" in hover.contents.value


async def test_completion_in_vs_code_uses_snippets_and_markdown(client: LanguageClient) -> None:
    text = WORKLOOP.replace("  retention 7d\n", "  retention 7d\n  \n")
    uri = await open_doc(client, "inbox_sweep.awl", text)
    result = await client.text_document_completion_async(
        lsp.CompletionParams(doc(uri), pos_of(text, "7d\n  \n", len("7d\n  ")))
    )
    items = {i.label: i for i in (result.items if isinstance(result, lsp.CompletionList) else result)}
    assert "every" not in items and "retention" not in items  # written once already
    carry = items["carry"]
    assert carry.insert_text_format == lsp.InsertTextFormat.Snippet
    assert carry.text_edit.new_text == "carry ${1:name}: ${2:Int} = ${3:0}"
    assert isinstance(carry.documentation, lsp.MarkupContent)


async def test_prepare_rename_and_rename_refusals(client: LanguageClient) -> None:
    uri = await open_doc(client, "inbox_sweep.awl", WORKLOOP)
    keyword = await client.text_document_prepare_rename_async(
        lsp.PrepareRenameParams(doc(uri), pos_of(WORKLOOP, "step fetch", 1))
    )
    assert keyword is None
    name = await client.text_document_prepare_rename_async(
        lsp.PrepareRenameParams(doc(uri), pos_of(WORKLOOP, "route hand_off", 8))
    )
    assert name is not None
    try:
        await client.text_document_rename_async(
            lsp.RenameParams(doc(uri), pos_of(WORKLOOP, "route hand_off", 8), "fetch")
        )
    except Exception as exc:  # noqa: BLE001 — the server answers with an error the editor shows
        assert "already declared" in str(exc)
    else:
        raise AssertionError("renaming onto an existing step was accepted")


async def test_definition_of_route_start_is_the_workloop_header(client: LanguageClient) -> None:
    uri = await open_doc(client, "inbox_sweep.awl", WORKLOOP)
    loc = await client.text_document_definition_async(
        lsp.DefinitionParams(doc(uri), pos_of(WORKLOOP, "route start(", 7))
    )
    loc = loc[0] if isinstance(loc, list) else loc
    assert loc.range.start.line == WORKLOOP.split("\n").index("workloop inbox_sweep")
