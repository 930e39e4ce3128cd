"""Per-item regions and binding flow: `distribute`/`sequence` … `collect` shape, routes and `after`
that cross a region, what a `collect` gathers, what one item's value reads may see (unknown bindings,
values read above the line that binds them, what an `on failure` block reads: `value_reads`), single
assignment across steps, per-item bindings read past their region's `collect`,
bindings not definitely assigned on every path, and bindings a later step reads that an earlier one
made only inside a loop body (the same-step case is `rules_loops`).

Definite assignment runs over each container's step graph (`flow_graph.StepGraph`): a step's entry
set is the intersection over its incoming edges (fall-through, route) — or, for a step that waits
`after` others, the union of what they all bound (a route into it waits for them too) — iterated to
a fixed point. Names are independent in that analysis, so
it runs only for the names some step reads from a binding made in another step.
"""

from __future__ import annotations

from awl_lsp.checks.base import CheckContext, ItemContext
from awl_lsp.checks.flow_graph import Container, Locator, StepGraph, graphs
from awl_lsp.checks.single_assignment import single_assignment
from awl_lsp.checks.value_reads import bound_elsewhere, read_before_bound, read_in_failure, unknown_names
from awl_lsp.model.symbols import Kind, Reference, RefKind

# enum members read once (a member read through its class is a Python-level call on 3.11)
_K_OUTCOME = Kind.OUTCOME
_R_COLLECT = RefKind.COLLECT
_R_VALUE = RefKind.VALUE

_BINDING = Kind.BINDING  # (read once: an enum member is a class look-up)


def check(ctx: CheckContext) -> None:
    for c, g in graphs(ctx):
        if c.kind == "substeps":
            continue
        regions = _regions(ctx, g)
        single_assignment(ctx, g, c, regions)
        _definite(ctx, g, c, regions)


def check_item(ctx: ItemContext) -> None:
    reads = ctx.refs_of(_R_VALUE, _R_COLLECT)  # (gathered once for all three)
    unknown_names(ctx, reads)
    read_before_bound(ctx, reads)
    read_in_failure(ctx, reads)


def _regions(ctx: CheckContext, g: StepGraph) -> list[tuple[int, int]]:
    stack: list[tuple[int, tuple]] = []
    regions: list[tuple[int, int]] = []
    for i, s in enumerate(g.steps):
        # a step that collects closes the open region (one that opens a region as well only opens it:
        # its other lines are an error of their own)
        if s.coll is not None and s.dist is None:
            first, at = s.coll
            if not first:
                ctx.error(
                    s.at(at),
                    f"`collect` opens its step: make it the first line of step `{g.names[i]}`",
                    "collect-first",
                )
            if stack:
                o, _ = stack.pop()
                regions.append((o, i))
            else:
                ctx.error(
                    s.at(at),
                    "this `collect` closes no region: no `distribute`/`sequence` step above is still open",
                    "collect-no-region",
                )
        if s.dist is not None:
            mode, at = s.dist
            if s.several:
                ctx.error(
                    s.at(at),
                    f"`{mode}` is its step's only line: move the other statements of step "
                    f"`{g.names[i]}` into the steps that follow it",
                    "distribute-alone",
                )
            stack.append((i, s.dist))
    # (a half-written step may be the missing `collect`; asked only when a region is open)
    for o, (mode, at) in stack if stack and not ctx.tree_has_error() else []:
        ctx.error(
            g.steps[o].at(at),
            f"this `{mode}` region never reaches a `collect`: add a step that opens with "
            "`collect <binding> -> <name>`",
            "region-unclosed",
        )
    for o, c in regions:
        owner = g.names[o]
        _region_extent(ctx, g, o, c)
        for src, rs in enumerate(g.routes):
            for t, route in rs:
                inside_s, inside_t = o < src < c, o < t < c
                if t == c and not inside_s:
                    ctx.error(
                        g.steps[src].at(route),
                        f"step `{g.names[c]}` closes the per-item region of `{owner}` with its `collect`: "
                        f"only the region's own steps lead into it — route to `{owner}` to run the region "
                        "again",
                        "region-enter",
                    )
                elif inside_t and not (o <= src < c):
                    ctx.error(
                        g.steps[src].at(route),
                        f"route `{g.names[t]}` enters the per-item region of `{owner}` mid-way: "
                        f"the region's only entry is its `{owner}` step",
                        "region-enter",
                    )
                elif inside_s and not (o < t <= c) and g.names[t] != g.names[c]:
                    # (back to the opener too: it starts the region anew; a step named like the collect
                    # is taken for it)
                    ctx.error(
                        g.steps[src].at(route),
                        f"route `{g.names[t]}` leaves the per-item region of `{owner}` before its "
                        f"collect: the region's only exit is `{g.names[c]}`",
                        "region-leave",
                    )
        for src in range(o + 1, c):  # a route to an outcome of the flow ends the run mid-region
            for name, at in g.steps[src].routes:
                if name and name not in g.index and ctx.model.first(_K_OUTCOME, name) is not None:
                    ctx.error(
                        g.steps[src].at(at),
                        f"route `{name}` leaves the per-item region of `{owner}` before its collect: an "
                        f"item's steps cannot end the run — route to `{g.names[c]}`, the region's only exit",
                        "region-leave",
                    )
    return regions


