"""Workspace synchronisation: the documents of the workspace folders that are not open.

At `initialized` the folders are indexed in a worker thread (with progress, when the client shows
it), the documents that are not open have their diagnostics pushed (a client that pulls is asked to
pull instead), the open ones are re-checked against the rest of the workspace, and the server asks
to watch `*.awl` and `*.json` files. A watched file that changed on disk is read again: its
diagnostics and those of the documents tied to it by a workflow contract follow; a changed schema
file re-checks every open document. The index itself is `awl_lsp.server.session.WorkspaceSession`'s.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from lsprotocol import types as lsp
from pygls.uris import to_fs_path

from awl_lsp.server.publishing import PublishingServer
from awl_lsp.server.warm import analysis_loaded

log = logging.getLogger("awl_lsp")


def register(server: PublishingServer) -> None:
    """The two notifications, on `server`."""
    server.feature(lsp.INITIALIZED)(on_initialized)
    server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)(on_watched_files)


async def on_initialized(ls: PublishingServer, params: lsp.InitializedParams) -> None:
    """Index the workspace folders (with progress), then watch their files."""
    if ls.pull.enabled:
        ls.log_message("diagnostics: the client pulls them (nothing is pushed)", lsp.MessageType.Info)
    roots = ls.folders()
    if not roots:
        return
    ls.session.building = asyncio.Event()
    await analysis_loaded(ls.warm)  # (the worker thread below imports nothing: `awl_lsp.server.warm`)
    caps = ls.client_capabilities
    token = "awl-index"
    progress = bool(caps.window and caps.window.work_done_progress)
    loop = asyncio.get_running_loop()
    if progress:
        try:
            await ls.work_done_progress.create_async(token)
            ls.work_done_progress.begin(token, lsp.WorkDoneProgressBegin(title="Indexing AWL documents"))
        except Exception:  # noqa: BLE001 — a client that refuses progress still gets the index
            progress = False

    def report(count: int, path: Path) -> None:
        if progress and count % 25 == 0:
            message = f"{count} documents ({path.name})"
            loop.call_soon_threadsafe(
                ls.work_done_progress.report, token, lsp.WorkDoneProgressReport(message=message)
            )

    encoding = ls.encoding

    def build() -> tuple:
        index = ls.session.build(roots, report)
        pushed = list(index.entries.values()) if not ls.pull.enabled else []  # (else pulled, when asked)
        reports = [(e, ls.session.report_of(e, encoding, index)) for e in pushed]
        return index, reports

    index, reports = await asyncio.to_thread(build)
    open_docs = {d.path.resolve(): d.snapshot for d in ls.documents.values() if d.path is not None}
    ls.session.adopt(index, open_docs)
    if progress:
        ls.work_done_progress.end(token, lsp.WorkDoneProgressEnd(message=f"{len(index.entries)} documents"))
    for entry, items in reports:
        if items and not entry.is_open and entry.path not in open_docs:
            ls.session.published.add(entry.uri)
            params_ = lsp.PublishDiagnosticsParams(uri=entry.uri, diagnostics=items)
            ls.text_document_publish_diagnostics(params_)
    for uri in list(ls.documents):
        ls.schedule(uri)  # open documents now see the rest of the workspace
    ls.pull.refresh_soon()  # (a client that pulls is asked to pull them again)
    watch = caps.workspace and caps.workspace.did_change_watched_files
    if watch and watch.dynamic_registration:
        watchers = [lsp.FileSystemWatcher(glob_pattern=g) for g in ("**/*.awl", "**/*.json")]
        options = lsp.DidChangeWatchedFilesRegistrationOptions(watchers=watchers)
        registration = lsp.Registration(
            id="awl-watch", method=lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES, register_options=options
        )
        try:
            await ls.client_register_capability_async(lsp.RegistrationParams(registrations=[registration]))
        except Exception:  # noqa: BLE001 — without watching, saves of open documents still count
            log.warning("the client did not accept the file watcher registration")


def on_watched_files(ls: PublishingServer, params: lsp.DidChangeWatchedFilesParams) -> None:
    """Files changed on disk: re-read `.awl` documents; a changed schema re-checks open documents."""
    names: set[str] = set()
    schemas = False
    for change in params.changes:
        fs_path = to_fs_path(change.uri) if change.uri.startswith("file:") else None
        if fs_path is None:
            continue
        path = Path(fs_path).resolve()
        if path.suffix == ".json":
            schemas = True
        elif path.suffix == ".awl":
            deleted = change.type == lsp.FileChangeType.Deleted
            names |= ls.session.file_changed(path, deleted)
            entry = ls.session.index.entry(path) if ls.session.index else None
            if entry is not None:
                ls.publish_unopened(entry)
            elif deleted and path.as_uri() in ls.session.published:
                ls.session.published.discard(path.as_uri())
                cleared = lsp.PublishDiagnosticsParams(uri=path.as_uri(), diagnostics=[])
                ls.text_document_publish_diagnostics(cleared)
            elif deleted and ls.pull.enabled:
                ls.pull.forget(path)
                ls.pull.refresh_soon()  # the next workspace pull reports it gone
    ls.dependents_changed(names)
    if schemas:
        ls.pull.schemas_changed()
        for uri, doc in ls.documents.items():
            doc.invalidate()  # types read from schema files are read again
            ls.schedule(uri)
