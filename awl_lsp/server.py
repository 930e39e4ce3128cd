"""The AWL language server: pygls wiring only — protocol messages in, feature functions out."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException, JsonRpcRequestCancelled

from awl_lsp import __version__, document_sync, pull, workspace_sync
from awl_lsp.features import definition as definition_feature
from awl_lsp.features import semantic_tokens, workspace_nav
from awl_lsp.features.cancel import Cancelled, cancellable
from awl_lsp.features.code_actions import code_actions
from awl_lsp.features.completion import completion_list
from awl_lsp.features.folding import folding_ranges
from awl_lsp.features.formatting import format_document, format_range
from awl_lsp.features.hover import hover
from awl_lsp.features.inlay_hints import inlay_hints
from awl_lsp.features.selection import selection_ranges
from awl_lsp.features.signature_help import signature_help
from awl_lsp.features.symbols import document_symbols
from awl_lsp.features.workspace_symbols import workspace_symbols
from awl_lsp.protocol import JsonText, serve_stdio
from awl_lsp.publishing import (
    BURST_DEBOUNCE,
    DEBOUNCE,
    MAX_POSTPONE,
    OFFLOAD_LINES,
    RECLAIM_AFTER,
    RELEASE_AFTER,
    PublishingServer,
)
from awl_lsp.warm import warm_up

log = logging.getLogger("awl_lsp")
_Handler = Callable[..., object]

# the semantic token legend: the types and modifiers `semantic_tokens` classifies with, in index order
SEMANTIC_LEGEND = lsp.SemanticTokensLegend(
    token_types=list(semantic_tokens.TOKEN_TYPES), token_modifiers=list(semantic_tokens.TOKEN_MODIFIERS)
)


class AwlServer(PublishingServer):
    """The AWL language server: open documents, their diagnostics published when the input is quiet
    (`awl_lsp.publishing`), and the features registered below."""

    def __init__(self) -> None:
        super().__init__("awl-lsp", __version__)

    # publishing's timings as this module has them at each use (a test sets `RELEASE_AFTER` here)
    @property
    def debounce(self) -> float:
        return DEBOUNCE

    @property
    def burst_debounce(self) -> float:
        return BURST_DEBOUNCE

    @property
    def max_postpone(self) -> float:
        return MAX_POSTPONE

    @property
    def offload_lines(self) -> int:
        return OFFLOAD_LINES

    @property
    def release_after(self) -> float:
        return RELEASE_AFTER

    @property
    def reclaim_after(self) -> float:
        return RECLAIM_AFTER


def _cancellable(handler: _Handler) -> _Handler:
    """A request handler the client can cancel while it runs: features reach `checkpoint()` between
    units of work and stop there, and the request is answered -32800 (RequestCancelled)."""

    def stopped(ls: AwlServer, msg_id: object) -> JsonRpcRequestCancelled:
        ls.log_message(f"request {msg_id} cancelled while it ran", lsp.MessageType.Log)
        return JsonRpcRequestCancelled(f"request {msg_id} was cancelled")

    if asyncio.iscoroutinefunction(handler):

        @functools.wraps(handler)
        async def run_async(ls: AwlServer, params: object) -> object:
            msg_id = ls.protocol.msg_id
            try:
                with cancellable(lambda: ls.request_cancelled(msg_id)):
                    return await handler(ls, params)
            except Cancelled:
                raise stopped(ls, msg_id) from None

        return run_async

    @functools.wraps(handler)
    def run(ls: AwlServer, params: object) -> object:
        msg_id = ls.protocol.msg_id
        try:
            with cancellable(lambda: ls.request_cancelled(msg_id)):
                return handler(ls, params)
        except Cancelled:
            raise stopped(ls, msg_id) from None

    return run


server = AwlServer()


document_sync.register(server)


def _wants_markdown(ls: AwlServer) -> bool:
    caps = ls.client_capabilities.text_document
    formats = caps.hover.content_format if caps and caps.hover else None
    return formats is not None and lsp.MarkupKind.Markdown in formats  # plain text unless Markdown is listed


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
@_cancellable
def on_hover(ls: AwlServer, params: lsp.HoverParams) -> lsp.Hover | None:
    snap = ls.snapshot(params.text_document.uri)
    return hover(snap, params.position, _wants_markdown(ls)) if snap else None


@server.feature(
    lsp.TEXT_DOCUMENT_COMPLETION,
    lsp.CompletionOptions(trigger_characters=[".", " ", "(", ">", ","], resolve_provider=True),
)
@_cancellable
def on_completion(ls: AwlServer, params: lsp.CompletionParams) -> lsp.CompletionList | None:
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
@_cancellable
def on_completion_resolve(ls: AwlServer, item: lsp.CompletionItem) -> lsp.CompletionItem:
    from awl_lsp.features.completion_items import resolve_value

    data = item.data
    uri = data.get("uri") if isinstance(data, dict) else None
    snap = ls.snapshot(uri) if isinstance(uri, str) else None
    return resolve_value(snap, item) if snap is not None else item


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
@_cancellable
async def on_definition(
    ls: AwlServer, params: lsp.DefinitionParams
) -> lsp.Location | list[lsp.Location] | None:
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
    if not elsewhere:
        return here
    # on a `detached`/`child` declaration: the workflow it names; on a hatch or call: both
    at_declaration = here is not None and here.range.start.line == params.position.line
    return elsewhere if at_declaration else [loc for loc in (here, *elsewhere) if loc is not None]


@server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
@_cancellable
async def on_references(ls: AwlServer, params: lsp.ReferenceParams) -> list[lsp.Location]:
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
@_cancellable
def on_highlight(ls: AwlServer, params: lsp.DocumentHighlightParams) -> list[lsp.DocumentHighlight]:
    snap = ls.snapshot(params.text_document.uri)
    return definition_feature.highlights(snap, params.position) if snap else []


@server.feature(lsp.TEXT_DOCUMENT_RENAME, lsp.RenameOptions(prepare_provider=True))
@_cancellable
async def on_rename(ls: AwlServer, params: lsp.RenameParams) -> lsp.WorkspaceEdit | None:
    snap = ls.snapshot(params.text_document.uri)
    if snap is None:
        return None
    uri = params.text_document.uri
    try:
        edit = definition_feature.rename(snap, params.position, uri, params.new_name)
    except ValueError as exc:  # an invalid or colliding new name: the editor shows why
        raise JsonRpcException(str(exc), code=lsp.LSPErrorCodes.RequestFailed) from exc
    crosses = workspace_nav.flow_name_at(snap, params.position) is not None
    index = await ls.session.wait_ready() if crosses else None
    if edit is None or index is None:
        return edit
    more = workspace_nav.workflow_rename_edits(
        snap, params.position, uri, index, ls.encoding, params.new_name
    )
    if more:
        changes = dict(edit.changes or {})
        changes.update(more)
        edit = lsp.WorkspaceEdit(changes=changes)
    return edit


@server.feature(lsp.TEXT_DOCUMENT_PREPARE_RENAME)
@_cancellable
def on_prepare_rename(ls: AwlServer, params: lsp.PrepareRenameParams) -> lsp.PrepareRenameResult | None:
    snap = ls.snapshot(params.text_document.uri)
    return definition_feature.prepare_rename(snap, params.position) if snap else None


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
@_cancellable
def on_symbols(ls: AwlServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
    snap = ls.snapshot(params.text_document.uri)
    return document_symbols(snap) if snap else []


@server.feature(lsp.TEXT_DOCUMENT_FOLDING_RANGE)
@_cancellable
def on_folding(ls: AwlServer, params: lsp.FoldingRangeParams) -> list[lsp.FoldingRange]:
    snap = ls.snapshot(params.text_document.uri)
    return folding_ranges(snap) if snap else []


@server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, SEMANTIC_LEGEND)
@_cancellable
def on_semantic_tokens(ls: AwlServer, params: lsp.SemanticTokensParams) -> lsp.SemanticTokens | JsonText:
    snap = ls.snapshot(params.text_document.uri)
    if snap is None:
        return lsp.SemanticTokens(data=[])
    return JsonText(semantic_tokens.semantic_tokens_full_json(snap))  # (≈ 115k integers at 5k lines)


@server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL_DELTA, SEMANTIC_LEGEND)
@_cancellable
def on_semantic_tokens_delta(
    ls: AwlServer, params: lsp.SemanticTokensDeltaParams
) -> lsp.SemanticTokens | lsp.SemanticTokensDelta:
    snap = ls.snapshot(params.text_document.uri)
    if snap is None:
        return lsp.SemanticTokens(data=[])
    return semantic_tokens.semantic_tokens_delta(snap, params.previous_result_id)


@server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE, SEMANTIC_LEGEND)
@_cancellable
def on_semantic_tokens_range(ls: AwlServer, params: lsp.SemanticTokensRangeParams) -> lsp.SemanticTokens:
    snap = ls.snapshot(params.text_document.uri)
    return semantic_tokens.semantic_tokens_range(snap, params.range) if snap else lsp.SemanticTokens(data=[])


@server.feature(
    lsp.TEXT_DOCUMENT_SIGNATURE_HELP,
    lsp.SignatureHelpOptions(trigger_characters=["(", ","], retrigger_characters=[","]),
)
@_cancellable
def on_signature_help(ls: AwlServer, params: lsp.SignatureHelpParams) -> lsp.SignatureHelp | None:
    snap = ls.snapshot(params.text_document.uri)
    caps = ls.client_capabilities.text_document
    info = caps.signature_help.signature_information if caps and caps.signature_help else None
    formats = info.documentation_format if info else None
    markdown = formats is not None and lsp.MarkupKind.Markdown in formats
    return signature_help(snap, params.position, markdown) if snap else None


@server.feature(
    lsp.TEXT_DOCUMENT_CODE_ACTION,
    lsp.CodeActionOptions(
        code_action_kinds=[lsp.CodeActionKind.QuickFix, lsp.CodeActionKind.RefactorRewrite],
        resolve_provider=False,
    ),
)
@_cancellable
def on_code_action(ls: AwlServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
    uri = params.text_document.uri
    snap = ls.snapshot(uri)
    if snap is None:
        return []
    ours = [d for d in params.context.diagnostics if d.source in (None, "awl")]
    only = [getattr(k, "value", str(k)) for k in params.context.only or []] or None
    return code_actions(snap, uri, params.range, ours, only)


@server.feature(lsp.TEXT_DOCUMENT_INLAY_HINT, lsp.InlayHintOptions(resolve_provider=False))
@_cancellable
def on_inlay_hint(ls: AwlServer, params: lsp.InlayHintParams) -> list[lsp.InlayHint]:
    snap = ls.snapshot(params.text_document.uri)
    return inlay_hints(snap, params.range) if snap else []


@server.feature(lsp.TEXT_DOCUMENT_SELECTION_RANGE)
@_cancellable
def on_selection_range(ls: AwlServer, params: lsp.SelectionRangeParams) -> list[lsp.SelectionRange]:
    snap = ls.snapshot(params.text_document.uri)
    return selection_ranges(snap, list(params.positions)) if snap else []


@server.feature(lsp.WORKSPACE_SYMBOL, lsp.WorkspaceSymbolOptions(resolve_provider=False))
@_cancellable
async def on_workspace_symbol(ls: AwlServer, params: lsp.WorkspaceSymbolParams) -> list[lsp.WorkspaceSymbol]:
    index = await ls.session.wait_ready()
    if index is not None:  # every document of the workspace, open ones at their newest text
        return workspace_nav.indexed_symbols(index, params.query, ls.encoding)
    docs = [(uri, doc.snapshot) for uri, doc in list(ls.documents.items())]
    return workspace_symbols(docs, params.query)


workspace_sync.register(server)
pull.register(server)


@server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
@_cancellable
def on_formatting(ls: AwlServer, params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit]:
    snap = ls.snapshot(params.text_document.uri)
    return format_document(snap) if snap else []


@server.feature(lsp.TEXT_DOCUMENT_RANGE_FORMATTING)
@_cancellable
def on_range_formatting(ls: AwlServer, params: lsp.DocumentRangeFormattingParams) -> list[lsp.TextEdit]:
    snap = ls.snapshot(params.text_document.uri)
    return format_range(snap, params.range) if snap else []


def _plain(value: object) -> object:
    """Custom requests' params as plain dicts (pygls hands them over as named tuples)."""
    if hasattr(value, "_asdict"):
        value = value._asdict()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


