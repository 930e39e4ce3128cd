"""Routes a fix can write at a place in a step: to an outcome with a payload, to a step, to `start`.

A fix that must end a step, an `on failure` block or an outcome arm with a `route` needs a target
that exists and a payload that checks, so the document re-checks without a new error; the user
then overwrites it (it is written as a placeholder). `outcome_route` builds `route o(f: v, …)` for a
flow (or subflow) outcome `o`: a bare `route o` when the step bound a value of that name, else each
required field from a same-named value the step has (an input, a const, a carry, or a binding the
step itself made above the place — a binding of another step may not be bound on every path, and
none in an `on failure` block), else
a placeholder value of its type; None when some value cannot be written (a schema type, `Nil`).
`outcome_routes` lists those for every outcome in the order a fix prefers them (success first, or
failure first for an `on failure` block).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from awl_lsp.features.callees import expected_parameters
from awl_lsp.features.fixes.usage import value_type
from awl_lsp.features.placeholders import argument_value, value_for
from awl_lsp.model import Kind, Symbol

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

WIDTH = 100  # the printer breaks a step outcome whose line would pass this many columns


def _outcomes(snap: Snapshot, row: int, col: int) -> list[Symbol]:
    """The outcomes a route at (row, col) may target: its subflow's, else the flow's."""
    sub = snap.model.enclosing(row, col, Kind.SUBFLOW)
    if sub is not None:
        return [c for c in sub.children if c.kind is Kind.OUTCOME]
    return [o for o in snap.model.of_kind(Kind.OUTCOME) if o.scope == ""]


def step_values(snap: Snapshot, row: int, col: int, bindings: bool = True) -> set[str]:
    """The value names certainly bound at (row, col): the flow's inputs, consts and carries, the
    subflow's parameters, and the bindings the enclosing step made before that point."""
    step = snap.model.enclosing(row, col, Kind.STEP)
    sub = snap.model.enclosing(row, col, Kind.SUBFLOW)
    scope = f"subflow:{sub.name}" if sub is not None else ""
    out: set[str] = set()
    for s in snap.model.visible_values(row, scope):
        if s.kind is not Kind.BINDING:
            out.add(s.name)
        elif bindings and step is not None and s.container == step.name and step.range[0] <= s.selection[0]:
            if s.selection[:2] >= (row, col):
                continue  # bound below the place
            out.add(s.name)
    return out


def outcome_route(snap: Snapshot, outcome: Symbol, row: int, col: int, bindings: bool = True) -> str | None:
    """`route o…` with a payload that checks at (row, col), or None (see the module docstring)."""
    model = snap.model
    if not outcome.type or outcome.type == "Nil":
        return None
    values = step_values(snap, row, col, bindings)
    name = outcome.name
    if name in values:
        bound = model.resolve_value(name, "", row)
        if bound is not None and bound.kind is Kind.BINDING and _binding_type(snap, bound) == outcome.type:
            return f"route {name}"
    callee = expected_parameters(snap, "route", name, row, col)
    if callee is None:
        return None
    same = sorted(v for v in values if _fits(snap, v, outcome.type, row))
    if same:  # a value of the outcome's own type: passed whole
        return f"route {name}({same[0]})"
    if len(callee.params) == 1 and callee.params[0].positional:
        value = value_for(model, outcome.type)
        return f"route {name}({value})" if value is not None else None
    parts: list[str] = []
    for p in callee.params:
        if p.optional:
            continue
        value = argument_value(model, p.name, p.type, row, "", values)
        if value is None or (value == p.name and not _fits(snap, p.name, p.type, row)):
            value = value_for(model, p.type)
        if value is None:
            return None
        parts.append(f"{p.name}: {value}")
    return f"route {name}({', '.join(parts)})"


def _binding_type(snap: Snapshot, sym: Symbol) -> str | None:
    from awl_lsp.features.typing import binding_type

    return binding_type(snap, sym)


def _fits(snap: Snapshot, name: str, wanted: str | None, row: int) -> bool:
    """Is the value `name` in scope of the type `wanted` (so passing it checks)?"""
    sym = snap.model.resolve_value(name, "", row)
    if sym is None:
        return False
    have = sym.type if sym.kind is not Kind.BINDING else _binding_type(snap, sym)
    return have is not None and wanted is not None and have == wanted


def outcome_routes(snap: Snapshot, row: int, col: int, failure_first: bool = False) -> list[str]:
    """A writable route to each outcome, in the order a fix prefers them. In an `on failure` block
    (`failure_first`) the step's bindings are left out: the call that failed bound nothing."""
    outs = _outcomes(snap, row, col)
    first = "failure" if failure_first else "success"
    outs.sort(key=lambda o: o.extra.get("route", "success") != first)
    found = [outcome_route(snap, o, row, col, bindings=not failure_first) for o in outs]
    return [r for r in found if r is not None]


def arm_text(indent: str, name: str, guard: str, route: str) -> str:
    """An outcome arm as the printer lays it out: broken after its comma (the route one level deeper)
    when the route carries named fields or the line would pass the width."""
    line = f"{indent}outcome {name}: {guard}, {route}"
    if ": " in route.partition("(")[2] or len(line) > WIDTH:
        return f"{indent}outcome {name}: {guard},\n{indent}  {route}"
    return line


__all__ = ["arm_text", "outcome_route", "outcome_routes", "step_values", "value_type"]
