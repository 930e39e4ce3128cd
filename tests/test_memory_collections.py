"""Garbage collection while serving: no full collection at a keystroke, and no cycle kept for good.

What lived through a message is frozen (collections never walk it again); a full collection
runs only when the input is quiet (`reclaim`) or after closes (`release`), and it frees the
cycles that were frozen meanwhile."""

from __future__ import annotations

import gc
import weakref

from awl_lsp.server import memory


class _Node:
    def __init__(self) -> None:
        self.other: _Node | None = None


def _cycle() -> weakref.ref:
    a, b = _Node(), _Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_while_serving_cpython_starts_no_full_collection_and_afterwards_all_is_as_before() -> None:
    before = gc.get_threshold()
    with memory.full_collections_when_quiet():
        young, middle, oldest = gc.get_threshold()
        assert (young, middle) == before[:2] and oldest >= 1 << 30
        memory.settle()
        assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0  # nothing stays frozen once the server is done


def test_a_cycle_frozen_while_it_lived_is_freed_by_the_next_reclaim() -> None:
    with memory.full_collections_when_quiet():
        ref = _cycle()  # garbage already, but only a collection can tell
        memory.settle()  # (what a message leaves behind is frozen)
        gc.collect(1)  # young collections do not look at frozen objects
        assert ref() is not None
        memory.reclaim()
        assert ref() is None


def test_release_frees_frozen_cycles_too() -> None:
    with memory.full_collections_when_quiet():
        ref = _cycle()
        memory.settle()
        memory.release()
        assert ref() is None


def test_a_reclaim_is_due_only_once_the_frozen_heap_has_grown_by_a_quarter() -> None:
    with memory.full_collections_when_quiet():
        memory.reclaim()
        assert not memory.reclaim_due()
        frozen = gc.get_freeze_count()
        keep = [[] for _ in range(int(frozen * memory.GROWTH) + memory.FLOOR + 1000)]
        memory.settle()
        assert memory.reclaim_due()
        memory.reclaim()
        assert not memory.reclaim_due()
        del keep
