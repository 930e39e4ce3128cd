"""Fixes that end a step (or its `on failure` block) with the `route` it lacks.

- `falls-off-end` (`data.missing == "route"`): the flow's last step ends without a route —
  "Add `route o(…)`" after its last statement, for each outcome a route can be written to
  (success outcomes first), the payload from the step's own values or placeholders
  (`route_text`). In a workloop, `route start`.
- `dead-end-step` (`data.next`): a step that neither routes nor is followed — "Add `route next`"
  (the step below it, which only routes enter), and the routes to the outcomes. Not offered when
  the step below waits on an `after` list: what follows what is decided there.
- `on-failure-route` (`data.missing == "route"`): the block's last line — a route to a failure
  outcome first.

All unsafe: where the step goes is the author's decision; the target is a placeholder that checks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from awl_lsp.features.fixes.placement import block_end, body_items, statements_end
from awl_lsp.features.fixes.places import ancestor, node_at
from awl_lsp.features.fixes.route_text import outcome_routes
from awl_lsp.features.fixes.values import Fix, edit, tabstop
from awl_lsp.model import Kind
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

MOST = 3  # routes offered to choose from


def _offers(where: tuple[int, int], indent: str, routes: list[str]) -> list[Fix]:
    return [
        Fix(
            f"Add `{route}`",
            (edit(where, None, f"\n{indent}{tabstop(1, route)}"),),
            safe=False,
            preferred=i == 0,
            snippet=True,
        )
        for i, route in enumerate(dict.fromkeys(routes))
    ][:MOST]


def _step(snap: Snapshot, problem: Problem) -> Node | None:
    node = node_at(snap, problem.range)
    step = ancestor(node, "step_declaration")
    if step is None or snap.text(step.child_by_field_name("name")) != snap.text(node):
        return None
    items = body_items(step)
    if any(i.type in ("step_outcome", "route_statement") for i in items):
        return None  # it routes now: the text moved on since the problem
    if any(i.type == "distribute_statement" for i in items):
        return None  # a `distribute` is its step's only line: nothing may be added beside it
    return step


def finish_last_step(snap: Snapshot, problem: Problem) -> list[Fix]:
    step = _step(snap, problem)
    if step is None:
        return []
    where, indent = statements_end(snap, step)
    if snap.model.is_workloop and snap.model.enclosing(where[0], 0, Kind.SUBFLOW) is None:
        return _offers(where, indent, ["route start"])
    return _offers(where, indent, outcome_routes(snap, where[0], where[1]))


def route_dead_end(snap: Snapshot, problem: Problem) -> list[Fix]:
    step = _step(snap, problem)
    following = (problem.data or {}).get("next")
    if step is None or not isinstance(following, str):
        return []
    sibling = step.next_named_sibling
    while sibling is not None and sibling.type in ("comment", "doc_comment"):
        sibling = sibling.next_named_sibling
    if sibling is not None and sibling.child_by_field_name("after") is not None:
        return []  # the step below waits on its `after` list: that list is where the flow is decided
    where, indent = statements_end(snap, step)
    routes = outcome_routes(snap, where[0], where[1])
    if sibling is not None and sibling.type == "step_declaration":
        if snap.text(sibling.child_by_field_name("name")) == following:
            routes.insert(0, f"route {following}")
    return _offers(where, indent, routes)


def end_failure_block(snap: Snapshot, problem: Problem) -> list[Fix]:
    block = ancestor(node_at(snap, problem.range), "on_failure")
    items = body_items(block) if block is not None else []
    if block is None or (items and items[-1].type == "route_statement"):
        return []
    where, indent = block_end(snap, block, items)
    if snap.model.is_workloop and snap.model.enclosing(where[0], 0, Kind.SUBFLOW) is None:
        return _offers(where, indent, ["route start"])
    return _offers(where, indent, outcome_routes(snap, where[0], where[1], failure_first=True))
