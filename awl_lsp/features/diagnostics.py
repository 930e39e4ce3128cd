"""Diagnostics: syntax problems (from the syntax layer) and semantic problems (from the checker)."""

from __future__ import annotations

from dataclasses import dataclass

from lsprotocol import types as lsp

from awl_lsp.checks import Problem, Severity, run_checks
from awl_lsp.features.snapshot import Snapshot
from awl_lsp.model import Range
from awl_lsp.syntax.errors import syntax_problems


@dataclass(frozen=True)
class Finding:
    """A problem in tree coordinates, whatever layer found it."""

    range: Range
    message: str
    code: str
    severity: Severity


def findings(snap: Snapshot) -> list[Finding]:
    doc = snap.doc
    out = [
        Finding(p.range, p.message, p.code, Severity.ERROR)
        for p in syntax_problems(doc.tree, doc.source, doc.text)
    ]
    problems: list[Problem] = run_checks(snap.model, doc.tree, doc.source, snap.path, snap.workspace)
    # A declaration with a syntax problem is reported by that problem alone: what the checker
    # finds in a half-parsed declaration are consequences (the engine stops at the syntax error).
    broken = _broken_items(snap, [f.range[0] for f in out])
    out += [
        Finding(p.range, p.message, p.code, p.severity)
        for p in problems
        if not any(start <= p.range[0] <= end for start, end in broken)
    ]
    return sorted(out, key=lambda f: (f.range, f.code))


def _broken_items(snap: Snapshot, rows: list[int]) -> list[tuple[int, int]]:
    """The row spans of the top-level declarations that hold one of `rows`."""
    if not rows:
        return []
    spans: list[tuple[int, int]] = []
    previous: tuple[int, int] | None = None
    for item in snap.doc.tree.root_node.named_children:
        start, end = item.start_point.row, item.end_point.row
        if item.end_point.column == 0 and end > start:
            end -= 1  # the item's range runs to the start of the next line
        if any(start <= row <= end for row in rows):
            spans.append((start, end))
            if item.type == "ERROR" and previous is not None:
                spans.append(previous)  # lines that broke away from the declaration above
        if "comment" not in item.type and item.type != "narration":
            previous = (start, end)
    return spans


def diagnostics(snap: Snapshot) -> list[lsp.Diagnostic]:
    return [
        lsp.Diagnostic(
            range=snap.lsp_range(f.range),
            message=f.message,
            severity=lsp.DiagnosticSeverity(int(f.severity)),
            code=f.code,
            source="awl",
        )
        for f in findings(snap)
    ]
