"""End to end over stdio: the real `awl lsp` process driven by a pytest-lsp client."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import pytest_lsp
from helpers import accept_registrations, open_doc, published
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"

WORKLOOP = (EXAMPLES / "inbox_sweep.awl").read_text()
WORKFLOW = (EXAMPLES / "release_notes.awl").read_text()
BROKEN = (EXAMPLES / "broken_hatch.awl").read_text()


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "awl_lsp", "lsp"]),
)
async def client(lsp_client: LanguageClient):
    params = lsp.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        root_uri=EXAMPLES.as_uri(),
    )
    accept_registrations(lsp_client)
    await lsp_client.initialize_session(params)
    yield
    await lsp_client.shutdown_session()


def pos_of(text: str, needle: str, offset: int = 0, nth: int = 0) -> lsp.Position:
    index = -1
    for _ in range(nth + 1):
        index = text.index(needle, index + 1)
    index += offset
    line = text.count("\n", 0, index)
    col = index - (text.rfind("\n", 0, index) + 1)
    return lsp.Position(line, col)


async def test_valid_documents_have_no_diagnostics(client: LanguageClient) -> None:
    for name, text in (("inbox_sweep.awl", WORKLOOP), ("release_notes.awl", WORKFLOW)):
        uri = await open_doc(client, name, text)
        errors = [d for d in client.diagnostics[uri] if d.severity == lsp.DiagnosticSeverity.Error]
        assert errors == [], [d.message for d in errors]


async def test_syntax_error_diagnostic_is_precise_and_local(client: LanguageClient) -> None:
    text = WORKLOOP.replace(
        "  list_new(inbox: inbox, after: last_seen) -> batch", "  list_new(inbox: inbox, after: "
    )
    uri = await open_doc(client, "inbox_sweep.awl", text)
    diags = client.diagnostics[uri]
    line = pos_of(text, "list_new(inbox: inbox, after: ").line
    assert diags, "a half-typed call is reported"
    assert all(d.range.start.line in (line, line + 1) for d in diags if d.code in ("syntax", "missing"))
    assert all(d.message != "syntax error" for d in diags)


async def test_diagnostics_follow_incremental_edits_and_clear_on_close(client: LanguageClient) -> None:
    uri = await open_doc(client, "inbox_sweep.awl", WORKLOOP)
    assert not [d for d in client.diagnostics[uri] if d.severity == lsp.DiagnosticSeverity.Error]
    # break a line with an incremental edit: delete the `-> batch` binding's name and the `)`
    start = pos_of(WORKLOOP, "last_seen) -> batch", len("last_seen"))
    end = lsp.Position(start.line, start.character + len(") -> batch"))
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
            [lsp.TextDocumentContentChangePartial(range=lsp.Range(start, end), text="")],
        )
    )
    await published(client, uri, 2)
    assert any(d.range.start.line == start.line for d in client.diagnostics[uri])
    # put it back
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(uri=uri, version=3),
            [lsp.TextDocumentContentChangePartial(range=lsp.Range(start, start), text=") -> batch")],
        )
    )
    await published(client, uri, 3)
    assert not [d for d in client.diagnostics[uri] if d.severity == lsp.DiagnosticSeverity.Error]
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(uri)))
    # the close's publish carries no version (a re-publish of version 3 may come first: when the
    # workspace index, built in the background, arrives after the edits)
    while (params := await published(client, uri)) is not None and params.version is not None:
        pass
    assert params is not None and list(params.diagnostics) == []


async def test_incremental_edit_sequence_matches_a_full_parse(client: LanguageClient) -> None:
    from awl_lsp.syntax import SyntaxDocument

    uri = await open_doc(client, "inbox_sweep.awl", WORKLOOP)
    text = WORKLOOP
    edits = [
        ("every 10m", "every 15m"),
        ("step hand_off", "step hand_off_all"),
        ("route hand_off", "route hand_off_all"),
        ("  retention 7d\n", "  retention 7d\n\n// a comment line\n"),
        ("é", "é"),
    ]
    version = 1
    for old, new in edits:
        if old not in text:
            continue
        start = pos_of(text, old)
        end_index = text.index(old) + len(old)
        end = lsp.Position(text.count("\n", 0, end_index), end_index - (text.rfind("\n", 0, end_index) + 1))
        version += 1
        client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
                [lsp.TextDocumentContentChangePartial(range=lsp.Range(start, end), text=new)],
            )
        )
        text = text.replace(old, new, 1)
    # a multibyte insert through UTF-16 positions
    pos = pos_of(text, '""')
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(uri=uri, version=version + 1),
            [lsp.TextDocumentContentChangePartial(range=lsp.Range(pos, pos), text='"☕🚀"')],
        )
    )
    text = text.replace('""', '"☕🚀"""', 1)
    await published(client, uri, version + 1)
    result = await client.protocol.send_request_async("awl/syntaxTree", {"textDocument": {"uri": uri}})
    assert result.text == text
    assert result.tree == str(SyntaxDocument(text).root)


