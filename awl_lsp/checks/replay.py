"""Reusing the document-wide rules' problems across an edit that changes nothing they read.

The document-wide rules (`check(ctx)` of the rule modules) read the items' facts, summaries and
tallies, a few document facts and, for some items, the tree (`Item.node`). After an edit inside one
step most of that is the same as before, only moved. This module decides when it is *exactly* the
same — so the previous problems, moved, are what a fresh run would report — without any rule
declaring what it reads:

- `ItemMap` carries points of one item's old text to its new text (the text both share before and
  after the edited stretch keeps its place relative to it; a point inside the stretch has no image).
- `shape(entry, map)` is everything a document-wide rule can see of an item — facts with their
  places, the summary with its places, the node type — with the old places carried through the
  map, so an old and a new item compare equal when the rules would see the same item, moved.
- `NodeProbe` stands in for an item's tree node while the document-wide rules run and notes the
  items whose node they read beyond its type; such an item's text is one of the rules' inputs.
- `Replay` remembers the last run's document-wide problems with the items they lie in, and moves
  them (`moved`) when the engine finds every changed item of the same shape and the document
  facts unchanged. A message naming a line number is not reused when lines moved.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, is_dataclass
from itertools import compress
from operator import is_not
from typing import TYPE_CHECKING, Any, TypeVar

from awl_lsp.checks.tallies import Resolved, Tally, resolved, tally
from awl_lsp.model.facts import plain_scope
from awl_lsp.syntax.problems import Problem, Range, Related

if TYPE_CHECKING:
    from tree_sitter import Node

    from awl_lsp.checks.across import Across
    from awl_lsp.checks.summary import ItemSummary
    from awl_lsp.model.facts import ItemFacts

Point = tuple[int, int]
T = TypeVar("T")
_FORK_ROW = re.compile(r"fork@\d+")


def _scope(scope: str) -> str:
    """A scope without what moves with the text: the facts' id and a fork's row in its item (forks
    are told apart by their places, which the shape holds)."""
    return _FORK_ROW.sub("fork@", plain_scope(scope)) if "@" in scope else scope


_LINE_NUMBER = re.compile(r"\bline \d")


class Unmappable(Exception):
    """A place inside the edited stretch: the item's shape cannot be compared."""


def _point(text: bytes, offset: int) -> Point:
    """The (row, byte column) of `offset` in `text`."""
    return text.count(b"\n", 0, offset), offset - (text.rfind(b"\n", 0, offset) + 1)


