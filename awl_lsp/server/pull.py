"""Pull diagnostics: `textDocument/diagnostic` and `workspace/diagnostic`, for clients that pull.

Who is told what, and how:

- A client that declares `textDocument.diagnostic` *and* `workspace.diagnostics.refreshSupport`
  (VS Code, Neovim 0.12) is offered `diagnosticProvider` (inter-file dependencies, workspace
  diagnostics, identifier `awl`). From then on open documents are never pushed: the client pulls
  them. Our diagnostics read other documents (contracts) and schema files, so a client that cannot
  be asked to pull again (`workspace/diagnostic/refresh`) — Neovim 0.10 and 0.11 declare pulling
  without it — keeps push diagnostics, exactly as before, as does every client that does not pull.
- Documents nobody opened are not pushed to it either: once the workspace index is built the client
  is asked to refresh, and both clients above then pull the workspace (VS Code also polls it every
  2 s).
- A report's `resultId` is a digest of what the diagnostics read: the document's version (open) or
  text (on disk), the schema files' epoch, and the contract-relevant summaries of the documents it
  is tied to (every declaration of the workflows it names: which one a contract binds to depends
  on where they all lie). A pull whose
  `previousResultId` still matches is answered `unchanged` without analysing anything.
- When those facts change — a contract partner edited, a document or schema changed on disk, the
  workspace index arrived — the client is asked to refresh (once per burst).

`workspace/diagnostic` answers every document of the workspace: open ones at their editor version,
unopened ones from the index (each analysed once per result id, yielding to other messages between
documents, so `$/cancelRequest` stops it: `protocol.Dispatcher` cancels a running request). It is
bounded: documents not reached within `BUDGET` seconds of analysis are left for the next pull,
which a refresh asks for at once.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
from collections.abc import Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from lsprotocol import types as lsp
from pygls.uris import to_fs_path

if TYPE_CHECKING:  # (the analysis is loaded after `initialize` is answered: `awl_lsp.server.warm`)
    from awl_lsp.features.documents import OpenDocument
    from awl_lsp.server.session import WorkspaceSession
    from awl_lsp.syntax import Encoding
    from awl_lsp.workspace import WorkspaceIndex
    from awl_lsp.workspace.index import Entry
    from awl_lsp.workspace.summary import DocumentSummary


class Host(Protocol):
    """What pulling needs of the server (`publishing.PublishingServer`, which imports this module)."""

    documents: dict[str, OpenDocument]
    session: WorkspaceSession
    pull: PullDiagnostics

    @property
    def encoding(self) -> Encoding: ...

    def report(self, uri: str) -> tuple[list[lsp.Diagnostic], set[str]] | None: ...

    def dependents_changed(self, names: set[str], skip: str | None = None) -> None: ...

    def workspace_diagnostic_refresh(self, params: None) -> Future[None]: ...

    def text_document_publish_diagnostics(self, params: lsp.PublishDiagnosticsParams) -> None: ...


log = logging.getLogger("awl_lsp.server.pull")

IDENTIFIER = "awl"
GONE = "gone"  # the result id of a document that is no longer in the workspace (reported empty once)
BUDGET = float(os.environ.get("AWL_PULL_BUDGET_MS", "1500")) / 1000
REFRESH_DELAY = 0.05  # a burst of changes asks the client to refresh once

FullReport = lsp.RelatedFullDocumentDiagnosticReport
UnchangedReport = lsp.RelatedUnchangedDocumentDiagnosticReport
WorkspaceItem = lsp.WorkspaceFullDocumentDiagnosticReport | lsp.WorkspaceUnchangedDocumentDiagnosticReport


def client_pulls(caps: lsp.ClientCapabilities | None) -> bool:
    """Does the client pull diagnostics, and can it be asked to pull again when other files change?"""
    if caps is None:
        return False
    text = caps.text_document
    work = caps.workspace
    declares = text is not None and text.diagnostic is not None
    refresh = work is not None and work.diagnostics is not None and bool(work.diagnostics.refresh_support)
    return declares and refresh


def flows_by_name(index: WorkspaceIndex) -> dict[str, list[Entry]]:
    """The documents declaring each workflow or workloop name, in index order (one pass)."""
    out: dict[str, list[Entry]] = {}
    for entry in index.entries.values():
        if entry.summary.flow_name:
            out.setdefault(entry.summary.flow_name, []).append(entry)
    return out


def partners(
    key: Path, summary: DocumentSummary, index: WorkspaceIndex, flows: dict[str, list[Entry]] | None = None
) -> tuple[Entry, ...]:
    """The other documents a document's contract diagnostics read: every declaration of the
    workflows it declares contracts for (the resolution ranks them all). `key` is its resolved path."""
    names = [c.name for c in summary.contracts]
    out: list[Entry] = []
    for name in names:
        found = flows.get(name, []) if flows is not None else index.flows_named(name)
        out += [e for e in found if e.path != key]
    return tuple(out)


def partners_key(found: tuple[Entry, ...]) -> tuple:
    """What the contract rules and their related places use of those documents."""
    out: list[tuple] = []
    for e in found:
        s = e.summary
        records = tuple(sorted(s.records.items()))
        out.append((s.flow_name, str(e.path), s.flow_kind, s.flow_selection, s.inputs, s.outcomes, records))
    return tuple(out)


def result_id(key: tuple) -> str:
    return hashlib.blake2b(repr(key).encode("utf-8", "surrogatepass"), digest_size=10).hexdigest()


class PullDiagnostics:
    """The server's pull state: whether the client pulls, cached reports, refresh requests."""

    def __init__(self, server: Host) -> None:
        self.server = server
        self.enabled = False  # the client pulls: no document's diagnostics are pushed
        self.schema_epoch = 0  # bumped when a schema file changes on disk
        self._reports: dict[Path, tuple[str, list[lsp.Diagnostic]]] = {}  # unopened: result id, items
        self._ids: dict[Path, tuple[Entry, tuple[Entry, ...], int, str]] = {}  # what a result id read
        self._keys: dict[str, object] = {}  # a URI's identity (its resolved path), resolved once
        self._refresh: asyncio.TimerHandle | None = None
        self.refreshes = 0  # refresh requests sent (for tests and logs)

    # ---- capabilities
    def settle(self, client: lsp.ClientCapabilities | None, server: lsp.ServerCapabilities) -> None:
        """At initialize: offer pulling only to a client that pulls and can be asked to refresh."""
        self.enabled = client_pulls(client)
        server.diagnostic_provider = (
            lsp.DiagnosticOptions(
                inter_file_dependencies=True, workspace_diagnostics=True, identifier=IDENTIFIER
            )
            if self.enabled
            else None
        )

    # ---- telling the client
    def refresh_soon(self) -> None:
        """Ask the client to pull again (once for a burst of changes); only when it pulls."""
        if not self.enabled or self._refresh is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._refresh = loop.call_later(REFRESH_DELAY, self._send_refresh)

    def _send_refresh(self) -> None:
        self._refresh = None
        self.refreshes += 1
        try:
            future = self.server.workspace_diagnostic_refresh(None)
            future.add_done_callback(_ignore_answer)
        except Exception:  # noqa: BLE001 — a refresh the client refuses costs nothing else
            log.exception("could not ask the client to refresh diagnostics")

    def schemas_changed(self) -> None:
        self.schema_epoch += 1
        self.refresh_soon()

    # ---- reports
    def open_report(self, uri: str) -> tuple[str, list[lsp.Diagnostic], int | None] | None:
        """An open document's diagnostics at its newest version: (result id, items, version)."""
        ls = self.server
        found = ls.report(uri)
        doc = ls.documents.get(uri)
        if found is None or doc is None:
            return None
        items, changed = found
        if changed:
            ls.dependents_changed(changed, skip=uri)
        index = ls.session.index
        facts: tuple = ()
        if index is not None and doc.path is not None:
            key = doc.path.resolve()
            if key in index.entries:
                from awl_lsp.features.workspace_diagnostics import document_summary

                tied = partners(key, document_summary(doc.snapshot), index)
                facts = (bool(index.roots), partners_key(tied))
        key_ = ("open", uri, doc.version, doc.out_of_sync, self.schema_epoch, ls.encoding.value, facts)
        return result_id(key_), items, doc.version

    def _unopened_id(self, entry: Entry, flows: dict[str, list[Entry]] | None) -> str:
        """The result id of an indexed document's report (recomputed only when the entry, one of its
        partners' entries — replaced whenever they change — or the schema epoch changed)."""
        index = self.server.session.index
        assert index is not None
        found = partners(entry.path, entry.summary, index, flows)
        cached = self._ids.get(entry.path)
        if (
            cached is not None
            and cached[0] is entry
            and cached[2] == self.schema_epoch
            and len(cached[1]) == len(found)
            and all(a is b for a, b in zip(cached[1], found, strict=True))
        ):
            return cached[3]
        text = (hash(entry.text), len(entry.text))
        facts = (bool(index.roots), partners_key(found))
        key = ("disk", str(entry.path), text, self.schema_epoch, self.server.encoding.value, facts)
        rid = result_id(key)
        self._ids[entry.path] = (entry, found, self.schema_epoch, rid)
        return rid

    def unopened_report(
        self, entry: Entry, flows: dict[str, list[Entry]] | None = None, rid: str | None = None
    ) -> tuple[str, list[lsp.Diagnostic], bool]:
        """A document's diagnostics from the index: (result id, items, whether it was analysed now)."""
        rid = rid or self._unopened_id(entry, flows)
        cached = self._reports.get(entry.path)
        if cached is not None and cached[0] == rid:
            return rid, cached[1], False
        items = self.server.session.report_of(entry, self.server.encoding)
        self._reports[entry.path] = (rid, items)
        return rid, items, True

    def forget(self, path: Path) -> None:
        key = path.resolve()
        self._reports.pop(key, None)
        self._ids.pop(key, None)

    def _key(self, uri: str) -> object:
        key = self._keys.get(uri)
        if key is None:
            if len(self._keys) > 100_000:
                self._keys.clear()
            key = self._keys[uri] = _key(uri)
        return key

    async def document(self, uri: str, previous: str | None) -> FullReport | UnchangedReport:
        """`textDocument/diagnostic`: an open document at its newest version, else the file as indexed."""
        found = self.open_report(uri)
        if found is not None:
            rid, items, _ = found
            return (
                UnchangedReport(result_id=rid) if previous == rid else FullReport(items=items, result_id=rid)
            )
        path = _path_of(uri)
        index = await self.server.session.wait_ready() if path is not None else None
        entry = index.entry(path) if index is not None and path is not None else None
        if entry is None:  # not in the workspace (or gone): nothing to say about it
            return (
                UnchangedReport(result_id=GONE) if previous == GONE else FullReport(items=[], result_id=GONE)
            )
        rid = self._unopened_id(entry, None)
        if previous == rid:
            return UnchangedReport(result_id=rid)
        rid, items, _ = self.unopened_report(entry, rid=rid)
        return FullReport(items=items, result_id=rid)

    async def workspace_report(
        self, previous: Sequence[lsp.PreviousResultId]
    ) -> lsp.WorkspaceDiagnosticReport:
        """`workspace/diagnostic`: every document of the workspace, `unchanged` where the client's
        result id still holds; documents the client knows that left the workspace, once, empty."""
        known: dict[object, tuple[str, str]] = {self._key(p.uri): (p.uri, p.value) for p in previous}
        out: list[WorkspaceItem] = []
        seen: set[object] = set()
        for uri in list(self.server.documents):
            found = self.open_report(uri)
            if found is None:
                continue
            rid, items, version = found
            key = self._key(uri)
            seen.add(key)
            out.append(_item(uri, rid, items, version, known.get(key)))
            await asyncio.sleep(0)
        index = await self.server.session.wait_ready()
        left: set[object] = set()  # documents not reached this time (not gone: still in the index)
        if index is not None:
            out += await self._indexed(index, known, seen, left)
        for key, (uri, value) in known.items():
            if key not in seen and key not in left and value != GONE:
                out.append(lsp.WorkspaceFullDocumentDiagnosticReport(uri=uri, items=[], result_id=GONE))
        return lsp.WorkspaceDiagnosticReport(items=out)

    async def _indexed(
        self,
        index: WorkspaceIndex,
        known: dict[object, tuple[str, str]],
        seen: set[object],
        left: set[object],
    ) -> list[WorkspaceItem]:
        out: list[WorkspaceItem] = []
        flows = flows_by_name(index)
        loop = asyncio.get_running_loop()
        spent = 0.0
        for entry in list(index.entries.values()):
            key: object = entry.path  # (resolved already)
            if key in seen:
                continue
            if spent > BUDGET:  # the rest next time: the client is asked to pull again at once
                left.add(key)
                continue
            seen.add(key)
            rid = self._unopened_id(entry, flows)
            previous = known.get(key)
            if previous is not None and previous[1] == rid:
                out.append(lsp.WorkspaceUnchangedDocumentDiagnosticReport(uri=previous[0], result_id=rid))
                continue
            started = loop.time()
            rid, items, analysed = self.unopened_report(entry, flows, rid)
            uri = previous[0] if previous is not None else entry.uri
            out.append(lsp.WorkspaceFullDocumentDiagnosticReport(uri=uri, items=items, result_id=rid))
            if analysed:
                spent += loop.time() - started
                await asyncio.sleep(0)  # other messages (and a cancel) get their turn
        if left:
            log.info("workspace diagnostics: %d documents left for the next pull", len(left))
            self.refresh_soon()
        return out


