"""Fixes for a `fork`'s closing `join`.

- `fork-join`: a fork left open gets its `join` on the line after its branches, at the fork's
  indentation; a `join` written among the branches moves out to that indentation. Safe: the one
  line, in the one place, the engine was missing.
- `fork-named-join`: a fork with named branches joins bare — its `-> name` goes, when nothing
  reads that name. Safe: each branch already binds its own result.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from awl_lsp.features.fixes import lines
from awl_lsp.features.fixes.places import ancestor, end, node_at
from awl_lsp.features.fixes.values import Fix, edit
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot


def _open_fork_above(snap: Snapshot, row: int) -> Node | None:
    """The `fork` without a `join` that ends right above `row`."""
    col = lines.indent(snap, row)
    node = snap.doc.root.descendant_for_point_range((row, col), (row, col))
    while node is not None and node.parent is not None and node.parent.start_point == node.start_point:
        node = node.parent
    prev = node.prev_named_sibling if node is not None else None
    while prev is not None and prev.type in lines.TRIVIA:
        prev = prev.prev_named_sibling
    if prev is None or prev.type != "fork_statement" or prev.child_by_field_name("join") is not None:
        return None
    return prev


def close_the_fork(snap: Snapshot, problem: Problem) -> list[Fix]:
    row = problem.range[0]
    at = node_at(snap, problem.range)
    fork = ancestor(at, "fork_statement")
    if fork is not None and fork.child_by_field_name("join") is None and fork.start_point.row < row:
        # a `join` among the branches: out to the fork's indentation
        if lines.line(snap, row).strip() != b"join" and not lines.line(snap, row).strip().startswith(
            b"join "
        ):
            return []
        fix = lines.reindent(snap, row, fork.start_point.column)
        return [Fix("Move `join` out to the fork's indentation", (fix,), safe=True, preferred=True)]
    fork = _open_fork_above(snap, row)
    if fork is None or fork.has_error:
        return []
    text = " " * fork.start_point.column + "join"
    fix = lines.insert_line_after(snap, lines.last_row(fork), text)
    return [Fix("Close the fork with `join`", (fix,), safe=True, preferred=True)]


def bare_join(snap: Snapshot, problem: Problem) -> list[Fix]:
    binding = ancestor(node_at(snap, problem.range), "binding")
    join = binding.parent if binding is not None else None
    name = binding.child_by_field_name("name") if binding is not None else None
    if binding is None or join is None or join.type != "join_clause" or name is None:
        return []
    sym = snap.model.symbol_at(name.start_point.row, name.start_point.column)
    if sym is not None and snap.model.references_to(sym):
        return []
    before = binding.prev_sibling
    if before is None:
        return []
    return [Fix("Write a bare `join`", (edit(end(before), end(binding), ""),), safe=True, preferred=True)]
