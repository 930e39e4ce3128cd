"""Per-item regions and binding flow: `distribute`/`sequence` … `collect` shape, routes that enter or
leave a region, unknown bindings, and bindings not definitely assigned on every path into a step.

Definite assignment runs over each container's step graph (`rules_flow.StepGraph`): a step's entry
set is the intersection over its incoming edges (fall-through, route, and — as one edge — the union
of its `after` dependencies), iterated to a fixed point.
"""

from __future__ import annotations

from tree_sitter import Node

from awl_lsp.checks.base import CheckContext
from awl_lsp.checks.rules_flow import StepGraph, body_items, build_graph, containers
from awl_lsp.model.symbols import Kind, Range, RefKind, Symbol

_NOT_BINDINGS = frozenset({"visits", "null"})


def check(ctx: CheckContext) -> None:
    for kind, _, steps in containers(ctx):
        if not steps:
            continue
        g = build_graph(ctx, steps)
        if kind != "substeps":
            _regions(ctx, g)
            _definite(ctx, g)
    _unknown_names(ctx)


def _within(inner: Range, outer: Range) -> bool:
    return (outer[0], outer[1]) <= (inner[0], inner[1]) and (inner[2], inner[3]) <= (outer[2], outer[3])


def _range(n: Node) -> Range:
    return (n.start_point.row, n.start_point.column, n.end_point.row, n.end_point.column)


def _regions(ctx: CheckContext, g: StepGraph) -> None:
    stack: list[tuple[int, Node]] = []
    regions: list[tuple[int, int, Node]] = []
    for i, s in enumerate(g.steps):
        items = [n for n in body_items(s) if n.type != "comment"]
        dist = next((n for n in items if n.type == "distribute_statement"), None)
        coll = next((n for n in items if n.type == "collect_statement"), None)
        if dist is not None:
            mode = ctx.text(dist.child_by_field_name("mode")) or "distribute"
            if len(items) > 1:
                ctx.error(
                    dist,
                    f"`{mode}` is its step's only line: move the other statements of step "
                    f"`{g.names[i]}` into the steps that follow it",
                    "distribute-alone",
                )
            stack.append((i, dist))
        if coll is not None:
            if items[0] is not coll:
                ctx.error(
                    coll,
                    f"`collect` opens its step: make it the first line of step `{g.names[i]}`",
                    "collect-first",
                )
            if stack:
                o, _ = stack.pop()
                regions.append((o, i, coll))
            else:
                ctx.error(
                    coll,
                    "this `collect` closes no region: no `distribute`/`sequence` step above is still open",
                    "collect-no-region",
                )
    for _, dist in stack:
        mode = ctx.text(dist.child_by_field_name("mode")) or "distribute"
        ctx.error(
            dist,
            f"this `{mode}` region never reaches a `collect`: add a step that opens with "
            "`collect <binding> -> <name>`",
            "region-unclosed",
        )
    for o, c, _ in regions:
        owner = g.names[o]
        for s, rs in enumerate(g.routes):
            for t, route in rs:
                inside_s, inside_t = o < s < c, o < t < c
                if inside_t and not (o <= s < c):
                    ctx.error(
                        route,
                        f"route `{g.names[t]}` enters the per-item region of `{owner}` mid-way: "
                        f"the region's only entry is its `{owner}` step",
                        "region-enter",
                    )
                elif inside_s and not (o <= t <= c):
                    ctx.error(
                        route,
                        f"route `{g.names[t]}` leaves the per-item region of `{owner}` before its "
                        f"collect: the region's only exit is `{g.names[c]}`",
                        "region-leave",
                    )


def _step_of(g: StepGraph, r: Range) -> int | None:
    for i, s in enumerate(g.steps):
        if _within(r, _range(s)):
            return i
    return None


def _definite(ctx: CheckContext, g: StepGraph) -> None:
    failure = [_range(n) for s in g.steps for n in _walk(s) if n.type == "on_failure"]
    bound: list[set[str]] = [set() for _ in g.steps]
    where: dict[str, list[int]] = {}
    by_step: dict[int, list[Symbol]] = {}
    for b in ctx.model.of_kind(Kind.BINDING):
        i = _step_of(g, b.range)
        if i is None or any(_within(b.range, f) for f in failure):
            continue
        by_step.setdefault(i, []).append(b)
        bound[i].add(b.name)
        where.setdefault(b.name, []).append(i)
    universe = set(where)
    preds: list[list[int]] = [[] for _ in g.steps]
    for u, rs in enumerate(g.routes):
        for t, _ in rs:
            preds[t].append(u)
    for i in range(1, len(g.steps)):
        if g.falls[i - 1] and g.steps[i].child_by_field_name("after") is None:
            preds[i].append(i - 1)
    entry: list[set[str]] = [set() if i == 0 else set(universe) for i in range(len(g.steps))]
    for _ in range(len(g.steps) + 5):
        changed = False
        for i in range(1, len(g.steps)):
            incoming = [entry[p] | bound[p] for p in preds[i]]
            if g.after[i]:
                incoming.append(set().union(*(entry[d] | bound[d] for d in g.after[i])))
            new = set.intersection(*incoming) if incoming else set(universe)
            if new != entry[i]:
                entry[i], changed = new, True
        if not changed:
            break
    for ref in ctx.model.references:
        if (
            ref.kind not in (RefKind.VALUE, RefKind.COLLECT)
            or ref.target is None
            or ref.target.kind is not Kind.BINDING
        ):
            continue
        i = _step_of(g, ref.range)
        d = _step_of(g, ref.target.range)
        if i is None or d is None or i == d or ref.name in entry[i]:
            continue
        sources = ", ".join(f"`{g.names[j]}`" for j in sorted(set(where.get(ref.name, []))))
        into = "this `collect`" if ref.kind is RefKind.COLLECT else f"step `{g.names[i]}`"
        ctx.error(
            ref.range,
            f"`{ref.name}` is not definitely assigned on every success path into {into}: it is "
            f"bound only in {sources}, which some path skips",
            "binding-not-definite",
        )


def _walk(node: Node) -> list[Node]:
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(n.named_children)
    return out


def _unknown_names(ctx: CheckContext) -> None:
    consts = [s.range for s in ctx.model.of_kind(Kind.CONST)]
    for ref in ctx.model.references:
        if (
            ref.kind not in (RefKind.VALUE, RefKind.COLLECT)
            or ref.target is not None
            or ref.name in _NOT_BINDINGS
        ):
            continue
        if any(_within(ref.range, c) for c in consts) or not ref.name or not ref.name[0].islower():
            continue
        if ctx.model.first(Kind.SIGNAL, ref.name) is not None:  # a workloop armed `on s` reads `s`
            continue
        ctx.error(
            ref.range,
            f"`{ref.name}` is not bound on any path to here: bind it first (`… -> {ref.name}`) "
            "or use a declared input",
            "unknown-binding",
        )
