"""What the document-wide rules gather across all items — the names hatched, read, bound twice … —
kept between runs and brought up to date from the items a run added or dropped.

A document-wide rule asks for a gathering by a key of its own and a function of one `Item`
(its tally, summary, resolution: what the engine keeps with the item): `union(ctx, key, of)` is
every name some item gives, `repeated(ctx, key, of, twice)` every name that two items give (or one
item twice). `Across` remembers, per key, how many items give each name; after an edit it lines
the run's items up with the last run's (by identity: the engine keeps an item's `Item` as long as
its text, facts and resolution stay the same) and counts only the items that came and went, so a
pasted step costs what that step gives, not a pass over the document. A gathering nobody asked
for in the previous run is counted afresh. Without an `Across` (a context the engine did not
prepare) both count from scratch.

What a gathering returns is shared with the next run: callers read it and never change it.

While a gathering counts, `Across.counting` is set: what it reads of an item is the gathering's
input, compared by its answer (`swap`, which brings the gatherings up to date with items the
engine replaced without running the rules and says whether any answer changed), not item by item
(see `replay.TallyProbe`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import chain
from typing import Any, Protocol

from awl_lsp.syntax.alignment import common_ends

Item = Any  # a `base.Item` (not imported: `base` names `Across`)
Keys = Callable[[Item], Iterable[str]]


class _Context(Protocol):
    """What the gatherings read of a `base.CheckContext`."""

    items: list[Item]
    across: Across | None


@dataclass
class _Count:
    """One gathering: how many items give each name (and, for `repeated`, give it twice)."""

    run: int  # the run it is up to date with
    given: dict[str, int] = field(default_factory=dict)
    twice: dict[str, int] = field(default_factory=dict)
    found: set[str] = field(default_factory=set)  # the answer: given at all, or repeated
    of: Keys | None = None  # what it counts of an item (as the rule asked last)
    twice_of: Keys | None = None


class Counting:
    """Whether a gathering is counting right now (its reads of items are not the rules'): the one
    thing an item's tally probe needs of the gatherings, held apart from them so that the items
    the gatherings keep do not point back at them (a cycle only a full collection would free)."""

    __slots__ = ("now",)

    def __init__(self) -> None:
        self.now = False


class Across:
    """The gatherings of one document (owned by its `CheckCache`)."""

    def __init__(self) -> None:
        self._items: list[Item] = []
        self._run = 0
        self._added: list[Item] = []
        self._dropped: list[Item] = []
        self._counts: dict[str, _Count] = {}
        self.flag = Counting()  # a gathering is counting (`counting`)

    @property
    def counting(self) -> bool:
        return self.flag.now

    @counting.setter
    def counting(self, value: bool) -> None:
        self.flag.now = value

    def update(self, items: list[Item]) -> None:
        """A new run over `items`: note which items came and which went since the last one."""
        old = self._items
        a, b = list(map(id, old)), list(map(id, items))
        p, s = common_ends(a, b)
        old_mid, new_mid = old[p : len(old) - s], items[p : len(items) - s]
        now, before = set(b[p : len(b) - s]), set(a[p : len(a) - s])
        self._dropped = [x for x in old_mid if id(x) not in now]
        self._added = [x for x in new_mid if id(x) not in before]
        self._items = items
        self._run += 1

    def swap(self, replaced: dict[int, Item], count: int) -> bool:
        """The items at these indexes replaced, `count` items in all as before: every gathering the
        last run asked for is brought up to date with them; False when an answer changed (or the
        last run had another count of items)."""
        if len(self._items) != count:
            return False
        if not replaced:
            return True
        items = list(self._items)
        dropped = [items[i] for i in replaced]
        for i, it in replaced.items():
            items[i] = it
        added = list(replaced.values())
        last, self._run = self._run, self._run + 1
        self._items, self._dropped, self._added = items, dropped, added
        same = True
        self.counting = True
        try:
            for c in self._counts.values():
                if c.run != last or c.of is None:
                    continue  # (not asked for last run: counted afresh when asked again)
                c.run = -1  # (stale, should counting raise half-way)
                of, twice = c.of, c.twice_of
                touched = {k for it in (*dropped, *added) for k in (*of(it), *(twice(it) if twice else ()))}
                was = {k for k in touched if k in c.found}
                _tally(c, dropped, of, twice, -1)
                _tally(c, added, of, twice, 1)
                same = same and was == {k for k in touched if k in c.found}
                c.run = self._run
        finally:
            self.counting = False
        return same

    def _count(self, key: str, of: Keys, twice: Keys | None) -> _Count:
        c = self._counts.get(key)
        if c is not None and c.run == self._run:
            return c
        self.counting = True
        try:
            if c is None or c.run != self._run - 1:
                c = _Count(self._run, of=of, twice_of=twice)
                _fresh(c, self._items, of, twice)
                self._counts[key] = c
            else:
                c.run = -1  # (stale, should a rule raise half-way)
                c.of, c.twice_of = of, twice
                _tally(c, self._dropped, of, twice, -1)
                _tally(c, self._added, of, twice, 1)
                c.run = self._run
        finally:
            self.counting = False
        return c


def _fresh(c: _Count, items: list[Item], of: Keys, twice: Keys | None) -> None:
    """Count `items` into an empty `c` (what `_tally` does with step 1, the counting done by
    `Counter` in C: a document's first run counts every item)."""
    given = Counter(chain.from_iterable(map(of, items)))
    c.given.update(given)
    if twice is None:
        c.found.update(given)
        return
    doubled = Counter(chain.from_iterable(map(twice, items)))
    c.twice.update(doubled)
    c.found.update(k for k, n in given.items() if n >= 2)
    c.found.update(doubled)


def _tally(c: _Count, items: list[Item], of: Keys, twice: Keys | None, step: int) -> None:
    """Count `items` in (`step` 1) or out (-1)."""
    given, doubled, found = c.given, c.twice, c.found
    touched: set[str] = set()
    for it in items:
        for k in of(it):
            given[k] = given.get(k, 0) + step
            touched.add(k)
        if twice is not None:
            for k in twice(it):
                doubled[k] = doubled.get(k, 0) + step
                touched.add(k)
    least = 1 if twice is None else 2
    for k in touched:
        n = given.get(k, 0)
        if n <= 0:
            given.pop(k, None)
        d = doubled.get(k, 0)
        if d <= 0:
            doubled.pop(k, None)
        if n >= least or d > 0:
            found.add(k)
        else:
            found.discard(k)


def union(ctx: _Context, key: str, of: Keys) -> set[str]:
    """Every name some item gives (`of(item)`); read only."""
    across = ctx.across
    if across is None:
        return {k for it in ctx.items for k in of(it)}
    return across._count(key, of, None).found


def repeated(ctx: _Context, key: str, of: Keys, twice: Keys) -> set[str]:
    """Every name two items give (`of(item)`, a set per item), or one item twice (`twice(item)`);
    read only."""
    across = ctx.across
    if across is None:
        c = _Count(0)
        _fresh(c, ctx.items, of, twice)
        return c.found
    return across._count(key, of, twice).found


__all__ = ["Across", "repeated", "union"]
