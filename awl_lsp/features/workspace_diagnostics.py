"""Diagnostics across documents: the contract problems of a document against the workflows it
names, as LSP diagnostics (related places in other documents included), and the whole diagnostics
of a document that is not open in the editor (its own problems and its contracts).
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types as lsp

from awl_lsp.checks import Problem, Severity
from awl_lsp.features.diagnostics import to_diagnostic
from awl_lsp.features.documents import analyse_text
from awl_lsp.features.findings import findings
from awl_lsp.features.lsp_positions import lsp_range
from awl_lsp.features.snapshot import Snapshot
from awl_lsp.syntax import Encoding
from awl_lsp.workspace import WorkspaceIndex, contract_problems
from awl_lsp.workspace.contracts import ContractProblem
from awl_lsp.workspace.index import Entry
from awl_lsp.workspace.summary import DocumentSummary, summarize


def _range(
    entry: Entry | None, snap: Snapshot | None, r: tuple[int, int, int, int], enc: Encoding
) -> lsp.Range:
    if snap is not None:
        return lsp_range(snap, r)
    assert entry is not None
    sl, sc, el, ec = entry.lsp_range(r, enc)
    return lsp.Range(lsp.Position(sl, sc), lsp.Position(el, ec))


def _contract_diagnostic(
    found: ContractProblem, snap: Snapshot | None, entry: Entry | None, index: WorkspaceIndex, enc: Encoding
) -> lsp.Diagnostic:
    p: Problem = found.problem
    related = []
    for path, r, why in found.related:
        other = index.entry(path)
        if other is not None:
            where = lsp.Location(other.uri, _range(other, None, r, enc))
            related.append(lsp.DiagnosticRelatedInformation(where, why))
    return lsp.Diagnostic(
        range=_range(entry, snap, p.range, enc),
        message=p.message,
        severity=lsp.DiagnosticSeverity(int(p.severity)),
        code=p.code,
        source="awl",
        related_information=related or None,
    )


def document_summary(snap: Snapshot) -> DocumentSummary:
    """What this version offers and expects of other documents (computed once per snapshot)."""
    cache: dict = snap.shared.setdefault("workspace-summary-parts", {})  # type: ignore[assignment]
    return snap.derived("workspace-summary", lambda s: summarize(s.model, cache))


def contract_diagnostics(
    path: Path, snap: Snapshot, index: WorkspaceIndex, enc: Encoding
) -> list[lsp.Diagnostic]:
    """An open document's problems against the other documents of the workspace."""
    found = contract_problems(path, document_summary(snap), index)
    return [_contract_diagnostic(f, snap, None, index, enc) for f in found]


def unopened_diagnostics(entry: Entry, index: WorkspaceIndex, enc: Encoding) -> list[lsp.Diagnostic]:
    """Everything wrong with a document that is not open: its own problems and its contracts."""
    snap = analyse_text(entry.text, entry.path, index.roots[0] if index.roots else entry.path.parent)
    snap.doc.encoding = enc
    own = [to_diagnostic(snap, p, entry.uri) for p in findings(snap) if p.severity is not Severity.HINT]
    found = contract_problems(entry.path, entry.summary, index)
    return own + [
        _contract_diagnostic(f, snap, entry, index, enc)
        for f in found
        if f.problem.severity is not Severity.HINT
    ]
