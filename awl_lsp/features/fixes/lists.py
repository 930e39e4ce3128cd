"""The fix for a record given where a list goes: its one list field (`data.list_field`).

`order |> count`, `fork item in order`, `order[0]`, `order is empty` with an `Order` whose one
list field is `lines`: `order.lines`. Unsafe: that the record's list was meant is a guess, however
likely with one list to choose from; tried first (`trial.mends`: the items may then not fit).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from awl_lsp.features.fixes.places import end, span, widest_at
from awl_lsp.features.fixes.trial import mends
from awl_lsp.features.fixes.values import Fix, edit
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

_VALUES = ("identifier", "field_expression", "index_expression", "call_expression")


def _value(node: Node) -> Node | None:
    """The value a list was wanted of, from the node the problem is reported at."""
    if node.type == "combinator":
        pipe = node.parent
        return (
            pipe.child_by_field_name("input") if pipe is not None and pipe.type == "pipe_expression" else None
        )
    if node.type in ("index_expression", "is_expression"):
        return node.child_by_field_name("value")
    return node


def use_list_field(snap: Snapshot, problem: Problem) -> list[Fix]:
    name = (problem.data or {}).get("list_field")
    node = widest_at(snap, problem.range)
    value = _value(node) if span(node) == problem.range else None
    if not isinstance(name, str) or value is None or value.type not in _VALUES:
        return []
    added = edit(end(value), None, f".{name}")
    if not mends(snap, problem, [added]):
        return []
    return [Fix(f"Use its list: `{snap.text(value)}.{name}`", (added,), safe=False, preferred=True)]
