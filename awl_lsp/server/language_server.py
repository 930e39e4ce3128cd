"""The AWL language server: pygls wiring only — protocol messages in, feature functions out.

This module makes the one `server` (`AwlServer`) and registers on it every request a feature
answers: each handler turns the params into a snapshot and a position, calls `awl_lsp.features`,
and returns what it gives. The handlers import their feature when they run: `initialize` is
answered with only pygls and the protocol loaded, and the features load after it, while the input
is quiet (`awl_lsp.server.warm`). What the server keeps and does between messages lives beside it:

- `document_table`: the open documents, the workspace folders, the position encoding;
- `publishing`: when diagnostics are computed and sent (quiet input, a long document's first
  check in a worker), and the work at quiet moments (memory, the warm-up after `initialize`) —
  its timings are re-exported here (`DEBOUNCE`, `OFFLOAD_LINES`, `PARALLEL_CHECKS`,
  `RELEASE_AFTER`, …) and read from here at each use;
- `document_sync` / `workspace_sync`: the notifications that keep the open documents and the
  workspace index in step; `pull`: diagnostics the client pulls;
- `cancellable_requests`: requests the client can cancel while they run;
- `custom_requests`: AWL's own requests and command (`awl/graph`, `awl/syntaxTree`, `awl.guide`);
- `navigation_requests`: call hierarchy, type definition and document links.

`importlib.reload` of this module gives a fresh server with every feature registered.
"""

from __future__ import annotations

import logging
import sys

from lsprotocol import types as lsp

from awl_lsp import __version__
from awl_lsp.features.vocabulary import FIX_ALL, TOKEN_MODIFIERS, TOKEN_TYPES
from awl_lsp.server import custom_requests, document_sync, navigation_requests, pull, workspace_sync
from awl_lsp.server.cancellable_requests import cancellable_request
from awl_lsp.server.protocol import JsonText, RequestRefused, serve_stdio
from awl_lsp.server.publishing import BURST_DEBOUNCE as BURST_DEBOUNCE  # (the timings, settable here)
from awl_lsp.server.publishing import CLOSED_LINES as CLOSED_LINES
from awl_lsp.server.publishing import DEBOUNCE as DEBOUNCE
from awl_lsp.server.publishing import MAX_POSTPONE as MAX_POSTPONE
from awl_lsp.server.publishing import OFFLOAD_LINES as OFFLOAD_LINES
from awl_lsp.server.publishing import PARALLEL_CHECKS as PARALLEL_CHECKS
from awl_lsp.server.publishing import RECLAIM_AFTER as RECLAIM_AFTER
from awl_lsp.server.publishing import RELEASE_AFTER as RELEASE_AFTER
from awl_lsp.server.publishing import PublishingServer

# the semantic token legend: the types and modifiers `semantic_tokens` classifies with, in index order
SEMANTIC_LEGEND = lsp.SemanticTokensLegend(
    token_types=list(TOKEN_TYPES), token_modifiers=list(TOKEN_MODIFIERS)
)


class AwlServer(PublishingServer):
    """The AWL language server: open documents, their diagnostics published when the input is quiet
    (`awl_lsp.server.publishing`), and the features registered below."""

    def __init__(self) -> None:
        super().__init__("awl-lsp", __version__)

    # publishing's timings, read from this module at each use (a test sets `RELEASE_AFTER` here)
    timings = sys.modules[__name__]


server = AwlServer()


document_sync.register(server)


def _wants_markdown(ls: AwlServer) -> bool:
    caps = ls.client_capabilities.text_document
    formats = caps.hover.content_format if caps and caps.hover else None
    return formats is not None and lsp.MarkupKind.Markdown in formats  # plain text unless Markdown is listed


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
@cancellable_request
def on_hover(ls: AwlServer, params: lsp.HoverParams) -> lsp.Hover | None:
    from awl_lsp.features.hover import hover

    snap = ls.snapshot(params.text_document.uri)
    return hover(snap, params.position, _wants_markdown(ls)) if snap else None


