"""Type inference for AWL: a small type representation and `TypeEnv.infer` for expressions.

Types come from type text (`[T]`, `T?`, builtins, declared records and enums), from JSON Schema
(`type X = schema("path")` beside the document, or an inline `schema { … }` body), and from what
bound a name (call results, pipes, fork joins, loops, waits, collects, distributes). Anything the
inference cannot know is `UNKNOWN`, which fits everywhere — checks never report on it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from tree_sitter import Node, Point, Tree

from awl_lsp.model.index import BUILTIN_TYPES, SemanticModel
from awl_lsp.model.symbols import Kind, Range, RefKind, Symbol


@dataclass(frozen=True)
class AwlType:
    """`kind` is builtin | named | list | optional | duration | unknown; `element` for list/optional."""

    kind: str
    name: str = ""
    element: AwlType | None = None

    def __str__(self) -> str:
        if self.kind == "list":
            return f"[{self.element}]"
        if self.kind == "optional":
            return f"{self.element}?"
        if self.kind == "duration":
            return "a duration"
        if self.kind == "unknown":
            return "unknown"
        return self.name

    @property
    def unknown(self) -> bool:
        return self.kind == "unknown"

    @property
    def is_list(self) -> bool:
        return self.kind == "list"

    @property
    def is_optional(self) -> bool:
        return self.kind == "optional"

    def strip(self) -> AwlType:
        """The type without its outer `?`."""
        return self.element if self.kind == "optional" and self.element is not None else self


UNKNOWN = AwlType("unknown")
DURATION = AwlType("duration")
BOOL, INT, FLOAT, STRING, NIL, DIR = (
    AwlType("builtin", n) for n in ("Bool", "Int", "Float", "String", "Nil", "Dir")
)


def list_of(t: AwlType) -> AwlType:
    return AwlType("list", element=t)


def optional_of(t: AwlType) -> AwlType:
    return t if t.is_optional or t.unknown else AwlType("optional", element=t)


def named(name: str) -> AwlType:
    return AwlType("builtin", name) if name in BUILTIN_TYPES else AwlType("named", name)


def parse_type_text(text: str | None) -> AwlType:
    """`[T]`, `T?`, `Name` as written; empty text is UNKNOWN."""
    text = (text or "").strip()
    if not text:
        return UNKNOWN
    if text.endswith("?"):
        return optional_of(parse_type_text(text[:-1]))
    if text.startswith("[") and text.endswith("]"):
        return list_of(parse_type_text(text[1:-1]))
    if not text.replace("_", "").isalnum():
        return UNKNOWN
    return named(text)


def parse_type_node(node: Node | None, source: bytes) -> AwlType:
    if node is None:
        return UNKNOWN
    if node.type == "list_type":
        return list_of(parse_type_node(node.child_by_field_name("element"), source))
    if node.type == "optional_type":
        return optional_of(parse_type_node(node.child_by_field_name("inner"), source))
    if node.type == "type_identifier":
        return named(source[node.start_byte : node.end_byte].decode("utf-8", errors="replace"))
    return UNKNOWN


# ---------------------------------------------------------------------- declared types
class TypeTable:
    """Record fields and enum variants by type name (schema types' nested objects get `Outer.field`)."""

    def __init__(self) -> None:
        self.records: dict[str, dict[str, AwlType]] = {}
        self.enums: dict[str, list[str]] = {}

    def known(self, t: AwlType) -> bool:
        """False for UNKNOWN and for names nobody declared (those never take part in a mismatch)."""
        t = t.strip()
        if t.unknown:
            return False
        if t.is_list:
            return t.element is not None and (t.element.unknown or self.known(t.element))
        if t.kind == "named":
            return t.name in self.records or t.name in self.enums
        return True

    def fields(self, t: AwlType) -> dict[str, AwlType] | None:
        t = t.strip()
        return self.records.get(t.name) if t.kind == "named" else None

    def variants(self, t: AwlType) -> list[str] | None:
        t = t.strip()
        return self.enums.get(t.name) if t.kind == "named" else None

    @classmethod
    def build(cls, root: Node, source: bytes, path: Path | None) -> TypeTable:
        table = cls()
        for node in root.named_children:
            if node.type != "type_declaration":
                continue
            name_node, body = node.child_by_field_name("name"), node.child_by_field_name("body")
            if name_node is None or body is None:
                continue
            name = source[name_node.start_byte : name_node.end_byte].decode("utf-8", errors="replace")
            if body.type == "record_body":
                fields: dict[str, AwlType] = {}
                for f in body.named_children:
                    fname = f.child_by_field_name("name") if f.type == "field_declaration" else None
                    if fname is not None:
                        key = source[fname.start_byte : fname.end_byte].decode("utf-8", errors="replace")
                        fields.setdefault(key, parse_type_node(f.child_by_field_name("type"), source))
                table.records.setdefault(name, fields)
            elif body.type == "enum_body":
                table.enums.setdefault(
                    name,
                    [
                        source[v.start_byte : v.end_byte].decode().split("(")[0].strip()
                        for v in body.named_children
                    ],
                )
            else:
                doc = load_schema_body(body, source, path)
                if isinstance(doc, dict):
                    table.from_schema(name, doc, doc)
        return table

    def from_schema(self, name: str, schema: dict, root: dict) -> AwlType:
        """Register the object schema `schema` under `name` (nested objects too); return its type."""
        ref = schema.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/"):
            target: object = root
            for part in ref[2:].split("/"):
                target = target.get(part) if isinstance(target, dict) else None
            if isinstance(target, dict) and target is not schema:
                return self.from_schema(ref.rsplit("/", 1)[-1], target, root)
            return UNKNOWN
        kind = schema.get("type")
        if kind == "object" or (kind is None and "properties" in schema):
            if name in self.records:
                return named(name)
            fields: dict[str, AwlType] = {}
            self.records[name] = fields
            required = schema.get("required") if isinstance(schema.get("required"), list) else []
            props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
            for key, sub in props.items():
                t = self.from_schema(f"{name}.{key}", sub, root) if isinstance(sub, dict) else UNKNOWN
                fields[key] = t if key in required else optional_of(t)
            return named(name)
        if kind == "array":
            items = schema.get("items")
            return list_of(
                self.from_schema(f"{name}.item", items, root) if isinstance(items, dict) else UNKNOWN
            )
        return {"string": STRING, "integer": INT, "number": FLOAT, "boolean": BOOL}.get(str(kind), UNKNOWN)


def schema_file(body: Node, source: bytes, path: Path | None) -> Path | None:
    """The file a `schema("…")` import names, relative to the document's folder."""
    p = body.child_by_field_name("path")
    if p is None or path is None:
        return None
    rel = source[p.start_byte : p.end_byte].decode("utf-8", errors="replace").strip('"')
    return (path.parent / rel) if rel else None


def load_schema_body(body: Node, source: bytes, path: Path | None) -> object:
    """The parsed JSON of an inline `schema { … }` or a readable `schema("…")` file, else None."""
    try:
        if body.type == "schema_body":
            j = body.child_by_field_name("json")
            return json.loads(source[j.start_byte : j.end_byte]) if j is not None else None
        if body.type == "schema_import":
            f = schema_file(body, source, path)
            return json.loads(f.read_text(encoding="utf-8")) if f is not None and f.is_file() else None
    except (ValueError, OSError):
        return None
    return None


# ---------------------------------------------------------------------- inference
def node_at(root: Node, r: Range, types: tuple[str, ...]) -> Node | None:
    """The node of one of `types` that starts where the range `r` starts and contains it."""
    node: Node | None = root.descendant_for_point_range(Point(r[0], r[1]), Point(r[2], r[3]))
    while node is not None and not (node.type in types and node.start_point == (r[0], r[1])):
        node = node.parent
    return node


_LITERALS = {
    "string": STRING,
    "raw_string": STRING,
    "json_literal": STRING,
    "schema_of": STRING,
    "integer": INT,
    "float": FLOAT,
    "duration": DURATION,
    "boolean": BOOL,
    "not_expression": BOOL,
    "is_expression": BOOL,
}


class TypeEnv:
    """Everything inference needs for one document version; results are memoised per node."""

    def __init__(self, model: SemanticModel, tree: Tree, source: bytes, path: Path | None = None) -> None:
        self.model = model
        self.root = tree.root_node
        self.source = source
        self.path = path
        self.table = TypeTable.build(self.root, source, path)
        self.refs = {
            (r.range, r.kind): r for r in model.references if r.kind in (RefKind.VALUE, RefKind.COLLECT)
        }
        self._memo: dict[tuple[int, str], AwlType] = {}
        self._sym_memo: dict[int, AwlType] = {}

    def text(self, node: Node | None) -> str:
        return (
            ""
            if node is None
            else self.source[node.start_byte : node.end_byte].decode("utf-8", errors="replace")
        )

    # ---- names
    def symbol_of(self, ident: Node) -> Symbol | None:
        """What an identifier in an expression resolves to (via the model's references)."""
        s, e = ident.start_point, ident.end_point
        ref = self.refs.get(((s.row, s.column, e.row, e.column), RefKind.VALUE))
        if ref is not None:
            return ref.target
        return self.model.resolve_value(self.text(ident), "", s.row)

    def callable_type(self, name: str) -> AwlType | None:
        """Return type of an action/child/subflow, the record type of a construction, or None."""
        sym = self.model.callable(name)
        if sym is not None:
            if sym.kind is Kind.SUBFLOW:
                outs = [c for c in sym.children if c.kind is Kind.OUTCOME]
                return parse_type_text(outs[0].type) if len(outs) == 1 else UNKNOWN
            return parse_type_text(sym.type) if sym.type else UNKNOWN
        if name in self.table.records:
            return named(name)
        return None

    def type_of_symbol(self, sym: Symbol) -> AwlType:
        key = id(sym)
        if key in self._sym_memo:
            return self._sym_memo[key]
        self._sym_memo[key] = UNKNOWN  # recursion guard (a loop rebinding its own seed)
        t = self._symbol_type(sym)
        self._sym_memo[key] = t
        return t

    def _symbol_type(self, sym: Symbol) -> AwlType:
        k = sym.kind
        if k in (Kind.INPUT, Kind.FIELD, Kind.PARAMETER, Kind.SIGNAL, Kind.OUTCOME, Kind.REPORT):
            return parse_type_text(sym.type)
        if k is Kind.CARRY:
            if sym.type:
                return parse_type_text(sym.type)
            node = node_at(self.root, sym.range, ("carry_clause",))
            return self.infer(node.child_by_field_name("default")) if node is not None else UNKNOWN
        if k is Kind.VARIANT:
            return named(sym.container or "")
        if k is Kind.CONST:
            node = node_at(self.root, sym.range, ("const_declaration",))
            return self.infer(node.child_by_field_name("value")) if node is not None else UNKNOWN
        if k is Kind.BINDING:
            return self._binding_type(sym)
        return UNKNOWN

    def _binding_type(self, sym: Symbol) -> AwlType:
        how = sym.extra.get("how", "")
        if how == "loop counter":
            return INT
        node = node_at(
            self.root,
            sym.range,
            (
                "expression_statement",
                "fork_statement",
                "join_clause",
                "loop_statement",
                "wait_statement",
                "collect_statement",
                "distribute_statement",
                "identifier",
                "spawn_statement",
            ),
        )
        if node is None:
            return UNKNOWN
        if how == "binding" and node.type == "expression_statement":
            return self.infer(node.child_by_field_name("value"))
        if how in ("fork item", "distribute", "sequence"):
            owner = node.parent if node.type == "identifier" else node
            coll = self.infer(owner.child_by_field_name("collection")) if owner is not None else UNKNOWN
            return coll.element if coll.is_list and coll.element is not None else UNKNOWN
        if how == "join" and node.parent is not None and node.parent.type == "fork_statement":
            fork = node.parent
            body = fork.child_by_field_name("body")
            calls = [
                s
                for s in (body.named_children if body is not None else [])
                if s.type == "expression_statement"
            ]
            if fork.child_by_field_name("item") is None or len(calls) != 1:
                return UNKNOWN
            return list_of(self.infer(calls[0].child_by_field_name("value")))
        if how == "loop":
            return self.infer(node.child_by_field_name("seed"))
        if how == "wait":
            sig = self.model.first(Kind.SIGNAL, self.text(node.child_by_field_name("signal")))
            t = parse_type_text(sig.type) if sig is not None else UNKNOWN
            return optional_of(t) if node.child_by_field_name("timeout") is not None else t
        if how == "collect":
            value = node.child_by_field_name("value")
            if value is None:
                return UNKNOWN
            s, e = value.start_point, value.end_point
            ref = self.refs.get(((s.row, s.column, e.row, e.column), RefKind.COLLECT))
            t = self.type_of_symbol(ref.target) if ref is not None and ref.target is not None else UNKNOWN
            return list_of(optional_of(t) if node.child_by_field_name("tolerant") is not None else t)
        return UNKNOWN

    # ---- expressions
    def field_type(self, base: AwlType, name: str) -> AwlType | None:
        """The type of field `name` of `base`; None when `base` is a known type without it."""
        fields = self.table.fields(base)
        if fields is None:
            return UNKNOWN if not self.table.known(base) or base.strip().kind == "named" else None
        return fields.get(name)

    def infer(self, node: Node | None, item: AwlType | None = None) -> AwlType:
        if node is None:
            return UNKNOWN
        key = (node.id, str(item) if item is not None else "")
        if key not in self._memo:
            self._memo[key] = UNKNOWN
            self._memo[key] = self._infer(node, item)
        return self._memo[key]

    def _infer(self, node: Node, item: AwlType | None) -> AwlType:
        t = node.type
        if t in _LITERALS:
            return _LITERALS[t]
        if t == "identifier":
            sym = self.symbol_of(node)
            if sym is not None:
                return self.type_of_symbol(sym)
            return INT if self.text(node) == "visits" else UNKNOWN
        if t == "parenthesized_expression":
            return self.infer(node.named_children[0], item) if node.named_children else UNKNOWN
        if t == "field_expression":
            ft = self.field_type(
                self.infer(node.child_by_field_name("value"), item),
                self.text(node.child_by_field_name("field")),
            )
            return ft or UNKNOWN
        if t == "relative_field":
            if item is None:
                return UNKNOWN
            return self.field_type(item, self.text(node.child_by_field_name("field"))) or UNKNOWN
        if t == "index_expression":
            base = self.infer(node.child_by_field_name("value"), item).strip()
            return base.element if base.is_list and base.element is not None else UNKNOWN
        if t == "call_expression":
            return self.callable_type(self.text(node.child_by_field_name("function"))) or UNKNOWN
        if t == "pipe_expression":
            return self.stage_type(
                self.infer(node.child_by_field_name("input"), item), node.child_by_field_name("stage")
            )
        if t == "binary_expression":
            op = self.text(node.child_by_field_name("operator"))
            if op != "+":
                return BOOL
            left = self.infer(node.child_by_field_name("left"), item)
            right = self.infer(node.child_by_field_name("right"), item)
            return left if left.is_list else STRING if STRING in (left, right) else left
        if t == "workflow_builtin":
            return STRING if self.text(node.child_by_field_name("field")) == "id" else UNKNOWN
        if t == "list":
            elems = [self.infer(c, item) for c in node.named_children]
            known = [e for e in elems if not e.unknown]
            return list_of(known[0] if known else UNKNOWN)
        return UNKNOWN

    def stage_type(self, input_type: AwlType, stage: Node | None) -> AwlType:
        """What a pipe stage produces from `input_type`."""
        if stage is None:
            return UNKNOWN
        if stage.type == "identifier":
            return self.callable_type(self.text(stage)) or UNKNOWN
        if stage.type == "relative_field":
            return self.field_type(input_type, self.text(stage.child_by_field_name("field"))) or UNKNOWN
        if stage.type == "combinator":
            name = self.text(stage.child_by_field_name("name")) or self.text(stage.children[0])
            if name in ("filter", "sort"):
                return input_type
            if name == "count":
                return INT
            if name in ("any", "all"):
                return BOOL
            if name == "map":
                elem = element_of(input_type)
                return list_of(self.infer(stage.child_by_field_name("argument"), elem or UNKNOWN))
        return UNKNOWN

    def fields_of_type(self, t: AwlType) -> dict[str, AwlType]:
        return dict(self.table.fields(t) or {})


def element_of(t: AwlType) -> AwlType | None:
    t = t.strip()
    return t.element if t.is_list else None


def assignable(src: AwlType, dst: AwlType, table: TypeTable) -> bool:
    """Can a value of `src` go where `dst` is expected? Optionality is checked separately (guards)."""
    src, dst = src.strip(), dst.strip()
    if not table.known(src) or not table.known(dst):
        return True
    if dst.is_list or src.is_list:
        if not (dst.is_list and src.is_list) or src.element is None or dst.element is None:
            return False
        return src.element.unknown or assignable(src.element, dst.element, table)
    if src == dst or (src == INT and dst == FLOAT):
        return True
    return False


def type_of_symbol(sym: Symbol, env: TypeEnv) -> AwlType:
    """Hover/completion helper: the type of a declared or bound name."""
    return env.type_of_symbol(sym)


def fields_of_type(t: AwlType, env: TypeEnv) -> dict[str, AwlType]:
    """Completion helper for `x.`: field name → type (empty when `t` is not a record)."""
    return env.fields_of_type(t)