class ItemMap:
    """Points of one item's old text -> its new text (rows in document coordinates).

    The two texts (the items' keys, which start at the beginning of a line) share a prefix and a
    suffix; a point before the differing stretch keeps its place, one after it moves with the
    suffix. A range's start at a pure insertion point moves with the insertion, its end does not.
    A pure insertion or deletion of whole lines is placed at the start of its line when the text
    allows both (a line pasted above a copy of itself is that line, not a break in the copy).
    """

    __slots__ = ("_a", "_b0", "_b1", "_old_row", "_new_row", "rows_moved", "_splits")

    def __init__(self, old_key: bytes, old_row: int, new_key: bytes, new_row: int) -> None:
        self._old_row, self._new_row = old_row, new_row
        # an item key's text ends at its first `\0` (what follows describes shared lines or a
        # broken item's tree: no places)
        old_key, new_key = old_key.split(b"\0", 1)[0], new_key.split(b"\0", 1)[0]
        if old_key == new_key:
            end = _point(old_key, len(old_key))
            self._a = self._b0 = self._b1 = end
        else:
            n = min(len(old_key), len(new_key))
            p = _common_prefix(old_key, new_key, n)
            s = _common_suffix(old_key, new_key, n - p)
            start = _line_start(old_key, new_key, p, s)
            p, s = start, s + p - start
            self._a = _point(old_key, p)
            self._b0 = _point(old_key, len(old_key) - s)
            self._b1 = _point(new_key, len(new_key) - s)
        self.rows_moved = old_row != new_row or self._b0[0] != self._b1[0]
        # the edit adds or removes line breaks: where it starts, a line's head stays and its tail
        # moves to another line. A place a rule made up on that line (a node's row at column 0)
        # may belong to either part: only the text's own places, elsewhere, are carried.
        self._splits = self._b0[0] != self._b1[0]

    def point(self, row: int, col: int, end: bool = False, made_up: bool = True) -> Point:
        """The new place of an old point; `made_up=False` for a place of the text itself (a
        node's, a symbol's), which keeps its place on a line the edit splits, before the edit."""
        q = (row - self._old_row, col)
        if q < self._a or (end and q == self._a):
            if made_up and self._splits and q[0] == self._a[0]:
                raise Unmappable
            return (q[0] + self._new_row, col)
        if q >= self._b0:
            if q[0] == self._b0[0]:
                return (self._b1[0] + self._new_row, col - self._b0[1] + self._b1[1])
            return (q[0] - self._b0[0] + self._b1[0] + self._new_row, col)
        raise Unmappable

    def range(self, r: Range) -> Range:
        """A problem's range (its places may be made up by a rule)."""
        s = self.point(r[0], r[1])
        e = self.point(r[2], r[3], end=True)
        return (s[0], s[1], e[0], e[1])

    def place(self, r: Range) -> Range:
        """A range of the text itself (a fact's, a summary's: what a shape holds)."""
        s = self.point(r[0], r[1], made_up=False)
        e = self.point(r[2], r[3], end=True, made_up=False)
        return (s[0], s[1], e[0], e[1])


def _line_start(old: bytes, new: bytes, p: int, s: int) -> int:
    """Where a pure insertion or deletion starts, moved back to the start of its line when the text
    before it there repeats the end of the stretch (both alignments give the same texts)."""
    if len(old) - s == p:
        stretch = new[p : len(new) - s]  # inserted
    elif len(new) - s == p:
        stretch = old[p : len(old) - s]  # deleted
    else:
        return p
    start = old.rfind(b"\n", 0, p) + 1
    if not stretch or start == p or p - start > len(stretch) or not stretch.endswith(old[start:p]):
        return p
    return start


class _Same:
    """The identity map (a new item's own places)."""

    rows_moved = False

    def range(self, r: Range) -> Range:
        return r

    place = range


SAME = _Same()


def _common_prefix(a: bytes, b: bytes, n: int) -> int:
    lo, hi = 0, n  # a[:lo] == b[:lo]; the answer is at most hi
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _common_suffix(a: bytes, b: bytes, n: int) -> int:
    la, lb = len(a), len(b)
    lo, hi = 0, n
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[la - mid : la - lo] == b[lb - mid : lb - lo]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def shape(
    kind: str,
    facts: ItemFacts,
    summary: ItemSummary,
    row: int,
    m: ItemMap | _Same,
    refs: bool,
    resolved: Resolved,
    flags: bool = True,
    tallied: bool = True,
) -> tuple | None:
    """What a document-wide rule can see of an item (first row `row`), its places carried by `m`
        (None: a place lies inside the edited stretch). Its references count one by one only when
        `refs` (the rules read them); otherwise through the item's tally and resolution. Whether its
        steps hold a syntax error counts only when `flags` (the rules asked, `StepInfo.broken`); its tally
    only when `tallied` (else the caller compares it field by field, `tally_changes`)."""
    try:
        own = {id(s): k for k, s in enumerate(facts.flat)}
        rng = m.place
        symbols = tuple(
            (
                s.kind,
                s.name,
                _scope(s.scope),
                s.container,
                s.type,
                s.detail,
                s.doc,
                tuple(sorted(s.extra.items())),
                tuple(own.get(id(c), -1) for c in s.children),
                rng(s.range),
                rng(s.selection),
            )
            for s in facts.flat
        )
        top = tuple(own.get(id(s), -1) for s in facts.symbols)
        seen: tuple = (kind, symbols, top, _walk(summary, row, m, _UNSEEN if flags else _UNASKED))
        if refs:
            return (
                *seen,
                tuple(
                    (r.kind, r.name, rng(r.range), _scope(r.scope), r.context, _target(r.target, own))
                    for r in facts.references
                ),
            )
        counted = _plain(tally(facts, "")) if tallied else ()
        return (*seen, counted, resolved.variant_types, resolved.cross_reads)
    except Unmappable:
        return None


