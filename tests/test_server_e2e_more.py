"""End to end over stdio, the newer capabilities: semantic tokens, signature help, code actions, inlay
hints, selection ranges, workspace symbols and formatting — each advertised, each answering."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest_lsp
from helpers import accept_registrations, open_doc, published, uri_of
from lsp_edits import apply_edits
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from awl_lsp.features.printer import canonical_text
from awl_lsp.features.semantic_tokens import TOKEN_MODIFIERS, TOKEN_TYPES, decode

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"

WORKLOOP = (EXAMPLES / "inbox_sweep.awl").read_text()
WORKFLOW = (EXAMPLES / "release_notes.awl").read_text()
BROKEN = (EXAMPLES / "broken_hatch.awl").read_text()

RESULTS: dict[int, lsp.InitializeResult] = {}


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "awl_lsp", "lsp"]),
)
async def client(lsp_client: LanguageClient):
    params = lsp.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        root_uri=EXAMPLES.as_uri(),
    )
    accept_registrations(lsp_client)
    RESULTS[id(lsp_client)] = await lsp_client.initialize_session(params)
    yield
    await lsp_client.shutdown_session()


def pos_of(text: str, needle: str, offset: int = 0) -> lsp.Position:
    index = text.index(needle) + offset
    return lsp.Position(text.count("\n", 0, index), index - (text.rfind("\n", 0, index) + 1))


def doc_id(uri: str) -> lsp.TextDocumentIdentifier:
    return lsp.TextDocumentIdentifier(uri)


async def test_new_capabilities_are_advertised(client: LanguageClient) -> None:
    caps = RESULTS[id(client)].capabilities
    tokens = caps.semantic_tokens_provider
    assert tokens is not None
    assert list(tokens.legend.token_types) == TOKEN_TYPES
    assert list(tokens.legend.token_modifiers) == TOKEN_MODIFIERS
    assert tokens.full and tokens.range
    assert caps.signature_help_provider is not None
    assert set(caps.signature_help_provider.trigger_characters) == {"(", ","}
    assert lsp.CodeActionKind.QuickFix in caps.code_action_provider.code_action_kinds
    assert caps.inlay_hint_provider
    assert caps.selection_range_provider
    assert caps.workspace_symbol_provider
    assert caps.document_formatting_provider
    assert caps.document_range_formatting_provider
    # the earlier capabilities are still there
    assert caps.hover_provider and caps.definition_provider and caps.completion_provider


async def test_semantic_tokens_full_and_range(client: LanguageClient) -> None:
    uri = await open_doc(client, "inbox_sweep.awl", WORKLOOP)
    full = await client.text_document_semantic_tokens_full_async(lsp.SemanticTokensParams(doc_id(uri)))
    toks = decode(list(full.data))
    lines = WORKLOOP.split("\n")
    by_text = {(lines[line][char : char + n], kind) for line, char, n, kind, _ in toks}
    assert ("list_new", "function") in by_text
    assert ("Batch", "type") in by_text
    assert ("nudge", "event") in by_text
    assert ("workloop", "keyword") in by_text
    row = pos_of(WORKLOOP, "step fetch").line
    part = await client.text_document_semantic_tokens_range_async(
        lsp.SemanticTokensRangeParams(doc_id(uri), lsp.Range(lsp.Position(row, 0), lsp.Position(row + 2, 0)))
    )
    ranged = decode(list(part.data))
    assert ranged and all(row <= t[0] <= row + 2 for t in ranged)


async def test_signature_help_while_typing_a_call(client: LanguageClient) -> None:
    text = WORKLOOP.replace(
        "  list_new(inbox: inbox, after: last_seen) -> batch", "  list_new(inbox: inbox, "
    )
    uri = await open_doc(client, "inbox_sweep.awl", text)
    position = pos_of(text, "  list_new(inbox: inbox, ", len("  list_new(inbox: inbox, "))
    result = await client.text_document_signature_help_async(
        lsp.SignatureHelpParams(
            doc_id(uri),
            position,
            lsp.SignatureHelpContext(
                trigger_kind=lsp.SignatureHelpTriggerKind.TriggerCharacter,
                is_retrigger=False,
                trigger_character=",",
            ),
        )
    )
    assert result is not None
    assert result.signatures[0].label == "list_new(inbox: String, after: String) -> Batch"
    assert result.active_parameter == 1


async def test_quick_fix_for_hatch_without_key(client: LanguageClient) -> None:
    uri = await open_doc(client, "broken_hatch.awl", BROKEN)
    diag = next(d for d in client.diagnostics[uri] if d.code == "hatch-key")
    actions = await client.text_document_code_action_async(
        lsp.CodeActionParams(doc_id(uri), diag.range, lsp.CodeActionContext(diagnostics=[diag]))
    )
    assert actions
    action = actions[0]
    assert action.title == "Add `key order.id`" and action.kind == lsp.CodeActionKind.QuickFix
    new = apply_edits(BROKEN, list(action.edit.changes[uri]))
    assert "total: order.total) key order.id\n" in new
    # applied through the protocol, the diagnostic goes away
    edit = action.edit.changes[uri][0]
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
            [lsp.TextDocumentContentChangePartial(range=edit.range, text=edit.new_text)],
        )
    )
    await published(client, uri, 2)
    assert not [d for d in client.diagnostics[uri] if d.code == "hatch-key"]


async def test_inlay_hints_show_binding_types(client: LanguageClient) -> None:
    uri = await open_doc(client, "release_notes.awl", WORKFLOW)
    end = lsp.Position(len(WORKFLOW.split("\n")), 0)
    hints = await client.text_document_inlay_hint_async(
        lsp.InlayHintParams(doc_id(uri), lsp.Range(lsp.Position(0, 0), end))
    )
    labels = {h.label for h in hints}
    assert {": String", ": [Section]", ": Draft", ": Approval?"} <= labels
    first_draft = next(h for h in hints if h.position.line == pos_of(WORKFLOW, "-> first_draft").line)
    assert first_draft.label == ": Draft"


async def test_selection_ranges(client: LanguageClient) -> None:
    uri = await open_doc(client, "inbox_sweep.awl", WORKLOOP)
    position = pos_of(WORKLOOP, "last_seen) -> batch", 2)
    result = await client.text_document_selection_range_async(
        lsp.SelectionRangeParams(doc_id(uri), [position])
    )
    assert len(result) == 1
    sel = result[0]
    assert (sel.range.start.character, sel.range.end.character) == (
        position.character - 2,
        position.character - 2 + len("last_seen"),
    )
    depth = 0
    while sel.parent is not None:
        sel, depth = sel.parent, depth + 1
    assert depth >= 5 and sel.range.start == lsp.Position(0, 0)


async def test_workspace_symbols_across_the_workspace(client: LanguageClient) -> None:
    await open_doc(client, "inbox_sweep.awl", WORKLOOP)
    await open_doc(client, "release_notes.awl", WORKFLOW)
    symbols = await client.workspace_symbol_async(lsp.WorkspaceSymbolParams(query="e"))
    uris = {s.location.uri for s in symbols}
    # open documents and the one nobody opened (the workspace index reads it from disk)
    assert uris == {uri_of("inbox_sweep.awl"), uri_of("release_notes.awl"), uri_of("broken_hatch.awl")}
    symbols = await client.workspace_symbol_async(lsp.WorkspaceSymbolParams(query="LIST_"))
    assert [s.name for s in symbols] == ["list_new"]


async def test_formatting_round_trip(client: LanguageClient) -> None:
    messy = WORKFLOW.replace("\n  ", "\n    ").replace("  timeout 6h\n", "  timeout 6h   \n")
    uri = await open_doc(client, "release_notes.awl", messy)
    options = lsp.FormattingOptions(tab_size=2, insert_spaces=True)
    edits = await client.text_document_formatting_async(lsp.DocumentFormattingParams(doc_id(uri), options))
    assert edits
    assert apply_edits(messy, list(edits)) == canonical_text(WORKFLOW)
    broken = messy.replace("  assemble(parts: parts) -> first_draft", "  assemble(parts: ")
    uri = await open_doc(client, "release_notes.awl", broken)
    edits = await client.text_document_formatting_async(lsp.DocumentFormattingParams(doc_id(uri), options))
    assert not edits


async def test_range_formatting_prints_the_items_the_range_touches(client: LanguageClient) -> None:
    messy = WORKFLOW.replace("type Draft     {", "type   Draft {")
    messy = messy.replace("  join -> parts", "  join   ->  parts")
    uri = await open_doc(client, "release_notes.awl", messy)
    row = messy.split("\n").index("  join   ->  parts")
    options = lsp.FormattingOptions(tab_size=2, insert_spaces=True)
    rng = lsp.Range(lsp.Position(row, 0), lsp.Position(row, 4))
    params = lsp.DocumentRangeFormattingParams(doc_id(uri), rng, options)
    edits = await client.text_document_range_formatting_async(params)
    result = apply_edits(messy, list(edits))
    assert "  join -> parts" in result  # the step the range touches is printed
    assert "type   Draft {" in result  # a type outside the range is not
