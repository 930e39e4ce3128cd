"""Trying a fix before offering it: the document re-checked with the edits applied.

Some fixes change a declaration that other lines depend on — the type of a parameter, a field or
a carry, a const inlined where it is read — and whether that helps depends on every other line that
passes a value into the declaration or reads one out of it. Rather than guess, such a fix applies
its edits to a copy of the text, checks the copy as the editor would (the same `findings`), and is
offered only when its problem is gone and no problem appears that was not there before (by code
and message: the criterion `tests/test_safe_fixes.py` holds every fix to).

The copy is checked with the snapshot's own file and workspace (schema files resolve alike), on a
fresh model and fresh caches: nothing of the snapshot is changed but its memo, which keeps each
trial's result (the same edits — one type change fixing many problems — are tried once). A trial
costs a whole analysis of the document, so each snapshot has a budget: trials re-check at most
`TRIAL_LINES` lines in all (counted in lines, not time, so what is offered does not depend on the
machine). Past it, the fixes that need a trial offer nothing: a 20-line document affords hundreds
of trials, a 2,000-line one six — the editor asks for the few fixes under the cursor, and `awl
check` on a long document with many such problems stays within a few analyses of it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

from awl_lsp.features.fixes.texts import apply_edits, syntax_broken
from awl_lsp.features.fixes.values import Edit
from awl_lsp.syntax.problems import Problem

TRIAL_LINES = 12_000  # lines re-checked by trials, per snapshot

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot


def _keys(problems: Iterable[Problem]) -> Counter[tuple[str, str]]:
    return Counter((p.code, p.message) for p in problems)


def problems_of(snap: Snapshot) -> list[Problem]:
    """Every problem of the snapshot (what the editor shows), once per snapshot."""
    from awl_lsp.features.findings import findings

    return snap.derived("fix-findings", findings)


def _problems(snap: Snapshot) -> Counter[tuple[str, str]]:
    return snap.derived("trial-findings", lambda s: _keys(problems_of(s)))


def also_wrong(snap: Snapshot, problem: Problem) -> bool:
    """Is there another error at the very place of `problem` (the value is wrong for a reason of
    its own — read where it may not be, say — and the type problem only follows from that)?"""
    return any(
        p.range == problem.range and p.code != problem.code and p.severity == problem.severity
        for p in problems_of(snap)
    )


def recheck(snap: Snapshot, edits: Iterable[Edit]) -> Counter[tuple[str, str]] | None:
    """(code, message) of every problem of the snapshot's text with `edits` applied; None when the
    result does not read (a syntax error the text did not have) or when the snapshot's trial
    budget is spent. Each distinct set of edits is checked once per snapshot."""
    key = tuple(edits)
    tried: dict[tuple[Edit, ...], Counter[tuple[str, str]] | None] = snap.memo.setdefault("trials", {})  # type: ignore[assignment]
    if key in tried:
        return tried[key]
    lines = len(snap.doc.lines.byte_starts)
    spent = int(snap.memo.get("trial-lines", 0))  # type: ignore[call-overload]
    if spent + lines > TRIAL_LINES:
        return None  # (not memoised: the budget is the snapshot's, whatever asks)
    snap.memo["trial-lines"] = spent + lines
    tried[key] = found = _recheck(snap, key)
    return found


def _recheck(snap: Snapshot, edits: tuple[Edit, ...]) -> Counter[tuple[str, str]] | None:
    from awl_lsp.features.findings import findings
    from awl_lsp.features.snapshot import Snapshot
    from awl_lsp.model import ModelBuilder
    from awl_lsp.syntax import SyntaxDocument

    new = apply_edits(snap.doc.text, edits)
    doc = SyntaxDocument(new, snap.doc.encoding)
    trial = Snapshot(doc, ModelBuilder().build(doc.tree, doc.source), snap.path, snap.workspace)
    if syntax_broken(trial) and not syntax_broken(snap):
        return None
    return _keys(findings(trial))


def mends(snap: Snapshot, problem: Problem, edits: Iterable[Edit]) -> bool:
    """Do the edits make `problem` go away without bringing any problem the text did not have?"""
    after = recheck(snap, edits)
    if after is None:
        return False
    before = _problems(snap)
    key = (problem.code, problem.message)
    return after[key] < before[key] and not after - before
