"""Diagnostics: a document's findings (`features.findings`) as LSP `Diagnostic`s.

Each carries the problem's stable `code`, its `data` (what quick fixes need; see `features.fixes`)
and its related places as `relatedInformation` (when the client gives a document URI for them).

What the document could do without carries the `Unnecessary` tag, so editors dim it: an unused
binding, type or detached and an unreachable step (`UNNECESSARY`), and hints that only explain
another problem (a step unreachable because a route is misspelt). An unused declaration — legal,
the engine takes it — is then a hint rather than a warning (dimmed, not underlined) for a client
that shows the tag (`dims_unused`); an unreachable step stays an error (the engine refuses it).
"""

from __future__ import annotations

from lsprotocol import types as lsp

from awl_lsp.checks import Problem, Severity
from awl_lsp.features.findings import findings
from awl_lsp.features.lsp_positions import lsp_range
from awl_lsp.features.snapshot import Snapshot

__all__ = ["UNNECESSARY", "diagnostics", "dims_unused", "findings", "to_diagnostic"]  # `findings` as before

# codes of what the document could do without: their diagnostics carry the `Unnecessary` tag
UNNECESSARY = frozenset({"unused-binding", "unused-type", "unused-detached", "unreachable-step"})


def dims_unused(caps: lsp.ClientCapabilities | None) -> bool:
    """Does the client show the `Unnecessary` tag (dimmed text) on the diagnostics it is sent?"""
    text = caps.text_document if caps is not None else None
    pushed = text.publish_diagnostics if text is not None else None
    pulled = text.diagnostic if text is not None else None
    return any(
        found is not None
        and found.tag_support is not None
        and lsp.DiagnosticTag.Unnecessary in (found.tag_support.value_set or ())
        for found in (pushed, pulled)
    )


def to_diagnostic(snap: Snapshot, p: Problem, uri: str | None = None, dim: bool = False) -> lsp.Diagnostic:
    """One problem as an LSP diagnostic; with `dim` (the client shows the `Unnecessary` tag), an
    unused declaration's warning is a hint, the dimmed text saying it all."""
    related = None
    if uri is not None and p.related:
        related = [
            lsp.DiagnosticRelatedInformation(lsp.Location(uri, lsp_range(snap, r.range)), r.message)
            for r in p.related
        ]
    explains = p.severity is Severity.HINT and bool((p.data or {}).get("because"))
    severity = p.severity
    if dim and p.code in UNNECESSARY and severity is Severity.WARNING:
        severity = Severity.HINT
    return lsp.Diagnostic(
        range=lsp_range(snap, p.range),
        message=p.message,
        severity=lsp.DiagnosticSeverity(int(severity)),
        code=p.code,
        source="awl",
        data=dict(p.data) if p.data else None,
        related_information=related,
        tags=[lsp.DiagnosticTag.Unnecessary] if explains or p.code in UNNECESSARY else None,
    )


def diagnostics(snap: Snapshot, uri: str | None = None, dim: bool = False) -> list[lsp.Diagnostic]:
    """The snapshot's findings as LSP diagnostics (`dim`: see `to_diagnostic`).

    A problem the checker hands out again unchanged (the same object: its item, or the stretch of
    text before an edit, did not change) keeps the diagnostic it was converted to last time; the
    memory holds only the last publish's problems."""
    key = (uri, snap.doc.encoding, dim)
    memo = snap.shared.get("diagnostics")
    last: dict[int, tuple[Problem, lsp.Diagnostic]] = (
        memo[1] if isinstance(memo, tuple) and memo[0] == key else {}
    )
    kept: dict[int, tuple[Problem, lsp.Diagnostic]] = {}
    out: list[lsp.Diagnostic] = []
    for p in snap.derived("findings", findings):  # (once per snapshot: fixes compare with them)
        hit = last.get(id(p))
        d = hit[1] if hit is not None and hit[0] is p else to_diagnostic(snap, p, uri, dim)
        kept[id(p)] = (p, d)
        out.append(d)
    snap.shared["diagnostics"] = (key, kept)
    return out
