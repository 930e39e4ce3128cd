"""Fixes for parentheses, which AWL does not have.

`parentheses`: where dropping them reads the same — a value that is a whole argument, guard,
operand of nothing, or a single name, literal, call or field — they go. A negated comparison,
`not (a < b)`, becomes the opposite comparison, `a >= b`. Safe: both keep what the author wrote.
Anywhere else the grouping would change, and nothing is offered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from awl_lsp.features.fixes.places import node_at, span
from awl_lsp.features.fixes.values import Edit, Fix
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from tree_sitter import Node

    from awl_lsp.features.snapshot import Snapshot

_OPPOSITE = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}
_ATOMS = frozenset(
    {
        "identifier",
        "integer",
        "float",
        "string",
        "boolean",
        "call_expression",
        "field_expression",
        "index_expression",
    }
)
_OPERATORS = frozenset({"binary_expression", "unary_expression", "not_expression", "pipe_expression"})


def _inner(node: Node) -> Node | None:
    inner = [c for c in node.named_children if c.type not in ("comment",)]
    return inner[0] if len(inner) == 1 else None


def drop_parentheses(snap: Snapshot, problem: Problem) -> list[Fix]:
    node = node_at(snap, problem.range)
    if node.type != "parenthesized_expression" or node.has_error:
        return []
    inner = _inner(node)
    if inner is None or inner.type == "parenthesized_expression":
        return []
    parent = node.parent
    negated = parent is not None and parent.type in ("unary_expression", "not_expression")
    if negated and inner.type == "binary_expression":
        op = inner.child_by_field_name("operator")
        left, right = inner.child_by_field_name("left"), inner.child_by_field_name("right")
        flip = _OPPOSITE.get(snap.text(op)) if op is not None else None
        outer = parent.parent if parent is not None else None
        if outer is not None and outer.type == "binary_expression":
            word = snap.text(outer.child_by_field_name("operator"))
            if word not in ("and", "or"):
                return []  # (a comparison binds looser than `not`: there it would regroup)
        if flip is None or left is None or right is None or parent is None:
            return []
        new = f"{snap.text(left)} {flip} {snap.text(right)}"
        return [Fix(f"Write `{new}`", (Edit(span(parent), new),), safe=True, preferred=True)]
    if inner.type in _ATOMS or parent is None or parent.type not in _OPERATORS:
        return [
            Fix("Remove the parentheses", (Edit(span(node), snap.text(inner)),), safe=True, preferred=True)
        ]
    return []
