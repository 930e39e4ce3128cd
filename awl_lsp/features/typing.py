"""Bridges the features to type inference (`awl_lsp.model.types`): field targets and binding types."""

from __future__ import annotations

from tree_sitter import Node

from awl_lsp.features.snapshot import Snapshot
from awl_lsp.model import Kind, Symbol


def type_env(snap: Snapshot):  # noqa: ANN202 — a TypeEnv (one per snapshot, shared by the features)
    try:
        from awl_lsp.model.types import TypeEnv
    except ImportError:  # pragma: no cover
        return None
    return snap.derived(
        "type-env", lambda s: TypeEnv(s.model, s.doc.tree, s.doc.source, s.path, _type_table(s), s.workspace)
    )


def _type_table(snap: Snapshot):  # noqa: ANN202 — a TypeTable
    """The document's declared types, from each type item's own types — kept per document between
    versions by the item's text (an item importing a schema file is read again every time)."""
    from awl_lsp.model.schema_types import TypeTable, item_types

    source = snap.doc.source
    previous: dict = snap.shared.get("item-types", {})  # type: ignore[assignment]
    kept: dict = {}
    parts = []
    for node in snap.doc.root.named_children:
        if node.type != "type_declaration":
            continue
        text = source[node.start_byte : node.end_byte]
        key = (text, str(node) if node.has_error else "", snap.path)
        if b"schema" in text:
            parts.append(item_types(node, source, snap.path, snap.workspace))
            continue
        if key not in kept:
            kept[key] = (
                previous[key] if key in previous else item_types(node, source, snap.path, snap.workspace)
            )
        parts.append(kept[key])
    snap.shared["item-types"] = kept
    return TypeTable.assemble(parts)


def binding_type(snap: Snapshot, sym: Symbol) -> str | None:
    """The inferred type of a binding (what bound it decides), as AWL text."""
    if sym.kind is not Kind.BINDING or sym.type:
        return sym.type
    try:
        env = type_env(snap)
        t = env.type_of_symbol(sym) if env is not None else None
    except Exception:  # noqa: BLE001 — hover must never fail because inference did
        return None
    return None if t is None or t.unknown else str(t)


def field_at(snap: Snapshot, name: Node) -> Symbol | None:
    """The field declaration a `x.f` / `.f` name refers to, when the base's type is known."""
    parent = name.parent
    if parent is None or parent.type not in ("field_expression", "relative_field"):
        return None
    field_node = parent.child_by_field_name("field")
    if field_node is None or field_node.id != name.id:
        return None
    try:
        env = type_env(snap)
        if env is None:
            return None
        if parent.type == "field_expression":
            base = env.infer(parent.child_by_field_name("value"))
        else:
            return None
        owner = base.strip() if base is not None else None
    except Exception:  # noqa: BLE001
        return None
    if owner is None or owner.unknown:
        return None
    word = snap.text(name)
    return next((f for f in snap.model.fields_of(str(owner)) if f.name == word), None)
