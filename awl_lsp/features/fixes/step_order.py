"""Fixes for a step's lines written out of order: moved to where the step runs them.

- `after-outcomes` (`data.move == "above"`): a statement, substep or `on failure` block below the
  outcome arms — moved above them (a statement or substep after the step's last statement, an
  `on failure` block right above the arms), as the printer orders a step. Not offered when the
  move would make another error: a second `on failure` block, or a `route` above the arms (they
  could then never fire).
- `after-route` (`data.move == "above"`): a line below the step's `route` — moved above it.

Both unsafe: the lines keep their text, but they run at another time than they were written at,
which only the author can confirm. A moved line keeps its comment lines and takes the indentation
of where it lands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from awl_lsp.features.fixes.placement import body_items, content_end, line_text, statements_end
from awl_lsp.features.fixes.places import node_at
from awl_lsp.features.fixes.values import Edit, Fix, edit
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot


def _item_at(snap: Snapshot, problem: Problem) -> tuple[Node, Node] | None:
    """(the reported item, its step) when the item is still a line of a step's body."""
    node: Node | None = node_at(snap, problem.range)
    while node is not None and not (node.parent is not None and node.parent.type == "step_body"):
        node = node.parent
    if node is None or node.parent is None or node.parent.parent is None:
        return None
    if (node.start_point.row, node.start_point.column) != problem.range[:2]:
        return None
    return node, node.parent.parent


def _lines(snap: Snapshot, item: Node, indent: str) -> tuple[int, int, list[str]]:
    """(first row, last row, the lines re-indented to `indent`) of an item and its comment lines."""
    first, last = item.start_point.row, content_end(snap, item)[0]
    while first > 0 and line_text(snap, first - 1).lstrip().startswith("//"):
        first -= 1
    shift = len(indent) - item.start_point.column
    out = []
    for r in range(first, last + 1):
        text = line_text(snap, r)
        out.append(
            " " * shift + text if shift >= 0 else text[-shift:] if text[:-shift].strip() == "" else text
        )
    return first, last, out


def _move(snap: Snapshot, item: Node, where: tuple[int, int], indent: str, title: str) -> list[Fix]:
    first, last, lines = _lines(snap, item, indent)
    if first <= where[0] <= last or first == 0:
        return []
    cut = edit(_end_of(snap, first - 1), _end_of(snap, last), "")  # its lines, with the break before them
    put: Edit = edit(where, None, "".join("\n" + x for x in lines))
    return [Fix(title, (put, cut), safe=False, preferred=True)]


def _end_of(snap: Snapshot, row: int) -> tuple[int, int]:
    return row, len(line_text(snap, row).encode("utf-8"))


def move_above_outcomes(snap: Snapshot, problem: Problem) -> list[Fix]:
    found = _item_at(snap, problem)
    if found is None:
        return []
    item, step = found
    items = body_items(step)
    arms = [i for i in items if i.type == "step_outcome"]
    if not arms or item.type == "route_statement":
        return []
    if item.type == "on_failure":
        if sum(i.type == "on_failure" for i in items) > 1:
            return []
        above = items[items.index(arms[0]) - 1] if items.index(arms[0]) > 0 else None
        where = content_end(snap, above) if above is not None else _end_of(snap, step.start_point.row)
        indent = " " * arms[0].start_point.column
    else:
        where, indent = statements_end(snap, step)
    return _move(snap, item, where, indent, "Move above the outcome arms")


def move_above_route(snap: Snapshot, problem: Problem) -> list[Fix]:
    found = _item_at(snap, problem)
    if found is None:
        return []
    item, step = found
    items = body_items(step)
    routes = [i for i in items[: items.index(item)] if i.type == "route_statement"]
    if not routes:
        return []
    route = routes[0]
    before = items.index(route)
    where = content_end(snap, items[before - 1]) if before > 0 else _end_of(snap, step.start_point.row)
    return _move(snap, item, where, " " * route.start_point.column, "Move above the `route`")