@server.feature("awl/graph")
@_cancellable
def on_graph(ls: AwlServer, params: object) -> dict | None:
    """The flow graph of the document's newest version (`awl graph --format json`'s shape), with the
    step under `position` (when given) named in `focus`, and the graph as Mermaid and DOT text."""
    from awl_lsp.features.graph_render import graph_view

    raw = _plain(params)
    if not isinstance(raw, dict):
        return None
    doc = raw.get("textDocument")
    uri = doc.get("uri") if isinstance(doc, dict) else None
    snap = ls.snapshot(uri) if isinstance(uri, str) else None
    if snap is None:
        return None
    position = raw.get("position")
    line = position.get("line") if isinstance(position, dict) else None
    return graph_view(snap, line if isinstance(line, int) else None)


@server.feature("awl/syntaxTree")
@_cancellable
def on_syntax_tree(ls: AwlServer, params: object) -> dict | None:
    """The server's current tree as an S-expression (a debugging view, and what tests compare)."""
    doc = getattr(params, "textDocument", None) or getattr(params, "text_document", None)
    uri = getattr(doc, "uri", None) if doc is not None else None
    if uri is None and isinstance(params, dict):
        uri = params.get("textDocument", {}).get("uri")
    snap = ls.snapshot(uri) if uri else None
    if snap is None:
        return None
    return {"tree": str(snap.doc.root), "text": snap.doc.text}


@server.command("awl.guide")
def on_guide(ls: AwlServer, *args: object) -> str | None:
    """The full keyword entry a hover links to (`awl guide WORD`): returned and shown to the user."""
    from awl_lsp.reference import UnknownKeywordError, render_guide

    word = args[0] if args and isinstance(args[0], str) else None
    try:
        text = render_guide(word)
    except UnknownKeywordError as exc:
        text = str(exc)
    ls.window_show_message(lsp.ShowMessageParams(type=lsp.MessageType.Info, message=text))
    return text


def run_stdio() -> int:
    logging.basicConfig(level=logging.WARNING)
    warm_up(server.protocol)
    return serve_stdio(server)
