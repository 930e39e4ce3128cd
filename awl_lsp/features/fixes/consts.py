"""Fixes for consts whose value is not known before the flow runs, or reads a const nobody declares.

- `const-compile-time` / `const` (a runtime value in a const, `data.const` the const): inline the
  const — its value written where the const is read, the declaration removed — so the value is
  computed where the flow runs. Only for a const that is read, whose value fits on its line and
  that has no `///` doc (which would be lost); tried first (`trial.mends`: a read inside another
  const stays a runtime read). Unsafe: the document's structure changes.
- `const-compile-time` on a comparison of two literals (`"a" == "b"`, `3 < 5`): its value,
  `false` / `true`. Safe: that is what the comparison is, before the flow runs or after.
- `const` on an unknown name joined with `+` (`const prompt = missing + "!"`, `data.name`):
  declare it, `const missing = ""`, the value a placeholder. Unsafe: the value is the author's.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from tree_sitter import Node

from awl_lsp.features.fixes.placement import line_text
from awl_lsp.features.fixes.places import ancestor, node_at, span
from awl_lsp.features.fixes.trial import mends
from awl_lsp.features.fixes.values import Edit, Fix, edit, tabstop
from awl_lsp.model import Kind, RefKind
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

_ORDER = {
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}


def _declaration(snap: Snapshot, name: object) -> Node | None:
    sym = snap.model.first(Kind.CONST, name) if isinstance(name, str) else None
    return ancestor(node_at(snap, sym.selection), "const_declaration") if sym is not None else None


def _lines_of(snap: Snapshot, node: Node) -> Edit:
    """An edit removing the lines the node stands on — and one blank line beside them when blank
    lines stand on both sides (one stays, as `awl fmt` keeps one)."""
    count = len(snap.doc.lines.byte_starts)
    first, last = node.start_point.row, node.end_point.row - (node.end_point.column == 0)
    blank = [i for i in (first - 1, last + 1) if 0 <= i < count and not line_text(snap, i).strip()]
    if len(blank) == 2:
        last += 1
    return edit((first, 0), (last + 1, 0), "")


def inline_const(snap: Snapshot, problem: Problem) -> list[Fix]:
    name = (problem.data or {}).get("const")
    decl = _declaration(snap, name)
    sym = snap.model.first(Kind.CONST, name) if decl is not None and isinstance(name, str) else None
    value = decl.child_by_field_name("value") if decl is not None else None
    if sym is None or decl is None or value is None or sym.doc or decl.has_error:
        return []
    if value.start_point.row != value.end_point.row:
        return []
    reads = [r for r in snap.model.references_to(sym) if r.kind is RefKind.VALUE]
    if not reads:
        return []  # (nothing to inline into: the value would only be lost)
    text = snap.text(value)
    edits = (*(Edit(r.range, text) for r in reads), _lines_of(snap, decl))
    if not mends(snap, problem, edits):
        return []
    return [Fix(f"Inline `{name}`: write `{text}` where it is read", edits, safe=False, preferred=True)]


def _literal(snap: Snapshot, node: Node | None) -> tuple[str, object] | None:
    """(type, value) of a literal without escapes."""
    if node is None:
        return None
    text = snap.text(node)
    if node.type == "string" and "\\" not in text and len(text) >= 2 and text.endswith('"'):
        return "String", text[1:-1]
    if node.type == "integer":
        return "Int", int(text)
    if node.type == "float":
        return "Float", float(text)
    if node.type == "boolean":
        return "Bool", text == "true"
    return None


def fold_comparison(snap: Snapshot, problem: Problem) -> list[Fix]:
    node = node_at(snap, problem.range)
    if node.type != "binary_expression" or span(node) != problem.range:
        return []
    op = snap.text(node.child_by_field_name("operator"))
    left = _literal(snap, node.child_by_field_name("left"))
    right = _literal(snap, node.child_by_field_name("right"))
    if left is None or right is None or left[0] != right[0]:
        return []
    if op in ("==", "!="):
        result = (left[1] == right[1]) == (op == "==")
    elif op in _ORDER and left[0] in ("Int", "Float"):
        result = _ORDER[op](left[1], right[1])
    else:
        return []
    new = json.dumps(result)
    title = f"Write `{new}` (the value of `{snap.text(node)}`)"
    return [Fix(title, (Edit(span(node), new),), safe=True, preferred=True)]


def declare_const(snap: Snapshot, problem: Problem) -> list[Fix]:
    data = problem.data or {}
    name, reader = data.get("name"), _declaration(snap, data.get("const"))
    node = node_at(snap, problem.range)
    parent = node.parent
    if reader is None or not isinstance(name, str) or snap.text(node) != name or parent is None:
        return []
    if parent.type != "binary_expression" or snap.text(parent.child_by_field_name("operator")) != "+":
        return []  # (only `+` says the type: a String)
    placeholder = tabstop(1, '""')
    line = f"const {name} = {placeholder}\n"
    added = edit((reader.start_point.row, 0), None, line)
    if not mends(snap, problem, [Edit(added.range, f'const {name} = ""\n')]):
        return []
    return [Fix(f'Declare `const {name} = ""`', (added,), safe=False, preferred=True, snippet=True)]
