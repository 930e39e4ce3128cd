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

from awl_lsp.checks.across import repeated, union
from awl_lsp.checks.base import CheckContext, Item, ItemContext, memo_of
from awl_lsp.checks.flow_graph import Container, Locator, StepGraph, graphs, on_cycles
from awl_lsp.checks.started_again import StartedAgain, started_again
from awl_lsp.checks.step_units import loop_threaded, units_of
from awl_lsp.checks.value_reads import read_before_bound, read_in_failure, unknown_names
from awl_lsp.model.symbols import Kind, Range, Reference, RefKind

_BINDING = Kind.BINDING  # (read once: an enum member is a class look-up)


def check(ctx: CheckContext) -> None:
    for c, g in graphs(ctx):
        if c.kind == "substeps":
            continue
        regions = _regions(ctx, g)
        _single_assignment(ctx, g, c, regions)
        _definite(ctx, g, c, regions)


def check_item(ctx: ItemContext) -> None:
    reads = ctx.refs_of(RefKind.VALUE, RefKind.COLLECT)  # (gathered once for all three)
    unknown_names(ctx, reads)
    read_before_bound(ctx, reads)
    read_in_failure(ctx, reads)


def _regions(ctx: CheckContext, g: StepGraph) -> list[tuple[int, int]]:
    stack: list[tuple[int, tuple]] = []
    regions: list[tuple[int, int]] = []
    for i, s in enumerate(g.steps):
        if s.coll is not None:  # a step that collects closes the open region before opening another
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
                elif inside_s and not (o < t <= c):  # (back to the opener too: it starts the region anew)
                    ctx.error(
                        g.steps[src].at(route),
                        f"route `{g.names[t]}` leaves the per-item region of `{owner}` before its "
                        f"collect: the region's only exit is `{g.names[c]}`",
                        "region-leave",
                    )
        for src in range(o + 1, c):  # a route to an outcome of the flow ends the run mid-region
            for name, at in g.steps[src].routes:
                if name and name not in g.index and ctx.model.first(Kind.OUTCOME, name) is not None:
                    ctx.error(
                        g.steps[src].at(at),
                        f"route `{name}` leaves the per-item region of `{owner}` before its collect: an "
                        f"item's steps cannot end the run — route to `{g.names[c]}`, the region's only exit",
                        "region-leave",
                    )
    return regions


def _single_assignment(ctx: CheckContext, g: StepGraph, c: Container, regions: list[tuple[int, int]]) -> None:
    """A name is bound once per scope: not again in a later step, unless that step is re-entered
    by a route cycle, or the earlier binding lies in a per-item region the later one is outside of
    (each region has its own names, and sees those of the regions around it). A step started again
    by waiting `after` a step it runs before re-binds its names, and so does every step it leads to
    that is on no cycle (`_started_again`)."""
    n = len(g.steps)
    region = [-1] * n  # the innermost region each step's bindings belong to
    for k, (o, close) in sorted(enumerate(regions), key=lambda e: e[1][1] - e[1][0], reverse=True):
        for member in range(o, close):
            region[member] = k
    again = _started_again(g)
    seen_at: dict[str, list[tuple[int, Item, int]]] = {}  # name -> (step, item, symbol) binding it
    cyclic: set[int] | None = None  # the steps some route cycle re-enters
    outer = set(ctx.model.names(Kind.INPUT)) if c.kind == "flow" else set()
    key = "flow-bindings" if c.kind == "flow" else "subflow-bindings"
    # the flow's names bound twice anywhere (kept across runs: a pasted step costs its own names),
    # and the inputs: a binding of any other name is its only one, and the flow's steps that bind
    # only such names need not be looked at
    suspects = None
    if c.kind == "flow" and not again:
        suspects = repeated(ctx, "flow-binding-names", _bound_names, _bound_twice)
        if outer:
            suspects = suspects | (outer & union(ctx, "flow-bound-names", _bound_names))
    if suspects is not None and not suspects:
        return
    offset = 0  # the container's steps are its items' steps, in order
    for it in c.items:
        if suspects is not None and suspects.isdisjoint(_bound_names(it)):
            offset += len(it.summary.steps)
            continue
        bindings = memo_of(it, key, _flow_bindings if c.kind == "flow" else _subflow_bindings)
        units = units_of(it, key, bindings)
        for name, local, k in bindings:
            i = offset + local
            if name in outer:
                ctx.error(
                    it.facts.flat[k].selection,
                    f"`{name}` is an input, already bound when the flow starts: bindings are "
                    "single-assignment — bind this result to a new name",
                    "binding-twice",
                )
                continue
            seen = seen_at.setdefault(name, [])
            inside = [e for e in seen if e[0] == i]  # (bound already in this step or a substep of it)
            if inside and _in_other_unit(ctx, it, local, k, inside, units):
                seen.append((i, it, k))
                continue
            if i in again:
                if not any(j == i for j, _, _ in seen):  # (its first binding of the name in the step)
                    _bound_again(ctx, it.facts.flat[k].selection, name, g, i, again[i])
                seen.append((i, it, k))
                continue
            earlier = next(
                (e for e in seen if e[0] != i and _encloses(regions, region[e[0]], region[i])), None
            )
            seen.append((i, it, k))
            if earlier is None:
                continue
            if cyclic is None:  # (the steps on a route cycle, once: not a search per binding)
                cyclic = on_cycles(g)
            if i in cyclic:
                continue
            j = earlier[0]
            line = earlier[1].facts.flat[earlier[2]].range[0] + 1
            ctx.error(
                it.facts.flat[k].selection,
                f"`{name}` is already bound in step `{g.names[j]}` (line {line}): bindings are "
                "single-assignment — bind this result to a new name",
                "binding-twice",
            )
        offset += len(it.summary.steps)