@server.feature(
    lsp.TEXT_DOCUMENT_COMPLETION,
    lsp.CompletionOptions(trigger_characters=[".", " ", "(", ">", ","], resolve_provider=True),
)
@cancellable_request
def on_completion(ls: AwlServer, params: lsp.CompletionParams) -> lsp.CompletionList | None:
    from awl_lsp.features.completion import completion_list

    snap = ls.snapshot(params.text_document.uri)
    if snap is None:
        return None
    caps = ls.client_capabilities.text_document
    item = caps.completion.completion_item if caps and caps.completion else None
    snippet_ok = bool(item and item.snippet_support)
    formats = item.documentation_format if item else None
    markdown_ok = formats is not None and lsp.MarkupKind.Markdown in formats
    lazy = bool(item and item.resolve_support and "detail" in item.resolve_support.properties)
    listed = caps.completion.completion_list if caps and caps.completion else None
    defaults = (listed.item_defaults or ()) if listed else ()
    answer = completion_list(
        snap, params.position, snippet_ok, markdown_ok, lazy_detail=lazy, defaults=defaults
    )
    for entry in answer.items:
        if isinstance(entry.data, dict):  # which document `completionItem/resolve` reads
            entry.data["uri"] = params.text_document.uri
    return answer


@server.feature(lsp.COMPLETION_ITEM_RESOLVE)
@cancellable_request
def on_completion_resolve(ls: AwlServer, item: lsp.CompletionItem) -> lsp.CompletionItem:
    from awl_lsp.features.completion_items import resolve_value

    data = item.data
    uri = data.get("uri") if isinstance(data, dict) else None
    snap = ls.snapshot(uri) if isinstance(uri, str) else None
    return resolve_value(snap, item) if snap is not None else item


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
@cancellable_request
async def on_definition(
    ls: AwlServer, params: lsp.DefinitionParams
) -> lsp.Location | list[lsp.Location] | None:
    from awl_lsp.features import definition as definition_feature
    from awl_lsp.features import workspace_nav

    uri = params.text_document.uri
    snap = ls.snapshot(uri)
    if snap is None:
        return None
    here = definition_feature.definition(snap, params.position, uri)
    if here is None:
        schema = workspace_nav.schema_file_at(snap, params.position, ls.folders())
        if schema is not None:
            return schema
    crosses = workspace_nav.flow_name_at(snap, params.position) is not None
    index = await ls.session.wait_ready() if crosses else ls.session.index
    elsewhere = (
        workspace_nav.workflow_definitions(snap, params.position, uri, index, ls.encoding) if index else []
    )
    return workspace_nav.with_definitions_elsewhere(here, elsewhere, params.position)


@server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
@cancellable_request
async def on_references(ls: AwlServer, params: lsp.ReferenceParams) -> list[lsp.Location]:
    from awl_lsp.features import definition as definition_feature
    from awl_lsp.features import workspace_nav

    snap = ls.snapshot(params.text_document.uri)
    if snap is None:
        return []
    uri = params.text_document.uri
    here = definition_feature.references(snap, params.position, uri, params.context.include_declaration)
    crosses = workspace_nav.flow_name_at(snap, params.position) is not None
    index = await ls.session.wait_ready() if crosses else None
    if index is None:
        return here
    include = params.context.include_declaration
    return here + workspace_nav.workflow_references(snap, params.position, uri, index, ls.encoding, include)


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)
@cancellable_request
def on_highlight(ls: AwlServer, params: lsp.DocumentHighlightParams) -> list[lsp.DocumentHighlight]:
    from awl_lsp.features import definition as definition_feature

    snap = ls.snapshot(params.text_document.uri)
    return definition_feature.highlights(snap, params.position) if snap else []


