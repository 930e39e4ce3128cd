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
    strings = snap.shared.setdefault("unterminated-strings", {})  # per document, between versions
    skipped = getattr(doc, "skipped", [])
    blanked = [(*b.start, *b.end) for b in skipped]
    out = [
        Finding(p.range, p.message, p.code, Severity.ERROR)
        for p in syntax_problems(doc.tree, doc.source, doc.text, strings)  # type: ignore[arg-type]
        if not any(_overlaps(p.range, b) for b in blanked)
    ]
    out += [
        Finding(span, b.message, b.code, Severity.WARNING if b.code == "too-large" else Severity.ERROR)
        for b, span in zip(skipped, blanked, strict=True)
    ]
    problems: list[Problem] = run_checks(snap.model, doc.tree, doc.source, snap.path, snap.workspace)
    out += [
        Finding(p.range, p.message, p.code, p.severity)
        for p in problems
        if not any(_overlaps(p.range, b) for b in blanked)
    ]
    return sorted(out, key=lambda f: (f.range, f.code))


def _overlaps(a: Range, b: Range) -> bool:
    return (a[0], a[1]) <= (b[2], b[3]) and (b[0], b[1]) <= (a[2], a[3])


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
