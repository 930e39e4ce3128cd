"""Giving memory back: after documents close, collect cycles and return freed heap pages to the OS;
and only the documents in use keep what can be derived again.

CPython frees a closed document's objects at once, but the C allocator keeps the pages, so the
process would stay at its high-water mark. `release()` runs the cycle collector and, on glibc,
`malloc_trim(0)`, so memory use follows the documents that are open.

Cyclic garbage collection is kept off the typing path: what lived through a message is frozen
(`settle`: the collector never walks it again, so no collection costs more than the garbage of
the last few messages — a full one over a 5,000-line document's model costs ≈ 100 ms, at 20,000
lines ≈ 400 ms, and CPython would start one at any keystroke). The frozen heap is collected in
full only when the input is quiet and it has grown by a quarter since it was last collected
(`reclaim_due`, `reclaim`: CPython's own rule for a full collection, moved to a moment when nobody
waits), and when documents close (`release`); CPython's own trigger is off while serving
(`full_collections_when_quiet`).

`RecentDocuments` keeps the derived caches (check results, semantic tokens, …) of the `KEEP`
documents used most recently; an open document nobody has touched since is compacted to its text,
tree and model facts (see `OpenDocument.compact`) and re-derives the rest when it is used again.
"""

from __future__ import annotations

import gc
import os
import sys
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Protocol

_trim: Callable[[int], int] | None = None
_trim_looked_up = False


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's `malloc_trim`, looked up at the first trim (ctypes is not loaded before: the server
    answers `initialize` first); None when the C library has none (not glibc)."""
    import ctypes

    try:
        return ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):
        pass
    import ctypes.util  # (its search runs `ldconfig`: only when the usual name is not there)

    try:
        return ctypes.CDLL(ctypes.util.find_library("c")).malloc_trim
    except (OSError, AttributeError, TypeError):  # not glibc: collecting is all we can do
        return None


def release() -> None:
    """Collect every cycle (the frozen objects too) and give the freed pages back."""
    reclaim()
    trim()


def no_full_collections() -> None:
    """From the server's very start, no full collection runs: its imports make tens of thousands of
    objects that live until the process exits, and full collections would walk them again and
    again, freeing nothing (≈ 25 ms of CPU before `initialize` is answered). Young collections run
    as usual, so start-up's short-lived garbage is freed as it goes (with the collector off it
    would stay, ≈ 9 MB). Serving keeps the rule (`full_collections_when_quiet`)."""
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, 1 << 30)


GROWTH = 0.25  # the frozen heap is collected once it grew by this part of itself…
FLOOR = 50_000  # …and by at least this many objects (a small heap is not worth a pause)
_baseline = 0  # objects frozen right after the last full collection


@contextmanager
def full_collections_when_quiet() -> Iterator[None]:
    """While serving, full collections happen only by `reclaim` (at quiet moments) and `release`
    (after closes): CPython's own trigger is switched off (young collections still run as usual;
    a model build moves what it made to the oldest generation at once, and the next `settle`
    freezes it). Afterwards the thresholds are as they were and nothing stays frozen."""
    young, middle, oldest = gc.get_threshold()
    gc.set_threshold(young, middle, 1 << 30)
    try:
        yield
    finally:
        gc.set_threshold(young, middle, oldest)
        gc.unfreeze()


def settle() -> None:
    """What has lived until now is here to stay (a model, a document's tables): the collector stops
    walking it (`gc.freeze`, O(1)). Garbage cycles among these objects wait for `reclaim`."""
    gc.freeze()


def reclaim_due() -> bool:
    """Has the frozen heap grown enough since the last full collection for one to be worth it?
    (Counting walks the frozen objects, ≈ 1 ms per 100,000: ask when the input is quiet.)"""
    return gc.get_freeze_count() > _baseline * (1 + GROWTH) + FLOOR


def reclaim() -> None:
    """A full collection of everything, frozen objects included; what survives is frozen again."""
    global _baseline
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    _baseline = gc.get_freeze_count()


def trim() -> None:
    """Return the C allocator's free pages to the OS (≈ 0.1 ms; no collection, which costs ≈ 0.2 s
    with a hundred documents open)."""
    global _trim, _trim_looked_up
    if not _trim_looked_up:
        _trim, _trim_looked_up = _malloc_trim(), True
    if _trim is not None:
        _trim(0)


def prefer_system_allocator(argv: list[str]) -> None:
    """Re-run this process under the C allocator (`PYTHONMALLOC=malloc`), once, before serving.

    CPython's own small-object allocator keeps an arena while any object in it lives, so a
    server that opened and closed many documents would hold its peak memory for good; with the
    C allocator and `release()` it returns to its baseline (100 documents closed: 58 MB against
    129 MB). Keystrokes cost the same; a document's first analysis costs ≈ 10 % more CPU. Does
    nothing off POSIX, when the variable is already set, or when `AWL_KEEP_ALLOCATOR` is set (and
    if the re-run fails, it serves as it is).

    The clients we ship set the variable, so this is for the others; `awl lsp` calls it first
    thing (`cli.main`, before even the argument parser), so the re-run costs a bare interpreter's
    start, not the protocol library's import.
    """
    if os.name != "posix" or os.environ.get("PYTHONMALLOC") or os.environ.get("AWL_KEEP_ALLOCATOR"):
        return  # (elsewhere exec starts a new process and the client would lose its pipe)
    env = dict(os.environ, PYTHONMALLOC="malloc")
    try:
        os.execve(sys.executable, [sys.executable, "-m", "awl_lsp", *argv], env)
    except OSError:
        return


KEEP = 12  # documents whose derived caches are kept (an editor's visible and recent tabs)


class Compactable(Protocol):
    def compact(self) -> None: ...


class RecentDocuments:
    """The open documents by last use; past the `keep` most recent, each is compacted once."""

    def __init__(self, keep: int = KEEP) -> None:
        self.keep = keep
        self._order: OrderedDict[str, None] = OrderedDict()

    def touch(self, uri: str, documents: Mapping[str, Compactable]) -> bool:
        """`uri` was used now; compact the documents this pushes out of the recent ones (True if any)."""
        order = self._order
        if uri in order:
            order.move_to_end(uri)
            return False
        order[uri] = None
        compacted = False
        while len(order) > self.keep:
            old, _ = order.popitem(last=False)
            doc = documents.get(old)
            if doc is not None:
                doc.compact()
                compacted = True
        return compacted

    def forget(self, uri: str) -> None:
        self._order.pop(uri, None)

    def __contains__(self, uri: str) -> bool:
        return uri in self._order
