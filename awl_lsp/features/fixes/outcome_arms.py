"""Fixes for a step's outcome arms: a missing `else` arm, an `else` arm not last, an arm with no route.

- `outcomes-exhaustive` (`data.missing == "else"`): "Add an `else` arm" after the last arm —
  `outcome other: else, route …`, the route the last arm takes (a placeholder the user
  overwrites), in the arms' own spelling (`otherwise` where they use `when`), laid out as the
  printer does. Tried first (`trial.mends`). Unsafe: where the uncovered case should go is the
  author's decision.
- `else-not-last` (`data.move == "last"`): "Move `else` arm last" — the arm (with its comment
  lines) moved below the last arm. Not offered when a step has two such arms (one has to go, and
  which is the author's call). Unsafe: the author may rather have meant to drop the arms after it.
- `outcome-route` (`data.missing == "route"`): ", route …" after the guard — a sibling arm's
  route, else a route to an outcome. Unsafe: a placeholder target.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from awl_lsp.features.fixes.placement import body_items, content_end, line_text
from awl_lsp.features.fixes.places import ancestor, end, node_at
from awl_lsp.features.fixes.route_text import arm_text, outcome_routes
from awl_lsp.features.fixes.trial import mends
from awl_lsp.features.fixes.values import Fix, edit, escape, tabstop
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

_ELSE = ("else", "otherwise")


def _arms(step: Node) -> list[Node]:
    return [i for i in body_items(step) if i.type == "step_outcome"]


def _keyword(snap: Snapshot, arm: Node) -> str:
    guard = arm.child_by_field_name("guard")
    return snap.text(guard.child_by_field_name("keyword")) if guard is not None else ""


def _route_of(snap: Snapshot, arm: Node) -> str | None:
    """An arm's route as written, when it is on one line."""
    route = arm.child_by_field_name("route")
    if route is None or route.has_error:
        return None
    text = snap.text(route).rstrip()
    return text if "\n" not in text else None


def _fresh_name(taken: set[str], base: str = "other") -> str:
    name, n = base, 2
    while name in taken:
        name, n = f"{base}_{n}", n + 1
    return name


def _tests_presence(arm: Node) -> bool:
    """Does the arm's guard test a value's presence (its route may read it only under that test)?"""
    stack = [arm.child_by_field_name("guard")]
    while stack:
        n = stack.pop()
        if n is None:
            continue
        if n.type == "is_expression":
            return True
        stack.extend(n.named_children)
    return False


def _placeholder_route(snap: Snapshot, step: Node, arms: list[Node], row: int) -> str | None:
    """A route for a new arm: an arm's own, when its guard tests no presence the route relies on,
    else a route to an outcome."""
    for arm in reversed(arms):
        if _tests_presence(arm):
            continue
        found = _route_of(snap, arm)
        if found is not None:
            return found
    routes = outcome_routes(snap, row, step.start_point.column + 2)
    return routes[0] if routes else ("route start" if snap.model.is_workloop else None)


def add_else_arm(snap: Snapshot, problem: Problem) -> list[Fix]:
    step = ancestor(node_at(snap, problem.range), "step_declaration")
    arms = _arms(step) if step is not None else []
    if step is None or not arms or any(_keyword(snap, a) in _ELSE for a in arms):
        return []
    where = content_end(snap, arms[-1])
    route = _placeholder_route(snap, step, arms, where[0])
    if route is None:
        return []
    old_style = any(_keyword(snap, a) == "when" for a in arms)
    word = "otherwise" if old_style else "else"
    name = _fresh_name({snap.text(a.child_by_field_name("name")) for a in arms})
    indent = " " * arms[-1].start_point.column
    text = arm_text(indent, name, word, route)  # (it ends with the route: the placeholder)
    snippet = escape(text[: -len(route)]) + tabstop(1, route)
    fix = Fix(
        f"Add an `{word}` arm", (edit(where, None, "\n" + snippet),), safe=False, preferred=True, snippet=True
    )
    # (tried: a new arm is also a new place for the step's substeps to route to, which a problem of
    # theirs lists — the problem stays, but is not the one it was)
    return [fix] if mends(snap, problem, fix.plain_edits()) else []


def move_else_last(snap: Snapshot, problem: Problem) -> list[Fix]:
    arm = ancestor(node_at(snap, problem.range), "step_outcome")
    step = ancestor(arm, "step_declaration") if arm is not None else None
    arms = _arms(step) if step is not None else []
    if (
        arm is None
        or arm not in arms
        or arm == arms[-1]
        or sum(_keyword(snap, a) in _ELSE for a in arms) != 1
    ):
        return []
    first_row, last_row = arm.start_point.row, content_end(snap, arm)[0]
    while first_row > 0 and line_text(snap, first_row - 1).lstrip().startswith("//"):
        first_row -= 1  # its comment lines go with it
    lines = [line_text(snap, r) for r in range(first_row, last_row + 1)]
    where = content_end(snap, arms[-1])
    word = _keyword(snap, arm)
    edits = (edit((first_row, 0), (last_row + 1, 0), ""), edit(where, None, "".join("\n" + x for x in lines)))
    return [Fix(f"Move the `{word}` arm last", edits, safe=False, preferred=True)]


def add_arm_route(snap: Snapshot, problem: Problem) -> list[Fix]:
    arm = ancestor(node_at(snap, problem.range), "step_outcome")
    step = ancestor(arm, "step_declaration") if arm is not None else None
    guard = arm.child_by_field_name("guard") if arm is not None else None
    if arm is None or step is None or guard is None or arm.child_by_field_name("route") is not None:
        return []
    if guard.end_point.row != arm.start_point.row or content_end(snap, arm) != end(guard):
        return []  # something after the guard: not only the route is missing
    others = [a for a in _arms(step) if a != arm]
    route = _placeholder_route(snap, step, others, arm.start_point.row)
    if route is None:
        return []
    name = snap.text(arm.child_by_field_name("name"))
    guard_text = snap.text(guard)
    indent = " " * arm.start_point.column
    laid = arm_text(indent, name, guard_text, route)
    gap = laid[len(f"{indent}outcome {name}: {guard_text}") : -len(route)]  # `, ` or `,` and a line break
    return [
        Fix(
            "Add a route",
            (edit(end(guard), None, escape(gap) + tabstop(1, route)),),
            safe=False,
            preferred=True,
            snippet=True,
        )
    ]
