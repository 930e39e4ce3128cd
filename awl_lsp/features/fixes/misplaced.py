"""Fixes for a line written where its kind does not go: moved where it does, or kept as a comment.

- `narration` after the header (`data.misplaced`): "Move to the narration at the top" (after the
  last `//!` line above the header), or "Make it a `//` comment" where it is.
- `unknown-declaration` of a header clause at the margin (`data.move == "header"`): "Move into
  the header" — the line indented as a clause, where the printer orders it.
- `unknown-clause` with no close keyword: "Turn into a comment" — the line kept, as `// …`.
  Neither is preferred: the line also holds a syntax error, whose own fix (indenting the clause
  where it stands, an `about` line made narration) is the one to apply.
- `worker` without actions (`data.missing == "action"`): "Add an action" (a placeholder signature
  under it), or "Remove the empty worker".
- `subflow-outcome-route` (`data.drop == "route"`): remove `, route …`. Safe: a subflow outcome has
  no other form.

The others are unsafe: the text is kept, but what the author meant it to be is a guess.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from awl_lsp.features.fixes.header_clauses import add_header_clause
from awl_lsp.features.fixes.placement import INDENT, content_end, flow_node, line_text
from awl_lsp.features.fixes.places import ancestor, end, node_at, start
from awl_lsp.features.fixes.values import Edit, Fix, edit, tabstop
from awl_lsp.features.printer.blocks import HEADER_ORDER
from awl_lsp.syntax import SyntaxDocument
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

_CLAUSE_OF = {word.removesuffix("_clause"): word for word in HEADER_ORDER}  # `input` → `input_clause`


def _end_of(snap: Snapshot, row: int) -> tuple[int, int]:
    return row, len(line_text(snap, row).encode("utf-8"))


def _cut_line(snap: Snapshot, row: int) -> Edit:
    """Removes line `row` with the line break before it."""
    return edit(_end_of(snap, row - 1), _end_of(snap, row), "")


def narration_placement(snap: Snapshot, problem: Problem) -> list[Fix]:
    row, col = problem.range[0], problem.range[1]
    text = line_text(snap, row)
    flow = flow_node(snap)
    if flow is None or not text[col:].startswith("//!") or row <= flow.start_point.row:
        return []
    above = [
        n for n in snap.doc.root.children if n.type == "narration" and n.end_point.row <= flow.start_point.row
    ]
    out: list[Fix] = []
    if above and text[:col].strip() == "":
        last = content_end(snap, above[-1])
        moved = text[col:].rstrip()
        out.append(
            Fix(
                "Move to the narration at the top",
                (edit(last, None, "\n" + moved), _cut_line(snap, row)),
                safe=False,
                preferred=True,
            )
        )
    comment = edit((row, col), (row, col + 3), "//")
    out.append(Fix("Make it a `//` comment", (comment,), safe=False, preferred=not out))
    return out


def clause_into_header(snap: Snapshot, problem: Problem) -> list[Fix]:
    decl = ancestor(node_at(snap, problem.range), "unknown_declaration")
    if decl is None or decl.start_point.row != content_end(snap, decl)[0] or decl.start_point.row == 0:
        return []
    text = line_text(snap, decl.start_point.row).strip()
    clause = _CLAUSE_OF.get(text.split(" ", 1)[0])
    if clause is None or "//" in text:
        return []
    edits = add_header_clause(snap, clause, text)
    if not edits:
        return []
    row = decl.start_point.row
    cut = _cut_line(snap, row)
    if line_text(snap, row - 1).strip() == "" and (
        row + 1 >= len(snap.doc.lines.byte_starts) or not line_text(snap, row + 1).strip()
    ):
        cut = edit(_end_of(snap, row - 2), _end_of(snap, row), "")  # (with the blank line it stood after)
    flow = flow_node(snap)
    word = flow.type.split("_")[0] if flow is not None else "workflow"
    if SyntaxDocument(f"{word} probe\n{INDENT}{text}\n").root.has_error:
        return []  # not a clause the header reads: moving it would only move the syntax error
    moved = (*edits, cut)
    return [Fix("Move into the header", moved, safe=False)]


def clause_to_comment(snap: Snapshot, problem: Problem) -> list[Fix]:
    clause = ancestor(node_at(snap, problem.range), "unknown_clause")
    if clause is None or clause.start_point.row != content_end(snap, clause)[0]:
        return []
    return [Fix("Turn into a comment", (edit(start(clause), None, "// "),), safe=False)]


def worker_action(snap: Snapshot, problem: Problem) -> list[Fix]:
    worker = ancestor(node_at(snap, problem.range), "worker_declaration")
    if worker is None or any(c.type == "action_declaration" for c in worker.named_children):
        return []
    name_end = content_end(snap, worker)
    if name_end[0] != worker.start_point.row:
        return []
    signature = (
        f"action {tabstop(1, 'run')}({tabstop(2, 'value')}: {tabstop(3, 'String')}) -> {tabstop(4, 'Nil')}"
    )
    add = Fix(
        "Add an action",
        (edit(name_end, None, f"\n{INDENT}{signature}"),),
        safe=False,
        preferred=True,
        snippet=True,
    )
    row = worker.start_point.row
    if row == 0:
        return [add]
    cut = edit(_end_of(snap, row - 1), name_end, "")
    before = line_text(snap, row - 1).strip()
    after = line_text(snap, row + 1).strip() if row + 1 < len(snap.doc.lines.byte_starts) else ""
    if not before and not after and row >= 2:  # a blank line on each side: one of them goes with it
        cut = edit(_end_of(snap, row - 2), name_end, "")
    remove = Fix(
        f"Remove the empty worker `{snap.text(worker.child_by_field_name('name'))}`", (cut,), safe=False
    )
    return [add, remove]


def drop_subflow_route(snap: Snapshot, problem: Problem) -> list[Fix]:
    clause = ancestor(node_at(snap, problem.range), "outcome_clause")
    route = clause.child_by_field_name("route") if clause is not None else None
    typ = clause.child_by_field_name("type") if clause is not None else None
    if clause is None or route is None or typ is None:
        return []
    return [
        Fix(
            f"Remove `route {snap.text(route)}`", (edit(end(typ), end(route), ""),), safe=True, preferred=True
        )
    ]
