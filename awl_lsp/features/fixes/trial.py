"""Trying a fix before offering it: the document re-checked with the edits applied.

Some fixes change a declaration that other lines depend on — the type of a parameter, a field or
a carry, a const inlined where it is read — and whether that helps depends on every other line that
passes a value into the declaration or reads one out of it; a close name ("Change to `x`") may be
of the wrong type for its place, or close a cycle of routes. Rather than guess, such a fix applies
its edits to a copy of the text, checks the copy as the editor would (the same `findings`), and is
offered only when its problem is gone and no problem appears that was not there before (by code
and message: the criterion `tests/test_safe_fixes.py` holds every fix to).

The copy is a second document, a `Replica` kept beside the first (in `Snapshot.shared`, so it
follows the document's versions; `analyse_text` hands over its own document, so the command line
analyses nothing twice), with its own model builder and check cache. A trial edits the replica from
the text it last checked to the text tried — the few lines that differ, or back through the
document's newest text when they lie apart — and checks it incrementally, as a key typed in the
editor is checked: a trial costs what its edits touch (≈ 7 ms at 5,000 lines), not a whole
analysis. Only the replica's first analysis (in the editor, once per document) costs a whole one
(≈ 250 ms at 5,000 lines). The snapshot's own text, tree and model are never changed; its memo
keeps each trial's result (the same edits — one type change fixing many problems — are tried once).

Each snapshot has a budget of trials, counted (not timed, so what is offered does not depend on
the machine): `TRIAL_LINES` divided by the document's lines, between `MIN_TRIALS` and
`MAX_TRIALS`. Past it, the fixes that need a trial offer nothing: a 300-line document affords the
most, a 20,000-line one 20 — the editor asks for the few fixes under the cursor, and `awl check`
on a long document with many such problems stays within a bounded amount of checking.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from awl_lsp.features.fixes.texts import apply_edits, syntax_broken
from awl_lsp.features.fixes.values import Edit
from awl_lsp.syntax.positions import Encoding, LineIndex
from awl_lsp.syntax.problems import Problem

TRIAL_LINES = 400_000  # a snapshot's trials: this many lines' worth of documents…
MIN_TRIALS = 16  # … but at least this many trials
MAX_TRIALS = 200  # … and at most this many

REPLICA = "fix-trial-replica"  # the document's replica, in `Snapshot.shared`

if TYPE_CHECKING:
    from awl_lsp.features.documents import OpenDocument
    from awl_lsp.features.snapshot import Snapshot
    from awl_lsp.syntax import TextEdit

Keys = Counter[tuple[str, str]]


def _keys(problems: Iterable[Problem]) -> Keys:
    return Counter((p.code, p.message) for p in problems)


def problems_of(snap: Snapshot) -> list[Problem]:
    """Every problem of the snapshot (what the editor shows), once per snapshot."""
    from awl_lsp.features.findings import findings

    return snap.derived("findings", findings)


def _problems(snap: Snapshot) -> Keys:
    return snap.derived("trial-findings", lambda s: _keys(problems_of(s)))


def also_wrong(snap: Snapshot, problem: Problem) -> bool:
    """Is there another error at the very place of `problem` (the value is wrong for a reason of
    its own — read where it may not be, say — and the type problem only follows from that)?"""
    return any(
        p.range == problem.range and p.code != problem.code and p.severity == problem.severity
        for p in problems_of(snap)
    )


class Replica:
    """A second document that trials edit and check. It goes from the text it holds to each text
    tried by the span the two differ in — one incremental edit — when that span is short (the
    trials of one problem differ in one place). Otherwise it goes back first: to the text it was
    at before its last trial, to the newest text of the document, then to the text tried, each an
    edit of one place (a trial elsewhere in the document, the keys typed since), each checked —
    the checks' memory then reads only what each step touched. One trial at a time (a lock: the
    editor may ask from more than one thread)."""

    def __init__(self, doc: OpenDocument) -> None:
        self.doc = doc
        self.base = doc.syntax.text  # the text before the last trial (a version of the document)
        self.lock = threading.Lock()

    def check(self, text: str, base: str) -> tuple[Keys, bool]:
        """(code, message) of every problem of `text` — `base` (the snapshot's text) with a trial's
        edits — and whether its syntax is broken."""
        with self.lock:
            now = self.doc.syntax.text
            steps = [text]
            if now != text and not _near(now, text):
                steps = [t for t in dict.fromkeys([self.base, base, text]) if t != now]
            for step in steps:
                self._go(step)
                found = self._checked()
            self.base = base
            return found

    def _checked(self) -> tuple[Keys, bool]:
        """The problems of the replica's text (its snapshot let go of before the next step: a
        snapshot still held would make the next model a copy of this one, not an update)."""
        from awl_lsp.features.findings import findings

        snap = self.doc.snapshot
        return _keys(findings(snap)), syntax_broken(snap)

    def _go(self, text: str) -> None:
        doc = self.doc
        syntax = doc.syntax
        if text == syntax.text:
            return
        try:
            doc.edit([_difference(syntax.text, text, syntax.lines, syntax.encoding)], None)
        except ValueError:
            doc.replace(text, None)
        if doc.syntax.text != text:  # (cannot happen; but a trial must check what it says)
            doc.replace(text, None)


NEAR = 40  # lines: two texts that differ within this many are one edit apart


def _near(old: str, new: str) -> bool:
    """Do the texts differ only within a few lines (one place)?"""
    n = min(len(old), len(new))
    a = _shared(n, lambda k: old[:k] == new[:k])
    z = _shared(n - a, lambda k: old[len(old) - k :] == new[len(new) - k :])
    return max(old.count("\n", a, len(old) - z), new.count("\n", a, len(new) - z)) <= NEAR


def _difference(old: str, new: str, lines: LineIndex, encoding: Encoding) -> TextEdit:
    """The one edit that turns `old` (indexed by `lines`) into `new`: the span between their common
    start and common end, as an LSP range in `encoding`."""
    from awl_lsp.syntax import TextEdit

    n = min(len(old), len(new))
    a = _shared(n, lambda k: old[:k] == new[:k])
    z = _shared(n - a, lambda k: old[len(old) - k :] == new[len(new) - k :])
    end = len(old) - z
    if 0 < a < len(old) and old[a - 1] == "\r" and old[a] == "\n":
        a -= 1  # (never between the two halves of a CRLF)
    if 0 < end < len(old) and old[end - 1] == "\r" and old[end] == "\n":
        end += 1
    start_line, start_col = lines.position(a, encoding)
    end_line, end_col = lines.position(end, encoding)
    return TextEdit(start_line, start_col, end_line, end_col, new[a : len(new) - (len(old) - end)])


def _shared(limit: int, same: Callable[[int], bool]) -> int:
    """The largest k <= limit for which `same(k)` holds (it holds for 0, and for every k below one
    it holds for): a binary search, each step one comparison of slices (C speed)."""
    lo, hi = 0, limit
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if same(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def replica(snap: Snapshot) -> Replica:
    """The snapshot's replica: the document `analyse_text` made it from, else the document's
    replica (made from this text the first time)."""
    from awl_lsp.features.documents import SPARE_DOCUMENT, OpenDocument

    spare = snap.memo.get(SPARE_DOCUMENT)
    if isinstance(spare, OpenDocument):
        snap.memo[SPARE_DOCUMENT] = spare = Replica(spare)
    found = spare if isinstance(spare, Replica) else snap.shared.get(REPLICA)
    if isinstance(found, Replica):
        return found
    made = Replica(OpenDocument(snap.doc.text, None, snap.path, snap.workspace, Encoding.UTF32))
    snap.shared[REPLICA] = made
    return made


def budget(snap: Snapshot) -> int:
    """How many trials the snapshot affords."""
    lines = len(snap.doc.lines.byte_starts)
    return max(MIN_TRIALS, min(MAX_TRIALS, TRIAL_LINES // max(lines, 1)))


def recheck(snap: Snapshot, edits: Iterable[Edit]) -> Keys | None:
    """(code, message) of every problem of the snapshot's text with `edits` applied; None when the
    result does not read (a syntax error the text did not have) or when the snapshot's trial
    budget is spent. Each distinct set of edits is checked once per snapshot."""
    key = tuple(edits)
    tried: dict[tuple[Edit, ...], Keys | None] = snap.memo.setdefault("trials", {})  # type: ignore[assignment]
    if key in tried:
        return tried[key]
    spent = int(snap.memo.get("trials-spent", 0))  # type: ignore[call-overload]
    if spent >= budget(snap):
        return None  # (not memoised: the budget is the snapshot's, whatever asks)
    snap.memo["trials-spent"] = spent + 1
    tried[key] = found = _recheck(snap, key)
    return found


def _recheck(snap: Snapshot, edits: tuple[Edit, ...]) -> Keys | None:
    found, broken = replica(snap).check(apply_edits(snap.doc.text, edits), snap.doc.text)
    if broken and not syntax_broken(snap):
        return None
    return found


def mends(snap: Snapshot, problem: Problem, edits: Iterable[Edit]) -> bool:
    """Do the edits make `problem` go away without bringing any problem the text did not have?"""
    before = _problems(snap)  # (first: the snapshot's own findings, before the replica moves on)
    key = _key_of(snap, problem)
    if key is None:
        return False  # the text moved on since the problem: nothing to mend
    after = recheck(snap, edits)
    if after is None:
        return False
    return after[key] < before[key] and not after - before


def _key_of(snap: Snapshot, problem: Problem) -> tuple[str, str] | None:
    """The problem as the snapshot's findings have it, by place and code (a problem the editor sends
    back carries its message too, but a fix reads the code, the range and the data, not words)."""
    same = [p for p in problems_of(snap) if p.range == problem.range and p.code == problem.code]
    found = next((p for p in same if p.message == problem.message), same[0] if same else None)
    return (found.code, found.message) if found is not None else None