@server.feature(lsp.TEXT_DOCUMENT_RENAME, lsp.RenameOptions(prepare_provider=True))
@cancellable_request
async def on_rename(ls: AwlServer, params: lsp.RenameParams) -> lsp.WorkspaceEdit | None:
    from awl_lsp.features import definition as definition_feature
    from awl_lsp.features import workspace_nav

    snap = ls.snapshot(params.text_document.uri)
    if snap is None:
        return None
    uri = params.text_document.uri
    try:
        edit = definition_feature.rename(snap, params.position, uri, params.new_name)
    except ValueError as exc:  # an invalid or colliding new name: the editor shows why
        raise RequestRefused(str(exc)) from None
    crosses = workspace_nav.flow_name_at(snap, params.position) is not None
    index = await ls.session.wait_ready() if crosses else None
    if edit is None or index is None:
        return edit
    more = workspace_nav.workflow_rename_edits(
        snap, params.position, uri, index, ls.encoding, params.new_name
    )
    return workspace_nav.with_edits_elsewhere(edit, more)


@server.feature(lsp.TEXT_DOCUMENT_PREPARE_RENAME)
@cancellable_request
def on_prepare_rename(ls: AwlServer, params: lsp.PrepareRenameParams) -> lsp.PrepareRenameResult | None:
    from awl_lsp.features import definition as definition_feature

    snap = ls.snapshot(params.text_document.uri)
    return definition_feature.prepare_rename(snap, params.position) if snap else None


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
@cancellable_request
def on_symbols(ls: AwlServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
    from awl_lsp.features.symbols import document_symbols

    snap = ls.snapshot(params.text_document.uri)
    return document_symbols(snap) if snap else []


@server.feature(lsp.TEXT_DOCUMENT_FOLDING_RANGE)
@cancellable_request
def on_folding(ls: AwlServer, params: lsp.FoldingRangeParams) -> list[lsp.FoldingRange]:
    from awl_lsp.features.folding import folding_ranges

    snap = ls.snapshot(params.text_document.uri)
    return folding_ranges(snap) if snap else []


@server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, SEMANTIC_LEGEND)
@cancellable_request
def on_semantic_tokens(ls: AwlServer, params: lsp.SemanticTokensParams) -> lsp.SemanticTokens | JsonText:
    from awl_lsp.features import semantic_tokens

    snap = ls.snapshot(params.text_document.uri)
    if snap is None:
        return lsp.SemanticTokens(data=[])
    return JsonText(semantic_tokens.semantic_tokens_full_json(snap))  # (≈ 115k integers at 5k lines)


@server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL_DELTA, SEMANTIC_LEGEND)
@cancellable_request
def on_semantic_tokens_delta(
    ls: AwlServer, params: lsp.SemanticTokensDeltaParams
) -> lsp.SemanticTokens | lsp.SemanticTokensDelta:
    from awl_lsp.features import semantic_tokens

    snap = ls.snapshot(params.text_document.uri)
    if snap is None:
        return lsp.SemanticTokens(data=[])
    return semantic_tokens.semantic_tokens_delta(snap, params.previous_result_id)


@server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE, SEMANTIC_LEGEND)
@cancellable_request
def on_semantic_tokens_range(ls: AwlServer, params: lsp.SemanticTokensRangeParams) -> lsp.SemanticTokens:
    from awl_lsp.features import semantic_tokens

    snap = ls.snapshot(params.text_document.uri)
    return semantic_tokens.semantic_tokens_range(snap, params.range) if snap else lsp.SemanticTokens(data=[])


@server.feature(
    lsp.TEXT_DOCUMENT_SIGNATURE_HELP,
    lsp.SignatureHelpOptions(trigger_characters=["(", ","], retrigger_characters=[","]),
)
@cancellable_request
def on_signature_help(ls: AwlServer, params: lsp.SignatureHelpParams) -> lsp.SignatureHelp | None:
    from awl_lsp.features.signature_help import signature_help

    snap = ls.snapshot(params.text_document.uri)
    caps = ls.client_capabilities.text_document
    info = caps.signature_help.signature_information if caps and caps.signature_help else None
    formats = info.documentation_format if info else None
    markdown = formats is not None and lsp.MarkupKind.Markdown in formats
    return signature_help(snap, params.position, markdown) if snap else None


