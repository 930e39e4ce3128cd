"""A long document's first check on two cores: a forked process checks items from the bottom up.

A document's first run checks every item (≈ 150 ms of item rules at 5,000 lines), and CPython runs
one thread at a time. When the server switches it on (`enable`) and a second core is ours,
`CheckCache.run` hands a first run to `check_apart`, which starts a `Meeting`: a child process made
by `fork` — it starts with the parent's memory as it is (text, tree, model: nothing is sent to it) —
runs the item rules from the last item up, while the parent first makes every item's entry (what
the document-wide rules read: its summary and tally), runs the document-wide rules, and then runs
the item rules from the first item down. Each side notes the item it takes in a shared page and
stops where it meets the other's, so the two finish together whatever the document's shape. The
child sends back, per item, what its rules found (problems, the names they looked up, whether a
message names a line, the item's exports: `item_check.Findings`), pickled over a pipe; the entries
are then the ones one process would have made (`tests/test_parallel_checks.py` compares them).

Whatever goes wrong on the child's side — no `fork` here, a child that fails, exits early or sends
something unreadable, or sends nothing for `TIMEOUT` after the parent is done — the parent checks
the items the child did not deliver itself (as it does the one item both may have left, when they
took their last ones at the same moment): the results never depend on the split. The child touches
nothing it shares with the parent besides the pipe and the page: it closes every other file at
once (the server's protocol on standard input and output among them; standard error stays, for a
crash's last words), never logs, and leaves by `os._exit` (no `atexit`, no flushing). A child is
reaped by a thread of its own, so no exited child lingers.
"""

from __future__ import annotations

import mmap
import os
import pickle
import select
import struct
import threading
import time
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from awl_lsp.checks.exports import item_nodes
from awl_lsp.checks.item_check import Entry, ItemRun, add_findings

# a shorter document, or one of fewer items, is checked in one process (a fork costs ≈ 3–6 ms)
MIN_LINES = 1500
MIN_ITEMS = 8
# once done with its part, the parent waits at most this long for the child's findings
TIMEOUT = 5.0

_enabled = False
_SLOT = struct.Struct("q")  # the shared page: [parent's next item, child's last item taken]


def enable(on: bool = True) -> None:
    """Let first runs use a second process (only where `fork` exists and a second core is ours)."""
    global _enabled
    _enabled = on and hasattr(os, "fork") and _cores() >= 2


def enabled() -> bool:
    return _enabled


def splits(items: int, lines: int) -> bool:
    """Is a first run of this many items and lines split (a fork is worth it)?"""
    return _enabled and items >= MIN_ITEMS and lines >= MIN_LINES


def check_apart(run: ItemRun, fresh: list[int], entries: list[Entry], alongside: Callable[[], None]) -> bool:
    """Check the items `fresh` of a first run with a child process, into `entries`: every item's
    entry is made here first, then `alongside` runs (the document-wide rules), then the item rules
    from the first item down until the child's are met; what the child found is added, and what it
    did not deliver is checked here. False (nothing done) when no child could be started."""
    nodes = run.nodes
    meeting = meet(lambda i: run.findings(i, item_nodes(nodes[i])), fresh)
    if meeting is None:
        return False
    found = {}
    ruled: set[int] = set()
    try:
        for i in fresh:
            found[i] = item_nodes(nodes[i])
            entries[i] = run.entry(i, found[i])
        alongside()
        for k, i in enumerate(fresh):
            if not meeting.take(k):
                break
            add_findings(entries[i], *run.findings(i, found[i]))
            ruled.add(i)
    except BaseException:
        meeting.abandon()
        raise
    theirs = meeting.results()
    for i in fresh:
        if i not in ruled:
            add_findings(entries[i], *(theirs.get(i) or run.findings(i, found[i])))
    return True


