"""Text document synchronisation: the editor's open, change, save and close notifications.

Each keeps the server's table of open documents (`DocumentTable.documents`) in step with the
editor's buffers and says what the diagnostics should do about it (`awl_lsp.server.publishing`): an open
publishes at once (a long document from a worker), an edit once the input is quiet, a save at once;
a close withdraws the document's diagnostics and lets the file on disk count again. A change that
cannot apply (an older version, a range past the end) is logged, never a failure.
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types as lsp
from pygls.uris import to_fs_path

from awl_lsp.server.publishing import PublishingServer


def register(server: PublishingServer) -> None:
    """The four notifications, on `server`."""
    server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)(did_open)
    server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)(did_change)
    server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)(did_save)
    server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)(did_close)


def did_open(ls: PublishingServer, params: lsp.DidOpenTextDocumentParams) -> None:
    from awl_lsp.features.documents import OpenDocument  # (loaded after `initialize`: `awl_lsp.server.warm`)

    item = params.text_document
    fs_path = to_fs_path(item.uri) if item.uri.startswith("file:") else None
    path = Path(fs_path) if fs_path else None
    workspace = ls.workspace_root() or (path.parent if path is not None else None)
    doc = OpenDocument(item.text, item.version, path, workspace, ls.encoding)
    ls.documents[item.uri] = doc
    if doc.syntax.surrogates_replaced:
        count = doc.syntax.surrogates_replaced
        ls.log_message(f"{item.uri}: {count} lone UTF-16 surrogate(s) read as U+FFFD")
    ls.publish_first(item.uri)


def did_change(ls: PublishingServer, params: lsp.DidChangeTextDocumentParams) -> None:
    from awl_lsp.features.documents import OutOfSync
    from awl_lsp.syntax import EditOutOfRange, TextEdit

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


def did_save(ls: PublishingServer, params: lsp.DidSaveTextDocumentParams) -> None:
    ls.publish(params.text_document.uri)


def did_close(ls: PublishingServer, params: lsp.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    doc = ls.documents.pop(uri, None)
    if doc is None:
        ls.log_message(f"ignored closing {uri}: the document is not open")
        return
    ls.closed(uri, doc)  # (nothing is scheduled for it now; freed when the input is quiet)
    if not ls.pull.enabled:
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
    if ls.session.ready and doc.path is not None:
        names = ls.session.closed(doc.path)
        entry = ls.session.index.entry(doc.path) if ls.session.index else None
        if entry is not None:
            ls.publish_unopened(entry)  # the file on disk is what counts again
        ls.dependents_changed(names, skip=uri)
