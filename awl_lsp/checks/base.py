"""What every check receives and returns: a `CheckContext` and `Problem`s."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from pathlib import Path

from tree_sitter import Node, Tree

from awl_lsp.model import Range, SemanticModel


class Severity(IntEnum):
    ERROR = 1
    WARNING = 2
    INFORMATION = 3
    HINT = 4


@dataclass(frozen=True)
class Problem:
    range: Range  # tree-sitter coordinates (row, byte column) — the protocol layer converts
    message: str
    code: str  # short stable id, e.g. "hatch-key"
    severity: Severity = Severity.ERROR


@dataclass
class CheckContext:
    model: SemanticModel
    tree: Tree
    source: bytes
    path: Path | None = None  # the document's file, for `schema("…")` look-ups
    workspace: Path | None = None  # schema paths must stay inside it
    problems: list[Problem] = field(default_factory=list)

    def text(self, node: Node | None) -> str:
        if node is None:
            return ""
        return self.source[node.start_byte : node.end_byte].decode("utf-8", errors="replace")

    def error(self, where: Node | Range, message: str, code: str) -> None:
        self.report(where, message, code, Severity.ERROR)

    def warning(self, where: Node | Range, message: str, code: str) -> None:
        self.report(where, message, code, Severity.WARNING)

    def report(self, where: Node | Range, message: str, code: str, severity: Severity) -> None:
        if isinstance(where, Node):
            s, e = where.start_point, where.end_point
            where = (s.row, s.column, e.row, e.column)
        self.problems.append(Problem(where, message, code, severity))