def _fd_limit() -> int:
    try:
        return int(os.sysconf("SC_OPEN_MAX"))
    except (AttributeError, ValueError, OSError):
        return 1 << 16


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class Meeting:
    """A child process checking `indexes` from the last one up; the parent takes them from the first
    one down (`take`) until the two meet, then collects the child's findings (`results`)."""

    def __init__(self, pid: int, fd: int, page: mmap.mmap, indexes: Sequence[int]) -> None:
        self.pid, self.fd, self.page, self.indexes = pid, fd, page, list(indexes)

    def take(self, k: int) -> bool:
        """May the parent check the item at position `k`? (False once the child has taken it.)"""
        _SLOT.pack_into(self.page, 0, k + 1)
        return _SLOT.unpack_from(self.page, 8)[0] > k

    def results(self, timeout: float | None = None) -> dict[int, Any]:
        """Per item index, what the child's `run_one` returned, for the items it delivered (none if
        it failed). Always reaps the child."""
        chunks: list[bytes] = []
        deadline = time.monotonic() + (TIMEOUT if timeout is None else timeout)
        finished = False
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([self.fd], [], [], left)[0]:
                    break  # no findings in time: given up
                chunk = os.read(self.fd, 1 << 20)
                if not chunk:
                    finished = True
                    break
                chunks.append(chunk)
        except OSError:
            finished = False
        finally:
            os.close(self.fd)
            self.page.close()
            if not finished:
                _kill(self.pid)
            _reap(self.pid)
        if not finished:
            return {}
        try:
            found = pickle.loads(b"".join(chunks))  # noqa: S301 — our own child's bytes, over our own pipe
        except Exception:  # noqa: BLE001 — anything unreadable: the parent checks the items itself
            return {}
        indexes = self.indexes
        try:
            return {indexes[k]: result for k, result in found}
        except (TypeError, ValueError, IndexError):
            return {}

    def abandon(self) -> None:
        """The parent will not read the child's findings (it failed itself): the child is stopped."""
        try:
            os.close(self.fd)
            self.page.close()
        except (OSError, ValueError):  # (closed already: `results` ran)
            return
        _kill(self.pid)
        _reap(self.pid)


def _kill(pid: int) -> None:
    try:
        os.kill(pid, 9)
    except OSError:
        pass


# children not reaped yet: each is waited for by a thread of its own (its exit gives its memory back,
# ≈ 10–20 ms for a large server: nobody waits for that)
_unreaped: set[int] = set()


def _reap(pid: int) -> None:
    _unreaped.add(pid)

    def wait() -> None:
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass
        _unreaped.discard(pid)

    threading.Thread(target=wait, name="awl-reap", daemon=True).start()


def meet(run_one: Callable[[int], Any], indexes: Sequence[int]) -> Meeting | None:
    """Start a child running `run_one(i)` for `indexes` from the last one up, until it meets the
    parent's `Meeting.take`; None when no child could be started (the parent checks them all)."""
    if not _enabled or not indexes:
        return None
    try:
        page = mmap.mmap(-1, 16)  # (anonymous and shared: both processes see each other's writes)
        _SLOT.pack_into(page, 0, 0)
        _SLOT.pack_into(page, 8, len(indexes))
        r, w = os.pipe()
    except OSError:
        return None
    try:
        with warnings.catch_warnings():  # (3.12+ warns of fork in a process with threads: the child
            # here runs only its own thread's code, see the module's docstring)
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
    except OSError:
        os.close(r)
        os.close(w)
        page.close()
        return None
    if pid == 0:  # the child: check, send, leave (never returns)
        code = 1
        try:
            # every file the child was handed but its pipe's end goes: the server's protocol (standard
            # input and output), and another thread's meeting, whose parent would wait for this
            # child to end before it read its own child's end of file
            os.closerange(0, 2)
            os.closerange(3, w)
            os.closerange(w + 1, _fd_limit())
            done: list[tuple[int, Any]] = []
            for k in range(len(indexes) - 1, -1, -1):
                _SLOT.pack_into(page, 8, k)
                if _SLOT.unpack_from(page, 0)[0] > k:
                    break  # the parent has taken it
                done.append((k, run_one(indexes[k])))
            view = memoryview(pickle.dumps(done, pickle.HIGHEST_PROTOCOL))
            while view:
                view = view[os.write(w, view) :]
            os.close(w)  # (the parent reads to the end now, not once this process's memory is gone)
            code = 0
        finally:
            os._exit(code)
    os.close(w)
    return Meeting(pid, r, page, indexes)


__all__ = ["MIN_ITEMS", "MIN_LINES", "Meeting", "check_apart", "enable", "enabled", "meet", "splits"]