def _plain(t: Tally) -> tuple:
    """A tally with the facts' id taken out of its fork scopes (a new copy of an item has a new id)."""
    out: list[object] = []
    for f in fields(t):
        v = getattr(t, f.name)
        if isinstance(v, frozenset):
            out.append(frozenset(_scope(x) for x in v))
        else:
            out.append(tuple(x if x is None else _scope(x) for x in v))
    return tuple(out)


_TALLY_FIELDS = tuple(f.name for f in fields(Tally))


def tally_changes(old: ItemFacts, new: ItemFacts) -> set[str]:
    """The fields of an item's tally that differ between two versions of its facts."""
    a, b = _plain(tally(old, "")), _plain(tally(new, ""))
    return {name for name, x, y in zip(_TALLY_FIELDS, a, b, strict=True) if x != y}


def _target(t: Any, own: dict[int, int]) -> object:
    if t is None:
        return None
    k = own.get(id(t))
    if k is not None:
        return k
    return (t.kind, t.name, _scope(t.scope), t.container)  # in another item: it moves with it


# summary fields a shape leaves out: the anchor (a place, carried through the map), and whether a
# step holds a syntax error unless the rules asked (`StepInfo.broken`)
_UNSEEN = frozenset({"anchor"})
_UNASKED = frozenset({"anchor", "error_inside"})


def _walk(v: Any, row: int, m: ItemMap | _Same, skip: frozenset[str]) -> object:
    """A summary value with its item-relative places as document places carried by `m` (the
    fields in `skip` left out)."""
    if is_dataclass(v):
        return tuple(_walk(getattr(v, f.name), row, m, skip) for f in fields(v) if f.name not in skip)
    if isinstance(v, tuple):
        if len(v) == 4 and all(type(x) is int for x in v):  # a relative range
            return m.place((v[0] + row, v[1], v[2] + row, v[3]))
        if len(v) == 2 and all(type(x) is int for x in v):  # a relative point
            r = m.place((v[0] + row, v[1], v[0] + row, v[1]))
            return r[:2]
        return tuple(_walk(x, row, m, skip) for x in v)
    if isinstance(v, list):
        return tuple(_walk(x, row, m, skip) for x in v)
    return v


class FactsProbe:
    """An item's facts as the document-wide rules see them: reading its references (or anything
    but its symbols) notes the item in `reads`."""

    __slots__ = ("_facts", "_index", "_reads")

    def __init__(self, facts: ItemFacts, index: int, reads: set[int]) -> None:
        self._facts = facts
        self._index = index
        self._reads = reads

    def aim(self, facts: ItemFacts, index: int, reads: set[int]) -> None:
        """The same probe for another run (the item's facts there, its index, that run's notes)."""
        self._facts = facts
        self._index = index
        self._reads = reads

    @property
    def flat(self) -> list:
        return self._facts.flat

    @property
    def symbols(self) -> list:
        return self._facts.symbols

    def __getattr__(self, name: str) -> Any:
        self._reads.add(self._index)
        return getattr(self._facts, name)


