"""Single assignment: a name is bound once in its scope, as the engine counts it.

A container's scope (the flow's, a subflow's) holds the bindings of its steps and of their
substeps; each collection `fork` body and each per-item region (`distribute`/`sequence` …
`collect`) opens a scope inside the one around it, which sees the names bound around it and keeps
its own names to itself. A binding is an error when an earlier one of its name is visible where it
is made:
- in an earlier step (a step on a route cycle may bind again: its re-entry is sanctioned);
- in the same step, made by another of its substeps or by the step and one of its substeps
  (`step_units`: a loop's value rebound in the loop's body is the exception);
- around the fork body it is made in (an item name or binding of an enclosing scope);
- and in a step that runs a second time (`started_again`: a step started again through `after`,
  or on a cycle nothing leads into, and what it leads to), every binding of the container's scope.
Two bindings in one step's own lines of one scope are `rules_references`'s; inputs rebound are here.
"""

from __future__ import annotations

from awl_lsp.checks.across import repeated, union
from awl_lsp.checks.base import CheckContext, Item, memo_of
from awl_lsp.checks.flow_graph import Container, Locator, StepGraph, on_cycles
from awl_lsp.checks.started_again import StartedAgain, started_again
from awl_lsp.checks.step_units import loop_threaded, units_of
from awl_lsp.model.symbols import Kind, Range

_BINDING = Kind.BINDING  # (read once: an enum member is a class look-up)
_K_INPUT = Kind.INPUT

Seen = tuple[int, Item, int, str]  # (step, item, symbol index, scope) of a binding already read


def single_assignment(ctx: CheckContext, g: StepGraph, c: Container, regions: list[tuple[int, int]]) -> None:
    """Every binding of the container's steps made where an earlier one of its name is visible."""
    n = len(g.steps)
    region = [-1] * n  # the innermost region each step's bindings belong to
    for k, (o, close) in sorted(enumerate(regions), key=lambda e: e[1][1] - e[1][0], reverse=True):
        for member in range(o, close):
            region[member] = k
    again = _started_again(g)
    outside: dict[str, list[Seen]] = {}  # name -> its bindings so far in the container's own scope
    in_step: dict[tuple[str, int], list[Seen]] = {}  # (name, step) -> its bindings so far in that step
    cyclic: set[int] | None = None  # the steps some route cycle re-enters
    outer = set(ctx.model.names(_K_INPUT)) if c.kind == "flow" else set()
    key = "flow-bindings" if c.kind == "flow" else "subflow-bindings"
    # the names that may be bound twice: bound in the flow's own scope by two items, or twice by one
    # item, or in one item's own scope and another's fork body; and the inputs. A binding of any
    # other name is its only visible one, and the flow's steps that bind only such names need not be
    # looked at (the gatherings are kept across runs: a pasted step costs its own names)
    suspects = None
    if c.kind == "flow" and not again:
        suspects = repeated(ctx, "flow-binding-names", _bound_names, _bound_twice)
        forked = union(ctx, "flow-forked-names", _forked_names)
        if outer or forked:
            own = union(ctx, "flow-bound-names", _bound_names)
            suspects = suspects | (outer & own) | (forked & own)
    if suspects is not None and not suspects:
        return
    bindings_of = _flow_bindings if c.kind == "flow" else _subflow_bindings
    if suspects is None and not again and not outer:
        # (a subflow's: without a step started again, a binding clashes only with an earlier one of
        # its name, so a subflow binding every name once has nothing to report)
        names = [name for it in c.items for name, _, _ in memo_of(it, key, bindings_of)]
        if len(names) == len(set(names)):
            return
    offset = 0  # the container's steps are its items' steps, in order
    for it in c.items:
        if (
            suspects is not None
            and suspects.isdisjoint(_bound_names(it))
            and suspects.isdisjoint(_forked_names(it))
        ):
            offset += len(it.summary.steps)
            continue
        bindings = memo_of(it, key, bindings_of)
        units = units_of(it, key, bindings)
        flat = it.facts.flat
        base = _base(flat[bindings[0][2]].scope) if bindings else ""
        for name, local, k in bindings:
            if suspects is not None and name not in suspects:
                continue  # (its only visible binding)
            i = offset + local
            scope = flat[k].scope
            if name in outer:
                ctx.error(
                    flat[k].selection,
                    f"`{name}` is an input, already bound when the flow starts: bindings are "
                    "single-assignment — bind this result to a new name",
                    "binding-twice",
                )
                continue
            here: Seen = (i, it, k, scope)
            step_seen = in_step.setdefault((name, i), [])
            # the earlier bindings of this step that are visible here (in its scope or one around it)
            inside = next((e for e in step_seen if _sees(e[3], scope)), None)
            step_seen.append(here)
            own_scope = scope == base
            if own_scope:
                outside.setdefault(name, []).append(here)
            if inside is not None:
                _in_step(ctx, it, local, k, inside, units)
                continue
            if i in again and own_scope:  # (a fork body's own bindings are not counted again)
                if len(step_seen) == 1:  # (its first binding of the name in the step)
                    _bound_again(ctx, flat[k].selection, name, g, i, again[i])
                continue
            earlier = next(
                (
                    e
                    for e in outside.get(name, ())
                    if e[0] != i and _encloses(regions, region[e[0]], region[i])
                ),
                None,
            )
            if earlier is None:
                continue
            if cyclic is None:  # (the steps on a route cycle, once: not a search per binding)
                cyclic = on_cycles(g)
            if i in cyclic:
                continue
            j = earlier[0]
            line = earlier[1].facts.flat[earlier[2]].range[0] + 1
            ctx.error(
                flat[k].selection,
                f"`{name}` is already bound in step `{g.names[j]}` (line {line}): bindings are "
                "single-assignment — bind this result to a new name",
                "binding-twice",
            )
        offset += len(it.summary.steps)


