"""The semantic index of one AWL document: declarations, scopes and resolved references.

`ModelBuilder` keeps the facts of each top-level item keyed by the item's text (and the doc lines
above it). On every update only items whose text changed are re-read from the tree; items that
merely moved are shifted. Resolution (linking references to declarations) then runs over the whole
document, which is dictionary look-ups only.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict

from tree_sitter import Node, Query, QueryCursor, Tree

from awl_lsp.model.extract import ItemFacts, extract_item
from awl_lsp.model.symbols import CALLABLE_KINDS, Kind, Reference, RefKind, Symbol, contains
from awl_lsp.syntax.parser import LANGUAGE

BUILTIN_TYPES = ("Bool", "Int", "Float", "String", "Nil", "Dir")

_DOC_QUERY = Query(LANGUAGE, "(doc_comment) @doc")


def _doc_map(root: Node, source: bytes, start: int, end: int) -> dict[int, str]:
    """Map a declaration's row to the `///` lines right above it, for docs in [start, end)."""
    cursor = QueryCursor(_DOC_QUERY)
    cursor.set_byte_range(start, end)
    lines: dict[int, str] = {}
    for _, captures in cursor.matches(root):
        for node in captures.get("doc", []):
            text = source[node.start_byte : node.end_byte].decode("utf-8", errors="replace")
            lines[node.start_point.row] = text.rstrip("\r\n")[3:].strip()
    out: dict[int, str] = {}
    for row in sorted(lines):
        if row + 1 in lines:
            continue
        block = [lines[row]]
        r = row - 1
        while r in lines:
            block.append(lines[r])
            r -= 1
        out[row + 1] = "\n".join(reversed(block))
    return out


