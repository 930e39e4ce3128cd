"""Type inference for AWL: `TypeEnv.infer` for expressions, and the type vocabulary re-exported.

Types come from type text (`[T]`, `T?`, builtins, declared records and enums), from JSON Schema
(`type X = schema("path")` beside the document, or an inline `schema { … }` body — see
`awl_lsp.model.schema_types`), and from what bound a name (call results, pipes, fork joins, loops,
waits, collects, distributes). Anything the inference cannot know is `UNKNOWN`, which fits
everywhere — checks never report on it.
"""

from __future__ import annotations

from pathlib import Path

from tree_sitter import Node, Tree

from awl_lsp.model.facts import ItemFacts
from awl_lsp.model.index import SemanticModel
from awl_lsp.model.item_focus import ItemFocus
from awl_lsp.model.schema_types import ItemTypes, TypeTable, item_types, load_schema_body, schema_file
from awl_lsp.model.symbols import Kind, Range, Reference, RefKind, Symbol
from awl_lsp.model.type_base import (
    BOOL,
    DIR,
    DURATION,
    FLOAT,
    INT,
    NIL,
    STRING,
    UNKNOWN,
    AwlType,
    element_of,
    list_of,
    named,
    optional_of,
    parse_type_node,
    parse_type_text,
)
from awl_lsp.syntax import fields as F

# Kinds as module constants: on this Python (3.11) reading an Enum member through its class is a
# Python-level descriptor call, and inference asks about a kind at every name.
_DECLARED = (
    Kind.INPUT,
    Kind.FIELD,
    Kind.PARAMETER,
    Kind.SIGNAL,
    Kind.OUTCOME,
    Kind.REPORT,
)  # typed as written
_CARRY, _VARIANT, _CONST, _BINDING = Kind.CARRY, Kind.VARIANT, Kind.CONST, Kind.BINDING
_SUBFLOW, _OUTCOME, _SIGNAL, _PARAMETER = Kind.SUBFLOW, Kind.OUTCOME, Kind.SIGNAL, Kind.PARAMETER
_VALUE_REF, _COLLECT_REF = RefKind.VALUE, RefKind.COLLECT


