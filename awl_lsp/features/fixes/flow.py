"""Fixes for the flow graph: a route cycle with no bound, an `after` cycle, an unreachable step, a
loop whose exhaustion nothing handles.

- `route-cycle`: `max N visits` as the last line of the step whose route closes the cycle, N a
  tab stop (3 until the user types the bound). Unsafe: the bound is the author's to choose.
  The same bound for a step whose outcome guard reads `visits` (`visits-read`): that count
  exists only in a bounded step.
- `after-cycle` (`data.drop`, the waits on the cycle's own steps), and `region-after` (the wait
  across a region's edge): those names leave the step's `after` list (the whole `after` when
  nothing is left). Safe when the step waits on itself alone — a step cannot wait for itself, so
  the wait means nothing; otherwise a guess at which wait is the wrong one.
- `unreachable-step`: remove the step, when the checker found it `removable` (nothing routes to it
  or waits on it, the step above does not fall towards it, it opens or closes no region) and no
  name declared in it is read elsewhere, nor is it the only reader of a type, detached workflow or
  binding. Unsafe: it may be the route to it that is missing. When a bound step is unreachable
  only because the step above falls into it (`data.enter_from`; a bound step is entered by routes
  only), a `route` to it ends the step above instead. Safe: that is the way on the author wrote.
- `loop-exhaustion`: a last arm (`otherwise`, in a workloop `else`) — the step's closing `route`
  turned into one, or, when the step would fall into the next one, an arm routing there. Unsafe:
  the author may want exhaustion to go elsewhere; the arm's name and target are tab stops.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from awl_lsp.features.fixes import lines
from awl_lsp.features.fixes.places import ancestor, node_at
from awl_lsp.features.fixes.values import Edit, Fix, edit, escape, tabstop
from awl_lsp.model import Kind, Range, Symbol
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

_TRIVIA = lines.TRIVIA
# names whose last reader going leaves a warning behind (`unused-type`, `unused-detached`, …)
_WATCHED = frozenset({Kind.TYPE, Kind.DETACHED, Kind.BINDING})


def body_statements(step: Node) -> list[Node]:
    body = step.child_by_field_name("body")
    return [c for c in body.named_children if c.type not in _TRIVIA] if body is not None else []


def body_indent(snap: Snapshot, step: Node) -> int:
    """The column a step's body lines start at (one level under the step when it has none)."""
    found = body_statements(step)
    return found[0].start_point.column if found else lines.indent(snap, step.start_point.row) + 2


def _step_name(snap: Snapshot, step: Node) -> str:
    return snap.text(step.child_by_field_name("name"))


def bound_the_cycle(snap: Snapshot, problem: Problem) -> list[Fix]:
    route = node_at(snap, problem.range)
    step = ancestor(route, "step_declaration")
    if step is None or step.has_error or any(s.type == "visits_bound" for s in body_statements(step)):
        return []
    text = " " * body_indent(snap, step) + f"max {tabstop(1, '3')} visits"
    title = f"Bound step `{_step_name(snap, step)}` with `max N visits`"
    return [Fix(title, (lines.insert_line_after(snap, lines.last_row(step), text),), False, True, True)]


def bound_the_guarded_step(snap: Snapshot, problem: Problem) -> list[Fix]:
    """`visits-read` in an outcome guard of a step with no bound: bound that step."""
    read = node_at(snap, problem.range)
    guard = ancestor(read, "guard", "step_declaration")
    if guard is None or guard.type != "guard":
        return []
    return bound_the_cycle(snap, problem)


def drop_after_waits(snap: Snapshot, problem: Problem) -> list[Fix]:
    data = problem.data or {}
    drop = [d for d in data.get("drop", []) if isinstance(d, str)]
    step = ancestor(node_at(snap, problem.range), "step_declaration")
    clause = step.child_by_field_name("after") if step is not None else None
    if step is None or clause is None or not drop or _step_name(snap, step) != data.get("step"):
        return []
    names = [c for c in clause.named_children if c.type == "identifier"]
    keep = [snap.text(n) for n in names if snap.text(n) not in drop]
    if len(keep) == len(names):
        return []
    name = step.child_by_field_name("name")
    assert name is not None
    if keep:
        new = "after " + ", ".join(keep)
        where: Range = (
            clause.start_point.row,
            clause.start_point.column,
            clause.end_point.row,
            clause.end_point.column,
        )
    else:  # the whole clause goes, with the space before it
        new = ""
        where = (name.end_point.row, name.end_point.column, clause.end_point.row, clause.end_point.column)
    itself = drop == [_step_name(snap, step)]
    listed = ", ".join(f"`{d}`" for d in drop)
    title = f"Stop waiting `after` {listed}"
    return [Fix(title, (Edit(where, new),), safe=itself, preferred=True)]


