"""The semantic index of one AWL document: declarations, scopes and resolved references.

`SemanticModel` is built from the per-item facts (`ItemFacts`) by `ModelBuilder` (see
`awl_lsp.model.builder`). Resolution links every reference to its declaration with dictionary
look-ups; each item remembers the names its resolution consulted, so the next version can keep the
resolutions of items whose text and consulted names did not change.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field

from awl_lsp.model.facts import ItemFacts
from awl_lsp.model.symbols import CALLABLE_KINDS, Kind, Range, Reference, RefKind, Symbol, contains

BUILTIN_TYPES = ("Bool", "Int", "Float", "String", "Nil", "Dir")

_NO_NAMES: dict[str, list[Symbol]] = {}
_NO_SYMBOLS: list[Symbol] = []
_VALUE_DECLS = (Kind.INPUT, Kind.CARRY, Kind.CONST, Kind.VARIANT)
_VALUE_KINDS = (Kind.BINDING, Kind.PARAMETER)


@dataclass
class Reuse:
    """What `ModelBuilder` tells a new model about the previous version of the document.

    `keep[i]` is true for items whose text (and place among the other items) did not change;
    `deps[i]` are the names item i's previous resolution consulted; `changed` are the names whose
    declarations changed; `moved` maps `id(old symbol)` to the symbol that replaces it.
    """

    keep: list[bool]
    deps: list[frozenset[str]]
    changed: set[str]
    moved: dict[int, Symbol] = field(default_factory=dict)


class SemanticModel:
    """Everything the features need to know about one document, without the tree."""

    def __init__(self, items: list[ItemFacts], reuse: Reuse | None = None) -> None:
        self.items = items
        self.symbols: list[Symbol] = [s for item in items for s in item.symbols]
        self.all_symbols: list[Symbol] = [s for item in items for s in item.flat]
        self.references: list[Reference] = [r for item in items for r in item.references]
        self.flow: Symbol | None = next(
            (s for s in self.symbols if s.kind in (Kind.WORKFLOW, Kind.WORKLOOP)), None
        )
        self.is_workloop = self.flow is not None and self.flow.kind is Kind.WORKLOOP
        self.check_cache: object | None = None  # the owning document's CheckCache (see OpenDocument)
        by_kind: dict[Kind, dict[str, list[Symbol]]] = {k: {} for k in Kind}
        kind_lists: dict[Kind, list[Symbol]] = {k: [] for k in Kind}
        values: dict[str, dict[str, list[Symbol]]] = {}  # name -> scope -> bindings and parameters
        value_kinds = _VALUE_KINDS
        for s in self.all_symbols:
            k = s.kind
            name = s.name
            kind_lists[k].append(s)
            names = by_kind[k]
            same = names.get(name)
            if same is None:
                names[name] = [s]
            else:
                same.append(s)
            if k in value_kinds:
                scopes = values.get(name)
                if scopes is None:
                    values[name] = {s.scope: [s]}
                else:
                    scopes.setdefault(s.scope, []).append(s)
        self._by_kind = by_kind
        self._kind_lists = kind_lists
        self._values = values
        self._chains: dict[str, tuple[str, ...]] = {}
        self._ref_sorted: tuple[list[tuple[int, int]], list[Reference]] | None = None
        self._item_refs: dict[int, dict[tuple[Range, RefKind], Reference]] = {}
        self._item_starts = [item.start_row for item in items]
        self.item_deps: list[frozenset[str]] = []
        self._link(reuse)

    def _link(self, reuse: Reuse | None) -> None:
        moved = reuse.moved if reuse is not None else {}
        self.resolved_items = 0
        for i, item in enumerate(self.items):
            if reuse is not None and reuse.keep[i] and reuse.changed.isdisjoint(reuse.deps[i]):
                if moved:
                    for ref in item.references:
                        t = ref.target
                        if t is not None:
                            ref.target = moved.get(id(t), t)
                self.item_deps.append(reuse.deps[i])
                continue
            self.resolved_items += 1
            deps: set[str] = set()
            resolve = self._resolve
            for ref in item.references:
                ref.target = resolve(ref, deps)
            self.item_deps.append(frozenset(deps))

    # ------------------------------------------------------------------ look-ups
    def lookup(self, kind: Kind, name: str) -> list[Symbol]:
        return list(self._by_kind.get(kind, _NO_NAMES).get(name, _NO_SYMBOLS))

    def names(self, kind: Kind) -> list[str]:
        return list(self._by_kind.get(kind, _NO_NAMES).keys())

    def of_kind(self, *kinds: Kind) -> list[Symbol]:
        """Symbols of the given kinds, in document order."""
        if len(kinds) == 1:
            return list(self._kind_lists.get(kinds[0], _NO_SYMBOLS))
        wanted = set(kinds)
        return [s for s in self.all_symbols if s.kind in wanted]

    def first(self, kind: Kind, name: str, scope: str | None = None) -> Symbol | None:
        found = self._by_kind.get(kind, _NO_NAMES).get(name)
        if not found:
            return None
        if scope is not None:
            for s in found:
                if s.scope == scope:
                    return s
        return found[0]

    def type_symbol(self, name: str) -> Symbol | None:
        return self.first(Kind.TYPE, name)

    def fields_of(self, type_name: str | None) -> list[Symbol]:
        if not type_name:
            return []
        sym = self.type_symbol(type_name.rstrip("?"))
        return [c for c in sym.children if c.kind is Kind.FIELD] if sym else []

    def callable(self, name: str) -> Symbol | None:
        for kind in (Kind.ACTION, Kind.CHILD, Kind.SUBFLOW):
            found = self._by_kind.get(kind, _NO_NAMES).get(name)
            if found:
                return found[0]
        return None

    def parameters_of(self, sym: Symbol | None) -> list[Symbol]:
        return [c for c in sym.children if c.kind is Kind.PARAMETER] if sym else []

    def symbol_at(self, row: int, col: int) -> Symbol | None:
        for s in self.all_symbols:
            if contains(s.selection, row, col):
                return s
        return None

    def _sorted_refs(self) -> tuple[list[tuple[int, int]], list[Reference]]:
        if self._ref_sorted is None:
            refs = sorted(self.references, key=lambda r: r.range[:2])
            self._ref_sorted = ([r.range[:2] for r in refs], refs)
        return self._ref_sorted

    def reference_at(self, row: int, col: int) -> Reference | None:
        starts, refs = self._sorted_refs()
        i = bisect_right(starts, (row, col)) - 1
        while i >= 0:
            ref = refs[i]
            if contains(ref.range, row, col):
                return ref
            if ref.range[0] < row - 1:
                break
            i -= 1
        return None

    def reference_with(self, r: Range, kind: RefKind) -> Reference | None:
        """The reference of `kind` with exactly the range `r` (indexed per item, on demand)."""
        row = r[0]
        j = bisect_right(self._item_starts, row) - 1
        while j >= 0:
            item = self.items[j]
            if item.end_row >= row:
                index = self._item_refs.get(j)
                if index is None:
                    index = {(ref.range, ref.kind): ref for ref in item.references}
                    self._item_refs[j] = index
                found = index.get((r, kind))
                if found is not None:
                    return found
            if item.start_row < row:
                break  # the items above end before this row
            j -= 1
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
            if s.kind in (Kind.INPUT, Kind.CARRY, Kind.CONST) or (
                s.kind in (Kind.BINDING, Kind.PARAMETER) and s.scope in chain
            ):
                out.append(s)
                seen.add(s.name)
        return out

    # ------------------------------------------------------------------ resolution
    def _resolve(self, ref: Reference, deps: set[str]) -> Symbol | None:
        """The declaration `ref` names; every name consulted goes into `deps`."""
        k = ref.kind
        name = ref.name
        deps.add(name)
        if k is RefKind.VALUE or k is RefKind.COLLECT:
            return self.resolve_value(name, ref.scope, ref.range[0], ref.range[1])
        if k is RefKind.ARGUMENT:
            return self._resolve_argument(ref, deps)
        if k is RefKind.TYPE:
            return self.first(Kind.TYPE, name)
        if k is RefKind.CALL:
            return self.callable(name) or self.first(Kind.TYPE, name)
        if k is RefKind.SIGNAL:
            return self.first(Kind.SIGNAL, name)
        if k is RefKind.HATCH:
            return self.first(Kind.DETACHED, name)
        if k is RefKind.ANSWER:
            return self.first(Kind.REPORT, name)
        if k is RefKind.STEP or k is RefKind.ROUTE:
            subflow = ref.scope.split("/")[0] if ref.scope.startswith("subflow:") else ""
            step = self.first(Kind.STEP, name, subflow)
            if step is not None and step.scope == subflow:
                return step
            if k is RefKind.ROUTE:
                for out in self._by_kind.get(Kind.OUTCOME, _NO_NAMES).get(name, _NO_SYMBOLS):
                    if out.scope == subflow:
                        return out
                for arm in self._by_kind.get(Kind.STEP_OUTCOME, _NO_NAMES).get(name, _NO_SYMBOLS):
                    if arm.scope == subflow:
                        return arm
            return None
        return None

    def _chain(self, scope: str) -> tuple[str, ...]:
        """The scope keys visible from `scope`, innermost first."""
        chain = self._chains.get(scope)
        if chain is None:
            chain = self._chains[scope] = tuple(sorted(_scope_chain(scope), key=len, reverse=True))
        return chain

    def resolve_value(self, name: str, scope: str, row: int, col: int = 1 << 30) -> Symbol | None:
        scopes = self._values.get(name)
        if scopes:
            for key in self._chain(scope):
                inner = scopes.get(key)
                if inner:
                    # the innermost scope wins; within it the last definition above the use, else the first
                    for s in reversed(inner):
                        sel = s.selection
                        if sel[0] < row or (sel[0] == row and sel[1] < col):
                            return s
                    return inner[0]
        by_kind = self._by_kind
        for kind in _VALUE_DECLS:
            found = by_kind.get(kind, _NO_NAMES).get(name)
            if found:
                return found[0]
        return None

    def _field_of(self, type_name: str | None, name: str, deps: set[str]) -> Symbol | None:
        if not type_name:
            return None
        deps.add(type_name.rstrip("?"))
        return next((f for f in self.fields_of(type_name) if f.name == name), None)

    def _resolve_argument(self, ref: Reference, deps: set[str]) -> Symbol | None:
        how, _, callee = ref.context.partition(":")
        deps.add(callee)
        if how == "route":
            if callee == "start":
                return self.first(Kind.CARRY, ref.name)
            out = self.first(Kind.OUTCOME, callee)
            return self._field_of(out.type if out else None, ref.name, deps)
        if how == "answer":
            report = self.first(Kind.REPORT, callee)
            return self._field_of(report.type if report else None, ref.name, deps)
        if how == "hatch":
            target = self.first(Kind.DETACHED, callee)
        else:
            target = self.callable(callee)
            if target is None:
                return self._field_of(callee, ref.name, deps)
        return next((p for p in self.parameters_of(target) if p.name == ref.name), None)


def _scope_chain(scope: str) -> set[str]:
    parts = scope.split("/") if scope else [""]
    chain = {""}
    acc = ""
    for i, part in enumerate(parts):
        acc = part if i == 0 else f"{acc}/{part}"
        chain.add(acc)
    return chain


def __getattr__(name: str) -> object:  # `from awl_lsp.model.index import ModelBuilder` keeps working
    if name == "ModelBuilder":
        from awl_lsp.model.builder import ModelBuilder

        return ModelBuilder
    raise AttributeError(name)


__all__ = ["BUILTIN_TYPES", "CALLABLE_KINDS", "Reuse", "SemanticModel"]