# ---------------------------------------------------------------------- inference
def node_at(root: Node, r: Range, types: tuple[str, ...]) -> Node | None:
    """The node of one of `types` that starts where the range `r` starts and contains it."""
    start = (r[0], r[1])
    node: Node | None = root.descendant_for_point_range(start, (r[2], r[3]))
    while node is not None and not (node.type in types and node.start_point == start):
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

    def __init__(
        self,
        model: SemanticModel,
        tree: Tree,
        source: bytes,
        path: Path | None = None,
        table: TypeTable | None = None,
        workspace: Path | None = None,
    ) -> None:
        self.model = model
        self.root = tree.root_node
        self.source = source
        self.path = path
        self.table = table if table is not None else TypeTable.build(self.root, source, path, workspace)
        self.deps: set[str] | None = None  # when a set: every name looked up goes in (the check cache)
        self._memo: dict[int, AwlType] = {}  # node id -> its type
        self._item_memo: dict[tuple[int, str], AwlType] = {}  # (node id, item type) -> the type
        self._sym_memo: dict[int, AwlType] = {}
        self._param_memo: dict[int, tuple[Symbol, dict[str, AwlType]]] = {}  # by callable: its parameters
        self._focus: ItemFocus | None = None  # the item being checked (see `focus`)

    def reset(self, deps: set[str] | None = None) -> None:
        """Forget memoised results and record look-ups into `deps` from now on (one item's check)."""
        self._memo.clear()
        self._item_memo.clear()
        self._sym_memo.clear()
        self.deps = deps
        self.table.deps = deps
        self._focus = None  # (see `focus`)

    def focus(self, item: Node | None, facts: ItemFacts | None) -> None:
        """Look references and declaring nodes inside `item` (the top-level item being checked,
        `facts` its facts) up in the item itself (see `ItemFocus`), until the next `reset`."""
        self._focus = ItemFocus(item, facts) if item is not None and facts is not None else None

    def _node_of(self, sym: Symbol, types: tuple[str, ...]) -> Node | None:
        """The node of one of `types` that declares `sym` (see `node_at`): searched from the
        focused item when it holds the symbol, else from the root."""
        r = sym.range
        focus = self._focus
        return node_at(focus.node if focus is not None and focus.holds(r) else self.root, r, types)

    def reference(self, node: Node, kind: RefKind) -> Reference | None:
        """The reference of `kind` at exactly `node` (None when there is none)."""
        focus = self._focus
        if focus is not None and focus.start_byte <= node.start_byte and node.end_byte <= focus.end_byte:
            return focus.reference(node, kind)
        return self.model.reference_with(node.start_point + node.end_point, kind)

    def _ref(self, node: Node, kind: RefKind) -> Reference | None:
        ref = self.reference(node, kind)
        if ref is None:
            return None
        if self.deps is not None:
            self.deps.add(ref.name)
        return ref

    def text(self, node: Node | None) -> str:
        return "" if node is None else self.source[node.start_byte : node.end_byte].decode("utf-8", "replace")

    # ---- names
    def symbol_of(self, ident: Node) -> Symbol | None:
        """What an identifier in an expression resolves to (via the model's references)."""
        ref = self.reference(ident, _VALUE_REF)
        deps = self.deps
        if ref is not None:
            if deps is not None:
                deps.add(ref.name)
            return ref.target
        name = self.text(ident)
        if deps is not None:
            deps.add(name)
        return self.model.resolve_value(name, "", ident.start_point.row)

    def callable_type(self, name: str) -> AwlType | None:
        """Return type of an action/child/subflow, the record type of a construction, or None."""
        if self.deps is not None:
            self.deps.add(name)
        sym = self.model.callable(name)
        if sym is not None:
            if sym.kind is _SUBFLOW:
                outs = [c for c in sym.children if c.kind is _OUTCOME]
                return parse_type_text(outs[0].type) if len(outs) == 1 else UNKNOWN
            return parse_type_text(sym.type) if sym.type else UNKNOWN
        if self.table.record_fields(name) is not None:
            return named(name)
        return None

    def parameter_types(self, sym: Symbol) -> dict[str, AwlType]:
        """Parameter name -> declared type, of a callable (read from its symbol once per env: no
        look-up of other names, so nothing to record; the result is shared, not to be changed)."""
        found = self._param_memo.get(id(sym))
        if found is None or found[0] is not sym:
            params = {c.name: parse_type_text(c.type) for c in sym.children if c.kind is _PARAMETER}
            found = self._param_memo[id(sym)] = (sym, params)  # (`model.parameters_of`, without a call)
        return found[1]

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
        if k in _DECLARED:
            return parse_type_text(sym.type)
        if k is _CARRY:
            if sym.type:
                return parse_type_text(sym.type)
            node = self._node_of(sym, ("carry_clause",))
            return self.infer(node.child_by_field_id(F.DEFAULT)) if node is not None else UNKNOWN
        if k is _VARIANT:
            return named(sym.container or "")
        if k is _CONST:
            node = self._node_of(sym, ("const_declaration",))
            return self.infer(node.child_by_field_id(F.VALUE)) if node is not None else UNKNOWN
        if k is _BINDING:
            return self._binding_type(sym)
        return UNKNOWN

    def _binding_type(self, sym: Symbol) -> AwlType:
        how = sym.extra.get("how", "")
        if how == "loop counter":
            return INT
        node = self._node_of(
            sym,
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
            return self.infer(node.child_by_field_id(F.VALUE))
        if how in ("fork item", "distribute", "sequence"):
            owner = node.parent if node.type == "identifier" else node
            coll = self.infer(owner.child_by_field_id(F.COLLECTION)) if owner is not None else UNKNOWN
            return coll.element if coll.is_list and coll.element is not None else UNKNOWN
        if how == "join" and node.parent is not None and node.parent.type == "fork_statement":
            fork = node.parent
            body = fork.child_by_field_id(F.BODY)
            calls = [
                s
                for s in (body.named_children if body is not None else [])
                if s.type == "expression_statement"
            ]
            if fork.child_by_field_id(F.ITEM) is None or len(calls) != 1:
                return UNKNOWN
            return list_of(self.infer(calls[0].child_by_field_id(F.VALUE)))
        if how == "loop":
            return self.infer(node.child_by_field_id(F.SEED))
        if how == "wait":
            signal = self.text(node.child_by_field_id(F.SIGNAL))
            if self.deps is not None:
                self.deps.add(signal)
            sig = self.model.first(_SIGNAL, signal)
            t = parse_type_text(sig.type) if sig is not None else UNKNOWN
            return optional_of(t) if node.child_by_field_id(F.TIMEOUT) is not None else t
        if how == "collect":
            value = node.child_by_field_id(F.VALUE)
            if value is None:
                return UNKNOWN
            ref = self._ref(value, _COLLECT_REF)
            t = self.type_of_symbol(ref.target) if ref is not None and ref.target is not None else UNKNOWN
            return list_of(optional_of(t) if node.child_by_field_id(F.TOLERANT) is not None else t)
        return UNKNOWN

    # ---- expressions
    def field_type(self, base: AwlType, name: str) -> AwlType | None:
        """The type of field `name` of `base`; None when `base` is a known type without it
        (a builtin or an enum: neither has fields)."""
        fields = self.table.fields(base)
        if fields is None:
            if not self.table.known(base):
                return UNKNOWN
            return UNKNOWN if base.strip().kind == "named" and self.table.variants(base) is None else None
        return fields.get(name)

    def infer(self, node: Node | None, item: AwlType | None = None) -> AwlType:
        if node is None:
            return UNKNOWN
        if item is None:  # (the usual question: keyed by the node alone)
            memo = self._memo
            key = node.id
            found = memo.get(key)
            if found is None:
                memo[key] = UNKNOWN  # (a recursion guard)
                found = memo[key] = self._infer(node, None)
            return found
        item_memo = self._item_memo
        item_key = (node.id, str(item))
        found = item_memo.get(item_key)
        if found is None:
            item_memo[item_key] = UNKNOWN
            found = item_memo[item_key] = self._infer(node, item)
        return found

    def _infer(self, node: Node, item: AwlType | None) -> AwlType:
        t = node.type
        if t == "identifier":
            sym = self.symbol_of(node)
            if sym is not None:
                typed = self._sym_memo.get(id(sym))  # (`type_of_symbol`'s memo, asked here first)
                return typed if typed is not None else self.type_of_symbol(sym)
            return INT if self.text(node) == "visits" else UNKNOWN
        literal = _LITERALS.get(t)
        if literal is not None:
            return literal
        if t == "parenthesized_expression":
            return self.infer(node.named_children[0], item) if node.named_children else UNKNOWN
        if t == "field_expression":
            ft = self.field_type(
                self.infer(node.child_by_field_id(F.VALUE), item),
                self.text(node.child_by_field_id(F.FIELD)),
            )
            return ft or UNKNOWN
        if t == "relative_field":
            if item is None:
                return UNKNOWN
            return self.field_type(item, self.text(node.child_by_field_id(F.FIELD))) or UNKNOWN
        if t == "index_expression":
            base = self.infer(node.child_by_field_id(F.VALUE), item).strip()
            return base.element if base.is_list and base.element is not None else UNKNOWN
        if t == "call_expression":
            return self.callable_type(self.text(node.child_by_field_id(F.FUNCTION))) or UNKNOWN
        if t == "pipe_expression":
            return self.stage_type(
                self.infer(node.child_by_field_id(F.INPUT), item), node.child_by_field_id(F.STAGE)
            )
        if t == "binary_expression":
            op = self.text(node.child_by_field_id(F.OPERATOR))
            if op != "+":
                return BOOL
            left = self.infer(node.child_by_field_id(F.LEFT), item)
            right = self.infer(node.child_by_field_id(F.RIGHT), item)
            return left if left.is_list else STRING if STRING in (left, right) else left
        if t == "workflow_builtin":
            return STRING if self.text(node.child_by_field_id(F.FIELD)) == "id" else UNKNOWN
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
            return self.field_type(input_type, self.text(stage.child_by_field_id(F.FIELD))) or UNKNOWN
        if stage.type == "combinator":
            name = self.text(stage.child_by_field_id(F.NAME)) or self.text(stage.children[0])
            if name in ("filter", "sort"):
                return input_type
            if name == "count":
                return INT
            if name in ("any", "all"):
                return BOOL
            if name == "map":
                elem = element_of(input_type)
                return list_of(self.infer(stage.child_by_field_id(F.ARGUMENT), elem or UNKNOWN))
        return UNKNOWN

    def fields_of_type(self, t: AwlType) -> dict[str, AwlType]:
        return dict(self.table.fields(t) or {})


def assignable(src: AwlType, dst: AwlType, table: TypeTable) -> bool:
    """Can a value of `src` go where `dst` is expected? Optionality is checked separately (guards)."""
    if src is dst:  # (the usual answer, whatever the table knows)
        return True
    src, dst = src.strip(), dst.strip()
    if src == dst:
        return True
    if not table.known(src) or not table.known(dst):
        return True
    if dst.is_list or src.is_list:
        if not (dst.is_list and src.is_list) or src.element is None or dst.element is None:
            return False
        if src.element.is_optional and not dst.element.is_optional and not dst.element.unknown:
            return False  # `collect x? -> xs` gathers [T?]: its holes do not fit a [T]
        return src.element.unknown or assignable(src.element, dst.element, table)
    # no widening (the engine refuses an Int where a Float goes); records and enums match by shape
    return src == dst or table.same_shape(src, dst)


def type_of_symbol(sym: Symbol, env: TypeEnv) -> AwlType:
    """Hover/completion helper: the type of a declared or bound name."""
    return env.type_of_symbol(sym)


def fields_of_type(t: AwlType, env: TypeEnv) -> dict[str, AwlType]:
    """Completion helper for `x.`: field name → type (empty when `t` is not a record)."""
    return env.fields_of_type(t)


__all__ = [
    "BOOL",
    "DIR",
    "DURATION",
    "FLOAT",
    "INT",
    "NIL",
    "STRING",
    "UNKNOWN",
    "AwlType",
    "ItemTypes",
    "TypeEnv",
    "TypeTable",
    "assignable",
    "element_of",
    "fields_of_type",
    "item_types",
    "list_of",
    "load_schema_body",
    "named",
    "node_at",
    "optional_of",
    "parse_type_node",
    "parse_type_text",
    "schema_file",
    "type_of_symbol",
]
