"""Fixes for how a line ends: a `-> name` where the form binds nothing, a `->` with no name after
it, a pipe chain that ends nowhere.

- `hatch-binding`: the `-> name` after a `hatch` goes, when nothing reads the name. Safe: a hatch
  returns nothing, so the binding could never hold a value.
- `binding-name`: the bare `->` goes. Unsafe: the author meant to name the result (and naming
  it would leave a binding nobody reads yet — that is theirs to write).
- `pipe-unterminated`: "Bind the result as `-> x`" for each name read further down that nothing
  binds (the chain was meant to make it; tried first, `trial.mends`: its value must be of the
  type the reads ask for), the nearest read first. Unsafe: which name was meant is a guess.
- `pipe-unterminated`: a chain of combinators only (`filter`, `map`, `sort`, `count`, `any`,
  `all`, `.field`) that ends nowhere computes a value nobody receives: the line goes. Unsafe:
  the author may have meant to bind it. A chain through an action is left alone (it does work).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from awl_lsp.features.fixes import lines
from awl_lsp.features.fixes.flow import leaves_nothing_behind
from awl_lsp.features.fixes.places import ancestor, end, node_at
from awl_lsp.features.fixes.trial import mends, problems_of
from awl_lsp.features.fixes.values import Fix, edit
from awl_lsp.syntax.problems import Problem

_NAMES_TRIED = 3  # the names read further down a chain's result may be meant for, nearest first

if TYPE_CHECKING:
    from tree_sitter import Node

    from awl_lsp.features.snapshot import Snapshot


def _drop_binding(snap: Snapshot, binding: Node) -> tuple | None:
    before = binding.prev_sibling
    return (edit(end(before), end(binding), ""),) if before is not None else None


def drop_hatch_binding(snap: Snapshot, problem: Problem) -> list[Fix]:
    binding = ancestor(node_at(snap, problem.range), "binding")
    hatch = ancestor(binding, "hatch_statement")
    name = binding.child_by_field_name("name") if binding is not None else None
    if binding is None or hatch is None or name is None:
        return []
    sym = snap.model.symbol_at(name.start_point.row, name.start_point.column)
    if sym is not None and snap.model.references_to(sym):
        return []
    edits = _drop_binding(snap, binding)
    if edits is None:
        return []
    return [Fix(f"Remove `{snap.text(binding)}`", edits, safe=True, preferred=True)]


def drop_bare_arrow(snap: Snapshot, problem: Problem) -> list[Fix]:
    binding = ancestor(node_at(snap, problem.range), "binding")
    if binding is None or binding.child_by_field_name("name") is not None:
        return []
    edits = _drop_binding(snap, binding)
    return [Fix("Remove the `->`", edits, safe=False, preferred=True)] if edits else []


def _pure(pipe: Node) -> bool:
    """Whether every stage of the chain is a combinator or a `.field` (no action, child or subflow)."""
    node: Node | None = pipe
    while node is not None and node.type == "pipe_expression":
        stage = node.child_by_field_name("stage")
        if stage is None or stage.type not in ("combinator", "relative_field"):
            return False
        node = node.child_by_field_name("input")
    return True


def bind_idle_chain(snap: Snapshot, problem: Problem) -> list[Fix]:
    statement = ancestor(node_at(snap, problem.range), "expression_statement")
    pipe = statement.child_by_field_name("value") if statement is not None else None
    if statement is None or pipe is None or pipe.type != "pipe_expression" or statement.has_error:
        return []
    last = lines.last_row(statement)
    unbound = [
        name
        for p in problems_of(snap)
        if p.code == "unknown-binding"
        and p.range[0] > last
        and isinstance(name := (p.data or {}).get("name"), str)
    ]
    out: list[Fix] = []
    for name in list(dict.fromkeys(unbound))[:_NAMES_TRIED]:
        edits = (edit(end(pipe), None, f" -> {name}"),)
        if mends(snap, problem, edits):
            out.append(Fix(f"Bind the result as `-> {name}`", edits, safe=False, preferred=not out))
    return out


def drop_idle_chain(snap: Snapshot, problem: Problem) -> list[Fix]:
    statement = ancestor(node_at(snap, problem.range), "expression_statement")
    pipe = statement.child_by_field_name("value") if statement is not None else None
    if statement is None or pipe is None or pipe.type != "pipe_expression" or statement.has_error:
        return []
    body = statement.parent
    others = [c for c in body.named_children if c.type not in lines.TRIVIA and c != statement] if body else []
    first, last = statement.start_point.row, lines.last_row(statement)
    if not others or not _pure(pipe) or not leaves_nothing_behind(snap, first, last):
        return []
    return [
        Fix("Remove the chain (its value goes nowhere)", (lines.remove_rows(snap, first, last),), False, True)
    ]