def _item(
    uri: str, rid: str, items: list[lsp.Diagnostic], version: int | None, previous: tuple[str, str] | None
) -> WorkspaceItem:
    if previous is not None and previous[1] == rid:
        return lsp.WorkspaceUnchangedDocumentDiagnosticReport(uri=uri, result_id=rid, version=version)
    return lsp.WorkspaceFullDocumentDiagnosticReport(uri=uri, items=items, version=version, result_id=rid)


def _path_of(uri: str) -> Path | None:
    fs_path = to_fs_path(uri) if uri.startswith("file:") else None
    return Path(fs_path) if fs_path else None


def _key(uri: str) -> object:
    """A document's identity whatever the URI's spelling: its resolved path (else the URI itself)."""
    path = _path_of(uri)
    if path is None:
        return uri
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path


def _ignore_answer(future: Future) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.info("the client answered the refresh with an error: %s", future.exception())


def register(server: Any) -> None:
    """The two requests, on `server` (offered at initialize only to clients that pull: `settle`)."""
    options = lsp.DiagnosticOptions(
        inter_file_dependencies=True, workspace_diagnostics=True, identifier=IDENTIFIER
    )

    @server.feature(lsp.TEXT_DOCUMENT_DIAGNOSTIC, options)
    async def on_document_diagnostic(
        ls: Host, params: lsp.DocumentDiagnosticParams
    ) -> FullReport | UnchangedReport:
        return await ls.pull.document(params.text_document.uri, params.previous_result_id)

    @server.feature(lsp.WORKSPACE_DIAGNOSTIC)
    async def on_workspace_diagnostic(
        ls: Host, params: lsp.WorkspaceDiagnosticParams
    ) -> lsp.WorkspaceDiagnosticReport:
        return await ls.pull.workspace_report(params.previous_result_ids or [])
