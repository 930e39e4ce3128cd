"""Folding ranges: every indented block and every multi-line bracketed body."""

from __future__ import annotations

from lsprotocol import types as lsp
from tree_sitter import Query, QueryCursor

from awl_lsp.features.snapshot import Snapshot
from awl_lsp.syntax.parser import LANGUAGE

_FOLDS = Query(
    LANGUAGE,
    """
    [
      (workflow_declaration) (workloop_declaration) (step_declaration) (worker_declaration)
      (subflow_declaration) (retire_block) (fork_statement) (loop_statement) (on_failure)
      (invariant_clause) (record_body) (json_body) (raw_string) (arguments)
    ] @fold
    """,
)


def folding_ranges(snap: Snapshot) -> list[lsp.FoldingRange]:
    out: list[lsp.FoldingRange] = []
    seen: set[int] = set()
    for _, captures in QueryCursor(_FOLDS).matches(snap.doc.root):
        for node in captures.get("fold", []):
            start, end = node.start_point.row, node.end_point.row
            if node.end_point.column == 0 and end > start:
                end -= 1
            # blocks end at the last line of their body; keep the header line visible
            if end > start and start not in seen:
                seen.add(start)
                out.append(lsp.FoldingRange(start_line=start, end_line=end))
    return sorted(out, key=lambda f: f.start_line)
