"""Fixes for `collect`, the line that closes a per-item region: where it stands and what it gathers.

- `collect-first`: the `collect` line moves up to be its step's first line. Unsafe: the lines
  above it then run after the gathering, not before.
- `collect-no-region` (no region is open): the `collect` line goes, when what it binds is read
  nowhere and its step keeps other lines. Unsafe: the region it was meant to close may be missing.
- `collect-outside` (`data.inside`, the bindings made inside the region): collect one of those
  instead, the closest name first — each tried first (`trial.mends`: what is gathered must be of
  the type its reads ask for, and a binding collected away may leave another read unbound).
  Unsafe: a guess at which value was meant. When the name is
  bound by the step that opens the region (`data.in_opener`), that step gets split, as for
  `distribute-alone` (`steps.py`): the binding then is made inside the region.
"""

from __future__ import annotations

from difflib import SequenceMatcher
from typing import TYPE_CHECKING

from awl_lsp.features.fixes import lines, steps
from awl_lsp.features.fixes.flow import leaves_nothing_behind
from awl_lsp.features.fixes.places import ancestor, node_at, span
from awl_lsp.features.fixes.trial import mends
from awl_lsp.features.fixes.values import Edit, Fix, edit
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from tree_sitter import Node

    from awl_lsp.features.snapshot import Snapshot


def _collect(snap: Snapshot, problem: Problem) -> Node | None:
    node = ancestor(node_at(snap, problem.range), "collect_statement")
    if node is None or node.has_error or lines.last_row(node) != node.start_point.row:
        return None
    return node


def _step_lines(collect: Node) -> list[Node]:
    body = collect.parent
    return [c for c in body.named_children if c.type not in lines.TRIVIA] if body is not None else []


def collect_first(snap: Snapshot, problem: Problem) -> list[Fix]:
    collect = _collect(snap, problem)
    items = _step_lines(collect) if collect is not None else []
    if collect is None or not items or items[0] == collect:
        return []
    row = collect.start_point.row
    if lines.line(snap, row)[: collect.start_point.column].strip():
        return []
    gathered = [snap.text(c) for c in collect.named_children if c.type == "identifier"][:1]
    if any(_binds(snap, i, gathered) for i in items[: items.index(collect)]):
        return []  # (it gathers what a line above binds: moved up, it would read it before that)
    top = items[0].start_point.row
    moved = " " * items[0].start_point.column + snap.text(collect).strip()
    edits = (lines.insert_line_before(top, moved), edit((row, 0), (row + 1, 0), ""))
    if row + 1 >= lines.row_count(snap):
        return []
    return [Fix("Move `collect` to the top of its step", edits, safe=False, preferred=True)]


def _binds(snap: Snapshot, statement: Node, names: list[str]) -> bool:
    stack = [statement]
    while stack:
        node = stack.pop()
        if node.type == "binding" and snap.text(node.child_by_field_name("name")) in names:
            return True
        stack.extend(node.named_children)
    return False


def remove_stray_collect(snap: Snapshot, problem: Problem) -> list[Fix]:
    collect = _collect(snap, problem)
    items = _step_lines(collect) if collect is not None else []
    if collect is None or len(items) < 2:
        return []
    row = collect.start_point.row
    if lines.line(snap, row)[: collect.start_point.column].strip() or not leaves_nothing_behind(
        snap, row, row
    ):
        return []
    return [
        Fix("Remove the `collect` line", (lines.remove_rows(snap, row, row),), safe=False, preferred=True)
    ]


def collect_made_inside(snap: Snapshot, problem: Problem) -> list[Fix]:
    data = problem.data or {}
    collect = _collect(snap, problem)
    name = data.get("name")
    if collect is None or not isinstance(name, str):
        return []
    gathered = next(
        (c for c in collect.named_children if c.type == "identifier" and snap.text(c) == name), None
    )
    if gathered is None:
        return []
    if data.get("in_opener"):
        return _split_opener(snap, data.get("opener"))
    ref = snap.model.reference_at(gathered.start_point.row, gathered.start_point.column)
    read = ref.target if ref is not None and ref.name == name else None
    if read is not None and len(snap.model.references_to(read)) == 1:
        return []  # (the binding it names now would be left unread)
    inside = [n for n in data.get("inside", []) if isinstance(n, str) and n and n != name]
    inside.sort(key=lambda n: -SequenceMatcher(None, n, name).ratio())
    changes = [(n, (Edit(span(gathered), n),)) for n in inside]
    fitting = [(n, edits) for n, edits in changes if mends(snap, problem, edits)]
    return [
        Fix(f"Collect `{n}`", edits, safe=False, preferred=i == 0) for i, (n, edits) in enumerate(fitting)
    ]


def _split_opener(snap: Snapshot, opener: object) -> list[Fix]:
    for item in snap.doc.root.named_children:
        if item.type == "step_declaration" and snap.text(item.child_by_field_name("name")) == opener:
            body = item.child_by_field_name("body")
            found = [c for c in body.named_children if c.type == "distribute_statement"] if body else []
            return steps.alone_in_its_step(snap, found[0], "the region's opening line") if found else []
    return []