class SemanticModel:
    """Everything the features need to know about one document, without the tree."""

    def __init__(self, items: list[ItemFacts]) -> None:
        self.symbols: list[Symbol] = [s for item in items for s in item.symbols]
        self.all_symbols: list[Symbol] = [s for item in items for s in item.flat]
        self.references: list[Reference] = [r for item in items for r in item.references]
        self.flow: Symbol | None = next(
            (s for s in self.symbols if s.kind in (Kind.WORKFLOW, Kind.WORKLOOP)), None
        )
        self.is_workloop = self.flow is not None and self.flow.kind is Kind.WORKLOOP
        self._by_kind: dict[Kind, dict[str, list[Symbol]]] = defaultdict(lambda: defaultdict(list))
        for s in self.all_symbols:
            self._by_kind[s.kind][s.name].append(s)
        self._bindings_by_name: dict[str, list[Symbol]] = defaultdict(list)
        for s in self.all_symbols:
            if s.kind in (Kind.BINDING, Kind.PARAMETER):
                self._bindings_by_name[s.name].append(s)
        self._ref_rows = sorted(range(len(self.references)), key=lambda i: self.references[i].range[:2])
        self._ref_starts = [self.references[i].range[:2] for i in self._ref_rows]
        for ref in self.references:
            ref.target = self._resolve(ref)

    # ------------------------------------------------------------------ look-ups
    def lookup(self, kind: Kind, name: str) -> list[Symbol]:
        return list(self._by_kind.get(kind, {}).get(name, []))

    def names(self, kind: Kind) -> list[str]:
        return list(self._by_kind.get(kind, {}).keys())

    def of_kind(self, *kinds: Kind) -> list[Symbol]:
        return [s for s in self.all_symbols if s.kind in kinds]

    def first(self, kind: Kind, name: str, scope: str | None = None) -> Symbol | None:
        found = self._by_kind.get(kind, {}).get(name, [])
        if scope is not None:
            scoped = [s for s in found if s.scope == scope]
            if scoped:
                return scoped[0]
        return found[0] if found else None

    def type_symbol(self, name: str) -> Symbol | None:
        return self.first(Kind.TYPE, name)

    def fields_of(self, type_name: str | None) -> list[Symbol]:
        if not type_name:
            return []
        sym = self.type_symbol(type_name.rstrip("?"))
        return [c for c in sym.children if c.kind is Kind.FIELD] if sym else []

    def callable(self, name: str) -> Symbol | None:
        for kind in (Kind.ACTION, Kind.CHILD, Kind.SUBFLOW):
            found = self.first(kind, name)
            if found is not None:
                return found
        return None

    def parameters_of(self, sym: Symbol | None) -> list[Symbol]:
        return [c for c in sym.children if c.kind is Kind.PARAMETER] if sym else []

    def symbol_at(self, row: int, col: int) -> Symbol | None:
        for s in self.all_symbols:
            if contains(s.selection, row, col):
                return s
        return None

    def reference_at(self, row: int, col: int) -> Reference | None:
        i = bisect_right(self._ref_starts, (row, col)) - 1
        while i >= 0:
            ref = self.references[self._ref_rows[i]]
            if contains(ref.range, row, col):
                return ref
            if ref.range[0] < row - 1:
                break
            i -= 1
        return None

    def references_to(self, target: Symbol) -> list[Reference]:
        return [r for r in self.references if r.target is target]

    def enclosing(self, row: int, col: int, *kinds: Kind) -> Symbol | None:
        """The innermost symbol of the given kinds whose declaration contains the position."""
        best: Symbol | None = None
        for s in self.all_symbols:
            if s.kind in kinds and contains(s.range, row, col):
                if best is None or (s.range[0], s.range[1]) >= (best.range[0], best.range[1]):
                    best = s
        return best

    def visible_values(self, row: int, scope: str = "") -> list[Symbol]:
        """Names usable in an expression at `row` in `scope`: flow values, then bindings."""
        out: list[Symbol] = []
        seen: set[str] = set()
        chain = _scope_chain(scope)
        for s in self.all_symbols:
            if s.name in seen:
                continue
            if (
                s.kind in (Kind.INPUT, Kind.CARRY, Kind.CONST)
                or (
                    s.kind in (Kind.BINDING, Kind.PARAMETER)
                    and s.scope in chain
                    and s.kind is not Kind.PARAMETER
                )
                or (s.kind is Kind.PARAMETER and s.scope in chain)
            ):
                out.append(s)
                seen.add(s.name)
        return out

    # ------------------------------------------------------------------ resolution
    def _resolve(self, ref: Reference) -> Symbol | None:
        k = ref.kind
        name = ref.name
        if k is RefKind.TYPE:
            return self.first(Kind.TYPE, name)
        if k is RefKind.SIGNAL:
            return self.first(Kind.SIGNAL, name)
        if k is RefKind.HATCH:
            return self.first(Kind.DETACHED, name)
        if k is RefKind.ANSWER:
            return self.first(Kind.REPORT, name)
        if k is RefKind.CALL:
            return self.callable(name) or self.first(Kind.TYPE, name)
        if k in (RefKind.STEP, RefKind.ROUTE):
            subflow = ref.scope.split("/")[0] if ref.scope.startswith("subflow:") else ""
            step = self.first(Kind.STEP, name, subflow)
            if step is not None and step.scope == subflow:
                return step
            if k is RefKind.ROUTE:
                if subflow:
                    out = next((s for s in self.lookup(Kind.OUTCOME, name) if s.scope == subflow), None)
                else:
                    out = next((s for s in self.lookup(Kind.OUTCOME, name) if not s.scope), None)
                if out is not None:
                    return out
                return next((s for s in self.lookup(Kind.STEP_OUTCOME, name) if s.scope == subflow), None)
            return None
        if k in (RefKind.VALUE, RefKind.COLLECT):
            return self.resolve_value(name, ref.scope, ref.range[0], ref.range[1])
        if k is RefKind.ARGUMENT:
            return self._resolve_argument(ref)
        return None

    def resolve_value(self, name: str, scope: str, row: int, col: int = 1 << 30) -> Symbol | None:
        chain = _scope_chain(scope)
        candidates = [s for s in self._bindings_by_name.get(name, []) if s.scope in chain]
        if candidates:
            # the innermost scope wins; within it the last definition above the use, else the first
            depth = max(len(s.scope) for s in candidates)
            inner = [s for s in candidates if len(s.scope) == depth]
            above = [s for s in inner if (s.selection[0], s.selection[1]) < (row, col)]
            return above[-1] if above else inner[0]
        for kind in (Kind.INPUT, Kind.CARRY, Kind.CONST, Kind.VARIANT):
            found = self.first(kind, name)
            if found is not None:
                return found
        return None

    def _resolve_argument(self, ref: Reference) -> Symbol | None:
        how, _, callee = ref.context.partition(":")
        if how == "route":
            if callee == "start":
                return self.first(Kind.CARRY, ref.name)
            out = self.first(Kind.OUTCOME, callee)
            return next((f for f in self.fields_of(out.type if out else None) if f.name == ref.name), None)
        if how == "answer":
            report = self.first(Kind.REPORT, callee)
            return next(
                (f for f in self.fields_of(report.type if report else None) if f.name == ref.name), None
            )
        if how == "hatch":
            target = self.first(Kind.DETACHED, callee)
        else:
            target = self.callable(callee)
            if target is None:
                return next((f for f in self.fields_of(callee) if f.name == ref.name), None)
        return next((p for p in self.parameters_of(target) if p.name == ref.name), None)


def _scope_chain(scope: str) -> set[str]:
    parts = scope.split("/") if scope else [""]
    chain = {""}
    acc = ""
    for i, part in enumerate(parts):
        acc = part if i == 0 else f"{acc}/{part}"
        chain.add(acc)
    return chain


class ModelBuilder:
    """Builds `SemanticModel`s for successive versions of one document, re-reading only changed items."""

    def __init__(self) -> None:
        self._cache: dict[bytes, tuple[int, ItemFacts]] = {}
        self.last_reused = 0
        self.last_extracted = 0

    def build(self, tree: Tree, source: bytes) -> SemanticModel:
        root = tree.root_node
        items: list[ItemFacts] = []
        cache: dict[bytes, tuple[int, ItemFacts]] = {}
        reused = extracted = 0
        prev_end = 0
        for node in root.named_children:
            if node.type in ("comment", "doc_comment", "narration"):
                continue
            key = source[prev_end : node.end_byte]
            row = node.start_point.row
            hit = self._cache.get(key)
            if hit is not None:
                old_row, facts = hit
                facts = facts.shifted(row - old_row)
                reused += 1
            else:
                docs = _doc_map(root, source, prev_end, node.end_byte)
                facts = extract_item(node, source, docs)
                extracted += 1
            cache[key] = (row, facts)
            items.append(facts)
            prev_end = node.end_byte
        self._cache = cache
        self.last_reused, self.last_extracted = reused, extracted
        return SemanticModel(items)


__all__ = ["BUILTIN_TYPES", "CALLABLE_KINDS", "ModelBuilder", "SemanticModel"]