def remove_unreachable_step(snap: Snapshot, problem: Problem) -> list[Fix]:
    data = problem.data or {}
    node = node_at(snap, problem.range)
    step = ancestor(node, "step_declaration")
    if not data.get("removable") or step is None or _step_name(snap, step) != data.get("name"):
        return []
    first, last = lines.doc_rows_above(step), lines.last_row(step)
    if not leaves_nothing_behind(snap, first, last):
        return []
    title = f"Remove the unreachable step `{data['name']}`"
    return [Fix(title, (lines.remove_rows(snap, first, last),), safe=False, preferred=True)]


def leaves_nothing_behind(snap: Snapshot, first: int, last: int) -> bool:
    """Whether rows first..last can go without a name read elsewhere losing its declaration, or a
    type, detached workflow or binding declared elsewhere losing its last reader."""

    def inside(r: Range) -> bool:
        return first <= r[0] and r[2] <= last

    read_outside: set[int] = set()
    read_inside: dict[int, Symbol] = {}
    for ref in snap.model.references:  # (one pass: who reads each declaration, inside and outside)
        target = ref.target
        if target is None:
            continue
        if inside(ref.range):
            read_inside[id(target)] = target
        elif inside(target.selection):
            return False  # declared in the rows, read outside them
        else:
            read_outside.add(id(target))
    return not any(
        key not in read_outside and target.kind in _WATCHED and not inside(target.selection)
        for key, target in read_inside.items()
    )


def route_into_bounded_step(snap: Snapshot, problem: Problem) -> list[Fix]:
    data = problem.data or {}
    step = ancestor(node_at(snap, problem.range), "step_declaration")
    above = step.prev_named_sibling if step is not None else None
    while above is not None and above.type in _TRIVIA:
        above = above.prev_named_sibling
    name, source = data.get("name"), data.get("enter_from")
    if step is None or above is None or above.type != "step_declaration" or not isinstance(name, str):
        return []
    if _step_name(snap, step) != name or _step_name(snap, above) != source or above.has_error:
        return []
    text = " " * body_indent(snap, above) + f"route {name}"
    title = f"End step `{source}` with `route {name}`"
    return [
        Fix(title, (lines.insert_line_after(snap, lines.last_row(above), text),), safe=True, preferred=True)
    ]


def _has_substeps(step: Node) -> bool:
    stack = list(step.named_children)
    while stack:
        node = stack.pop()
        if node.type == "step_declaration":
            return True
        stack.extend(node.named_children)
    return False


def handle_exhaustion(snap: Snapshot, problem: Problem) -> list[Fix]:
    loop = ancestor(node_at(snap, problem.range), "loop_statement")
    step = ancestor(loop, "step_declaration")
    if loop is None or step is None or step.has_error:
        return []
    items = body_statements(step)
    if not items or any(i.type in ("step_outcome", "on_failure", "visits_bound") for i in items):
        return []
    pad = " " * body_indent(snap, step)
    # (the engine's workflows spell the last arm `otherwise`; a workloop's reference writes `else`)
    word = "else" if snap.model.is_workloop else "otherwise"
    arm = f"outcome {tabstop(1, 'finished')}: {word}, route "
    last = items[-1]
    if last.type == "route_statement":  # the route after the loop becomes the arm that takes it
        row = last.start_point.row
        if lines.last_row(last) != row or _has_substeps(step):
            return []  # (a substep routing out of the step is judged against its arms: left as is)
        route = snap.text(last).strip()
        target = route[len("route") :].strip()
        new = edit((row, last.start_point.column), (row, len(lines.line(snap, row))), arm + escape(target))
        title = f"Turn the closing `route` into an `{word}` arm"
        return [Fix(title, (new,), safe=False, preferred=True, snippet=True)]
    following = step.next_named_sibling
    while following is not None and following.type in _TRIVIA:
        following = following.next_named_sibling
    if following is None or following.type != "step_declaration" or following.child_by_field_name("after"):
        return []
    target = _step_name(snap, following)
    text = pad + arm + tabstop(2, target)
    title = f"Add an `{word}` arm routing to `{target}`"
    return [
        Fix(title, (lines.insert_line_after(snap, lines.last_row(step), text),), False, True, snippet=True)
    ]
