"""Go to type definition: from a value to the declaration of its type.

The value at the cursor is a binding, a parameter, an input, a signal, a carry, a report, an
outcome, a field (declared or read as `x.f`), an argument name, a callee (its result), a route to
an outcome (what it carries) or any expression inference types. Its type leads to where that type
is declared: a `type` item of the document, or — for types a JSON Schema defines — the place in the
schema: the file a `schema("…")` names (the object's key there; the file's root for the imported
type itself), or the inline `schema { … }` body. A list or optional type leads to its element's
type; builtins (`String`, `Int`, …) are declared nowhere.
"""

from __future__ import annotations

from lsprotocol import types as lsp
from tree_sitter import Node

from awl_lsp.features.lsp_positions import lsp_range, point
from awl_lsp.features.snapshot import Snapshot
from awl_lsp.features.typing import type_env
from awl_lsp.model import BUILTIN_TYPES, Kind, RefKind, Symbol
from awl_lsp.model.schema_locations import json_key_offset, point_of, schema_file_text
from awl_lsp.model.type_base import AwlType, named, parse_type_text
from awl_lsp.syntax.positions import LineIndex

# symbols whose type is the one written with them (or, for a result, after `->`)
_WRITTEN = (Kind.OUTCOME, Kind.REPORT, Kind.INVARIANT, Kind.ACTION, Kind.CHILD, Kind.FIELD)
# references whose target's type is the value's (a call's is its result)
_TYPED_REFS = (
    RefKind.VALUE,
    RefKind.FIELD,
    RefKind.ARGUMENT,
    RefKind.ANSWER,
    RefKind.SIGNAL,
    RefKind.COLLECT,
    RefKind.CALL,
)


def _symbol_type(snap: Snapshot, sym: Symbol) -> AwlType | None:
    if sym.kind is Kind.TYPE:
        return named(sym.name)
    if sym.kind is Kind.VARIANT:
        return named(sym.container) if sym.container else None
    if sym.kind is Kind.SUBFLOW:
        outs = [c for c in sym.children if c.kind is Kind.OUTCOME]
        return parse_type_text(outs[0].type) if len(outs) == 1 else None
    if sym.kind in _WRITTEN:
        return parse_type_text(sym.type)
    env = type_env(snap)
    return env.type_of_symbol(sym) if env is not None else None


def _expression_type(snap: Snapshot, node: Node) -> AwlType | None:
    env = type_env(snap)
    if env is None:
        return None
    parent = node.parent
    if parent is not None and parent.type in ("field_expression", "call_expression"):
        name = parent.child_by_field_name("field" if parent.type == "field_expression" else "function")
        if name is not None and name.id == node.id:
            return env.infer(parent)  # the field's type, the call's result
    return env.infer(node)


def type_at(snap: Snapshot, position: lsp.Position) -> AwlType | None:
    """The type of what the cursor is on (None where nothing typed is)."""
    row, col = point(snap, position)
    model = snap.model
    node = snap.node_at(row, col)
    if node.type == "type_identifier":
        return named(snap.text(node))
    ref = model.reference_at(row, col)
    if ref is not None and ref.target is not None:
        if ref.kind in _TYPED_REFS:
            return _symbol_type(snap, ref.target)
        if ref.kind is RefKind.ROUTE and ref.target.kind is Kind.OUTCOME:
            return parse_type_text(ref.target.type)
        if ref.kind is RefKind.TYPE:
            return named(ref.target.name)
    sym = model.symbol_at(row, col)
    if sym is not None:
        return _symbol_type(snap, sym)
    if node.type == "identifier":
        try:
            return _expression_type(snap, node)
        except Exception:  # noqa: BLE001 — navigation must never fail because inference did
            return None
    return None


def named_part(t: AwlType | None) -> str | None:
    """The declared type a type names: itself, or the element of a list or optional (builtins and
    unknown types are declared nowhere)."""
    while t is not None and t.kind in ("list", "optional"):
        t = t.element
    if t is None or t.kind != "named" or t.name in BUILTIN_TYPES:
        return None
    return t.name


def _schema_location(snap: Snapshot, schema_type: str, keys: tuple[str, ...]) -> lsp.Location | None:
    """Where the object at `keys` of the schema type `schema_type` is written."""
    decl = snap.model.type_symbol(schema_type)
    if decl is None:
        return None
    r = decl.range
    item = snap.doc.root.descendant_for_point_range((r[0], r[1]), (r[0], r[1]))
    while item is not None and item.type != "type_declaration":
        item = item.parent
    body = item.child_by_field_name("body") if item is not None else None
    if body is None:
        return None
    if body.type == "schema_body":  # inline: a place in this document
        json_node = body.child_by_field_name("json")
        if json_node is None:
            return None
        text = snap.text(json_node)
        offset = json_key_offset(text, keys)
        if offset is None:
            return None
        row, col = point_of(text, offset)
        start = json_node.start_point
        key = (start.row + row, (start.column if row == 0 else 0) + col)
        return lsp.Location("", lsp_range(snap, (*key, *key)))
    path = body.child_by_field_name("path")
    if body.type != "schema_import" or path is None or snap.path is None:
        return None
    found = schema_file_text(snap.text(path).strip('"'), snap.path, snap.workspace)
    if found is None:
        return None
    target, text = found
    offset = json_key_offset(text, keys)
    if offset is None:
        return None
    row, col = point_of(text, offset)
    line, character = LineIndex(text).point_to_position(row, col, snap.doc.encoding)
    at = lsp.Position(line, character)
    return lsp.Location(target.as_uri(), lsp.Range(at, at))


def type_definition(snap: Snapshot, position: lsp.Position, uri: str) -> lsp.Location | None:
    """Where the type of the value at the cursor is declared."""
    name = named_part(type_at(snap, position))
    if name is None:
        return None
    env = type_env(snap)
    origin = env.table.origins.get(name) if env is not None else None
    if origin is not None:
        found = _schema_location(snap, *origin)
        if found is not None:
            return found if found.uri else lsp.Location(uri, found.range)
    decl = snap.model.type_symbol(name)
    if decl is None:
        return None
    return lsp.Location(uri, lsp_range(snap, decl.selection))


__all__ = ["named_part", "type_at", "type_definition"]
