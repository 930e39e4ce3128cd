"""The one problem type every layer reports: syntax errors, checker findings and protocol diagnostics.

A `Problem` has a range in tree-sitter coordinates (row, byte column), a message in words, a
stable `code`, a severity, and — for whatever quick fix or editor needs it — structured `data`
(the wrong name, the close candidates in scope, the missing arguments, the missing clause) and
`related` places (the first declaration of a duplicate, the route that makes a step unreachable).
Messages never carry line numbers: another place is a `Related` entry. Code actions read `data`,
never the message text. `data` and `related` are optional, so `Problem(range, message, code)`
keeps working for every rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

Range = tuple[int, int, int, int]  # start row, start byte column, end row, end byte column


class Severity(IntEnum):
    ERROR = 1
    WARNING = 2
    INFORMATION = 3
    HINT = 4


@dataclass(frozen=True)
class Related:
    """Another place that explains a problem (e.g. "first declared here")."""

    range: Range
    message: str


@dataclass(frozen=True)
class Problem:
    range: Range  # tree-sitter coordinates (row, byte column) — the protocol layer converts
    message: str
    code: str  # short stable id, e.g. "hatch-key"
    severity: Severity = Severity.ERROR
    data: dict[str, Any] | None = field(default=None, compare=False, hash=False)
    related: tuple[Related, ...] = ()


def moved(p: Problem, rows: int) -> Problem:
    """The same problem `rows` lines further down (related places move with it)."""

    def shift(r: Range) -> Range:
        return (r[0] + rows, r[1], r[2] + rows, r[3])

    related = tuple(Related(shift(r.range), r.message) for r in p.related)
    return Problem(shift(p.range), p.message, p.code, p.severity, p.data, related)


__all__ = ["Problem", "Range", "Related", "Severity", "moved"]
