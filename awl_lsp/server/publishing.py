"""Publishing diagnostics, and when: the server's scheduling around quiet input.

`PublishingServer` owns when an open document's diagnostics are computed and sent: an edit's are
published once the input is quiet (`schedule`, re-armed by every key of a burst), a save's at once
(`publish`), a long document's first ones from a worker thread (`publish_first`); a client that
pulls diagnostics (`awl_lsp.server.pull`) is not sent them but asked to pull again. An edit that changes a
workflow's contract side re-publishes the documents tied to it (`dependents_changed`), open or not.
It also owns the memory work that pauses the server (a full collection, giving pages back), which
waits for the same quiet (`when_quiet`), the warm-up after `initialize`, which runs only while
nothing else is due (`busy`, `awl_lsp.server.warm`), and forgetting a closed document's scheduling
(`closed`).

The timings below are read through properties at each use, so the server module may re-export
them for a test or bench to change (`awl_lsp.server.language_server.RELEASE_AFTER`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
import threading
from types import ModuleType
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from awl_lsp.server import memory
from awl_lsp.server.document_table import DocumentTable
from awl_lsp.server.pull import PullDiagnostics
from awl_lsp.server.warm import ANALYSIS, WarmUp, load, steps

if TYPE_CHECKING:  # (the analysis is loaded after `initialize` is answered: `awl_lsp.server.warm`)
    from awl_lsp.features.documents import OpenDocument
    from awl_lsp.workspace.index import Entry

log = logging.getLogger("awl_lsp")

# Diagnostics are published once the input is quiet: an edit's publish waits this grace (the reader
# thread gets the interpreter lock to hand on keys right behind it), then goes as soon as no input
# is waiting — no message queued, none being read, no bytes in the pipe. An edit that overtook a
# publish still pending (keys sent without waiting, a replayed macro) is part of a burst and waits
# a little longer for quiet, so a burst whose messages trickle in publishes once too.
DEBOUNCE = float(os.environ.get("AWL_DIAGNOSTICS_DEBOUNCE_MS", "1")) / 1000
BURST_DEBOUNCE = max(DEBOUNCE, 0.02)
# a due publish lets messages that are waiting go first, for at most this long
MAX_POSTPONE = 0.25
# a document at least this long is checked for the first time in a worker thread (see `publish_first`)
OFFLOAD_LINES = int(os.environ.get("AWL_OFFLOAD_LINES", "3000"))
# a first check of a long document runs part of its item rules in a second process, where there is
# a second core (`awl_lsp.checks.parallel`); `AWL_PARALLEL_CHECKS=0` keeps it to one
PARALLEL_CHECKS = os.environ.get("AWL_PARALLEL_CHECKS", "1") != "0"
# closed documents wait for quiet to be freed, unless they hold more lines than this together: a
# client that opens and closes documents one after another, never quiet, frees them every few
CLOSED_LINES = int(os.environ.get("AWL_CLOSED_LINES", "20000"))
# memory work waits for the input to be quiet this long: after closes, everything is collected and
# freed pages go back; else the frozen heap is collected in full when it has grown enough
RELEASE_AFTER = 0.5
RECLAIM_AFTER = 1.0
# what the first requests would pay for is made after `initialize`, at quiet moments (`awl_lsp.server.warm`)
WARM_UP = os.environ.get("AWL_WARM_UP", "1") != "0"


def out_of_sync_diagnostic(why: str) -> lsp.Diagnostic:
    """The error at the top of a document whose text no longer matches the editor's."""
    return lsp.Diagnostic(
        range=lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)),
        message=f"the server's copy of this document no longer matches the editor's ({why}); "
        "close and reopen the file to resynchronise",
        severity=lsp.DiagnosticSeverity.Error,
        code="out-of-sync",
        source="awl",
    )


