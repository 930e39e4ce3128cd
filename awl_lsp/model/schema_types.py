"""Declared types by name: record fields and enum variants, from `type` items and from JSON Schema.

`TypeTable.build` reads every `type` item of a tree; `item_types` reads one item (what the check
cache keeps per item), and `TypeTable.assemble` puts such contributions together in document order.
A `schema("path")` import names a JSON Schema file beside the document; it and an inline
`schema { … }` body become records (nested objects as `Outer.field`), lists and builtins.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from tree_sitter import Node

from awl_lsp.model.schema_files import load_schema_file
from awl_lsp.model.type_base import (
    BOOL,
    FLOAT,
    INT,
    STRING,
    UNKNOWN,
    AwlType,
    list_of,
    named,
    optional_of,
    parse_type_node,
)
from awl_lsp.syntax import fields as F
from awl_lsp.syntax.bounds import MAX_JSON_DEPTH, json_nesting


@dataclass(frozen=True)
class ItemTypes:
    """What one `type` item adds to the table: `form` is record | enum | schema | none."""

    form: str
    name: str
    value: object = None  # record: {field: AwlType}; enum: [variant]; schema: parsed JSON (or None)
    volatile: bool = False  # read from a file: re-read on every check


class TypeTable:
    """Record fields and enum variants by type name (schema types' nested objects get `Outer.field`).

    When `deps` is a set, every look-up adds the type name it asked about (the check cache's
    dependency recording).
    """

    def __init__(self) -> None:
        self.records: dict[str, dict[str, AwlType]] = {}
        self.enums: dict[str, list[str]] = {}
        self.deps: set[str] | None = None
        # the names the document's own records and enums declare, and the schema type being read:
        # a schema's `$defs` entry never takes a declared name (see `from_schema`)
        self.declared: frozenset[str] = frozenset()
        self.reading = ""
        # where each record read from a schema is defined: (the schema type, the JSON keys from
        # that schema's root to the object) — what type definition leads to
        self.origins: dict[str, tuple[str, tuple[str, ...]]] = {}

    def known(self, t: AwlType) -> bool:
        """False for UNKNOWN and for names nobody declared (those never take part in a mismatch)."""
        if t.is_optional and t.element is not None:  # (`t.strip()`, inline: asked at every check)
            t = t.element
        kind = t.kind
        if kind == "named":
            if self.deps is not None:
                self.deps.add(t.name)
            return t.name in self.records or t.name in self.enums
        if kind == "list":
            return t.element is not None and (t.element.unknown or self.known(t.element))
        return kind != "unknown"

    def fields(self, t: AwlType) -> dict[str, AwlType] | None:
        if t.is_optional and t.element is not None:  # (`t.strip()`, inline)
            t = t.element
        if t.kind != "named":
            return None
        if self.deps is not None:
            self.deps.add(t.name)
        return self.records.get(t.name)

    def variants(self, t: AwlType) -> list[str] | None:
        t = t.strip()
        if t.kind != "named":
            return None
        if self.deps is not None:
            self.deps.add(t.name)
        return self.enums.get(t.name)

    def same_shape(self, a: AwlType, b: AwlType, seen: set[tuple[str, str]] | None = None) -> bool:
        """Do `a` and `b` describe the same values? Types are compared by shape, as the engine does:
        two records with the same fields (each as optional, each of the same shape) are one type,
        whatever their names; two enums with the same variants too. An unknown part matches anything."""
        if a == b or a.unknown or b.unknown:
            return True
        if a.is_optional != b.is_optional:
            return False
        a, b = a.strip(), b.strip()
        if a.is_list or b.is_list:
            if not (a.is_list and b.is_list) or a.element is None or b.element is None:
                return False
            return self.same_shape(a.element, b.element, seen)
        if a.kind != "named" or b.kind != "named":
            return a == b
        seen = set() if seen is None else seen
        if (a.name, b.name) in seen:
            return True  # (a recursive type: assumed equal while its fields are compared)
        seen.add((a.name, b.name))
        fa, fb = self.fields(a), self.fields(b)
        if fa is not None or fb is not None:
            return (
                fa is not None
                and fb is not None
                and fa.keys() == fb.keys()
                and all(self.same_shape(t, fb[k], seen) for k, t in fa.items())
            )
        va, vb = self.variants(a), self.variants(b)
        return va is not None and vb is not None and set(va) == set(vb)

    def record_fields(self, name: str) -> dict[str, AwlType] | None:
        """The fields of the record type `name` (None when no record has that name)."""
        if self.deps is not None:
            self.deps.add(name)
        return self.records.get(name)

    @classmethod
    def build(cls, root: Node, source: bytes, path: Path | None, workspace: Path | None = None) -> TypeTable:
        return cls.assemble(
            item_types(node, source, path, workspace)
            for node in root.named_children
            if node.type == "type_declaration"
        )

    @classmethod
    def assemble(cls, parts: object) -> TypeTable:
        """The table of the `ItemTypes` of a document's type items, in document order."""
        table = cls()
        items = [part for part in parts if part is not None]  # type: ignore[attr-defined]
        table.declared = frozenset(part.name for part in items if part.form in ("record", "enum"))
        for part in items:
            if part.form == "record":
                table.records.setdefault(part.name, part.value)
            elif part.form == "enum":
                table.enums.setdefault(part.name, part.value)
            elif part.form == "schema" and isinstance(part.value, dict):
                table.reading = part.name
                table.from_schema(part.name, part.value, part.value)
        return table

    def from_schema(self, name: str, schema: dict, root: dict, at: tuple[str, ...] = ()) -> AwlType:
        """Register the object schema `schema` (at the keys `at` of `root`) under `name`, nested
        objects too; return its type."""
        ref = schema.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/"):
            target: object = root
            for part in ref[2:].split("/"):
                target = target.get(part) if isinstance(target, dict) else None
            if isinstance(target, dict) and target is not schema:
                def_name = ref.rsplit("/", 1)[-1]
                if def_name in self.declared:  # its own type, not the record declared under that name
                    def_name = ".".join([self.reading, *ref[2:].split("/")])
                return self.from_schema(def_name, target, root, tuple(ref[2:].split("/")))
            return UNKNOWN
        kind = schema.get("type")
        if kind == "object" or (kind is None and "properties" in schema):
            if name in self.records:
                return named(name)
            fields: dict[str, AwlType] = {}
            self.records[name] = fields
            self.origins[name] = (self.reading, at)
            required_raw, props_raw = schema.get("required"), schema.get("properties")
            required = required_raw if isinstance(required_raw, list) else []
            props = props_raw if isinstance(props_raw, dict) else {}
            for key, sub in props.items():
                t = (
                    self.from_schema(f"{name}.{key}", sub, root, (*at, "properties", key))
                    if isinstance(sub, dict)
                    else UNKNOWN
                )
                fields[key] = t if key in required else optional_of(t)
            return named(name)
        if kind == "array":
            items = schema.get("items")
            return list_of(
                self.from_schema(f"{name}.item", items, root, (*at, "items"))
                if isinstance(items, dict)
                else UNKNOWN
            )
        return {"string": STRING, "integer": INT, "number": FLOAT, "boolean": BOOL}.get(str(kind), UNKNOWN)


def _text(node: Node, source: bytes) -> str:
    return source[node.start_byte : node.end_byte].decode("utf-8", errors="replace")


def item_types(
    node: Node, source: bytes, path: Path | None, workspace: Path | None = None
) -> ItemTypes | None:
    """What the `type` item `node` contributes to a `TypeTable` (None for anything else)."""
    if node.type != "type_declaration":
        return None
    name_node, body = node.child_by_field_id(F.NAME), node.child_by_field_id(F.BODY)
    if name_node is None or body is None:
        return None
    name = _text(name_node, source)
    if body.type == "record_body":
        fields: dict[str, AwlType] = {}
        for f in body.named_children:
            fname = f.child_by_field_id(F.NAME) if f.type == "field_declaration" else None
            if fname is not None:
                ftype = parse_type_node(f.child_by_field_id(F.TYPE), source)
                fields.setdefault(_text(fname, source), ftype)
        return ItemTypes("record", name, fields)
    if body.type == "enum_body":
        variants = [
            source[v.start_byte : v.end_byte].decode().split("(")[0].strip() for v in body.named_children
        ]
        return ItemTypes("enum", name, variants)
    value = load_schema_body(body, source, path, workspace)
    return ItemTypes("schema", name, value, body.type == "schema_import")


def schema_file(body: Node, source: bytes, path: Path | None) -> Path | None:
    """The file a `schema("…")` import names, relative to the document's folder."""
    p = body.child_by_field_id(F.PATH)
    if p is None or path is None:
        return None
    rel = _text(p, source).strip('"')
    return (path.parent / rel) if rel else None


def load_schema_body(body: Node, source: bytes, path: Path | None, workspace: Path | None = None) -> object:
    """The parsed JSON of an inline `schema { … }` or of a `schema("…")` file inside the workspace
    (see `schema_files`: nothing outside it is read), else None."""
    if body.type == "schema_body":
        j = body.child_by_field_id(F.JSON)
        raw = source[j.start_byte : j.end_byte] if j is not None else b""
        if not raw or json_nesting(raw) > MAX_JSON_DEPTH:
            return None
        try:
            return json.loads(raw)
        except (ValueError, RecursionError):
            return None
    if body.type == "schema_import":
        p = body.child_by_field_id(F.PATH)
        rel = _text(p, source).strip('"') if p is not None else ""
        if not rel or path is None:
            return None
        return load_schema_file(rel, path, workspace).value
    return None


__all__ = ["ItemTypes", "TypeTable", "item_types", "load_schema_body", "schema_file"]