def _bound_again(ctx: CheckContext, where: Range, name: str, g: StepGraph, i: int, why: StartedAgain) -> None:
    s, by = g.names[why.step], g.names[why.by]
    if why.routed:
        cause = (
            f"step `{s}` is on a cycle no path from the first step enters, so it starts on its own and "
            f"again when `{by}` routes back to it"
        )
        hint = f"lead into the cycle through `{s}` from the steps above"
    else:
        cause = (
            f"step `{s}` can run before `{by}`, which it waits `after`, so `{by}` finishing starts it again"
        )
        hint = f"drop `{by}` from the `after` list of `{s}`"
    after = "" if i == why.step else f", and step `{g.names[i]}` runs again after it"
    ctx.error(
        where,
        f"`{name}` would be bound twice: {cause}{after} — bindings are single-assignment (only a step "
        f"on a cycle binds again): {hint}",
        "binding-twice",
        {"name": name, "started_again": s, "by": by},
    )


def _in_other_unit(
    ctx: CheckContext, it: Item, local: int, k: int, inside: list[tuple[int, Item, int]], units: dict
) -> bool:
    """Report a binding made again in another substep of its step, or in the step and a substep
    (the engine's reading order: `step_units`); True when reported, or when the same step binds it
    twice (`rules_references` reports that)."""
    unit = units[k]
    first = inside[0][2]
    if units[first] == unit:
        return True
    flat = it.facts.flat
    if flat[first].extra.get("how") == "loop" and loop_threaded(it, local, flat[first].range, flat[k].range):
        return False
    ctx.error(
        flat[k].selection,
        f"`{flat[k].name}` is already bound in step `{units[first][1]}` (line {flat[first].range[0] + 1}), "
        f"and step `{unit[1]}` shares its scope: a step and its substeps bind into one scope — bind this "
        "result to a new name",
        "binding-twice",
        {"name": flat[k].name},
    )
    return True


def _encloses(regions: list[tuple[int, int]], outer: int, inner: int) -> bool:
    """Are the names of region `outer` (-1: the container's own) visible in region `inner`?"""
    if outer == -1 or outer == inner:
        return True
    if inner == -1:
        return False
    (o1, c1), (o2, c2) = regions[outer], regions[inner]
    return o1 <= o2 and c2 <= c1


