"""Applying fixes to a text: edits in snapshot coordinates onto the string, and `fix_text`, the loop
`awl check --fix` runs on one document.

`fix_text` analyses the text, takes each problem's preferred fix (safe ones only, unless unsafe
fixes are allowed), applies those whose edits do not touch another's, and starts again on the
result — a fix may make room for the next, or reveal what a syntax error hid — until nothing more
applies or `MAX_PASSES` passes ran. It never makes a text that reads worse: a pass whose result
has a syntax error, or more problems of some kind (a rename that collides with another document's
name), is tried again one fix at a time, and a fix that makes the text worse on its own is given
up (and said in `refused`). A text that has syntax errors comes back changed only when the fixes
mended all of them; otherwise it comes back as it was. While a syntax error stands, the problems
held back as provisional behind it (they may only follow from it) wait for a pass after it is
mended: fixing both at once can fix one mistake twice.

Inserted line breaks follow the text's own: a CRLF text gets CRLF.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from awl_lsp.checks.stages import CHECK_STAGE, PARSE_STAGE
from awl_lsp.features.fixes.registry import preferred_fix
from awl_lsp.features.fixes.texts import apply_edits, syntax_broken
from awl_lsp.features.fixes.values import Fix, Range
from awl_lsp.syntax.problems import Problem, Severity

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

MAX_PASSES = 20

# One analysis of a text: its snapshot and every problem reported for it.
Analyse = Callable[[str], "tuple[Snapshot, list[Problem]]"]


def _touch(a: Range, b: Range) -> bool:
    """Do the ranges overlap or meet (two insertions at one place, an insertion at an edge)?"""
    return (a[0], a[1]) <= (b[2], b[3]) and (b[0], b[1]) <= (a[2], a[3])


def compatible(chosen: list[Fix], fix: Fix) -> bool:
    """Can `fix` be applied in the same pass as `chosen` (no edit of it touches one of theirs)?"""
    return not any(_touch(e.range, o.range) for f in chosen for o in f.edits for e in fix.edits)


def wanted_fix(snap: Snapshot, problem: Problem, unsafe: bool) -> Fix | None:
    """The fix `--fix` applies for a problem: its preferred one, when safe (or unsafe allowed)."""
    fix = preferred_fix(snap, problem)
    return fix if fix is not None and (fix.safe or unsafe) else None


@dataclass(frozen=True)
class Applied:
    """A fix `fix_text` applied, with the code of the problem it fixed."""

    code: str
    fix: Fix


@dataclass
class FixedText:
    text: str  # the fixed text, or the original when no fix applied (or the syntax stayed broken)
    snapshot: Snapshot  # the analysis of `text`
    problems: list[Problem]  # what remains in `text`
    applied: list[Applied] = field(default_factory=list)
    passes: int = 0
    # why fixes were not applied: one that would make the text worse, or all of them on a text whose
    # syntax errors they do not mend (which then stays as it was)
    refused: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.applied)


def _worse(before: FixedText, snap: Snapshot, problems: list[Problem]) -> str | None:
    """Why the analysis (snap, problems) is worse than `before`, or None when it is not: a syntax
    error where the text read, or more problems of some kind (a text whose syntax was broken may
    show, once mended, what the syntax error hid: that is not worse)."""
    if syntax_broken(before.snapshot):
        return None
    if syntax_broken(snap):
        return "would leave a syntax error"
    more = Counter((p.severity, p.code) for p in problems) - Counter(
        (p.severity, p.code) for p in before.problems
    )
    return f"would bring {', '.join(sorted(code for _, code in more))}" if more else None


def fix_text(text: str, analyse: Analyse, *, unsafe: bool = False, max_passes: int = MAX_PASSES) -> FixedText:
    """Apply the preferred fixes to `text` until nothing more applies (see the module docstring)."""
    snap, problems = analyse(text)
    first = FixedText(text, snap, problems)
    current = FixedText(text, snap, problems)
    seen = {text}
    given_up: set[tuple[str, str]] = set()  # (code, title) of fixes that made the text worse
    for _ in range(max_passes):
        chosen: list[Applied] = []
        parse_errors = any(p.severity is Severity.ERROR and p.code in PARSE_STAGE for p in current.problems)
        for p in current.problems:
            if parse_errors and p.code in CHECK_STAGE and p.severity is not Severity.ERROR:
                continue  # provisional behind a syntax error (maybe its consequence): once that is mended
            fix = wanted_fix(current.snapshot, p, unsafe)
            if fix is None or (p.code, fix.title) in given_up:
                continue
            if compatible([a.fix for a in chosen], fix):
                chosen.append(Applied(p.code, fix))
        if not chosen:
            break
        # all together; when that makes the text worse, one at a time, giving up each that does
        for group in [chosen] if len(chosen) == 1 else [chosen, *([a] for a in chosen)]:
            new = apply_edits(current.text, [e for a in group for e in a.fix.plain_edits()])
            if new in seen:
                why: str | None = "would undo an earlier fix"
            else:
                new_snap, new_problems = analyse(new)
                why = _worse(current, new_snap, new_problems)
            if why is None:
                seen.add(new)
                current = FixedText(
                    new, new_snap, new_problems, current.applied + group, current.passes + 1, current.refused
                )
                break
            if len(group) == 1:
                given_up.add((group[0].code, group[0].fix.title))
                current.refused = [*current.refused, f"`{group[0].fix.title}` {why}"]
    if current.applied and syntax_broken(current.snapshot):
        first.refused = [*current.refused, "it has syntax errors the fixes do not mend"]
        first.passes = current.passes
        return first
    return current
