"""The semantic index of one AWL document: declarations, scopes and resolved references.

`SemanticModel` is built from the per-item facts (`ItemFacts`) by `ModelBuilder` (see
`awl_lsp.model.builder`). Resolution links every reference to its declaration with dictionary
look-ups; each item remembers the names its resolution consulted, so the next version can keep the
resolutions of items whose text and consulted names did not change.

This module owns linking (which items a new version resolves again, `_link`) and the look-up API the
features and checks read (`lookup`, `of_kind`, `symbol_at`, `reference_at`, `visible_values`, …).
The tables those read, and how a new version patches them, are `awl_lsp.model.declaration_tables`;
the resolution rules are `awl_lsp.model.resolve`.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from heapq import merge
from typing import TYPE_CHECKING, Any

from awl_lsp.model.declaration_tables import DeclarationTables, moved_starts, position
from awl_lsp.model.facts import ItemFacts
from awl_lsp.model.resolve import Resolution, scope_chain
from awl_lsp.model.symbols import CALLABLE_KINDS, Kind, Range, Reference, RefKind, Symbol, contains
from awl_lsp.syntax.offsets import Offsets

# enum members read once (a member read through its class is a Python-level call on 3.11)
_K_FIELD = Kind.FIELD
_K_PARAMETER = Kind.PARAMETER
_K_TYPE = Kind.TYPE
_K_WORKFLOW = Kind.WORKFLOW
_K_WORKLOOP = Kind.WORKLOOP

if TYPE_CHECKING:
    from tree_sitter import Node

BUILTIN_TYPES = ("Bool", "Int", "Float", "String", "Nil", "Dir")

_NO_NAMES: dict[str, list[Symbol]] = {}
_NO_SYMBOLS: list[Symbol] = []
_FLOW_VALUE_KINDS = (Kind.INPUT, Kind.CARRY, Kind.CONST)


@dataclass
class Reuse:
    """What `ModelBuilder` tells a new model about the previous version of the document.

    The items are lined up with the previous ones: `prefix` items at the start and `suffix` at the
    end are the same objects (moved in place when lines were added or removed above them); the run
    between them changed. `changed` are the names whose declarations changed in the run, and
    `moved` maps `id(old symbol)` to the new symbol of a declaration that stayed the same (named in
    `moved_names`), so references to it can be re-pointed.

    The new model takes the previous one's indexes over and updates them for the changed run, so
    its cost follows the run and the items that read a changed name (`_readers`), not the document.
    The previous model is then no longer right: `ModelBuilder` hands a `Reuse` only when nothing
    reads that model any more (see `ModelBuilder.build`'s `keep`, `OpenDocument`).
    """

    changed: set[str]
    moved: dict[int, Symbol]
    moved_names: set[str]
    prev: SemanticModel
    prefix: int
    suffix: int


_NO_DEPS: frozenset[str] = frozenset()


class SemanticModel(DeclarationTables, Resolution):
    """Everything the features need to know about one document, without the tree."""

    def __init__(self, items: list[ItemFacts], reuse: Reuse | None = None) -> None:
        self.items = items
        self.item_keys: list[bytes] | None = None  # set by ModelBuilder (see `item_keys`)
        self.item_nodes: list[Node] | None = None  # … with the items' nodes
        self._run = None  # (set by `_patch`: see `DeclarationTables`)
        if reuse is not None:
            self._patch(reuse.prev, reuse.prefix, reuse.suffix)
        else:
            self._index()
        self.flow: Symbol | None = next(  # (items in order: the header is near the top)
            (s for item in items for s in item.symbols if s.kind in (_K_WORKFLOW, _K_WORKLOOP)), None
        )
        self.is_workloop = self.flow is not None and self.flow.kind is _K_WORKLOOP
        self._kind_lists: dict[Kind, list[Symbol]] = {}
        self._chains: dict[str, tuple[str, ...]] = {}
        self._item_refs: dict[int, dict[tuple[Range, RefKind], Reference]] = {}
        self.item_deps: list[frozenset[str]] = []
        # name -> the items whose resolution read it (a dict as an ordered set: an item leaves it in
        # O(1), not by a search through every reader of a name most steps read)
        self._readers: dict[str, dict[ItemFacts, None]] = {}
        # (kind, name) -> the list `first` last searched and its first symbol per scope (a name
        # declared in many scopes, like a step name in every subflow, is not searched one by one)
        self._in_scope: dict[tuple[Kind, str], tuple[list[Symbol], dict[str | None, Symbol]]] = {}
        # (kind, name) -> the list `lookup_in` last filed and its symbols by scope (as `_in_scope`)
        self._by_scope: dict[tuple[Kind, str], tuple[list[Symbol], dict[str, list[Symbol]]]] = {}
        if reuse is None:
            self._item_starts = Offsets([item.start_row for item in items])
            self._link_all()
        else:
            self._item_starts = moved_starts(reuse.prev, items, reuse.prefix, reuse.suffix)
            self._link(reuse)

    @property
    def item_starts(self) -> list[int]:
        """Each item's first row, in document order (shared: read it, never change it)."""
        return self._item_starts.to_list()

    def _link_all(self) -> None:
        self.resolved_items = 0
        calls: dict[str, Any] = {}  # (see `_resolve_all`: this pass's calls and flow values)
        flows: dict[str, Symbol | None] = {}
        for item in self.items:
            self.item_deps.append(self._resolve_item(item, calls, flows))

    def _resolve_item(
        self,
        item: ItemFacts,
        calls: dict[str, Any] | None = None,
        flows: dict[str, Symbol | None] | None = None,
    ) -> frozenset[str]:
        """Resolve the item's references; the names consulted (also noted in `_readers`). `calls`,
        `flows`: see `_resolve_all` (shared by the items of one pass)."""
        self.resolved_items += 1
        deps: set[str] = set()
        self._resolve_all(item.references, deps, calls, flows)
        readers = self._readers
        for name in deps:
            found = readers.get(name)
            if found is None:
                readers[name] = {item: None}
            else:
                found[item] = None
        return frozenset(deps)

    def _forget(self, item: ItemFacts, deps: frozenset[str]) -> None:
        readers = self._readers
        for name in deps:
            found = readers.get(name)
            if found is not None:
                del found[item]  # (by identity: `ItemFacts` has no value equality)
                if not found:
                    del readers[name]

    def _link(self, reuse: Reuse) -> None:
        """Resolve the changed run, and the kept items that read a changed name; re-point the rest."""
        self.resolved_items = 0
        prev, p, s = reuse.prev, reuse.prefix, reuse.suffix
        items, old_n, n = self.items, len(reuse.prev.items), len(self.items)
        self._readers, prev._readers = prev._readers, {}  # taken over (see `Reuse`)
        old_deps = prev.item_deps
        for i in range(p, old_n - s):
            self._forget(prev.items[i], old_deps[i])
        changed, moved_names = reuse.changed, reuse.moved_names if reuse.moved else set()
        # the kept items that read a changed or re-created name
        readers = {id(x): x for name in changed | moved_names for x in self._readers.get(name, ())}
        deps = self.item_deps = old_deps[:p] + [_NO_DEPS] * (n - p - s) + old_deps[old_n - s :]
        for i in range(p, n - s):
            deps[i] = self._resolve_item(items[i])
        moved = reuse.moved
        for item in readers.values():
            i = self._index_of(item)
            if not changed.isdisjoint(deps[i]):
                self._forget(item, deps[i])
                deps[i] = self._resolve_item(item)
                continue
            for name in moved_names & deps[i]:  # re-point references to re-created declarations
                for ref in item.references_named(name):
                    t = ref.target
                    if t is not None:
                        ref.target = moved.get(id(t), t)

    def _index_of(self, item: ItemFacts) -> int:
        j = bisect_left(self._item_starts, item.start_row)
        while self.items[j] is not item:
            j += 1
        return j

    # ------------------------------------------------------------------ look-ups
    def lookup(self, kind: Kind, name: str) -> list[Symbol]:
        return list(self._by_kind.get(kind, _NO_NAMES).get(name, _NO_SYMBOLS))

    def lookup_in(self, kind: Kind, name: str, scope: str) -> list[Symbol]:
        """`lookup(kind, name)` narrowed to the symbols declared in `scope` (in document order); a name
        declared in many scopes — a step name in every subflow — is filed by scope once."""
        found = self._by_kind.get(kind, _NO_NAMES).get(name)
        if not found:
            return []
        if len(found) <= 8:
            return [s for s in found if s.scope == scope]
        known = self._by_scope.get((kind, name))
        if known is None or known[0] is not found:  # (the tables' lists are replaced, never changed)
            scopes: dict[str, list[Symbol]] = {}
            for s in found:
                scopes.setdefault(s.scope, []).append(s)
            known = self._by_scope[(kind, name)] = (found, scopes)
        return list(known[1].get(scope, ()))

    def names(self, kind: Kind) -> list[str]:
        """The names declared with this kind, in the order they first appear."""
        return list(dict.fromkeys(s.name for s in self._kind(kind)))

    def of_kind(self, *kinds: Kind) -> list[Symbol]:
        """Symbols of the given kinds, in document order."""
        if len(kinds) == 1:
            return list(self._kind(kinds[0]))
        lists = [found for found in map(self._kind, dict.fromkeys(kinds)) if found]
        if len(lists) <= 1:
            return list(lists[0]) if lists else []
        return list(merge(*lists, key=position))

    def first(self, kind: Kind, name: str, scope: str | None = None) -> Symbol | None:
        found = self._by_kind.get(kind, _NO_NAMES).get(name)
        if not found:
            return None
        if scope is not None:
            if len(found) <= 8:
                for s in found:
                    if s.scope == scope:
                        return s
                return found[0]
            known = self._in_scope.get((kind, name))
            if known is None or known[0] is not found:  # (the tables' lists are replaced, never changed)
                firsts: dict[str | None, Symbol] = {}
                for s in found:
                    firsts.setdefault(s.scope, s)
                known = self._in_scope[(kind, name)] = (found, firsts)
            return known[1].get(scope, found[0])
        return found[0]

    def type_symbol(self, name: str) -> Symbol | None:
        return self.first(_K_TYPE, name)

    def fields_of(self, type_name: str | None) -> list[Symbol]:
        if not type_name:
            return []
        sym = self.type_symbol(type_name.rstrip("?"))
        return [c for c in sym.children if c.kind is _K_FIELD] if sym else []

    def parameters_of(self, sym: Symbol | None) -> list[Symbol]:
        parameter = _K_PARAMETER
        return [c for c in sym.children if c.kind is parameter] if sym else []

    def _items_at(self, row: int) -> list[int]:
        """The items whose rows include `row` (usually one), in document order — found by bisection,
        so a request at a position reads one item, not the whole document."""
        out: list[int] = []
        j = bisect_right(self._item_starts, row) - 1
        while j >= 0:
            item = self.items[j]
            if item.end_row >= row:
                out.append(j)
            if item.start_row < row:
                break  # the items above end before this row
            j -= 1
        out.reverse()
        return out

    def symbol_at(self, row: int, col: int) -> Symbol | None:
        for j in self._items_at(row):
            for s in self.items[j].flat:
                if contains(s.selection, row, col):
                    return s
        return None

    def reference_at(self, row: int, col: int) -> Reference | None:
        """The reference at a position (of nested ones, the one starting last)."""
        best: Reference | None = None
        best_key: tuple[int, int, int, int] | None = None
        for j in self._items_at(row):
            for k, ref in enumerate(self.items[j].references):
                if ref.range[0] >= row - 1 and contains(ref.range, row, col):
                    key = (ref.range[0], ref.range[1], j, k)
                    if best_key is None or key > best_key:
                        best, best_key = ref, key
        return best

    def reference_with(self, r: Range, kind: RefKind) -> Reference | None:
        """The reference of `kind` with exactly the range `r` (indexed per item, on demand)."""
        row = r[0]
        j = bisect_right(self._item_starts, row) - 1
        while j >= 0:
            item = self.items[j]
            if item.end_row >= row:
                index = self._item_refs.get(j)
                if index is None:
                    index = {}
                    for ref in item.references:  # (`ref.range`, read without the property)
                        at = ref._range  # type: ignore[attr-defined]
                        d = ref._at.rows  # type: ignore[attr-defined]
                        index[((at[0] + d, at[1], at[2] + d, at[3]) if d else at, ref.kind)] = ref
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
        """Names usable in an expression at `row` in `scope`: flow values, then bindings.

        Of each name, its first declaration in the document that is a flow value (input, carry,
        const) or a binding or parameter of a scope in `scope`'s chain, in document order. Read from
        the per-kind and per-scope indexes, so it costs what is in scope, not the whole document."""
        first: dict[str, Symbol] = {}
        by_kind = self._by_kind
        scoped = self._scoped
        groups = [by_kind.get(k, _NO_NAMES) for k in _FLOW_VALUE_KINDS]
        groups += [scoped[key] for key in scope_chain(scope) if key in scoped]
        for names in groups:
            for name, found in names.items():
                s = found[0]
                seen = first.get(name)
                if seen is None or _order(s) < _order(seen):
                    first[name] = s
        return sorted(first.values(), key=_order)

    def visible_named(self, names: Iterable[str], scope: str = "") -> dict[str, Symbol]:
        """Of `names`, those `visible_values(row, scope)` lists, each with the declaration it lists:
        a few look-ups per name (completion asks about the few names it offers or fills in)."""
        by_kind = self._by_kind
        scoped = self._scoped
        groups = [by_kind.get(k, _NO_NAMES) for k in _FLOW_VALUE_KINDS]
        groups += [scoped[key] for key in scope_chain(scope) if key in scoped]
        out: dict[str, Symbol] = {}
        for name in names:
            first: Symbol | None = None
            for names_in in groups:
                found = names_in.get(name)
                if found and (first is None or _order(found[0]) < _order(first)):
                    first = found[0]
            if first is not None:
                out[name] = first
        return out


def _order(s: Symbol) -> tuple[int, int, int, int]:
    """A symbol's place in document order (declarations starting together: by their names)."""
    r, n = s.range, s.selection
    return r[0], r[1], n[0], n[1]


__all__ = ["BUILTIN_TYPES", "CALLABLE_KINDS", "Reuse", "SemanticModel"]
