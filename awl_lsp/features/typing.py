"""Bridges the features to type inference (`awl_lsp.model.types`): field targets and binding types."""

from __future__ import annotations

from tree_sitter import Node

from awl_lsp.features.snapshot import Snapshot
from awl_lsp.model import Kind, Symbol


def _types():  # the inference module is optional for the features: without it, fields stay unresolved
    try:
        from awl_lsp.model import types
    except ImportError:  # pragma: no cover
        return None
    return types


def binding_type(snap: Snapshot, sym: Symbol) -> str | None:
    if sym.kind is not Kind.BINDING or sym.type:
        return sym.type
    types = _types()
    fn = getattr(types, "binding_type_text", None) if types else None
    if fn is None:
        return None
    try:
        return fn(sym, snap.model, snap.doc.tree, snap.doc.source, snap.path)
    except Exception:  # noqa: BLE001 — hover must never fail because inference did
        return None


def field_at(snap: Snapshot, name: Node) -> Symbol | None:
    """The field declaration a `x.f` / `.f` name refers to, when the base's type is known."""
    parent = name.parent
    if parent is None or parent.type not in ("field_expression", "relative_field"):
        return None
    if parent.child_by_field_name("field") is None or parent.child_by_field_name("field").id != name.id:
        return None
    types = _types()
    fn = getattr(types, "field_owner_type", None) if types else None
    if fn is None:
        return None
    try:
        owner = fn(parent, snap.model, snap.doc.tree, snap.doc.source, snap.path)
    except Exception:  # noqa: BLE001
        return None
    if not owner:
        return None
    word = snap.text(name)
    return next((f for f in snap.model.fields_of(owner) if f.name == word), None)
