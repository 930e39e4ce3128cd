"""Fixes for a workloop's words in a workflow: `every`, `on`, `carry`, `report`, `invariant`,
`retention` header clauses, `detached` declarations, a `retire` block, `hatch` and `answer`.

`workloop-only`: the construct goes (with the `///` lines documenting it), when nothing else in
the document names what it declares and no step is left without lines. Unsafe: the author may
have meant a workloop — declaring one takes more than a keyword (an arming, a `retire`, the
iteration's `route start`), so that is not offered as a fix.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from awl_lsp.features.fixes import lines
from awl_lsp.features.fixes.flow import leaves_nothing_behind
from awl_lsp.features.fixes.places import ancestor, node_at
from awl_lsp.features.fixes.values import Fix
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

_CONSTRUCTS = (
    "every_clause",
    "on_clause",
    "carry_clause",
    "report_clause",
    "invariant_clause",
    "retention_clause",
    "detached_declaration",
    "retire_block",
    "hatch_statement",
    "answer_statement",
)
_STATEMENTS = frozenset({"hatch_statement", "answer_statement"})


def remove_workloop_word(snap: Snapshot, problem: Problem) -> list[Fix]:
    node = ancestor(node_at(snap, problem.range), *_CONSTRUCTS)
    if node is None or node.has_error:
        return []
    row = node.start_point.row
    if lines.line(snap, row)[: node.start_point.column].strip() or node.start_point[:] != problem.range[:2]:
        return []
    if node.type in _STATEMENTS:
        siblings = (
            [c for c in node.parent.named_children if c.type not in lines.TRIVIA] if node.parent else []
        )
        if len(siblings) < 2:
            return []
    first, last = lines.doc_rows_above(node), lines.last_row(node)
    if not leaves_nothing_behind(snap, first, last):
        return []
    word = snap.text(node).split("\n", 1)[0].strip()
    if len(word) > 40:
        word = word[:39] + "…"
    return [Fix(f"Remove `{word}`", (lines.remove_rows(snap, first, last),), safe=False, preferred=True)]
