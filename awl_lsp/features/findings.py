"""Findings: every problem of one document version — syntax problems (from the syntax layer) and
semantic problems (from the checker), in one list sorted by position.

Both layers report the same `Problem` type, in the model's coordinates; the editor gets them as LSP
diagnostics (`features.diagnostics`), `awl check` as records (`check_report`). Here: which problems
a syntax error hides (the checker is not run on a text the engine cannot read, and a declaration
with a syntax problem is reported by that problem alone) and the cascades folded into their cause.
"""

from __future__ import annotations

from tree_sitter import Node

from awl_lsp.checks import Problem, Severity, run_checks
from awl_lsp.checks.cascades import fold
from awl_lsp.checks.suggest import KEYWORD_CODES, annotate
from awl_lsp.features.snapshot import Snapshot
from awl_lsp.model import Range
from awl_lsp.syntax.errors import reading_stops
from awl_lsp.syntax.problem_cache import document_syntax_problems


def findings(snap: Snapshot) -> list[Problem]:
    """Every problem of the snapshot, syntax first where they share a place, sorted by position."""
    doc = snap.doc
    strings = snap.shared.setdefault("unterminated-strings", {})  # per document, between versions
    layout = snap.shared.setdefault("layout", {})
    skipped = getattr(doc, "skipped", [])
    blanked = [(*b.start, *b.end) for b in skipped]
    out: list[Problem] = [
        p
        for p in document_syntax_problems(doc, snap.shared, strings, layout)  # type: ignore[arg-type]
        if not any(_overlaps(p.range, b) for b in blanked)
    ]
    syntax_rows = [p.range[0] for p in out]
    out += [
        Problem(span, b.message, b.code, Severity.WARNING if b.code == "too-large" else Severity.ERROR)
        for b, span in zip(skipped, blanked, strict=True)
    ]
    # A text the engine cannot read (odd indentation, a tab, an open string) is never checked.
    problems = (
        []
        if reading_stops(out)
        else run_checks(snap.model, doc.tree, doc.source, snap.path, snap.workspace, snap.checks)
    )
    # A declaration with a syntax problem is reported by that problem alone: what the checker
    # finds in a half-parsed declaration are consequences (the engine stops at the syntax error).
    broken = _broken_items(snap, syntax_rows)
    problems = [
        p
        for p in problems
        if not any(_overlaps(p.range, b) for b in blanked)
        and (p.code in KEYWORD_CODES or not any(start <= p.range[0] <= end for start, end in broken))
    ]
    out += annotate(snap.model, doc.tree, doc.source, problems, snap.path)
    out = fold(out, doc.tree, doc.source)
    return sorted(out, key=lambda f: (f.range, f.code))


def _overlaps(a: Range, b: Range) -> bool:
    return (a[0], a[1]) <= (b[2], b[3]) and (b[0], b[1]) <= (a[2], a[3])


def _indented(snap: Snapshot, item: Node) -> bool:
    """Does the item's first line start indented (a continuation, not a declaration of its own)?"""
    line_start = snap.doc.source.rfind(b"\n", 0, item.start_byte) + 1
    return item.start_byte > line_start or snap.doc.source[line_start : line_start + 1] in (b" ", b"\t")


def _broken_items(snap: Snapshot, rows: list[int]) -> list[tuple[int, int]]:
    """The row spans of the top-level declarations that hold one of `rows` (and of the declaration
    above an indented ERROR among them: lines that broke away from it). Found from each row with a
    tree cursor, not by a pass over every item."""
    if not rows:
        return []
    root = snap.doc.tree.root_node
    lines = snap.doc.lines
    spans: set[tuple[int, int]] = set()
    for row in set(rows):
        cursor = root.walk()
        if cursor.goto_first_child_for_byte(lines.byte_start(row)) is None:  # (the first child past it)
            continue
        while True:
            item = cursor.node
            assert item is not None
            start, end = _rows(item)
            if start > row:
                break
            if end >= row and item.is_named:
                spans.add((start, end))
                if item.type == "ERROR" and _indented(snap, item):
                    above = root.walk()
                    above.reset_to(cursor)  # (not `cursor.copy()`: a copy crashes walking back)
                    while above.goto_previous_sibling():
                        before = above.node
                        assert before is not None
                        if before.is_named and "comment" not in before.type and before.type != "narration":
                            spans.add(_rows(before))
                            break
            if not cursor.goto_next_sibling():
                break
    return sorted(spans)


def _rows(item: Node) -> tuple[int, int]:
    """An item's first and last row (its range runs to the start of the next line: that one is not its)."""
    start, end = item.start_point.row, item.end_point.row
    if item.end_point.column == 0 and end > start:
        end -= 1
    return start, end
