"""The document-wide gatherings (`awl_lsp.checks.across`) name what a count over every item names.

The duplicate-name, rebinding and unread-name rules read these gatherings: a name missing from
one is a duplicate nobody is told about, a name too many is a false error. A document's first run
counts every item at once; later runs count only the items that came and went. Both must agree
with counting the items by hand, whatever the names.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from awl_lsp.checks.across import Across, repeated, union


@dataclass(eq=False)
class _Item:
    names: frozenset[str]  # names the item gives once
    twice: frozenset[str] = frozenset()  # names the item itself gives twice


@dataclass
class _Ctx:
    items: list[_Item]
    across: Across | None = None


def _given(it: _Item) -> frozenset[str]:
    return it.names


def _doubled(it: _Item) -> frozenset[str]:
    return it.twice


def _by_hand(items: list[_Item]) -> tuple[set[str], set[str]]:
    count: dict[str, int] = {}
    for it in items:
        for k in it.names:
            count[k] = count.get(k, 0) + 1
    given = set(count)
    twice = {k for k, n in count.items() if n >= 2} | {k for it in items for k in it.twice}
    return given, twice


def _random_item(rng: random.Random) -> _Item:
    pool = [f"n{i}" for i in range(12)]
    names = frozenset(rng.sample(pool, rng.randint(0, 4)))
    twice = frozenset(rng.sample(pool, rng.randint(0, 1))) if rng.random() < 0.3 else frozenset()
    return _Item(names, twice)


def test_a_first_run_and_the_runs_after_edits_gather_what_counting_by_hand_gathers() -> None:
    rng = random.Random(9)
    for _ in range(40):
        items = [_random_item(rng) for _ in range(rng.randint(0, 15))]
        ctx = _Ctx(items, Across())
        for _ in range(6):
            ctx.across.update(ctx.items)  # type: ignore[union-attr]
            given, twice = _by_hand(ctx.items)
            assert union(ctx, "given", _given) == given
            assert repeated(ctx, "twice", _given, _doubled) == twice
            # without an `Across` (a context the engine did not prepare) the same answers
            bare = _Ctx(list(ctx.items))
            assert union(bare, "given", _given) == given
            assert repeated(bare, "twice", _given, _doubled) == twice
            # an edit: some items cut, some pasted, the rest kept (the same objects)
            kept = [it for it in ctx.items if rng.random() < 0.8]
            at = rng.randint(0, len(kept))
            ctx.items = kept[:at] + [_random_item(rng) for _ in range(rng.randint(0, 3))] + kept[at:]


def test_a_name_two_items_give_is_repeated_and_one_item_giving_it_twice_is_too() -> None:
    a, b, c = _Item(frozenset({"x", "y"})), _Item(frozenset({"x"})), _Item(frozenset({"z"}), frozenset({"z"}))
    ctx = _Ctx([a, b, c], Across())
    ctx.across.update(ctx.items)  # type: ignore[union-attr]
    assert repeated(ctx, "twice", _given, _doubled) == {"x", "z"}
    assert union(ctx, "given", _given) == {"x", "y", "z"}
    ctx.items = [a, c]  # `b` cut: `x` is given once now
    ctx.across.update(ctx.items)  # type: ignore[union-attr]
    assert repeated(ctx, "twice", _given, _doubled) == {"z"}


def test_items_swapped_without_a_run_bring_every_gathering_asked_for_up_to_date() -> None:
    """The engine replaces an item without running the rules (its problems reused): the gatherings
    the last run asked for count the new item instead of the old one, say whether any answer
    changed, and the next run after that still answers as counting by hand does."""
    rng = random.Random(4)
    changed_seen = same_seen = 0
    for _ in range(60):
        items = [_random_item(rng) for _ in range(rng.randint(1, 12))]
        ctx = _Ctx(list(items), Across())
        ctx.across.update(ctx.items)  # type: ignore[union-attr]
        before = (union(ctx, "given", _given), repeated(ctx, "twice", _given, _doubled))
        before = (set(before[0]), set(before[1]))
        at = rng.sample(range(len(items)), min(len(items), rng.randint(1, 2)))
        swapped = {i: _random_item(rng) for i in at}
        ctx.items = [swapped.get(i, it) for i, it in enumerate(ctx.items)]  # (a new list, as each run's)
        same = ctx.across.swap(swapped, len(ctx.items))  # type: ignore[union-attr]
        given, twice = _by_hand(ctx.items)
        assert same == (before == (given, twice))
        changed_seen += not same
        same_seen += same
        ctx.across.update(ctx.items)  # type: ignore[union-attr]  # the next run
        assert union(ctx, "given", _given) == given
        assert repeated(ctx, "twice", _given, _doubled) == twice
    assert changed_seen and same_seen  # (both answers were exercised)


def test_a_swap_for_another_count_of_items_is_refused() -> None:
    a, b = _Item(frozenset({"x"})), _Item(frozenset({"y"}))
    ctx = _Ctx([a, b], Across())
    ctx.across.update(ctx.items)  # type: ignore[union-attr]
    union(ctx, "given", _given)
    assert not ctx.across.swap({0: b}, 3)  # type: ignore[union-attr]