class PublishingServer(DocumentTable):
    """A `DocumentTable` that publishes its documents' diagnostics when the input is quiet."""

    def __init__(self, name: str, version: str, **kwargs: Any) -> None:  # noqa: ANN401 — pygls's options
        super().__init__(name, version, **kwargs)
        self.pull = PullDiagnostics(self)
        self._due: dict[str, asyncio.TimerHandle] = {}
        self._last_edit: dict[str, float] = {}
        self._quiet: asyncio.TimerHandle | None = None  # memory work waiting for quiet input
        self._release_due = False
        # per document being checked in a worker thread: held while its checker runs (see `publish_first`)
        self._checking: dict[str, threading.Lock] = {}
        self._workers: set[asyncio.Task] = set()
        # documents closed since the input was last quiet: freed then, with the rest of the memory
        # work (`when_quiet`), not while the message after their close waits (≈ 40 ms at 5,000 lines)
        # — unless they come to hold more than `CLOSED_LINES` lines (`closed`)
        self._closed: list[OpenDocument] = []
        self._closed_lines = 0  # their lines
        self.warm: WarmUp | None = None  # the warm-up after `initialize`, once it started
        self._parallel_set = False  # `checks_ready` ran

    # ---- the timings, read at each use from `timings`: this module, or the one a server names
    # (`awl_lsp.server.language_server`, where a test or bench sets `RELEASE_AFTER`, …)
    timings: ModuleType = sys.modules[__name__]

    @property
    def debounce(self) -> float:
        return self.timings.DEBOUNCE

    @property
    def burst_debounce(self) -> float:
        return self.timings.BURST_DEBOUNCE

    @property
    def max_postpone(self) -> float:
        return self.timings.MAX_POSTPONE

    @property
    def offload_lines(self) -> int:
        return self.timings.OFFLOAD_LINES

    @property
    def release_after(self) -> float:
        return self.timings.RELEASE_AFTER

    @property
    def reclaim_after(self) -> float:
        return self.timings.RECLAIM_AFTER

    # ---- publishing
    def publish(self, uri: str) -> None:
        """Diagnostics of the newest version of `uri`, now (computed once per version); a client that
        pulls diagnostics is not sent them (it asks: `pull`), but the workspace still learns of the edit."""
        found = self.report(uri)
        if found is None:
            return
        items, changed = found
        if not self.pull.enabled:
            doc = self.documents[uri]
            self.text_document_publish_diagnostics(
                lsp.PublishDiagnosticsParams(uri=uri, diagnostics=items, version=doc.version)
            )
        if changed:
            self.dependents_changed(changed, skip=uri)
        memory.settle()  # (the model and diagnostics of this version stay: collections skip them)
        self.when_quiet()

    def report(self, uri: str) -> tuple[list[lsp.Diagnostic], set[str]] | None:
        """The diagnostics of the newest version of an open document, and the workflow names whose
        dependents must be re-checked now that the workspace index has this version."""
        from awl_lsp.features.diagnostics import diagnostics

        doc = self.documents.get(uri)
        if doc is None:
            return None
        self.checks_ready()
        if self.recent.touch(uri, self.documents):
            memory.trim()  # what the compacted document dropped
        timer = self._due.pop(uri, None)
        if timer is not None:  # (reported now: a pending debounce has nothing left to do)
            timer.cancel()
        try:
            dim = self.dims_unused
            with self._checking.get(uri) or contextlib.nullcontext():  # (a worker's first run ends first)
                items = doc.snapshot.derived("diagnostics", lambda snap: diagnostics(snap, uri, dim))
        except Exception:  # noqa: BLE001 — a checker bug must not take the server down
            log.exception("diagnostics failed for %s", uri)
            items = []
        if doc.out_of_sync is not None:
            items.insert(0, out_of_sync_diagnostic(doc.out_of_sync))
        changed: set[str] = set()
        if self.session.ready and doc.path is not None:
            try:
                with self.session.resolving():  # (the document's path resolved once for all of it)
                    changed = self.session.opened(doc.path, doc.snapshot)
                    items = items + self.session.contract_diagnostics(doc.path, doc.snapshot, self.encoding)
            except Exception:  # noqa: BLE001 — the workspace view must not cost the document its own
                log.exception("workspace diagnostics failed for %s", uri)
        return items, changed

    def checks_ready(self) -> None:
        """Before the first check: may it use a second process (see `PARALLEL_CHECKS`)?"""
        if not self._parallel_set:
            from awl_lsp.checks import parallel

            parallel.enable(self.timings.PARALLEL_CHECKS)
            self._parallel_set = True

    def publish_first(self, uri: str) -> None:
        """The diagnostics of a document just opened. A long document's checks (≈ 0.7 s of CPU at
        20,000 lines) run in a worker thread on its snapshot — a value no later edit changes — so
        requests that arrive meanwhile are answered at once (the thread yields the interpreter every
        few milliseconds); its model is built here first (the builder is not shared with threads).
        The document's checker memory is used by one thread at a time: `report` waits for the
        worker's lock."""
        from awl_lsp.features.diagnostics import diagnostics  # (imported here: never in a thread)
        from awl_lsp.features.typing import type_env

        doc = self.documents.get(uri)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None or doc is None or doc.syntax.lines.line_count < self.offload_lines:
            self.publish(uri)
            return
        snap = doc.snapshot
        load(ANALYSIS)  # (the worker imports nothing: `awl_lsp.server.warm`)
        self.checks_ready()
        lock = self._checking.setdefault(uri, threading.Lock())

        def check() -> None:
            with lock:
                snap.derived("diagnostics", lambda s: diagnostics(s, uri, self.dims_unused))

        async def run() -> None:
            try:
                await asyncio.to_thread(check)
            except Exception:  # noqa: BLE001 — published from the loop then (and logged there)
                log.exception("diagnostics failed for %s", uri)
            if self.documents.get(uri) is not doc:
                return
            self.publish(uri)  # (this version's from the memo, or the newest one's)
            # then the document's declared types, which the first completion (or hover) would build:
            # kept per document, its later versions reuse them (≈ 3 ms of CPU at 5,000 lines)
            try:
                await asyncio.to_thread(type_env, snap)
            except Exception:  # noqa: BLE001 — the first completion builds them then
                log.exception("declared types failed for %s", uri)

        task = loop.create_task(run())
        self._workers.add(task)
        task.add_done_callback(self._workers.discard)

    def dependents_changed(self, names: set[str], skip: str | None = None) -> None:
        """Re-publish the documents tied to workflows whose contract side changed."""
        for entry in self.session.dependents(names):
            uri = self.uri_of(entry.path)
            if uri == skip:
                continue
            if uri in self.documents and self.pull.enabled:
                self.pull.refresh_soon()  # the client pulls it again
            elif uri in self.documents:
                self.schedule(uri)
            else:
                self.publish_unopened(entry)

    def publish_unopened(self, entry: Entry) -> None:
        """The diagnostics of a workspace document that is not open (pushed, or the client is asked
        to pull)."""
        if entry.is_open:
            return
        if self.pull.enabled:  # the client pulls the workspace: it is asked to, not told
            self.pull.refresh_soon()
            return
        items = self.session.unopened_report(entry, self.encoding)
        if items is not None:
            params = lsp.PublishDiagnosticsParams(uri=entry.uri, diagnostics=items)
            self.text_document_publish_diagnostics(params)

    def settle_capabilities(
        self, client: lsp.ClientCapabilities, capabilities: lsp.ServerCapabilities
    ) -> None:
        """At initialize, once pygls has listed the features: those that depend on the client."""
        self.pull.settle(client, capabilities)

    # ---- scheduling
    def schedule(self, uri: str) -> None:
        """Diagnostics for the final version of a burst: published once the input is quiet.

        Every edit re-arms the timer, so a burst of keys publishes once, for its last version;
        requests in between analyse the newest version lazily and never wait for diagnostics.
        """
        timer = self._due.pop(uri, None)
        if timer is not None:
            timer.cancel()
        doc = self.documents.get(uri)
        if doc is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.publish(uri)
            return
        now = loop.time()
        # a burst: this edit overtook a publish still pending, or came right behind the last edit
        burst = timer is not None or now - self._last_edit.get(uri, float("-inf")) < self.debounce
        self._last_edit[uri] = now
        delay = self.burst_debounce if burst else self.debounce
        self._due[uri] = loop.call_later(delay, self._due_now, uri, doc.version)

    def _due_now(self, uri: str, version: int | None, since: float | None = None) -> None:
        doc = self.documents.get(uri)
        if doc is None or doc.version != version:  # a newer edit re-armed its own timer
            return
        loop = asyncio.get_running_loop()
        since = loop.time() if since is None else since
        if self.messages_waiting() and loop.time() - since < self.max_postpone:
            # a message is waiting (a request, more keys): it goes first, the publish right after
            self._due[uri] = loop.call_later(0.001, self._due_now, uri, version, since)
            return
        self.publish(uri)

    def closed(self, uri: str, doc: OpenDocument) -> None:
        """`doc`, just taken out of `documents`, was closed: nothing is scheduled for it any more,
        and it is freed once the input is quiet — or now, with the others waiting, when together
        they hold more than `CLOSED_LINES` lines (a script opening and closing files back to back
        never leaves the input quiet; each fork of a first check would copy their page tables)."""
        self._last_edit.pop(uri, None)
        self._checking.pop(uri, None)
        self.recent.forget(uri)
        self._closed.append(doc)  # (freed when the input is quiet)
        self._closed_lines += doc.syntax.lines.line_count
        if self._closed_lines > self.timings.CLOSED_LINES:  # opens and closes with no quiet between
            self._closed.clear()
            self._closed_lines = 0
        timer = self._due.pop(uri, None)
        if timer is not None:
            timer.cancel()
        self.release_memory_soon()

    # ---- work at quiet moments
    def busy(self) -> bool:
        """Is anything due that background work must not delay — a message waiting, a publish, a
        document's first check in a worker?"""
        return self.messages_waiting() or bool(self._due) or bool(self._workers)

    def initialize_answered(self) -> None:
        """`initialize` is answered: what start-up made is here to stay (`memory.settle`), and what
        the first requests would pay for is made while nothing else is to do (`awl_lsp.server.warm`)."""
        memory.settle()
        # the C library's trim is looked up (ctypes loaded) now, before any document: loaded among
        # the objects of the first documents, it would keep ≈ 4 MB of their pages after they close
        memory.trim()
        if WARM_UP and self.warm is None:
            self.warm = WarmUp(steps(self.protocol), self.busy)
            self.warm.start()

    def release_memory_soon(self) -> None:
        """Once a burst of closes has ended (and the input is quiet), give the freed memory back:
        once per burst, not per document (see `when_quiet`)."""
        self.when_quiet(release=True)

    def when_quiet(self, release: bool = False) -> None:
        """Memory work that pauses the server — a full collection, ≈ 100 ms at 5,000 lines — waits
        until the input has been quiet for a while (`RELEASE_AFTER` after closes, else
        `RECLAIM_AFTER`): every publish re-arms the timer, so typing never meets it. After closes
        everything is collected and the freed pages go back (`memory.release`); otherwise the
        frozen heap is collected if it grew enough (`memory.reclaim_due`)."""
        self._release_due = self._release_due or release
        if self._quiet is not None:
            self._quiet.cancel()
            self._quiet = None
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            if self._release_due:
                self._release_due = False
                self._closed.clear()
                self._closed_lines = 0
                memory.release()
            return

        def run() -> None:
            self._quiet = None
            if self.messages_waiting() or self._workers:  # (a first check in a worker is not quiet)
                self.when_quiet()
            elif self._release_due:
                self._release_due = False
                self._closed.clear()
                self._closed_lines = 0
                memory.release()
            elif memory.reclaim_due():
                memory.reclaim()
                memory.trim()

        delay = self.release_after if self._release_due else self.reclaim_after
        self._quiet = loop.call_later(delay, run)
