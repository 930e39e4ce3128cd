"""Reusing the document-wide rules' problems across an edit that changes nothing they read.

The document-wide rules (`check(ctx)` of the rule modules) read the items' facts, summaries and
tallies, a few document facts and, for some items, the tree (`Item.node`). After an edit inside one
step most of that is the same as before, only moved. This module decides when it is *exactly* the
same — so the previous problems, moved, are what a fresh run would report — without any rule
declaring what it reads:

- `ItemMap` (`awl_lsp.checks.item_map`) carries points of one item's old text to its new text.
- `shape(entry, map)` is everything a document-wide rule can see of an item — facts with their
  places, the summary with its places, the node type — with the old places carried through the
  map, so an old and a new item compare equal when the rules would see the same item, moved. What
  the rules were seen reading (`awl_lsp.checks.probes`: an item's node, its references, whether
  its steps are broken, the names it reads) is compared only where they read it; names read only
  by the gatherings (`across`) are compared by the gatherings' answers.
- `Replay` remembers the last run's document-wide problems with the items they lie in, and moves
  them (`moved`) when the engine finds every changed item of the same shape and the document
  facts unchanged. A message naming a line number is not reused when lines moved.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, fields, is_dataclass
from itertools import compress
from operator import is_not
from typing import TYPE_CHECKING, Any

from awl_lsp.checks.item_map import SAME, ItemMap, Unmappable, _Same
from awl_lsp.checks.probes import READ_FIELDS, FactsProbe, NodeProbe, TallyProbe
from awl_lsp.checks.tallies import Resolved, Tally, resolved, tally
from awl_lsp.model.facts import plain_scope
from awl_lsp.syntax.problems import Problem, Range, Related

if TYPE_CHECKING:
    from tree_sitter import Node

    from awl_lsp.checks.across import Across
    from awl_lsp.checks.summary import ItemSummary
    from awl_lsp.model.facts import ItemFacts

_FORK_ROW = re.compile(r"fork@\d+")


def _scope(scope: str) -> str:
    """A scope without what moves with the text: the facts' id and a fork's row in its item (forks
    are told apart by their places, which the shape holds)."""
    return _FORK_ROW.sub("fork@", plain_scope(scope)) if "@" in scope else scope


_LINE_NUMBER = re.compile(r"\bline \d")


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
_UNASKED = frozenset({"anchor", "_error_inside"})


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


@dataclass
class Replay:
    """The last run's document-wide problems, each with the items its places lie in."""

    problems: list[tuple[Problem, int, tuple[int, ...]]]  # (problem, item of its range, items of related)
    reads: set[int]  # items whose node the rules read beyond its type
    ref_reads: set[int]  # items whose references the rules read
    signature: tuple  # the document facts the rules read outside the items
    numbered: bool  # a message names a line number
    flag_reads: set[int]  # items whose steps the rules asked whether they are broken
    tally_reads: list[TallyProbe]  # per item, its tally: the fields the rules read (`fields`)

    @staticmethod
    def record(
        problems: list[Problem],
        key_rows: list[int],
        reads: set[int],
        ref_reads: set[int],
        signature: tuple,
        flag_reads: set[int],
        tally_reads: list[TallyProbe],
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
                if (
                    i >= len(last.tally_reads)
                    or not changed <= READ_FIELDS  # (what it declares: its symbols are the same)
                    or changed & last.tally_reads[i].fields
                    or e.item is None
                ):
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
