"""Fixes that declare where routes go: a workflow's outcomes, a step a route names.

- `route-target` naming nothing (`data.name`, no close name that fits) in a top-level step:
  - a route that carries a value (`x |> route o`, `route o(…)`) goes to an outcome — "Declare
    outcome `o`" in the header, `type T, route success`, `T` what the routes to it carry;
  - a bare route goes to a step — "Create step `s`", a stub after the routing step (where the
    printer keeps it) that routes on: to the step that followed the routing step, else to an
    outcome (`route start` in a workloop). The route is a placeholder.
- `outcome` with `data.missing == "outcome"` (a workflow with none): "Declare outcome `o`" for
  the outcome its routes name, typed by what they carry; `outcome done: type String, route
  success` (placeholders) when nothing routes to one yet.
- `outcome` with `data.missing == "type"`: `type T, ` added, `T` what the routes carry.
- `outcome` with `data.choices` (a route kind that is neither): "Change to `success`" /
  "Change to `failure`" (neither preferred when the written word is close to neither).

All unsafe: an outcome is the workflow's contract with its callers, and a stub's route is a
placeholder for what the new step does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from awl_lsp.features.fixes.declare_header import fitting_record
from awl_lsp.features.fixes.header_clauses import add_header_clause
from awl_lsp.features.fixes.names import viable_candidates
from awl_lsp.features.fixes.placement import INDENT, content_end
from awl_lsp.features.fixes.places import ancestor, node_at, span
from awl_lsp.features.fixes.route_text import outcome_routes
from awl_lsp.features.fixes.usage import (
    CONFLICT,
    Typing,
    combine,
    references_named,
    references_to,
    value_type,
)
from awl_lsp.features.fixes.values import Edit, Fix, edit, escape, tabstop
from awl_lsp.features.typing import binding_type
from awl_lsp.model import Kind, RefKind
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

PLACEHOLDER_OUTCOME = ("done", "String")


def _routes_named(snap: Snapshot, name: str) -> list[Node]:
    """The routes to `name` that resolve to nothing (a subflow's aside)."""
    out = []
    for ref in references_named(snap, name):
        if ref.kind is RefKind.ROUTE and ref.target is None:
            node = snap.doc.root.descendant_for_point_range(ref.range[:2], ref.range[2:])
            route = ancestor(node, "route_statement")
            if route is not None and snap.model.enclosing(ref.range[0], ref.range[1], Kind.SUBFLOW) is None:
                out.append(route)
    return out


def _carried(snap: Snapshot, route: Node, name: str) -> Typing:
    """The type of what a route sends: the piped value, the one value or the record of its fields,
    the same-named binding of a bare route (None when nothing says)."""
    piped = route.child_by_field_name("input")
    if piped is not None:
        return value_type(snap, piped) or None
    payload = route.child_by_field_name("payload")
    if payload is None:
        bound = snap.model.resolve_value(name, "", route.start_point.row)
        return binding_type(snap, bound) if bound is not None and bound.kind is Kind.BINDING else None
    args = [a for a in payload.named_children if a.type == "argument"]
    if len(args) == 1 and args[0].child_by_field_name("name") is None:
        return value_type(snap, args[0].child_by_field_name("value"))
    given: dict[str, str | None] = {}
    for a in args:
        field = a.child_by_field_name("name")
        if field is None:
            return CONFLICT
        given[snap.text(field)] = value_type(snap, a.child_by_field_name("value"))
    return fitting_record(snap, given) or CONFLICT


def _outcome_clause(name: str, typed: Typing, kind: str = "success") -> str:
    shown = escape(typed) if typed is not None else tabstop(1, PLACEHOLDER_OUTCOME[1])
    return f"outcome {escape(name)}: type {shown}, route {kind}"


def _declare_outcome(snap: Snapshot, name: str, routes: list[Node]) -> list[Fix]:
    if any(_top_step(r) is None for r in routes):
        return []  # a substep routes there: a flow outcome is not a substep's to reach
    typed = combine([_carried(snap, r, name) for r in routes])
    if typed == CONFLICT or (typed is None and any(r.child_by_field_name("payload") is None for r in routes)):
        return []  # (a bare route to a placeholder type would send no value)
    edits = add_header_clause(snap, "outcome_clause", _outcome_clause(name, typed))
    return (
        [Fix(f"Declare outcome `{name}`", edits, safe=False, preferred=True, snippet=True)] if edits else []
    )


def _top_step(node: Node) -> Node | None:
    step = ancestor(node, "step_declaration")
    if step is None or step.parent is None or step.parent.type != "source_file":
        return None
    return step


def _step_stub(snap: Snapshot, name: str, route: Node) -> list[Fix]:
    step = _top_step(route)
    if step is None or route.child_by_field_name("payload") is not None:
        return []
    following = step.next_named_sibling
    while following is not None and following.type in ("comment", "doc_comment"):
        following = following.next_named_sibling
    where = content_end(snap, step)
    if snap.model.is_workloop:
        target = "route start"
    elif following is not None and following.type == "step_declaration":
        target = f"route {snap.text(following.child_by_field_name('name'))}"
    else:
        routes = outcome_routes(snap, snap.doc.root.end_point.row + 1, 0)
        if not routes:
            return []
        target = routes[0]
    text = f"\n\nstep {escape(name)}\n{INDENT}{tabstop(1, target)}"
    return [
        Fix(f"Create step `{name}`", (edit(where, None, text),), safe=False, preferred=True, snippet=True)
    ]


def declare_route_target(snap: Snapshot, problem: Problem) -> list[Fix]:
    data = problem.data or {}
    node = node_at(snap, problem.range)
    name = snap.text(node)
    route = ancestor(node, "route_statement")
    if node.type != "identifier" or name != data.get("name") or route is None:
        return []
    if (
        viable_candidates(snap, problem)  # (a close name that fits: probably misspelt)
        or _top_step(route) is None
        or snap.model.lookup(Kind.STEP, name)
        or snap.model.lookup(Kind.OUTCOME, name)
    ):
        return []
    routes = _routes_named(snap, name)
    if any(_top_step(r) is None for r in routes):
        return []  # a substep routes there too: an outcome or step of the flow is not beside it
    carries = any(r.child_by_field_name("payload") or r.child_by_field_name("input") for r in routes)
    if carries:
        return _declare_outcome(snap, name, routes) if not snap.model.is_workloop else []
    return _step_stub(snap, name, route)


def declare_first_outcome(snap: Snapshot, problem: Problem) -> list[Fix]:
    if snap.model.of_kind(Kind.OUTCOME) or snap.model.is_workloop:
        return []
    names = list(
        dict.fromkeys(
            r.name
            for r in snap.model.references
            if r.kind is RefKind.ROUTE and r.target is None and not r.scope and r.name != "start"
        )
    )
    if not names:
        name, typed = PLACEHOLDER_OUTCOME
        edits = add_header_clause(snap, "outcome_clause", _outcome_clause(name, None))
        return (
            [Fix(f"Declare outcome `{name}`", edits, safe=False, preferred=True, snippet=True)]
            if edits
            else []
        )
    return _declare_outcome(snap, names[0], _routes_named(snap, names[0]))


def outcome_type(snap: Snapshot, problem: Problem) -> list[Fix]:
    clause = ancestor(node_at(snap, problem.range), "outcome_clause")
    name_node = clause.child_by_field_name("name") if clause is not None else None
    route = clause.child_by_field_name("route") if clause is not None else None
    if clause is None or name_node is None or route is None or clause.child_by_field_name("type") is not None:
        return []
    name = snap.text(name_node)
    sym = snap.model.first(Kind.OUTCOME, name)
    routes = []
    for ref in references_to(snap, sym) if sym is not None else []:
        node = snap.doc.root.descendant_for_point_range(ref.range[:2], ref.range[2:])
        found = ancestor(node, "route_statement")
        if found is not None:
            routes.append(found)
    typed = combine([_carried(snap, r, name) for r in routes])
    if typed == CONFLICT:
        return []
    kind_word = next((c for c in clause.children if c.type == "route"), None)
    at = kind_word if kind_word is not None else route
    shown = escape(typed) if typed is not None else tabstop(1, PLACEHOLDER_OUTCOME[1])
    insert = edit((at.start_point.row, at.start_point.column), None, f"type {shown}, ")
    title = f"Add `type {typed or PLACEHOLDER_OUTCOME[1]}`"
    return [Fix(title, (insert,), safe=False, preferred=True, snippet=True)]


def outcome_kind(snap: Snapshot, problem: Problem) -> list[Fix]:
    data = problem.data or {}
    node = node_at(snap, problem.range)
    choices = [c for c in data.get("choices", []) if isinstance(c, str)]
    if node.type != "identifier" or snap.text(node) != data.get("name") or not choices:
        return []
    close = [c for c in data.get("candidates", []) if isinstance(c, str)]
    return [
        Fix(f"Change to `{c}`", (Edit(span(node), c),), safe=False, preferred=False)
        for c in choices
        if c not in close  # (those the close-name fix offers already)
    ]


def outcome_route_kind(snap: Snapshot, problem: Problem) -> list[Fix]:
    """`data.missing == "kind"`: ", route success" or ", route failure" after the type."""
    clause = ancestor(node_at(snap, problem.range), "outcome_clause")
    typ = clause.child_by_field_name("type") if clause is not None else None
    if clause is None or typ is None or clause.child_by_field_name("route") is not None:
        return []
    at = (typ.end_point.row, typ.end_point.column)
    return [
        Fix(f"Add `route {kind}`", (edit(at, None, f", route {kind}"),), safe=False, preferred=False)
        for kind in ("success", "failure")
    ]
