"""Reads one top-level item of the tree into symbols and references (no cross-item resolution).

`extract_item` is a pure function of the item's subtree, so the model caches its result by the
item's text and only re-extracts the items an edit touched.
"""

from __future__ import annotations

from sys import intern

from tree_sitter import Node

from awl_lsp.model.extract_body import BodyExtractor, kind_number
from awl_lsp.model.facts import ItemFacts
from awl_lsp.model.symbols import Kind, Range, Reference, RefKind, Symbol
from awl_lsp.syntax import fields as F

# enum members read once (a member read through its class is a Python-level call on 3.11)
_K_ACTION = Kind.ACTION
_K_CARRY = Kind.CARRY
_K_CHILD = Kind.CHILD
_K_CONST = Kind.CONST
_K_DETACHED = Kind.DETACHED
_K_FIELD = Kind.FIELD
_K_INPUT = Kind.INPUT
_K_INVARIANT = Kind.INVARIANT
_K_OUTCOME = Kind.OUTCOME
_K_PARAMETER = Kind.PARAMETER
_K_REPORT = Kind.REPORT
_K_RETIRE = Kind.RETIRE
_K_SIGNAL = Kind.SIGNAL
_K_SUBFLOW = Kind.SUBFLOW
_K_TYPE = Kind.TYPE
_K_VARIANT = Kind.VARIANT
_K_WORKER = Kind.WORKER
_K_WORKFLOW = Kind.WORKFLOW
_K_WORKLOOP = Kind.WORKLOOP
_R_ROUTE = RefKind.ROUTE
_R_SIGNAL = RefKind.SIGNAL
_R_TYPE = RefKind.TYPE

# the top-level items with a reader below (`_<type>`); the checker asks the same of a declaration
ITEM_TYPES = frozenset(
    {
        "workflow_declaration",
        "workloop_declaration",
        "const_declaration",
        "type_declaration",
        "worker_declaration",
        "child_declaration",
        "detached_declaration",
        "subflow_declaration",
        "step_declaration",
        "retire_block",
    }
)


# node types by number (`node.kind_id`): no string made per node asked
_TYPE_IDENTIFIER = kind_number("type_identifier")
_FIELD_DECLARATION = kind_number("field_declaration")
_PARAMETER = kind_number("parameter")
_ACTION_DECLARATION = kind_number("action_declaration")


def node_range(node: Node) -> Range:
    return node.start_point + node.end_point  # (two `Point` tuples make the plain 4-tuple)


_new = object.__new__