@server.feature(
    lsp.TEXT_DOCUMENT_CODE_ACTION,
    lsp.CodeActionOptions(
        code_action_kinds=[lsp.CodeActionKind.QuickFix, lsp.CodeActionKind.RefactorRewrite, FIX_ALL],
        resolve_provider=False,
    ),
)
@cancellable_request
def on_code_action(ls: AwlServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
    from awl_lsp.features.code_actions import code_actions

    uri = params.text_document.uri
    snap = ls.snapshot(uri)
    if snap is None:
        return []
    ours = [d for d in params.context.diagnostics if d.source in (None, "awl")]
    only = [getattr(k, "value", str(k)) for k in params.context.only or []] or None
    workspace = ls.client_capabilities.workspace
    edits = workspace.workspace_edit if workspace is not None else None
    snippets = bool(edits is not None and edits.snippet_edit_support)

    def analyse(text: str):  # noqa: ANN202 — as `awl check --fix` sees the document
        from awl_lsp.features.diagnostics import findings
        from awl_lsp.features.documents import analyse_text

        again = analyse_text(text, snap.path, snap.workspace)
        return again, findings(again)

    return code_actions(snap, uri, params.range, ours, only, snippets, analyse)


@server.feature(lsp.TEXT_DOCUMENT_INLAY_HINT, lsp.InlayHintOptions(resolve_provider=False))
@cancellable_request
def on_inlay_hint(ls: AwlServer, params: lsp.InlayHintParams) -> list[lsp.InlayHint]:
    from awl_lsp.features.inlay_hints import inlay_hints

    snap = ls.snapshot(params.text_document.uri)
    return inlay_hints(snap, params.range) if snap else []


@server.feature(lsp.TEXT_DOCUMENT_SELECTION_RANGE)
@cancellable_request
def on_selection_range(ls: AwlServer, params: lsp.SelectionRangeParams) -> list[lsp.SelectionRange]:
    from awl_lsp.features.selection import selection_ranges

    snap = ls.snapshot(params.text_document.uri)
    return selection_ranges(snap, list(params.positions)) if snap else []


@server.feature(lsp.WORKSPACE_SYMBOL, lsp.WorkspaceSymbolOptions(resolve_provider=False))
@cancellable_request
async def on_workspace_symbol(ls: AwlServer, params: lsp.WorkspaceSymbolParams) -> list[lsp.WorkspaceSymbol]:
    from awl_lsp.features import workspace_nav
    from awl_lsp.features.workspace_symbols import workspace_symbols

    index = await ls.session.wait_ready()
    if index is not None:  # every document of the workspace, open ones at their newest text
        return workspace_nav.indexed_symbols(index, params.query, ls.encoding)
    docs = [(uri, doc.snapshot) for uri, doc in list(ls.documents.items())]
    return workspace_symbols(docs, params.query)


workspace_sync.register(server)
pull.register(server)


@server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
@cancellable_request
def on_formatting(ls: AwlServer, params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit]:
    from awl_lsp.features.formatting import format_document

    snap = ls.snapshot(params.text_document.uri)
    return format_document(snap) if snap else []


@server.feature(lsp.TEXT_DOCUMENT_RANGE_FORMATTING)
@cancellable_request
def on_range_formatting(ls: AwlServer, params: lsp.DocumentRangeFormattingParams) -> list[lsp.TextEdit]:
    from awl_lsp.features.formatting import format_range

    snap = ls.snapshot(params.text_document.uri)
    return format_range(snap, params.range) if snap else []


custom_requests.register(server)
navigation_requests.register(server)


def run_stdio() -> int:
    """Serve on stdin/stdout. `initialize` is answered with only pygls and the protocol loaded; the
    analysis and the features load after it, at quiet moments (`awl_lsp.server.warm`), or as a message
    first needs them."""
    logging.basicConfig(level=logging.WARNING)
    return serve_stdio(server)
