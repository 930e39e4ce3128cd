"""Compact per-item summaries for the document-wide rules: steps as `StepInfo`, nested narration, routes.

A summary holds no tree nodes. Its rows are relative to the item's first row and read through the
item's `Anchor`, so a summary cached with an item stays right when the item moves: the engine only
updates `anchor.row`. Whether a step holds a syntax error (`StepInfo.broken`) is read by the rules
for a few steps only (a flow's last one): the anchor notes which items' steps were asked, so an
edit that breaks or mends a line elsewhere changes nothing the rules read (`awl_lsp.checks.replay`).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field

from tree_sitter import Node

from awl_lsp.checks.step_scopes import block_kind, enclosing_step
from awl_lsp.model import Kind, Range
from awl_lsp.model.facts import ItemFacts
from awl_lsp.syntax import fields as F

_BINDING = Kind.BINDING  # (read once: an enum member is a class look-up)


class Anchor:
    """The current first row of an item (shared by everything summarised from it), and where the
    document-wide rules' reads of its steps' `broken` are noted (the item's index, the run's set;
    set by the engine for each run, None otherwise)."""

    __slots__ = ("row", "index", "reads")

    def __init__(self, row: int) -> None:
        self.row = row
        self.index = 0
        self.reads: set[int] | None = None


def _rel(node: Node, base: int) -> Range:
    s, e = node.start_point, node.end_point
    return (s.row - base, s.column, e.row - base, e.column)


@dataclass(eq=False, slots=True)
class StepInfo:
    """One step as the flow graph needs it (ranges relative to the item, see `at`)."""

    anchor: Anchor
    name: str
    name_rel: Range  # the name (or the whole step when it has none)
    step_rel: Range
    after_rel: Range | None  # the `after` clause, when there is one
    after: list[str]  # step names in `after`
    routes: list[tuple[str, Range]]  # (target step name or "", route) for routes not inside substeps
    falls: bool  # can finish without routing (no outcome arms, and its body does not end in a `route`)
    bounded: bool  # has `max N visits`
    has_loop: bool  # a `loop` anywhere below it
    arms: list[str]  # its outcome arm names
    several: bool  # more than one body line (comments aside)
    dist: tuple[str, Range] | None  # the first `distribute`/`sequence`: (mode word, range)
    coll: tuple[bool, Range] | None  # the first `collect`: (is it the first line, range)
    failures: list[Range] = field(default_factory=list)  # every `on failure` block below it
    substeps: list[StepInfo] = field(default_factory=list)  # the steps of its own body
    # the steps of each other block below it (a `loop` body, a fork branch block, an `on failure`
    # block), block by block: (the block's kind as `step_scopes.block_kind` names it, its steps)
    blocks: list[tuple[str, list[StepInfo]]] = field(default_factory=list)
    bound: frozenset[str] = frozenset()  # names bound in it outside `on failure` (top-level steps)
    loop_bodies: list[Range] = field(default_factory=list)  # every `loop` body below it
    loop_bound: frozenset[str] = frozenset()  # names bound in it only inside a loop body (they stay there)
    open_end: bool = False  # no outcome arms, and its last statement is not a `route`
    collected: str = ""  # the name its `collect` gathers
    distributed: str = ""  # the item name its `distribute`/`sequence` binds
    _error_inside: bool = False  # holds a syntax error or a wrongly indented block (read `broken`)

    @property
    def broken(self) -> bool:
        """Does the step hold a syntax error or a wrongly indented block (reported where it is)?
        The read is noted on the anchor (see the module's docstring)."""
        anchor = self.anchor
        if anchor.reads is not None:
            anchor.reads.add(anchor.index)
        return self._error_inside

    def at(self, r: Range) -> Range:
        """A relative range of this step in document coordinates."""
        row = self.anchor.row
        return (r[0] + row, r[1], r[2] + row, r[3])

    @property
    def range(self) -> Range:
        return self.at(self.step_rel)


@dataclass(eq=False)
class ItemSummary:
    anchor: Anchor
    steps: list[StepInfo] = field(default_factory=list)  # a step item's step; a subflow's steps
    narration: list[tuple[int, int]] = field(default_factory=list)  # nested `//!` (relative row, column)
    route_targets: list[str] = field(default_factory=list)  # the target text of every route

    def narration_points(self) -> list[tuple[int, int]]:
        return [(r + self.anchor.row, c) for r, c in self.narration]


def body_items(step: Node) -> list[Node]:
    body = step.child_by_field_id(F.BODY)
    return (
        [c for c in body.named_children if c.type not in ("comment", "doc_comment")]
        if body is not None
        else []
    )


def route_target_name(source: bytes, route: Node) -> str:
    target = route.child_by_field_id(F.TARGET)
    node = target.named_child(0) if target is not None else None
    if node is None or node.type != "identifier":
        return ""
    return source[node.start_byte : node.end_byte].decode("utf-8", errors="replace")


def _text(source: bytes, node: Node | None) -> str:
    return "" if node is None else source[node.start_byte : node.end_byte].decode("utf-8", errors="replace")


def _owner(node: Node, item: Node) -> int | None:
    """Id of the innermost step declaration above `node`, up to the item (`_owners(…)[0]`)."""
    cur = node.parent
    while cur is not None:
        if cur.type == "step_declaration":
            return cur.id
        if cur.id == item.id:
            return None
        cur = cur.parent
    return None


def _owners(node: Node, item: Node) -> list[int]:
    """Ids of the step declarations above `node` (innermost first), up to the item."""
    out: list[int] = []
    cur = node.parent
    while cur is not None:
        if cur.type == "step_declaration":
            out.append(cur.id)
        if cur.id == item.id:
            break
        cur = cur.parent
    return out


def summarize(item: Node, nodes: dict[str, list[Node]], source: bytes, facts: ItemFacts) -> ItemSummary:
    """The summary of one item, from its nodes by type (`ItemContext.nodes`) and its facts."""
    base = item.start_point.row
    anchor = Anchor(base)
    summary = ItemSummary(anchor)
    summary.narration = [(n.start_point.row - base, n.start_point.column) for n in nodes.get("narration", [])]
    summary.route_targets = [
        _text(source, t)
        for r in nodes.get("route_statement", [])
        if (t := r.child_by_field_id(F.TARGET)) is not None
    ]
    steps = nodes.get("step_declaration", [])
    if not steps:
        return summary
    routes: dict[int, list[Node]] = {}  # (each owner's in document order, as the nodes are)
    for r in nodes.get("route_statement", []):
        owner = _owner(r, item)
        if owner is not None:
            routes.setdefault(owner, []).append(r)
    failures: dict[int, list[Node]] = {}
    for f in nodes.get("on_failure", []):
        for owner in _owners(f, item):
            failures.setdefault(owner, []).append(f)
    loops: set[int] = set()
    loop_bodies: dict[int, list[Range]] = {}
    for lp in nodes.get("loop_statement", []):
        owners = _owners(lp, item)
        loops.update(owners)
        lbody = lp.child_by_field_id(F.BODY)
        if lbody is not None:
            for owner in owners:
                loop_bodies.setdefault(owner, []).append(_rel(lbody, base))
    broken = {
        owner
        for bad in (*nodes.get("ERROR", []), *nodes.get("unexpected_block", []))
        for owner in _owners(bad, item)
    }
    infos: dict[int, StepInfo] = {}
    for step in reversed(steps):  # innermost first, so substeps exist when their parent is read
        body = step.child_by_field_id(F.BODY)
        items = body.named_children if body is not None else []
        # one pass over the body's lines (comments aside): what `StepInfo` says about them
        lines = 0
        dist = coll = first = None
        falls, bounded, outcomes, tail = True, False, False, ""
        arms: list[str] = []
        substeps: list[StepInfo] = []
        for i in items:
            kind = i.type
            if kind == "comment" or kind == "doc_comment":
                continue
            lines += 1
            if first is None:
                first = i
            if kind == "step_outcome":
                falls, outcomes = False, True
                arms.append(_text(source, i.child_by_field_id(F.NAME)))
                continue
            if kind == "distribute_statement":
                if dist is None:
                    dist = i
            elif kind == "collect_statement":
                if coll is None:
                    coll = i
            elif kind == "visits_bound" or (kind == "ERROR" and _bound_line(i, source)):
                bounded = True
            elif kind == "step_declaration":
                sub = infos.get(i.id)
                if sub is not None:
                    substeps.append(sub)
            if kind != "on_failure" and kind != "visits_bound":
                tail = kind  # (a substep below the step's last `route` is a line it falls past)
        if tail == "route_statement":
            falls = False  # it ends in a `route` (a route further up is followed by dead lines)
        name = step.child_by_field_id(F.NAME)
        after = step.child_by_field_id(F.AFTER)
        after_steps = after.children_by_field_name("step") if after is not None else []
        mode = _text(source, dist.child_by_field_id(F.MODE)) if dist is not None else ""
        infos[step.id] = StepInfo(
            anchor=anchor,
            name=_text(source, name),
            name_rel=_rel(name or step, base),
            step_rel=_rel(step, base),
            after_rel=_rel(after, base) if after is not None else None,
            after=[_text(source, d) for d in after_steps],
            routes=[(route_target_name(source, r), _rel(r, base)) for r in routes.get(step.id, ())],
            falls=falls,
            bounded=bounded,
            has_loop=step.id in loops,
            arms=arms,
            several=lines > 1,
            dist=(mode or "distribute", _rel(dist, base)) if dist is not None else None,
            coll=(first.id == coll.id, _rel(coll, base)) if coll is not None and first is not None else None,
            failures=[_rel(f, base) for f in failures.get(step.id, [])],
            loop_bodies=loop_bodies.get(step.id, []),
            substeps=substeps,
            open_end=not outcomes and tail != "route_statement",
            collected=_text(source, coll.child_by_field_id(F.VALUE)) if coll is not None else "",
            distributed=_text(source, dist.child_by_field_id(F.ITEM)) if dist is not None else "",
            _error_inside=step.id in broken or step.has_error,
        )
    if len(steps) > 1:  # (a step in a block is filed under another step of the item)
        _group_blocks(steps, infos, item)
    if item.type == "step_declaration":
        summary.steps = [infos[item.id]] if item.id in infos else []
    elif item.type == "subflow_declaration":
        summary.steps = [
            infos[c.id] for c in item.named_children if c.type == "step_declaration" and c.id in infos
        ]
    _bind(summary.steps, facts, base)
    return summary


def _group_blocks(steps: list[Node], infos: dict[int, StepInfo], item: Node) -> None:
    """File the steps written in a `loop` body, a fork block or an `on failure` block under the step
    that holds the block, one group per block (each block's steps are siblings of each other only)."""
    groups: dict[int, tuple[StepInfo, str, list[StepInfo]]] = {}
    for step in steps:  # document order: each group in order
        block = step.parent
        if block is None or block.type == "step_body" or block.type not in ("loop_body", "block"):
            continue
        owner = enclosing_step(step, item)
        info = infos.get(step.id)
        if owner is None or info is None or owner.id not in infos:
            continue
        group = groups.get(block.id)
        if group is None:
            group = groups[block.id] = (infos[owner.id], block_kind(block), [])
            group[0].blocks.append((group[1], group[2]))
        group[2].append(info)


def _bound_line(item: Node, source: bytes) -> bool:
    """`max N visits`, or a broken `max …` line (a bound being typed; the syntax error names it)."""
    if item.type == "visits_bound":
        return True
    return item.type == "ERROR" and source[item.start_byte : item.start_byte + 4] == b"max "


def _bind(steps: list[StepInfo], facts: ItemFacts, base: int) -> None:
    """Each top-level step's `bound`: the names bound in it, outside its `on failure` blocks; a name
    bound only inside a loop body (not the loop's own value) is in `loop_bound` instead."""
    binding = _BINDING
    bindings = [b for b in facts.flat if b.kind is binding]
    if not steps or not bindings:
        return  # (every step's `bound` and `loop_bound` stay empty)
    starts = [(s.step_rel[0], s.step_rel[1]) for s in steps]
    bound: list[set[str]] = [set() for _ in steps]
    looped: list[set[str]] = [set() for _ in steps]
    for b in bindings:
        at = b.range
        r = (at[0] - base, at[1], at[2] - base, at[3])
        i = bisect_right(starts, (r[0], r[1])) - 1
        if i < 0 or not within(r, steps[i].step_rel):
            continue
        if any(within(r, f) for f in steps[i].failures):
            continue
        if steps[i].loop_bodies and any(within(r, lb) for lb in steps[i].loop_bodies):
            looped[i].add(b.name)
            continue
        bound[i].add(b.name)
    for step, names, inner in zip(steps, bound, looped, strict=True):
        step.bound = frozenset(names)
        step.loop_bound = frozenset(inner - names)


def within(inner: Range, outer: Range) -> bool:
    return (outer[0], outer[1]) <= (inner[0], inner[1]) and (inner[2], inner[3]) <= (outer[2], outer[3])
