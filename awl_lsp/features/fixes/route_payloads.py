"""Fixes for what a route (or a `spawn`) carries: a payload missing, one too many, the wrong form.

- `route-no-payload` (`data.outcome`, `data.type`): a bare `route o` to an outcome that carries a
  value — "Bind the result as `-> o`" when the statement right above is a call whose result is of
  that type and unbound; "Pass `v`" for a value of that type the step has; else a payload of
  placeholders (`route_text`). Unsafe: which value is meant is the author's.
- `route-step-payload` (`data.drop == "payload"`): "Remove the payload" of a route to a step.
  Unsafe: the values written there are dropped (the step reads bindings instead).
- `route-not-record`: one named field for a scalar outcome (`data.positional`) — pass its value
  alone, `route o(value)`; named fields for an optional record outcome (`data.plain`) — declare the
  outcome's type without `?`. Unsafe.
- `route-payload` (`data.outcome`, `data.carried`): the value sent is of another type than the
  outcome carries — "Make outcome `o` carry `T`" when every route to it sends that type. Unsafe:
  the outcome's type is the flow's contract with its callers.
- `spawn` with a binding (`data.drop == "binding"`): remove `-> name` when nothing reads it (safe:
  a spawn has no result, so the binding never held anything), else "Call `c` directly" (unsafe).
- `spawn` of an action (`data.call`): "Call `a` directly" — drop `spawn`. Unsafe: the step then
  waits for the action.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from awl_lsp.features.fixes.header_clauses import set_outcome_type
from awl_lsp.features.fixes.places import ancestor, end, node_at, span, start
from awl_lsp.features.fixes.route_text import outcome_route, step_values
from awl_lsp.features.fixes.usage import binding_symbol, references_to, value_type
from awl_lsp.features.fixes.values import Edit, Fix, edit
from awl_lsp.model import Kind, Symbol
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot


def _route(snap: Snapshot, problem: Problem) -> Node | None:
    node = node_at(snap, problem.range)
    return ancestor(node, "route_statement")


def _outcome(snap: Snapshot, name: str, at: Node) -> Symbol | None:
    sub = snap.model.enclosing(at.start_point.row, at.start_point.column, Kind.SUBFLOW)
    scope = f"subflow:{sub.name}" if sub is not None else ""
    return next((o for o in snap.model.lookup(Kind.OUTCOME, name) if o.scope == scope), None)


def _previous_statement(route: Node) -> Node | None:
    prev = route.prev_named_sibling
    while prev is not None and prev.type in ("comment", "doc_comment"):
        prev = prev.prev_named_sibling
    return prev


def pass_payload(snap: Snapshot, problem: Problem) -> list[Fix]:
    data = problem.data or {}
    route = _route(snap, problem)
    name, wanted = data.get("outcome"), data.get("type")
    target = route.child_by_field_name("target") if route is not None else None
    if route is None or target is None or snap.text(target) != name or not isinstance(wanted, str):
        return []
    if route.child_by_field_name("payload") is not None or route.child_by_field_name("input") is not None:
        return []
    out: list[Fix] = []
    prev = _previous_statement(route)
    value = (
        prev.child_by_field_name("value")
        if prev is not None and prev.type == "expression_statement"
        else None
    )
    if value is not None and prev is not None and prev.child_by_field_name("binding") is None:
        if value.type == "call_expression" and value_type(snap, value) == wanted:
            out.append(
                Fix(f"Bind the result as `-> {name}`", (edit(end(value), None, f" -> {name}"),), safe=False)
            )
    row, col = route.start_point.row, route.start_point.column
    for v in sorted(step_values(snap, row, col)):
        sym = snap.model.resolve_value(v, "", row)
        typed = sym.type if sym is not None and sym.kind is not Kind.BINDING else None
        if sym is not None and sym.kind is Kind.BINDING:
            from awl_lsp.features.typing import binding_type

            typed = binding_type(snap, sym)
        if typed == wanted and v != name:
            out.append(Fix(f"Pass `{v}`", (edit(end(target), None, f"({v})"),), safe=False))
    sym = _outcome(snap, name, route)
    if not out and sym is not None:
        written = outcome_route(snap, sym, row, col)
        if written is not None and written != f"route {name}":
            out.append(
                Fix(f"Pass a payload: `{written}`", (edit(start(route), end(target), written),), safe=False)
            )
    return [Fix(f.title, f.edits, f.safe, preferred=i == 0) for i, f in enumerate(out)]


def drop_step_payload(snap: Snapshot, problem: Problem) -> list[Fix]:
    node = node_at(snap, problem.range)
    payload = node if node.type == "arguments" else ancestor(node, "arguments")
    route = payload.parent if payload is not None else None
    if payload is None or route is None or route.type != "route_statement":
        return []
    return [
        Fix(
            f"Remove the payload `{snap.text(payload)}`",
            (edit(start(payload), end(payload), ""),),
            safe=False,
            preferred=True,
        )
    ]


def payload_form(snap: Snapshot, problem: Problem) -> list[Fix]:
    data = problem.data or {}
    node = node_at(snap, problem.range)
    payload = node if node.type == "arguments" else ancestor(node, "arguments")
    route = payload.parent if payload is not None else None
    if payload is None or route is None or route.type != "route_statement":
        return []
    name = snap.text(route.child_by_field_name("target"))
    args = [a for a in payload.named_children if a.type == "argument"]
    if data.get("positional"):
        if len(args) != 1 or args[0].child_by_field_name("value") is None:
            return []
        value = snap.text(args[0].child_by_field_name("value"))
        return [
            Fix(f"Pass `{value}` alone", (Edit(span(payload), f"({value})"),), safe=False, preferred=True)
        ]
    plain = data.get("plain")
    sym = _outcome(snap, name, route)
    if not isinstance(plain, str) or sym is None:
        return []
    clause = _clause(snap, sym)
    typ = clause.child_by_field_name("type") if clause is not None else None
    if typ is None or typ.type != "optional_type":
        return []
    edits = set_outcome_type(snap, clause, plain) if clause is not None else None
    if not edits:
        return []
    return [Fix(f"Make outcome `{name}` carry `{plain}`", edits, safe=False, preferred=True)]


def _clause(snap: Snapshot, sym: Symbol) -> Node | None:
    r = sym.selection
    node = snap.doc.root.descendant_for_point_range(r[:2], r[2:])
    return ancestor(node, "outcome_clause")


def _routes_to(snap: Snapshot, sym: Symbol) -> list[Node]:
    out = []
    for ref in references_to(snap, sym):
        node = snap.doc.root.descendant_for_point_range(ref.range[:2], ref.range[2:])
        route = ancestor(node, "route_statement")
        if route is not None:
            out.append(route)
    return out


def retype_outcome(snap: Snapshot, problem: Problem) -> list[Fix]:
    data = problem.data or {}
    name, carried = data.get("outcome"), data.get("carried")
    route = _route(snap, problem)
    if route is None or not isinstance(name, str) or not isinstance(carried, str) or carried == "unknown":
        return []
    sym = _outcome(snap, name, route)
    clause = _clause(snap, sym) if sym is not None else None
    typ = clause.child_by_field_name("type") if clause is not None else None
    if sym is None or typ is None:
        return []
    for other in _routes_to(snap, sym):
        piped = other.child_by_field_name("input")
        payload = other.child_by_field_name("payload")
        if piped is not None:
            sent = value_type(snap, piped)
        elif payload is None:
            bound = snap.model.resolve_value(name, "", other.start_point.row)
            from awl_lsp.features.typing import binding_type

            sent = binding_type(snap, bound) if bound is not None else None
        else:
            return []  # a payload built from fields or a value: another type would not take it
        if sent != carried:
            return []
    edits = set_outcome_type(snap, clause, carried) if clause is not None else None
    if not edits:
        return []
    return [Fix(f"Make outcome `{name}` carry `{carried}`", edits, safe=False, preferred=True)]


def spawn_binding(snap: Snapshot, problem: Problem) -> list[Fix]:
    node = node_at(snap, problem.range)
    st = ancestor(node, "spawn_statement")
    binding = st.child_by_field_name("binding") if st is not None else None
    call = st.child_by_field_name("call") if st is not None else None
    if st is None or binding is None or call is None:
        return []
    sym = binding_symbol(snap, binding)
    if sym is not None and not references_to(snap, sym):
        return [
            Fix(
                f"Remove `{snap.text(binding)}`",
                (edit(end(call), end(binding), ""),),
                safe=True,
                preferred=True,
            )
        ]
    fn = call.child_by_field_name("function")
    return [
        Fix(
            f"Call `{snap.text(fn)}` directly",
            (edit(start(st), start(call), ""),),
            safe=False,
            preferred=True,
        )
    ]


def call_directly(snap: Snapshot, problem: Problem) -> list[Fix]:
    node = node_at(snap, problem.range)
    st = ancestor(node, "spawn_statement")
    call = st.child_by_field_name("call") if st is not None else None
    if (
        st is None
        or call is None
        or snap.text(call.child_by_field_name("function")) != (problem.data or {}).get("call")
    ):
        return []
    return [
        Fix(
            f"Call `{snap.text(node)}` directly",
            (edit(start(st), start(call), ""),),
            safe=False,
            preferred=True,
        )
    ]