async def test_hover_on_keyword_shows_the_reference_entry(client: LanguageClient) -> None:
    uri = await open_doc(client, "inbox_sweep.awl", WORKLOOP)
    hover = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(uri), pos_of(WORKLOOP, "tolerance", 2))
    )
    assert hover is not None
    value = hover.contents.value
    assert "Declares when an unconfirmed invariant alarms" in value
    assert "```awl" in value and "workloop queue_watch" in value


async def test_hover_on_names(client: LanguageClient) -> None:
    uri = await open_doc(client, "inbox_sweep.awl", WORKLOOP)
    hover = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(uri), pos_of(WORKLOOP, "list_new(inbox: inbox", 2))
    )
    assert hover is not None
    assert "action list_new(inbox: String, after: String) -> Batch" in hover.contents.value
    assert "Messages newer than" in hover.contents.value  # its /// doc
    hover = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(uri), pos_of(WORKLOOP, "hatch triage_message", 8))
    )
    assert (
        hover is not None
        and "detached triage_message(message_id: String, sender: String)" in hover.contents.value
    )
    hover = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(uri), pos_of(WORKLOOP, "SweepStatus {", 1))
    )
    assert hover is not None and "fetched: Int" in hover.contents.value


async def test_completion_in_workloop_header(client: LanguageClient) -> None:
    text = WORKLOOP.replace("  retention 7d\n", "  retention 7d\n  \n")
    uri = await open_doc(client, "inbox_sweep.awl", text)
    position = pos_of(text, "  retention 7d\n  \n", len("  retention 7d\n  "))
    result = await client.text_document_completion_async(
        lsp.CompletionParams(lsp.TextDocumentIdentifier(uri), position)
    )
    labels = {item.label for item in (result.items if isinstance(result, lsp.CompletionList) else result)}
    assert {"on", "carry", "report", "invariant"} <= labels
    assert "hatch" not in labels and "step" not in labels
    assert not {"every", "retention"} & labels  # written once already; a second is an error


async def test_definition_of_step_action_and_detached(client: LanguageClient) -> None:
    uri = await open_doc(client, "inbox_sweep.awl", WORKLOOP)
    cases = [
        (pos_of(WORKLOOP, "route hand_off", 7), "step hand_off"),
        (pos_of(WORKLOOP, "list_new(inbox: inbox", 1), "action list_new"),
        (pos_of(WORKLOOP, "hatch triage_message", 7), "detached triage_message"),
        (pos_of(WORKLOOP, "type Batch", 0, 0), None),
        (pos_of(WORKLOOP, "after: last_seen", 8), "carry last_seen"),
        (pos_of(WORKLOOP, "batch.messages |> count", 1), "-> batch"),
    ]
    for position, expected_line_text in cases:
        location = await client.text_document_definition_async(
            lsp.DefinitionParams(lsp.TextDocumentIdentifier(uri), position)
        )
        if expected_line_text is None:
            continue
        assert location is not None, expected_line_text
        loc = location[0] if isinstance(location, list) else location
        line = WORKLOOP.splitlines()[loc.range.start.line]
        assert expected_line_text in line, (expected_line_text, line)


