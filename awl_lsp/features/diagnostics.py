"""Diagnostics: syntax problems (from the syntax layer) and semantic problems (from the checker).

Both layers report the same `Problem` type; here it becomes an LSP `Diagnostic` carrying the
problem's stable `code`, its `data` (what quick fixes need; see `features.code_actions`) and its
related places as `relatedInformation` (when the client gives a document URI for them). Hints
that only explain another problem (a step unreachable because a route is misspelt) carry the
`Unnecessary` tag so editors dim them instead of underlining them.
"""

from __future__ import annotations

from lsprotocol import types as lsp

from awl_lsp.checks import Problem, Severity, run_checks
from awl_lsp.checks.cascades import fold
from awl_lsp.checks.suggest import annotate
from awl_lsp.features.snapshot import Snapshot
from awl_lsp.model import Range
from awl_lsp.syntax.errors import syntax_problems

Finding = Problem  # the name callers used before syntax and checker problems became one type


def findings(snap: Snapshot) -> list[Problem]:
    """Every problem of the snapshot, syntax first where they share a place, sorted by position."""
    doc = snap.doc
    strings = snap.shared.setdefault("unterminated-strings", {})  # per document, between versions
    skipped = getattr(doc, "skipped", [])
    blanked = [(*b.start, *b.end) for b in skipped]
    out: list[Problem] = [
        p
        for p in syntax_problems(doc.tree, doc.source, doc.text, strings)  # type: ignore[arg-type]
        if not any(_overlaps(p.range, b) for b in blanked)
    ]
    out += [
        Problem(span, b.message, b.code, Severity.WARNING if b.code == "too-large" else Severity.ERROR)
        for b, span in zip(skipped, blanked, strict=True)
    ]
    problems = run_checks(snap.model, doc.tree, doc.source, snap.path, snap.workspace)
    problems = [p for p in problems if not any(_overlaps(p.range, b) for b in blanked)]
    out += annotate(snap.model, doc.tree, doc.source, problems, snap.path)
    out = fold(out, doc.tree, doc.source)
    return sorted(out, key=lambda f: (f.range, f.code))


def _overlaps(a: Range, b: Range) -> bool:
    return (a[0], a[1]) <= (b[2], b[3]) and (b[0], b[1]) <= (a[2], a[3])


def to_diagnostic(snap: Snapshot, p: Problem, uri: str | None = None) -> lsp.Diagnostic:
    related = None
    if uri is not None and p.related:
        related = [
            lsp.DiagnosticRelatedInformation(lsp.Location(uri, snap.lsp_range(r.range)), r.message)
            for r in p.related
        ]
    explains = p.severity is Severity.HINT and bool((p.data or {}).get("because"))
    return lsp.Diagnostic(
        range=snap.lsp_range(p.range),
        message=p.message,
        severity=lsp.DiagnosticSeverity(int(p.severity)),
        code=p.code,
        source="awl",
        data=dict(p.data) if p.data else None,
        related_information=related,
        tags=[lsp.DiagnosticTag.Unnecessary] if explains else None,
    )


def diagnostics(snap: Snapshot, uri: str | None = None) -> list[lsp.Diagnostic]:
    return [to_diagnostic(snap, p, uri) for p in findings(snap)]
