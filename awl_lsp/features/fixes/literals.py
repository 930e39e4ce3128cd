"""Fixes that write a literal as the type its place expects: `1` where a Float goes is `1.0`, `"3"`
where an Int goes is `3`, `42` where a String goes is `"42"`.

- `type-mismatch`, `visits-type`, `loop-max-type` (`data.expected`): the value, when it is a
  literal that reads as the expected type.
- `compare-mismatch` (`data.left`, `data.right`): the literal side, as the other side's type
  (`price > 100` with a Float price: `100.0`).
- `plus-mismatch` (`data.left`, `data.right`): a number or truth value joined to a String, quoted;
  two list literals (AWL has no list `+`), written as the one list they make (also a const's list
  literal, unsafe then: the const's later changes no longer reach it).
- `list-item-type` (`data.expected`): an item written as the first item's type.
- `type-mismatch` on a carry's default that no conversion fits: a placeholder of the carry's type
  (`carry seen: Int = 0`), unsafe.

Safe when the literal keeps its value — a whole number as a Float (`1` → `1.0`, `2.0` → `2`), a
number or truth value that was quoted (`"3"` → `3`), two list literals joined — since the engine
reads no other value there. Unsafe when a number or truth value becomes text (`42` → `"42"`): the
author may have meant another value, not another spelling.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from tree_sitter import Node

from awl_lsp.features.fixes.places import ancestor, node_at, span
from awl_lsp.features.fixes.values import Edit, Fix, tabstop
from awl_lsp.features.placeholders import value_for
from awl_lsp.model import Kind
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

_SCALARS = {"integer": "Int", "float": "Float", "boolean": "Bool"}
_ORDERING = ("<", "<=", ">", ">=")
_COMPARABLE = ("String", "Int", "Float", "Bool")


def _unquoted(snap: Snapshot, node: Node) -> str | None:
    """The text of a plain string literal without its quotes (None for one with escapes)."""
    text = snap.text(node)
    if node.type != "string" or len(text) < 2 or not text.endswith('"') or "\\" in text:
        return None
    return text[1:-1]


def _number_type(text: str) -> str | None:
    """`Int` or `Float` when the text is a number as AWL writes one."""
    whole, dot, fraction = text.partition(".")
    if not whole.isascii() or not whole.isdigit():
        return None
    if not dot:
        return "Int"
    return "Float" if fraction.isascii() and fraction.isdigit() else None


def convert(snap: Snapshot, node: Node, target: str) -> tuple[str, bool] | None:
    """The literal `node` written as a value of type `target`, and whether that keeps its value
    (safe); None when it is no literal or does not read as that type."""
    text = snap.text(node)
    kind = _SCALARS.get(node.type)
    if kind == "Int" and target == "Float":
        return f"{text}.0", True
    if kind == "Float" and target == "Int":
        whole, _, fraction = text.partition(".")
        return (whole, True) if fraction.strip("0") == "" else None
    if kind is not None and target == "String":
        return json.dumps(text), False
    inner = _unquoted(snap, node)
    if inner is not None and target in ("Int", "Float"):
        number = _number_type(inner)
        if number == target:
            return inner, True
        if number == "Int" and target == "Float":
            return f"{inner}.0", True
        return None
    if inner is not None and target == "Bool" and inner in ("true", "false"):
        return inner, True
    if node.type == "list" and target.startswith("[") and target.endswith("]"):
        items = [c for c in node.named_children if c.type != "comment"]
        if not items or any(c.type == "ERROR" for c in node.children):
            return None
        converted = [convert(snap, c, target[1:-1]) for c in items]
        if any(c is None for c in converted):
            return None
        parts = [c for c in converted if c is not None]
        return "[" + ", ".join(t for t, _ in parts) + "]", all(safe for _, safe in parts)
    return None


def _write(node: Node, new: tuple[str, bool] | None) -> list[Fix]:
    if new is None:
        return []
    text, safe = new
    return [Fix(f"Write `{text}`", (Edit(span(node), text),), safe=safe, preferred=True)]


def convert_value(snap: Snapshot, problem: Problem) -> list[Fix]:
    """A literal value where a value of `data.expected` goes."""
    expected = (problem.data or {}).get("expected")
    node = node_at(snap, problem.range)
    if not isinstance(expected, str) or span(node) != problem.range:
        return []
    return _write(node, convert(snap, node, expected.rstrip("?")))


def convert_list_item(snap: Snapshot, problem: Problem) -> list[Fix]:
    """A list item written as the type of the first item (`["a", 2]`)."""
    return convert_value(snap, problem)


def _sides(snap: Snapshot, problem: Problem) -> tuple[Node, Node, str, str] | None:
    data = problem.data or {}
    node = node_at(snap, problem.range)
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    lt, rt = data.get("left"), data.get("right")
    if node.type != "binary_expression" or left is None or right is None:
        return None
    if not isinstance(lt, str) or not isinstance(rt, str):
        return None
    return left, right, lt, rt


def convert_compared(snap: Snapshot, problem: Problem) -> list[Fix]:
    """A comparison of two types where one side is a literal that reads as the other's type."""
    found = _sides(snap, problem)
    if found is None:
        return []
    left, right, lt, rt = found
    ordering = snap.text(node_at(snap, problem.range).child_by_field_name("operator")) in _ORDERING
    out: list[Fix] = []
    for side, other in ((right, lt), (left, rt)):
        if other in _COMPARABLE and (other in ("Int", "Float") or not ordering):
            out += _write(side, convert(snap, side, other))
    return out[:1]