async def test_document_symbols_outline(client: LanguageClient) -> None:
    uri = await open_doc(client, "inbox_sweep.awl", WORKLOOP)
    symbols = await client.text_document_document_symbol_async(
        lsp.DocumentSymbolParams(lsp.TextDocumentIdentifier(uri))
    )
    names = [s.name for s in symbols]
    assert names[:1] == ["inbox_sweep"]
    assert {"fetch", "hand_off", "mailroom", "triage_message", "retire"} <= set(names)
    loop = symbols[0]
    assert {"inbox", "nudge", "last_seen", "status", "draining"} <= {c.name for c in loop.children}
    worker = next(s for s in symbols if s.name == "mailroom")
    assert [c.name for c in worker.children] == ["list_new", "archive"]


async def test_features_keep_working_in_a_broken_document(client: LanguageClient) -> None:
    text = WORKLOOP.replace("  batch.messages |> count -> fetched", "  batch.messages |> count ->\n  sweep(")
    uri = await open_doc(client, "inbox_sweep.awl", text)
    assert client.diagnostics[uri]
    symbols = await client.text_document_document_symbol_async(
        lsp.DocumentSymbolParams(lsp.TextDocumentIdentifier(uri))
    )
    assert {"fetch", "hand_off"} <= {s.name for s in symbols}
    location = await client.text_document_definition_async(
        lsp.DefinitionParams(lsp.TextDocumentIdentifier(uri), pos_of(text, "hatch triage_message", 7))
    )
    loc = location[0] if isinstance(location, list) else location
    assert "detached triage_message" in text.splitlines()[loc.range.start.line]
    hover = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(uri), pos_of(text, "confirms", 1))
    )
    assert hover is not None and "green health sample" in hover.contents.value


@pytest.mark.parametrize("name", ["broken_hatch.awl"])
async def test_hatch_without_key_is_an_error(client: LanguageClient, name: str) -> None:
    uri = await open_doc(client, name, BROKEN)
    line = pos_of(BROKEN, "hatch fulfil").line
    errors = [d for d in client.diagnostics[uri] if d.severity == lsp.DiagnosticSeverity.Error]
    assert any(d.range.start.line == line and "key" in d.message for d in errors), [d.message for d in errors]


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "awl_lsp", "lsp"]),
)
async def utf8_client(lsp_client: LanguageClient):
    capabilities = client_capabilities("visual-studio-code")
    capabilities.general = lsp.GeneralClientCapabilities(position_encodings=[lsp.PositionEncodingKind.Utf8])
    accept_registrations(lsp_client)
    result = await lsp_client.initialize_session(
        lsp.InitializeParams(capabilities=capabilities, root_uri=EXAMPLES.as_uri())
    )
    assert result.capabilities.position_encoding == lsp.PositionEncodingKind.Utf8
    yield
    await lsp_client.shutdown_session()


async def test_utf8_position_encoding_is_negotiated_and_used(utf8_client: LanguageClient) -> None:
    from awl_lsp.syntax import SyntaxDocument

    text = WORKLOOP.replace('carry last_seen: String = ""', 'carry last_seen: String = "café ☕"')
    uri = await open_doc(utf8_client, "inbox_sweep.awl", text)
    line_text = next(line for line in text.splitlines() if "café ☕" in line)
    line = text.splitlines().index(line_text)
    # insert after the closing quote: the column counts UTF-8 bytes
    column = len(line_text[: line_text.index('☕"') + 2].encode("utf-8"))
    position = lsp.Position(line, column)
    utf8_client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
            [lsp.TextDocumentContentChangePartial(range=lsp.Range(position, position), text=' + "!"')],
        )
    )
    await published(utf8_client, uri, 2)
    expected = text.replace('"café ☕"', '"café ☕" + "!"')
    result = await utf8_client.protocol.send_request_async("awl/syntaxTree", {"textDocument": {"uri": uri}})
    assert result.text == expected
    assert result.tree == str(SyntaxDocument(expected).root)
    # hover ranges come back in bytes too: `last_seen` after the multibyte string on its line
    hover = await utf8_client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(uri), pos_of(expected, "after: last_seen", 8))
    )
    assert hover is not None and "carry last_seen" in hover.contents.value
