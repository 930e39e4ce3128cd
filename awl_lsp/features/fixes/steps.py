"""Fixes that give a statement a step of its own: a subflow call or a `distribute`/`sequence` that
shares its step with other statements.

The step is split at the statement: the statements above it stay in the step (under its name, so
routes into the step still run them first), the statement gets a step of its own, and the
statements below it — with the step's outcome arms — a step after that; each new step named
`<step>_2`, `<step>_3`, … (tab stops: the names are the author's to choose). Control falls from
one to the next, as it ran down the one step before. Unsafe: the new names, and a step with an
`on failure` block or a `max … visits` bound (which now cover only one part) is not split at all.

- `subflow-not-alone`: the subflow call alone in its step.
- `distribute-alone`: the `distribute`/`sequence` line alone in its step; what came after it
  becomes the region's first step. `collect-outside` when what the `collect` gathers is bound in
  the very step that opens the region: the same split.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from awl_lsp.features.fixes import lines
from awl_lsp.features.fixes.places import ancestor, node_at
from awl_lsp.features.fixes.values import Edit, Fix, edit, tabstop
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

_KEEPS_WHOLE = frozenset({"on_failure", "visits_bound", "step_declaration"})


def _free_names(snap: Snapshot, base: str, count: int) -> list[str]:
    taken = {s.name for s in snap.model.all_symbols}
    out: list[str] = []
    n = 2
    while len(out) < count:
        name = f"{base}_{n}"
        if name not in taken:
            out.append(name)
        n += 1
    return out


def alone_in_its_step(snap: Snapshot, statement: Node, what: str) -> list[Fix]:
    """Split the step holding `statement` (a line directly in its body) so the statement is alone."""
    body = statement.parent
    step = body.parent if body is not None and body.type == "step_body" else None
    if (
        body is None
        or step is None
        or step.type != "step_declaration"
        or step.has_error
        or step.parent is None
    ):
        return []
    if step.parent.type != "source_file":
        return []  # (a substep: where its parts would go is for the author to say)
    items = [c for c in body.named_children if c.type not in lines.TRIVIA]
    if statement not in items or any(i.type in _KEEPS_WHOLE for i in items):
        return []
    at = items.index(statement)
    before = items[:at]
    after = items[at + 1 :]
    starts = ([statement] if before else []) + ([after[0]] if after else [])
    if not starts or any(lines.line(snap, s.start_point.row)[: s.start_point.column].strip() for s in starts):
        return []
    name = snap.text(step.child_by_field_name("name"))
    pad = " " * lines.indent(snap, step.start_point.row)
    edits: list[Edit] = []
    for i, (first, new) in enumerate(zip(starts, _free_names(snap, name, len(starts)), strict=True), 1):
        row = lines.doc_rows_above(first)
        gap = "" if row > 0 and lines.blank(snap, row - 1) else "\n"
        edits.append(edit((row, 0), None, f"{gap}{pad}step {tabstop(i, new)}\n"))
    title = f"Give {what} a step of its own"
    return [Fix(title, tuple(edits), safe=False, preferred=True, snippet=True)]


def subflow_alone(snap: Snapshot, problem: Problem) -> list[Fix]:
    call = ancestor(node_at(snap, problem.range), "call_expression")
    statement = call.parent if call is not None else None
    if call is None or statement is None or statement.type != "expression_statement":
        return []
    name = snap.text(call.child_by_field_name("function"))
    return alone_in_its_step(snap, statement, f"`{name}(…)`")


def distribute_alone(snap: Snapshot, problem: Problem) -> list[Fix]:
    node = node_at(snap, problem.range)
    statement = ancestor(node, "distribute_statement", "sequence_statement")
    if statement is None:
        return []
    word = snap.text(statement).split(" ", 1)[0]
    return alone_in_its_step(snap, statement, f"`{word}`")
