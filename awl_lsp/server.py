"""The AWL language server: pygls wiring only — protocol messages in, feature functions out."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from lsprotocol import types as lsp
from pygls.uris import to_fs_path

from awl_lsp import __version__, memory
from awl_lsp.documents import OpenDocument, OutOfSync
from awl_lsp.features import definition as definition_feature
from awl_lsp.features import semantic_tokens
from awl_lsp.features.code_actions import code_actions
from awl_lsp.features.diagnostics import diagnostics
from awl_lsp.features.folding import folding_ranges
from awl_lsp.features.formatting import format_document
from awl_lsp.features.hover import hover
from awl_lsp.features.inlay_hints import inlay_hints
from awl_lsp.features.selection import selection_ranges
from awl_lsp.features.signature_help import signature_help
from awl_lsp.features.symbols import document_symbols
from awl_lsp.features.workspace_symbols import workspace_symbols
from awl_lsp.protocol import RobustLanguageServer, serve_stdio
from awl_lsp.syntax import EditOutOfRange, Encoding, TextEdit

log = logging.getLogger("awl_lsp")

# the semantic token legend: the types and modifiers `semantic_tokens` classifies with, in index order
SEMANTIC_LEGEND = lsp.SemanticTokensLegend(
    token_types=list(semantic_tokens.TOKEN_TYPES), token_modifiers=list(semantic_tokens.TOKEN_MODIFIERS)
)


class AwlServer(RobustLanguageServer):
    def __init__(self) -> None:
        super().__init__("awl-lsp", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
        self.documents: dict[str, OpenDocument] = {}
        self._pending: dict[str, asyncio.Task] = {}
        self._release: asyncio.TimerHandle | None = None

    # ---- helpers
    @property
    def encoding(self) -> Encoding:
        try:
            value = str(self.workspace.position_encoding or "utf-16")
        except Exception:  # noqa: BLE001 — before initialize
            value = "utf-16"
        return Encoding(value) if value in {e.value for e in Encoding} else Encoding.UTF16

    def workspace_root(self) -> Path | None:
        try:
            root = self.workspace.root_path
        except Exception:  # noqa: BLE001
            return None
        return Path(root) if root else None

    def publish(self, uri: str) -> None:
        doc = self.documents.get(uri)
        if doc is None:
            return
        try:
            items = diagnostics(doc.snapshot)
        except Exception:  # noqa: BLE001 — a checker bug must not take the server down
            log.exception("diagnostics failed for %s", uri)
            items = []
        if doc.out_of_sync is not None:
            items.insert(0, _out_of_sync(doc.out_of_sync))
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=uri, diagnostics=items, version=doc.version)
        )

    def schedule(self, uri: str) -> None:
        """Diagnostics for the newest version only: a burst of edits publishes once."""
        task = self._pending.pop(uri, None)
        if task is not None:
            task.cancel()

        async def run() -> None:
            await asyncio.sleep(0)
            self._pending.pop(uri, None)
            self.publish(uri)

        try:
            self._pending[uri] = asyncio.get_running_loop().create_task(run())
        except RuntimeError:
            self.publish(uri)

    def release_memory_soon(self) -> None:
        """After a burst of closes, give the freed memory back (once, not per document)."""
        if self._release is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            memory.release()
            return

        def run() -> None:
            self._release = None
            memory.release()

        self._release = loop.call_later(0.5, run)

    def snapshot(self, uri: str):
        doc = self.documents.get(uri)
        return doc.snapshot if doc is not None else None


def _out_of_sync(why: str) -> lsp.Diagnostic:
    return lsp.Diagnostic(
        range=lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)),
        message=f"the server's copy of this document no longer matches the editor's ({why}); "
        "close and reopen the file to resynchronise",
        severity=lsp.DiagnosticSeverity.Error,
        code="out-of-sync",
        source="awl",
    )


server = AwlServer()


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: AwlServer, params: lsp.DidOpenTextDocumentParams) -> None:
    item = params.text_document
    path = Path(to_fs_path(item.uri)) if item.uri.startswith("file:") else None
    workspace = ls.workspace_root() or (path.parent if path is not None else None)
    doc = OpenDocument(item.text, item.version, path, workspace, ls.encoding)
    ls.documents[item.uri] = doc
    if doc.syntax.surrogates_replaced:
        count = doc.syntax.surrogates_replaced
        ls.log_message(f"{item.uri}: {count} lone UTF-16 surrogate(s) read as U+FFFD")
    ls.publish(item.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: AwlServer, params: lsp.DidChangeTextDocumentParams) -> None:
    uri = params.text_document.uri
    version = params.text_document.version
    doc = ls.documents.get(uri)
    if doc is None:
        ls.log_message(f"ignored a change to {uri}: the document is not open")
        return
    if doc.version is not None and version <= doc.version:
        ls.log_message(f"ignored a change to {uri}: version {version} is not newer than {doc.version}")
        return
    before = doc.syntax.surrogates_replaced
    edits: list[TextEdit] = []
    try:
        for change in params.content_changes:
            if isinstance(change, lsp.TextDocumentContentChangePartial):
                s, e = change.range.start, change.range.end
                edits.append(TextEdit(s.line, s.character, e.line, e.character, change.text))
            else:
                if edits:
                    doc.edit(edits, version)
                    edits = []
                doc.replace(change.text, version)
        if edits:
            doc.edit(edits, version)
    except (EditOutOfRange, OutOfSync) as exc:
        ls.log_message(f"{uri}: {exc}")
    if doc.syntax.surrogates_replaced > before:
        ls.log_message(f"{uri}: lone UTF-16 surrogate(s) in a change read as U+FFFD")
    ls.schedule(uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: AwlServer, params: lsp.DidSaveTextDocumentParams) -> None:
    ls.publish(params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: AwlServer, params: lsp.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    if ls.documents.pop(uri, None) is None:
        ls.log_message(f"ignored closing {uri}: the document is not open")
        return
    task = ls._pending.pop(uri, None)
    if task is not None:
        task.cancel()
    ls.release_memory_soon()
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


def _wants_markdown(ls: AwlServer) -> bool:
    caps = ls.client_capabilities.text_document
    formats = caps.hover.content_format if caps and caps.hover else None
    return not formats or formats[0] == lsp.MarkupKind.Markdown


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
def on_hover(ls: AwlServer, params: lsp.HoverParams) -> lsp.Hover | None:
    snap = ls.snapshot(params.text_document.uri)
    return hover(snap, params.position, _wants_markdown(ls)) if snap else None


@server.feature(
    lsp.TEXT_DOCUMENT_COMPLETION,
    lsp.CompletionOptions(trigger_characters=[".", " ", "(", ">", ","]),
)
def on_completion(ls: AwlServer, params: lsp.CompletionParams) -> lsp.CompletionList | None:
    snap = ls.snapshot(params.text_document.uri)
    if snap is None:
        return None
    from awl_lsp.features.completion import complete

    return lsp.CompletionList(is_incomplete=False, items=complete(snap, params.position))


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
def on_definition(ls: AwlServer, params: lsp.DefinitionParams) -> lsp.Location | None:
    snap = ls.snapshot(params.text_document.uri)
    return definition_feature.definition(snap, params.position, params.text_document.uri) if snap else None


@server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
def on_references(ls: AwlServer, params: lsp.ReferenceParams) -> list[lsp.Location]:
    snap = ls.snapshot(params.text_document.uri)
    if snap is None:
        return []
    return definition_feature.references(
        snap, params.position, params.text_document.uri, params.context.include_declaration
    )


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)
def on_highlight(ls: AwlServer, params: lsp.DocumentHighlightParams) -> list[lsp.DocumentHighlight]:
    snap = ls.snapshot(params.text_document.uri)
    return definition_feature.highlights(snap, params.position) if snap else []


@server.feature(lsp.TEXT_DOCUMENT_RENAME)
def on_rename(ls: AwlServer, params: lsp.RenameParams) -> lsp.WorkspaceEdit | None:
    snap = ls.snapshot(params.text_document.uri)
    if snap is None:
        return None
    return definition_feature.rename(snap, params.position, params.text_document.uri, params.new_name)


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def on_symbols(ls: AwlServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
    snap = ls.snapshot(params.text_document.uri)
    return document_symbols(snap) if snap else []


@server.feature(lsp.TEXT_DOCUMENT_FOLDING_RANGE)
def on_folding(ls: AwlServer, params: lsp.FoldingRangeParams) -> list[lsp.FoldingRange]:
    snap = ls.snapshot(params.text_document.uri)
    return folding_ranges(snap) if snap else []


@server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, SEMANTIC_LEGEND)
def on_semantic_tokens(ls: AwlServer, params: lsp.SemanticTokensParams) -> lsp.SemanticTokens:
    snap = ls.snapshot(params.text_document.uri)
    return semantic_tokens.semantic_tokens_full(snap) if snap else lsp.SemanticTokens(data=[])


@server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE, SEMANTIC_LEGEND)
def on_semantic_tokens_range(ls: AwlServer, params: lsp.SemanticTokensRangeParams) -> lsp.SemanticTokens:
    snap = ls.snapshot(params.text_document.uri)
    return semantic_tokens.semantic_tokens_range(snap, params.range) if snap else lsp.SemanticTokens(data=[])


@server.feature(
    lsp.TEXT_DOCUMENT_SIGNATURE_HELP,
    lsp.SignatureHelpOptions(trigger_characters=["(", ","], retrigger_characters=[","]),
)
def on_signature_help(ls: AwlServer, params: lsp.SignatureHelpParams) -> lsp.SignatureHelp | None:
    snap = ls.snapshot(params.text_document.uri)
    return signature_help(snap, params.position) if snap else None


@server.feature(
    lsp.TEXT_DOCUMENT_CODE_ACTION,
    lsp.CodeActionOptions(
        code_action_kinds=[lsp.CodeActionKind.QuickFix, lsp.CodeActionKind.RefactorRewrite],
        resolve_provider=False,
    ),
)
def on_code_action(ls: AwlServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
    uri = params.text_document.uri
    snap = ls.snapshot(uri)
    if snap is None:
        return []
    ours = [d for d in params.context.diagnostics if d.source in (None, "awl")]
    only = [getattr(k, "value", str(k)) for k in params.context.only or []] or None
    return code_actions(snap, uri, params.range, ours, only)


@server.feature(lsp.TEXT_DOCUMENT_INLAY_HINT, lsp.InlayHintOptions(resolve_provider=False))
def on_inlay_hint(ls: AwlServer, params: lsp.InlayHintParams) -> list[lsp.InlayHint]:
    snap = ls.snapshot(params.text_document.uri)
    return inlay_hints(snap, params.range) if snap else []


@server.feature(lsp.TEXT_DOCUMENT_SELECTION_RANGE)
def on_selection_range(ls: AwlServer, params: lsp.SelectionRangeParams) -> list[lsp.SelectionRange]:
    snap = ls.snapshot(params.text_document.uri)
    return selection_ranges(snap, list(params.positions)) if snap else []


@server.feature(lsp.WORKSPACE_SYMBOL, lsp.WorkspaceSymbolOptions(resolve_provider=False))
def on_workspace_symbol(ls: AwlServer, params: lsp.WorkspaceSymbolParams) -> list[lsp.WorkspaceSymbol]:
    docs = [(uri, doc.snapshot) for uri, doc in list(ls.documents.items())]
    return workspace_symbols(docs, params.query)


@server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
def on_formatting(ls: AwlServer, params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit]:
    snap = ls.snapshot(params.text_document.uri)
    return format_document(snap) if snap else []


@server.feature("awl/syntaxTree")
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


def run_stdio() -> int:
    logging.basicConfig(level=logging.WARNING)
    return serve_stdio(server)