class _Extractor(BodyExtractor):
    def __init__(self, source: bytes, docs: dict[int, str]) -> None:
        self.source = source
        self.docs = docs  # row of a declaration -> its `///` text
        self.facts = ItemFacts.fresh()
        self.anchor = self.facts.anchor
        self.by_kind: dict[RefKind, list[Reference]] = {}  # the references filed by kind, as read

    def text(self, node: Node | None) -> str:
        if node is None:
            return ""
        return self.source[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def doc_for(self, node: Node) -> str:
        return self.docs.get(node.start_point.row, "")

    def symbol(
        self,
        kind: Kind,
        node: Node,
        name_node: Node | None,
        detail: str = "",
        type: str | None = None,  # noqa: A002 — the field's name
        container: str | None = None,
        scope: str = "",
    ) -> Symbol | None:
        if name_node is None:
            return None
        # names interned: the same name is read by many references and in many open documents
        name = intern(self.source[name_node.start_byte : name_node.end_byte].decode("utf-8", "replace"))
        s = node.start_point
        # (what the dataclass constructor and a move onto the item's anchor do, without calling the
        # range property's setter: the ranges are stored as read, `_at` is the item's anchor)
        sym = _new(Symbol)
        sym.kind = kind
        sym.name = name
        sym._range = s + node.end_point  # type: ignore[attr-defined]
        sym._selection = name_node.start_point + name_node.end_point  # type: ignore[attr-defined]
        sym.detail = detail
        docs = self.docs
        sym.doc = docs.get(s[0], "") if docs else ""  # (most items have no doc line: no look-up)
        sym.type = type
        sym.container = container
        sym.scope = scope
        sym.children = []
        sym.extra = {}
        sym._at = self.anchor  # type: ignore[attr-defined]
        self.facts.flat.append(sym)
        return sym

    def ref(self, kind: RefKind, node: Node | None, scope: str = "", context: str = "") -> str | None:
        """Note a reference to the name `node` holds; that name (the node's text)."""
        if node is None:
            return None
        ref = _new(Reference)  # (as in `symbol`)
        ref.kind = kind
        ref.name = name = intern(self.source[node.start_byte : node.end_byte].decode("utf-8", "replace"))
        ref._range = node.start_point + node.end_point  # type: ignore[attr-defined]
        ref.scope = scope
        ref.context = context
        ref.target = None
        ref._at = self.anchor  # type: ignore[attr-defined]
        self.facts.references.append(ref)
        same = self.by_kind.get(kind)  # (what `ItemFacts.references_of` would file, filed as it is read)
        if same is None:
            self.by_kind[kind] = [ref]
        else:
            same.append(ref)
        return name

    def signature(self, node: Node) -> str:
        """The declaration's first line as written (without its indented config)."""
        start, end = node.start_byte, node.end_byte
        newline = self.source.find(b"\n", start, end)  # (only the first line is decoded)
        text = self.source[start : end if newline < 0 else newline].decode("utf-8", "replace").strip()
        return " ".join(text.split())

    # ------------------------------------------------------------------ types
    def type_refs(self, node: Node | None) -> None:
        if node is None:
            return
        if node.kind_id == _TYPE_IDENTIFIER:
            self.ref(_R_TYPE, node)
            return
        for child in node.named_children:
            self.type_refs(child)

    def type_text(self, node: Node) -> str:
        """`type_refs(node)`, and the type as written (`text(node)`: a plain type's name is its text)."""
        if node.kind_id == _TYPE_IDENTIFIER:
            name = self.ref(_R_TYPE, node)
            assert name is not None
            return name
        for child in node.named_children:
            self.type_refs(child)
        return self.text(node)

    # ------------------------------------------------------------------ items
    def item(self, node: Node) -> None:
        if node.type in ITEM_TYPES:  # (not any node type: a broken text may put `parameters` here)
            getattr(self, "_" + node.type)(node)

    def _workflow_declaration(self, node: Node, kind: Kind = _K_WORKFLOW) -> None:
        sym = self.symbol(
            kind,
            node,
            node.child_by_field_id(F.NAME),
            detail=f"{kind.value} {self.text(node.child_by_field_id(F.NAME))}",
        )
        if sym is None:
            return
        self.facts.symbols.append(sym)
        header = node.child_by_field_id(F.HEADER)
        if header is None:
            return
        for clause in header.named_children:
            child = self.header_clause(clause, sym.name)
            if child is not None:
                sym.children.append(child)

    def _workloop_declaration(self, node: Node) -> None:
        self._workflow_declaration(node, _K_WORKLOOP)

    def header_clause(self, clause: Node, container: str) -> Symbol | None:
        t = clause.type
        name = clause.child_by_field_id(F.NAME)
        type_node = clause.child_by_field_id(F.TYPE)
        type_text = self.type_text(type_node) if type_node is not None else None
        kinds = {
            "input_clause": _K_INPUT,
            "signal_clause": _K_SIGNAL,
            "outcome_clause": _K_OUTCOME,
            "carry_clause": _K_CARRY,
            "report_clause": _K_REPORT,
            "invariant_clause": _K_INVARIANT,
        }
        if t == "on_clause":
            self.ref(_R_SIGNAL, clause.child_by_field_id(F.SIGNAL))
            return None
        if t == "invariant_clause":
            for sub in clause.named_children:
                if sub.type == "confirms_clause":
                    target = sub.child_by_field_id(F.TARGET)
                    if (
                        target is not None
                        and target.named_children
                        and target.named_children[0].type == "identifier"
                    ):
                        self.ref(_R_ROUTE, target.named_children[0])
        if t == "carry_clause":
            self.values(clause.child_by_field_id(F.DEFAULT), "")
        kind = kinds.get(t)
        if kind is None:
            return None
        sym = self.symbol(
            kind, clause, name, detail=self.signature(clause), type=type_text, container=container
        )
        if sym is not None and t == "outcome_clause":
            route = clause.child_by_field_id(F.ROUTE)
            if route is not None:
                sym.extra["route"] = self.text(route)
        return sym

    def _const_declaration(self, node: Node) -> None:
        sym = self.symbol(_K_CONST, node, node.child_by_field_id(F.NAME), detail=self.signature(node))
        if sym is not None:
            self.facts.symbols.append(sym)
        self.values(node.child_by_field_id(F.VALUE), "")

    def _type_declaration(self, node: Node) -> None:
        sym = self.symbol(_K_TYPE, node, node.child_by_field_id(F.NAME))
        if sym is None:
            return
        self.facts.symbols.append(sym)
        body = node.child_by_field_id(F.BODY)
        sym.detail = f"type {sym.name}"
        if body is None:
            return
        sym.extra["form"] = body.type
        if body.type == "record_body":
            for f in body.named_children:
                if f.kind_id != _FIELD_DECLARATION:
                    continue
                type_node = f.child_by_field_id(F.TYPE)
                child = self.symbol(
                    _K_FIELD,
                    f,
                    f.child_by_field_id(F.NAME),
                    type=self.type_text(type_node) if type_node is not None else "",
                    container=sym.name,
                )
                if child is not None:
                    child.detail = f"{child.name}: {child.type}"
                    sym.children.append(child)
        elif body.type == "enum_body":
            for v in body.named_children:
                child = self.symbol(_K_VARIANT, v, v.child_by_field_id(F.NAME), container=sym.name)
                if child is not None:
                    child.detail = f"{sym.name}.{child.name}"
                    sym.children.append(child)
            sym.detail = f"type {sym.name} = " + " | ".join(c.name for c in sym.children)
        elif body.type == "schema_import":
            sym.detail = f"type {sym.name} = {self.text(body)}"
            sym.extra["schema_path"] = self.text(body.child_by_field_id(F.PATH)).strip('"')
        elif body.type == "schema_body":
            sym.detail = f"type {sym.name} = schema {{ … }}"

    def _parameters(self, params: Node | None, container: str, scope: str) -> list[Symbol]:
        out: list[Symbol] = []
        if params is None:
            return out
        for p in params.named_children:
            if p.kind_id != _PARAMETER:
                continue
            type_node = p.child_by_field_id(F.TYPE)
            sym = self.symbol(
                _K_PARAMETER,
                p,
                p.child_by_field_id(F.NAME),
                type=(self.type_text(type_node) or None) if type_node is not None else None,
                container=container,
                scope=scope,
            )
            if sym is not None:
                sym.detail = f"{sym.name}: {sym.type}" if sym.type else sym.name
                out.append(sym)
        return out

    def callable(self, kind: Kind, node: Node, container: str | None = None) -> Symbol | None:
        sym = self.symbol(
            kind, node, node.child_by_field_id(F.NAME), detail=self.signature(node), container=container
        )
        if sym is None:
            return None
        rt = node.child_by_field_id(F.RETURN_TYPE)
        sym.type = self.type_text(rt) if rt is not None else None
        sym.children.extend(
            self._parameters(node.child_by_field_id(F.PARAMETERS), sym.name, f"params:{sym.name}")
        )
        return sym

    def _worker_declaration(self, node: Node) -> None:
        sym = self.symbol(_K_WORKER, node, node.child_by_field_id(F.NAME))
        if sym is None:
            return
        sym.detail = f"worker {sym.name}"
        self.facts.symbols.append(sym)
        actions = [a for a in node.named_children if a.kind_id == _ACTION_DECLARATION]
        while actions:  # an action indented under another (a syntax problem) is still the worker's
            a = actions.pop(0)
            actions[:0] = [n for n in a.named_children if n.kind_id == _ACTION_DECLARATION]
            child = self.callable(_K_ACTION, a, container=sym.name)
            if child is not None:
                sym.children.append(child)

    def _child_declaration(self, node: Node) -> None:
        sym = self.callable(_K_CHILD, node)
        if sym is not None:
            self.facts.symbols.append(sym)

    def _detached_declaration(self, node: Node) -> None:
        sym = self.callable(_K_DETACHED, node)
        if sym is not None:
            self.facts.symbols.append(sym)

    def _subflow_declaration(self, node: Node) -> None:
        sym = self.callable(_K_SUBFLOW, node)
        if sym is None:
            return
        self.facts.symbols.append(sym)
        scope = f"subflow:{sym.name}"
        for p in sym.children:
            p.scope = scope
        for child in node.named_children:
            if child.type == "outcome_clause":
                out = self.header_clause(child, sym.name)
                if out is not None:
                    out.scope = scope
                    sym.children.append(out)
            elif child.type == "step_declaration":
                step = self.step(child, scope, sym.name)
                if step is not None:
                    sym.children.append(step)

    def _step_declaration(self, node: Node) -> None:
        sym = self.step(node, "", None)
        if sym is not None:
            self.facts.symbols.append(sym)

    def _retire_block(self, node: Node) -> None:
        sym = Symbol(
            _K_RETIRE,
            "retire",
            node_range(node),
            node_range(node.children[0]),
            detail="retire",
            doc=self.doc_for(node),
        )
        sym._at = self.anchor  # type: ignore[attr-defined]
        self.facts.flat.append(sym)
        self.facts.symbols.append(sym)
        body = node.child_by_field_id(F.BODY)
        if body is not None:
            self.statements(body, "", sym)


def extract_item(node: Node, source: bytes, docs: dict[int, str]) -> ItemFacts:
    extractor = _Extractor(source, docs)
    facts = extractor.facts
    start = node.start_point
    # (the anchor has not moved: the rows are stored as they are, see `facts._anchored_row`)
    facts._start_row, facts._end_row = start.row, node.end_point.row  # type: ignore[attr-defined]
    facts.start_col = start.column
    extractor.item(node)
    facts._kinds = extractor.by_kind
    return facts  # (every symbol and reference was made on the facts' anchor)


__all__ = ["ItemFacts", "extract_item", "node_range"]
