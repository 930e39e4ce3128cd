"""The server's view of the whole workspace, between protocol messages.

`WorkspaceSession` owns the `WorkspaceIndex` (every `.awl` under the workspace folders), keeps open
documents' summaries current from the editor's text, and decides whose diagnostics an edit or a
file change affects: documents that declare a contract for a workflow name whose declarations
changed (any of them: which one a contract binds to depends on where they all lie). Diagnostics of documents
that are not open are reported too (pushed, and withdrawn when they are clean again, to a client
that does not pull; pulled otherwise: `awl_lsp.server.pull`), so a broken file shows in the Problems panel
without being opened; an open document is never reported twice.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types as lsp

if TYPE_CHECKING:  # (the analysis is loaded after `initialize` is answered: `awl_lsp.server.warm`)
    from awl_lsp.features.snapshot import Snapshot
    from awl_lsp.syntax import Encoding
    from awl_lsp.workspace import WorkspaceIndex
    from awl_lsp.workspace.index import Entry
    from awl_lsp.workspace.summary import DocumentSummary

log = logging.getLogger("awl_lsp.server.session")


def _names(s: DocumentSummary) -> set[str]:
    """The workflow names a document is tied to: its own and those it declares contracts for."""
    out = {c.name for c in s.contracts}
    if s.flow_name:
        out.add(s.flow_name)
    return out


class WorkspaceSession:
    def __init__(self) -> None:
        self.index: WorkspaceIndex | None = None
        self.published: set[str] = set()  # unopened documents whose diagnostics we published
        self.building: asyncio.Event | None = None  # set while the first index is being built

    async def wait_ready(self, timeout: float = 10.0) -> WorkspaceIndex | None:
        """The index, once built (requests that cross documents wait for it, within `timeout`)."""
        if self.index is None and self.building is not None:
            try:
                await asyncio.wait_for(self.building.wait(), timeout)
            except TimeoutError:
                pass
        return self.index

    @property
    def ready(self) -> bool:
        return self.index is not None

    def build(
        self, roots: Iterable[Path], progress: Callable[[int, Path], None] | None = None
    ) -> WorkspaceIndex:
        """A new index of the folders (run off the protocol loop; `adopt` swaps it in: the modules it
        needs were loaded on the loop first, `load_analysis`)."""
        from awl_lsp.workspace import WorkspaceIndex

        index = WorkspaceIndex(roots)
        index.scan(progress)
        return index

    def adopt(self, index: WorkspaceIndex, open_docs: dict[Path, Snapshot]) -> None:
        for path, snap in open_docs.items():
            index.update_open(path, snap.doc.text, snap.model)
        self.index = index
        if self.building is not None:
            self.building.set()

    def resolving(self) -> AbstractContextManager[None]:
        """Paths resolved once within it (see `WorkspaceIndex.resolving`)."""
        return self.index.resolving() if self.index is not None else nullcontext()

    # ---- open documents
    def opened(self, path: Path, snap: Snapshot) -> set[str]:
        """An open document's newest version; the workflow names whose dependents must be re-checked."""
        from awl_lsp.features.workspace_diagnostics import document_summary

        if self.index is None:
            return set()
        old = self.index.entry(path)
        before = (self.index.generation, _names(old.summary) if old is not None else set())
        entry = self.index.update_open(path, snap.doc.text, snap.model, document_summary(snap))
        if entry is None or self.index.generation == before[0]:
            return set()
        return before[1] | _names(entry.summary)

    def closed(self, path: Path) -> set[str]:
        if self.index is None:
            return set()
        old = self.index.entry(path)
        self.index.close(path)
        new = self.index.entry(path)
        return (_names(old.summary) if old else set()) | (_names(new.summary) if new else set())

    def contract_diagnostics(self, path: Path | None, snap: Snapshot, enc: Encoding) -> list[lsp.Diagnostic]:
        from awl_lsp.features.workspace_diagnostics import contract_diagnostics

        if self.index is None or path is None or self.index.entry(path) is None:
            return []
        return contract_diagnostics(path, snap, self.index, enc)

    # ---- files on disk
    def file_changed(self, path: Path, deleted: bool) -> set[str]:
        if self.index is None:
            return set()
        old = self.index.entry(path)
        if deleted:
            self.index.forget(path)
        else:
            self.index.load(path)
        new = self.index.entry(path)
        return (_names(old.summary) if old else set()) | (_names(new.summary) if new else set())

    def dependents(self, names: set[str]) -> list[Entry]:
        """Documents declaring a contract for any of these workflow names (a workflow's own document
        reads nothing of other documents)."""
        if self.index is None or not names:
            return []
        found: dict[Path, Entry] = {}
        for name in sorted(names):
            found.update((e.path, e) for e in self.index.declaring(name))
        return list(found.values())

    def report_of(
        self, entry: Entry, enc: Encoding, index: WorkspaceIndex | None = None
    ) -> list[lsp.Diagnostic]:
        from awl_lsp.features.workspace_diagnostics import unopened_diagnostics

        index = index or self.index
        assert index is not None
        try:
            return unopened_diagnostics(entry, index, enc)
        except Exception:  # noqa: BLE001 — one odd file must not stop the others
            log.exception("diagnostics failed for %s", entry.path)
            return []

    def unopened_report(self, entry: Entry, enc: Encoding) -> list[lsp.Diagnostic] | None:
        """Diagnostics to publish for an unopened document, or None when nothing needs saying."""
        items = self.report_of(entry, enc)
        if not items and entry.uri not in self.published:
            return None
        if items:
            self.published.add(entry.uri)
        else:
            self.published.discard(entry.uri)
        return items