def _region_extent(ctx: CheckContext, g: StepGraph, o: int, c: int) -> None:
    """`after` stays on its side of the region; `collect` gathers a binding made inside it."""
    owner, closer = g.names[o], g.names[c]
    for s in range(len(g.steps)):
        step = g.steps[s]
        if step.after_rel is None:
            continue
        inside = o < s < c
        for d in g.after[s]:
            # (the collect is outside the items' side; the opener on both: an item step may wait on it)
            if inside != (o < d < c) and d != o:
                ctx.error(
                    step.at(step.after_rel),
                    f"`after {g.names[d]}` crosses the per-item region of `{owner}`: the region is entered "
                    f"only through `{owner}` and left only through `{closer}` — order the steps inside "
                    "and outside it separately",
                    "region-after",
                    {"step": g.names[s], "drop": [g.names[d]]},  # (what a fix drops from the list)
                )
                break
    name = g.steps[c].collected
    made = set().union(*(g.steps[k].bound | g.steps[k].loop_bound for k in range(o + 1, c)))
    made.add(g.steps[o].distributed)
    coll = g.steps[c].coll
    if name and name not in made and coll is not None:
        made_inside = made - {g.steps[o].distributed, ""}
        ctx.error(
            g.steps[c].at(coll[1]),
            f"`collect {name}` gathers a value per item, but no step between `{owner}` and `{closer}` "
            f"binds `{name}`: collect a binding made inside the region",
            "collect-outside",
            # (for a fix: the bindings made inside, and whether the region's own step binds the name)
            {
                "name": name,
                "inside": sorted(made_inside),
                "opener": owner,
                "in_opener": name in g.steps[o].bound,
            },
        )


def _escapes_region(
    g: StepGraph, i: int, d: int, ref: Reference, regions: list[tuple[int, int]]
) -> tuple[int, int] | None:
    """The region whose per-item binding (made in step `d`) is read in step `i`, past its `collect`."""
    for o, c in regions:
        if not (o <= d < c and i >= c):
            continue
        coll = g.steps[c].coll
        if i == c and (ref.kind is _R_COLLECT or coll is None or ref.range[:2] <= g.steps[c].at(coll[1])[:2]):
            continue  # what the `collect` gathers, or a line above a misplaced `collect` (its own error)
        return o, c
    return None


def _definite(ctx: CheckContext, g: StepGraph, c: Container, regions: list[tuple[int, int]]) -> None:
    steps = g.steps
    loc: Locator | None = None
    reads: list[tuple[int, Reference]] = []  # (step, reference) reading a binding of another step
    for it in c.items:
        for k in it.resolved.cross_reads:
            if loc is None:
                loc = Locator(steps)
            ref = it.facts.references[k]
            i = loc.step_of(ref.range)
            d = loc.step_of(ref.target.range)  # type: ignore[union-attr]
            if i is None or d is None:
                continue
            if i == d:  # a read in the line that binds it: another binding must reach it first
                if not bound_elsewhere(ctx.model, ref):
                    continue  # (bound nowhere else: `value_reads` says so)
                reads.append((i, ref))
                continue
            region = _escapes_region(g, i, d, ref, regions)
            if region is not None:
                ctx.error(
                    ref.range,
                    f"`{ref.name}` is bound once per item inside the region of `{g.names[region[0]]}`, "
                    f"which ends at `{g.names[region[1]]}`: after the `collect` only the gathered list "
                    "is readable",
                    "region-binding-escapes",
                )
                continue
            reads.append((i, ref))
    if not reads:
        return
    universe = {ref.name for _, ref in reads}
    bound = [s.bound & universe for s in steps]
    preds: list[list[int]] = [[] for _ in steps]
    for u, rs in enumerate(g.routes):
        for t, _ in rs:
            preds[t].append(u)
    for i in range(1, len(steps)):
        if g.falls_into[i - 1]:
            preds[i].append(i - 1)
    gone: dict[int, set[str]] = {}  # a `collect` step: the per-item names its region bound end there
    for o, close in regions:
        gone.setdefault(close, set()).update(*(bound[k] for k in range(o, close)))
    # (the first step starts the run with nothing bound — unless it waits `after` others, like any step)
    first = 0 if g.after[0] else 1
    entry: list[set[str]] = [set() if i < first else set(universe) for i in range(len(steps))]

    def out(p: int) -> set[str]:
        return (entry[p] - gone[p] if p in gone else entry[p]) | bound[p]

    # When every step is entered only from steps above it (no route back), one pass in order reads
    # each step's predecessors once they are final: that pass is the fixpoint, and the pass that
    # would only confirm it is skipped.
    forward = all(
        all(d < i for d in g.after[i]) if g.after[i] else all(p < i for p in preds[i])
        for i in range(first, len(steps))
    )
    for _ in range(1 if forward else len(steps) + 5):
        changed = False
        for i in range(first, len(steps)):
            if g.after[i]:  # it starts once all its `after` steps ran (a route into it waits for them too)
                incoming = [set().union(*(out(d) for d in g.after[i]))]
            else:
                incoming = [out(p) for p in preds[i]]
            new = set.intersection(*incoming) if incoming else set(universe)
            if new != entry[i]:
                entry[i], changed = new, True
        if not changed:
            break
    for i, ref in reads:
        if ref.name in entry[i]:
            continue
        sources = ", ".join(f"`{g.names[j]}`" for j, s in enumerate(steps) if ref.name in s.bound)
        if not sources:
            looped = ", ".join(f"`{g.names[j]}`" for j, s in enumerate(steps) if ref.name in s.loop_bound)
            ctx.error(
                ref.range,
                f"`{ref.name}` is bound only inside a loop body (in {looped or 'another step'}), so it is "
                "readable only inside that loop: after it only the loop's own value and counter are "
                "sure to be set — thread the value through the loop's value, or bind it after the loop",
                "loop-local-escapes",
            )
            continue
        into = "this `collect`" if ref.kind is _R_COLLECT else f"step `{g.names[i]}`"
        ctx.error(
            ref.range,
            f"`{ref.name}` is not definitely assigned on every success path into {into}: it is "
            f"bound only in {sources}, which some path skips",
            "binding-not-definite",
        )