def join_strings(snap: Snapshot, problem: Problem) -> list[Fix]:
    """`+` of a String and a literal number or truth value: the literal quoted; `+` of two list
    literals: the one list they make."""
    found = _sides(snap, problem)
    if found is None:
        return []
    left, right, lt, rt = found
    lists = [_list_items(snap, left), _list_items(snap, right)]
    if lists[0] is not None and lists[1] is not None:
        node = node_at(snap, problem.range)
        joined = "[" + ", ".join(lists[0][0] + lists[1][0]) + "]"
        safe = not (lists[0][1] or lists[1][1])  # (a const's list written out no longer follows it)
        return [Fix(f"Write `{joined}`", (Edit(span(node), joined),), safe=safe, preferred=True)]
    if lt == "String" and rt != "String":
        return _write(right, convert(snap, right, "String"))
    if rt == "String" and lt != "String":
        return _write(left, convert(snap, left, "String"))
    return []


def _list_items(snap: Snapshot, node: Node) -> tuple[list[str], bool] | None:
    """The items of a list literal — or of the list literal a const holds, by name — and whether
    they came from a const; None for anything else (or a list holding a comment, which would be
    lost)."""
    via_const = node.type == "identifier"
    items: Node | None = node
    if via_const:
        sym = snap.model.first(Kind.CONST, snap.text(node))
        decl = ancestor(node_at(snap, sym.selection), "const_declaration") if sym is not None else None
        items = decl.child_by_field_name("value") if decl is not None else None
    if items is None or items.type != "list" or any(c.type in ("comment", "ERROR") for c in items.children):
        return None
    return [snap.text(c) for c in items.named_children], via_const


def default_placeholder(snap: Snapshot, problem: Problem) -> list[Fix]:
    """`type-mismatch` on a carry's default that no conversion turns into its type: a value of
    the type to fill in (`carry seen: Int = 0`). Unsafe: the value is the author's."""
    data = problem.data or {}
    slot, expected = data.get("slot"), data.get("expected")
    node = node_at(snap, problem.range)
    clause = node.parent
    if (
        not isinstance(slot, dict)
        or slot.get("kind") != "carry"
        or clause is None
        or not isinstance(expected, str)
    ):
        return []
    if clause.type != "carry_clause" or clause.child_by_field_name("default") != node:
        return []
    if convert(snap, node, expected.rstrip("?")) is not None:
        return []  # (the conversion is the fix)
    value = value_for(snap.model, expected)
    if value is None:
        return []
    text = tabstop(1, value)
    title = f"Replace the default with `{value}`"
    return [Fix(title, (Edit(span(node), text),), safe=False, preferred=True, snippet=True)]