def _started_again(g: StepGraph) -> dict[int, StartedAgain]:
    """The steps on no cycle that run a second time after a step started again
    (`started_again`): step -> why."""
    found = started_again(g)
    if not found:
        return {}
    cyclic = on_cycles(g)
    out: dict[int, StartedAgain] = {}
    for why in found:
        for i in sorted(why.rerun):
            if i not in cyclic:
                out.setdefault(i, why)
    return out


def _step_bindings(it: Item, scope: str | None) -> list[tuple[str, int, int]]:
    """The item's bindings in `scope` (None: the scope of its first binding, when that is a
    subflow's own) that lie in one of its top-level steps: (name, that step's index among them,
    the binding's index in `facts.flat`) — places are read from the facts when reported, so the
    partial holds as the item moves."""
    out: list[tuple[str, int, int]] = []
    if not it.tally.rebinds and not it.tally.loop_keys:
        return out  # the item binds nothing (its tally says so without a pass over its symbols)
    loc: Locator | None = None
    for k, sym in enumerate(it.facts.flat):
        if sym.kind is not _BINDING:
            continue
        if scope is None:
            scope = sym.scope if sym.scope.startswith("subflow:") and "/" not in sym.scope else "\0"
        if sym.scope != scope:
            continue
        if loc is None:
            loc = Locator(it.summary.steps)
        i = loc.step_of(sym.range)
        if i is not None:
            out.append((sym.name, i, k))
    return out


def _flow_bindings(it: Item) -> list[tuple[str, int, int]]:
    return _step_bindings(it, "")


def _subflow_bindings(it: Item) -> list[tuple[str, int, int]]:
    return _step_bindings(it, None)


def _bound_names(it: Item) -> frozenset[str]:
    """The names the item binds in the flow's scope."""
    return memo_of(
        it,
        "flow-binding-names",
        lambda it: frozenset(n for n, _, _ in memo_of(it, "flow-bindings", _flow_bindings)),
    )


def _bound_twice(it: Item) -> frozenset[str]:
    """The names the item binds more than once in the flow's scope."""

    def twice(it: Item) -> frozenset[str]:
        names = [n for n, _, _ in memo_of(it, "flow-bindings", _flow_bindings)]
        return (
            frozenset(n for n in names if names.count(n) > 1)
            if len(names) != len(set(names))
            else frozenset()
        )

    return memo_of(it, "flow-binding-names-twice", twice)


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
                )
                break
    name = g.steps[c].collected
    made = set().union(*(g.steps[k].bound | g.steps[k].loop_bound for k in range(o + 1, c)))
    made.add(g.steps[o].distributed)
    coll = g.steps[c].coll
    if name and name not in made and coll is not None:
        ctx.error(
            g.steps[c].at(coll[1]),
            f"`collect {name}` gathers a value per item, but no step between `{owner}` and `{closer}` "
            f"binds `{name}`: collect a binding made inside the region",
            "collect-outside",
        )


def _escapes_region(
    g: StepGraph, i: int, d: int, ref: Reference, regions: list[tuple[int, int]]
) -> tuple[int, int] | None:
    """The region whose per-item binding (made in step `d`) is read in step `i`, past its `collect`."""
    for o, c in regions:
        if not (o <= d < c and i >= c):
            continue
        coll = g.steps[c].coll
        if i == c and (
            ref.kind is RefKind.COLLECT or coll is None or ref.range[:2] <= g.steps[c].at(coll[1])[:2]
        ):
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
            if i is None or d is None or i == d:
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
    entry: list[set[str]] = [set() if i == 0 and not g.after[0] else set(universe) for i in range(len(steps))]

    def out(p: int) -> set[str]:
        return (entry[p] - gone[p] if p in gone else entry[p]) | bound[p]

    for _ in range(len(steps) + 5):
        changed = False
        for i in range(0 if g.after[0] else 1, len(steps)):
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
        into = "this `collect`" if ref.kind is RefKind.COLLECT else f"step `{g.names[i]}`"
        ctx.error(
            ref.range,
            f"`{ref.name}` is not definitely assigned on every success path into {into}: it is "
            f"bound only in {sources}, which some path skips",
            "binding-not-definite",
        )