class TallyProbe:
    """An item's tally as the document-wide rules see it: the fields a rule reads are noted in
    `fields` (kept with the item, whichever run read them, a rule's per-item partials included),
    except what a gathering reads while it counts (`Across.counting`): those fields are compared
    by the gatherings' answers (`Across.swap`), not item by item."""

    __slots__ = ("_tally", "_across", "fields")

    def __init__(self, tally: Tally, across: Across) -> None:
        self._tally = tally
        self._across = across
        self.fields: set[str] = set()

    def __getattr__(self, name: str) -> Any:
        if not self._across.counting:
            self.fields.add(name)
        return getattr(self._tally, name)

    def attend(self, compute: Callable[[Any], T], item: object) -> T:
        """`compute(item)` — a rule's partial result for the item (`base.memo_of`), which the rule
        reads whoever asked for it first — with its reads noted even while a gathering counts."""
        across = self._across
        counting, across.counting = across.counting, False
        try:
            return compute(item)
        finally:
            across.counting = counting


class NodeProbe:
    """An item's node as the document-wide rules see it: reading anything but its type notes the
    item in `reads` (its text becomes an input of the rules)."""

    __slots__ = ("probed", "type", "_index", "_reads")

    def __init__(self, node: Node, index: int, reads: set[int]) -> None:
        self.probed = node
        self.type = node.type  # read freely (rules pick items by type)
        self._index = index
        self._reads = reads

    def aim(self, node: Node, index: int, reads: set[int]) -> None:
        """The same probe for another run (an item of the same type: its node there, its index,
        that run's notes)."""
        self.probed = node
        self._index = index
        self._reads = reads

    def __getattr__(self, name: str) -> Any:
        self._reads.add(self._index)
        return getattr(self.probed, name)

    def __eq__(self, other: object) -> bool:
        self._reads.add(self._index)
        return self.probed == getattr(other, "probed", other)

    def __hash__(self) -> int:
        return hash(self.probed)


@dataclass
class Replay:
    """The last run's document-wide problems, each with the items its places lie in."""

    problems: list[tuple[Problem, int, tuple[int, ...]]]  # (problem, item of its range, items of related)
    reads: set[int]  # items whose node the rules read beyond its type
    ref_reads: set[int]  # items whose references the rules read
    signature: tuple  # the document facts the rules read outside the items
    numbered: bool  # a message names a line number
    flag_reads: set[int]  # items whose steps the rules asked whether they are broken
    tally_reads: list[set[str]]  # per item, the fields of its tally the rules read (`TallyProbe`)

    @staticmethod
    def record(
        problems: list[Problem],
        key_rows: list[int],
        reads: set[int],
        ref_reads: set[int],
        signature: tuple,
        flag_reads: set[int],
        tally_reads: list[set[str]],
    ) -> Replay:
        def item(r: Range) -> int:
            return max(bisect_right(key_rows, r[0]) - 1, 0)

        out = [(p, item(p.range), tuple(item(r.range) for r in p.related)) for p in problems]
        numbered = any(_LINE_NUMBER.search(p.message) for p in problems)
        return Replay(out, reads, ref_reads, signature, numbered, flag_reads, tally_reads)

    def moved(self, maps: dict[int, ItemMap], p: int, s: int, count: int, delta: int) -> list[Problem] | None:
        """The problems moved to the new text: items before `p` stay, the last `s` move `delta` rows,
        the others through their map (None when a place cannot be carried or a line number moved)."""
        if self.numbered and (delta or any(m.rows_moved for m in maps.values())):
            return None
        suffix = count - s

        def carry(r: Range, j: int) -> Range:
            if j < p:
                return r
            if j >= suffix:
                return (r[0] + delta, r[1], r[2] + delta, r[3]) if delta else r
            m = maps.get(j)
            if m is None:
                raise Unmappable
            return m.range(r)

        out: list[Problem] = []
        try:
            for prob, j, rel in self.problems:
                rng = carry(prob.range, j)
                related = tuple(
                    Related(carry(r.range, k), r.message) for r, k in zip(prob.related, rel, strict=True)
                )
                if rng == prob.range and related == prob.related:
                    out.append(prob)
                else:
                    out.append(Problem(rng, prob.message, prob.code, prob.severity, prob.data, related))
        except Unmappable:
            return None
        return out


