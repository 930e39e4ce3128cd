"""Writing a new clause into a flow's header as the printer lays it out.

`add_header_clause` returns the edits that insert one clause (`signal approval: Bool`, `carry c:
Int = 0`, `outcome done: type T, route success`, …) after the last clause of its rank or an earlier
one (`placement.header_insertion`). An outcome clause joins the run of outcome clauses above it,
which the printer aligns (`outcome n:` and `type T,` padded to common widths): the new clause is
padded to the run, and when it is wider the run's other clauses are re-padded too — whitespace
only, so no user text changes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from awl_lsp.features.fixes.placement import INDENT, content_end, header_clauses, header_insertion, line_text
from awl_lsp.features.fixes.values import Edit, edit

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot


def _cells(snap: Snapshot, clause: Node) -> list[str] | None:
    """The printer's alignment cells of an outcome clause, as written (None when it has no route)."""
    name, ttype, route = (clause.child_by_field_name(f) for f in ("name", "type", "route"))
    if name is None or ttype is None or route is None:
        return None
    return [
        f"outcome {snap.text(name)}:",
        f"type {''.join(snap.text(ttype).split())},",
        f"route {snap.text(route)}",
    ]


def _padded(cells: list[str], widths: list[int]) -> str:
    return " ".join(c.ljust(widths[i]) if i < len(cells) - 1 else c for i, c in enumerate(cells))


def _run_above(snap: Snapshot, clauses: list[Node], last: Node) -> list[Node]:
    """The outcome clauses on consecutive lines ending with `last` (what the printer aligns)."""
    run = [last]
    i = clauses.index(last)
    while i > 0:
        prev = clauses[i - 1]
        if prev.type != "outcome_clause" or content_end(snap, prev)[0] + 1 != run[0].start_point.row:
            break
        run.insert(0, prev)
        i -= 1
    return run


def add_header_clause(snap: Snapshot, clause_type: str, text: str) -> tuple[Edit, ...] | None:
    """The edits adding the clause `text` (plain text, one line, no indentation) to the header."""
    where = header_insertion(snap, clause_type)
    if where is None:
        return None
    clauses = header_clauses(snap)
    above = next((c for c in reversed(clauses) if content_end(snap, c) == where), None)
    indent = " " * above.start_point.column if above is not None else INDENT
    if clause_type != "outcome_clause" or above is None or above.type != "outcome_clause":
        return (edit(where, None, f"\n{indent}{text}"),)
    new = text.replace(": type ", ":\0type ", 1).replace(", route ", ",\0route ", 1).split("\0")
    if len(new) != 3:
        return (edit(where, None, f"\n{indent}{text}"),)
    run = _run_above(snap, clauses, above)
    laid = _aligned(snap, run, {}, new)
    if laid is None:  # not aligned as printed: left as it is
        return (edit(where, None, f"\n{indent}{' '.join(new)}"),)
    line, edits = laid
    return (edit(where, None, f"\n{indent}{line}"), *edits)


def _aligned(
    snap: Snapshot, run: list[Node], changed: dict[int, list[str]], new: list[str] | None = None
) -> tuple[str, list[Edit]] | None:
    """The run of outcome clauses re-padded with some clauses' cells `changed` (by index in the run)
    and a `new` clause below it: (the new clause's padded text, the edits to the run's lines); None
    when the run was not aligned as the printer aligns it (then nothing is re-padded)."""
    cells = [_cells(snap, c) for c in run]
    if any(c is None for c in cells):
        return None
    rows = [c for c in cells if c is not None]
    spans = [_span(clause) for clause in run]
    written = [line_text(snap, a[0]).encode("utf-8")[a[1] : b[1]].decode("utf-8") for a, b in spans]
    before = [max(len(c[k]) for c in rows) for k in range(3)]
    if any(w != _padded(c, before) for w, c in zip(written, rows, strict=True)):
        return None
    after = [changed.get(i, c) for i, c in enumerate(rows)]
    widths = [max(len(c[k]) for c in [*after, *([new] if new else [])]) for k in range(3)]
    edits = [
        edit(start, stop, _padded(c, widths))
        for (start, stop), w, c in zip(spans, written, after, strict=True)
        if w != _padded(c, widths)
    ]
    return (_padded(new, widths) if new else ""), edits


def set_outcome_type(snap: Snapshot, clause: Node, type_text: str) -> tuple[Edit, ...] | None:
    """The edits making a header outcome clause carry `type_text`, its run kept aligned."""
    typ = clause.child_by_field_name("type")
    if typ is None:
        return None
    clauses = header_clauses(snap)
    if clause not in clauses:
        return (Edit(_node_span(typ), type_text),)
    i = clauses.index(clause)
    last = i
    while last + 1 < len(clauses) and clauses[last + 1].type == "outcome_clause":
        if content_end(snap, clauses[last])[0] + 1 != clauses[last + 1].start_point.row:
            break
        last += 1
    run = _run_above(snap, clauses, clauses[last])
    cells = _cells(snap, clause)
    if cells is None:
        return (Edit(_node_span(typ), type_text),)
    laid = _aligned(snap, run, {run.index(clause): [cells[0], f"type {type_text},", cells[2]]})
    return tuple(laid[1]) if laid is not None else (Edit(_node_span(typ), type_text),)


def _node_span(node: Node) -> tuple[int, int, int, int]:
    return (node.start_point.row, node.start_point.column, node.end_point.row, node.end_point.column)


def _span(clause: Node) -> tuple[tuple[int, int], tuple[int, int]]:
    """From the clause's start to its route's end (a comment after it stays)."""
    route = clause.child_by_field_name("route")
    stop = route.end_point if route is not None else clause.end_point
    return (clause.start_point.row, clause.start_point.column), (stop.row, stop.column)