def _base(scope: str) -> str:
    """The container's own scope of a binding's scope ("" for the flow, "subflow:x")."""
    return scope.split("/", 1)[0]


def _sees(outer: str, inner: str) -> bool:
    """Are the names bound in scope `outer` visible in scope `inner` (of the same item)?"""
    return outer == inner or inner.startswith(outer + "/")


def _in_step(ctx: CheckContext, it: Item, local: int, k: int, first: Seen, units: dict) -> None:
    """A binding of a name an earlier line of its step (or of a substep of it) bound where it is
    visible: in a scope around this one, or in this scope by another of the step's units (one unit
    binding a name twice in one scope is `rules_references`'s)."""
    flat = it.facts.flat
    f = first[2]
    sym, was = flat[k], flat[f]
    line = was.range[0] + 1
    if was.scope != sym.scope:
        what = "an item name" if was.extra.get("how") == "fork item" else "a name"
        ctx.error(
            sym.selection,
            f"`{sym.name}` is already bound around this `fork` body (line {line}): a fork's body sees the "
            f"names bound around it, and rebinding {what} is binding it twice — bind this result to a new "
            "name",
            "binding-twice",
            {"name": sym.name},
        )
        return
    unit = units[k]
    if units[f] == unit:
        return
    if was.extra.get("how") == "loop" and loop_threaded(it, local, was.range, sym.range):
        return
    ctx.error(
        sym.selection,
        f"`{sym.name}` is already bound in step `{units[f][1]}` (line {line}), and step `{unit[1]}` shares "
        "its scope: a step and its substeps bind into one scope — bind this result to a new name",
        "binding-twice",
        {"name": sym.name},
    )


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


def _step_bindings(it: Item, flow: bool) -> list[tuple[str, int, int]]:
    """The item's bindings in the flow's scope (or, not `flow`, the subflow's: the scope of its
    first binding) and in the fork bodies inside it, that lie in one of its top-level steps: (name,
    that step's index among them, the binding's index in `facts.flat`) — places are read from the
    facts when reported, so the partial holds as the item moves."""
    out: list[tuple[str, int, int]] = []
    if not it.tally.rebinds and not it.tally.loop_keys:
        return out  # the item binds nothing (its tally says so without a pass over its symbols)
    loc: Locator | None = None
    base: str | None = "" if flow else None
    for k, sym in enumerate(it.facts.flat):
        if sym.kind is not _BINDING:
            continue
        scope = sym.scope
        if base is None:
            base = _base(scope) if scope.startswith("subflow:") else "\0"
        if scope != base and not scope.startswith(base + "/"):
            continue
        if loc is None:
            loc = Locator(it.summary.steps)
        i = loc.step_of(sym.range)
        if i is not None:
            out.append((sym.name, i, k))
    return out


def _flow_bindings(it: Item) -> list[tuple[str, int, int]]:
    return _step_bindings(it, True)


def _subflow_bindings(it: Item) -> list[tuple[str, int, int]]:
    return _step_bindings(it, False)


def _binds_nothing(it: Item) -> bool:
    """Does the item bind no name at all? (What `_step_bindings` asks first: its tally's
    declaration side, which a shape compares, so the read notes nothing.)"""
    tally = it.tally
    return not tally.rebinds and not tally.loop_keys


_NO_NAMES: frozenset[str] = frozenset()


def _bound_names(it: Item) -> frozenset[str]:
    """The names the item binds in the flow's own scope."""
    return _NO_NAMES if _binds_nothing(it) else _names_by_scope(it)[0]


def _forked_names(it: Item) -> frozenset[str]:
    """The names the item binds in a fork body (a scope inside the flow's)."""
    return _NO_NAMES if _binds_nothing(it) else _names_by_scope(it)[1]


def _names_by_scope(it: Item) -> tuple[frozenset[str], frozenset[str]]:
    def names(it: Item) -> tuple[frozenset[str], frozenset[str]]:
        own: set[str] = set()
        forked: set[str] = set()
        flat = it.facts.flat
        for n, _, k in memo_of(it, "flow-bindings", _flow_bindings):
            (forked if flat[k].scope else own).add(n)
        return frozenset(own), frozenset(forked)

    return memo_of(it, "flow-binding-names", names)


def _bound_twice(it: Item) -> frozenset[str]:
    """The names the item binds more than once, in the flow's scope or its fork bodies."""
    if _binds_nothing(it):
        return _NO_NAMES

    def twice(it: Item) -> frozenset[str]:
        names = [n for n, _, _ in memo_of(it, "flow-bindings", _flow_bindings)]
        return (
            frozenset(n for n in names if names.count(n) > 1)
            if len(names) != len(set(names))
            else frozenset()
        )

    return memo_of(it, "flow-binding-names-twice", twice)