def replay_wide(
    last: Replay,
    old: list,
    entries: list,
    nodes: Sequence[Node],
    visited: list[int],
    p: int,
    s: int,
    delta: int,
    old_deps: list[frozenset[str]],
    deps: list[frozenset[str]],
    across: Across,
) -> list[Problem] | None:
    """The last document-wide problems moved to this version, when every item checked in this run
    has the shape it had (see `replay`) and every other item resolves as it did; else None. A tally
    field no rule read of the item may differ when the gatherings that count it give the answers
    they gave (`across` is brought up to date with the item)."""
    count = len(nodes)
    end = count - s
    old_rows: dict[int, int] = {}
    if p < end:  # the changed middle: the text above it is the same, so its first key starts alike
        k = nodes[p].start_point.row - entries[p].gap
        for i in range(p, end):
            old_rows[i] = k + old[i].gap
            k = old_rows[i] + old[i].span  # the next key starts on the line this item ends on
    maps: dict[int, ItemMap] = {}
    judged: set[int] = set()
    regathered: dict[int, Any] = {}  # items whose gathered names changed: their new `Item`
    for i in visited:
        o, e = old[i], entries[i]
        row = nodes[i].start_point.row
        was = row if i < p else row - delta if i >= end else old_rows[i]
        m = maps[i] = ItemMap(o.key, was - o.gap, e.key, row - e.gap)
        if o.key == e.key and o.facts is e.facts:
            e.seen = o.seen  # the same text and facts, checked again: its resolution is compared below
            continue
        if (i in last.reads and o.key != e.key) or o.seen is None:
            return None
        if o.key != e.key and (b"//!" in o.key or b"//!" in e.key):
            return None  # top-level narration may lie in the key's gap
        refs, flags = i in last.ref_reads, i in last.flag_reads
        now = resolution(e)
        seen = shape(o.kind, o.facts, o.summary, was, m, refs, o.seen, flags, tallied=False)
        if seen is None or seen != shape(e.kind, e.facts, e.summary, row, SAME, refs, now, flags, False):
            return None
        if not refs:  # (the references compared one by one say all the tally says)
            changed = tally_changes(o.facts, e.facts)
            if changed:
                if i >= len(last.tally_reads) or changed & last.tally_reads[i] or e.item is None:
                    return None
                regathered[i] = e.item
        e.seen = now
        judged.add(i)
    # references resolved afresh since the last run (the model re-resolves only where names changed)
    fresh = compress(range(count), map(is_not, old_deps, deps)) if len(old_deps) == count else range(count)
    for i in fresh:
        if i in judged:
            continue
        e = entries[i]
        e.summary.anchor.row = nodes[i].start_point.row
        now = resolution(e)
        if e.seen is None or now != e.seen or i in last.ref_reads:
            return None
    if regathered and not across.swap(regathered, count):
        return None
    moved_problems = last.moved(maps, p, s, count, delta)
    if moved_problems is not None:
        last.problems = [(q, j, rel) for q, (_, j, rel) in zip(moved_problems, last.problems, strict=True)]
    return moved_problems


def resolution(e: Any) -> Resolved:
    """What `_item` would compute for the entry's `Item.resolved` from its facts as they are (the
    summary's anchor up to date)."""
    starts = None
    if e.kind != "step_declaration":
        row = e.summary.anchor.row
        starts = [(st.step_rel[0] + row, st.step_rel[1]) for st in e.summary.steps]
    return resolved(e.facts, starts)


__all__ = [
    "SAME",
    "FactsProbe",
    "TallyProbe",
    "ItemMap",
    "NodeProbe",
    "Replay",
    "Unmappable",
    "replay_wide",
    "resolution",
    "shape",
    "tally_changes",
]
