"""The declaration tables of one version of a document, and how the next version patches them.

`DeclarationTables` (mixed into `SemanticModel`) owns the flat lists of the document's symbols and
references (joined from the items when first read: a keystroke's model is mostly read by name),
the declarations by kind and name, the bindings and parameters by name and scope (and by scope and
name), and the per-kind lists built on demand. A fresh model builds them from its items
(`_index`); a model built with a `Reuse` takes the previous version's tables over and replaces
only the changed run of items in them (`_patch`), found by bisection (`_splice_list`).
Resolution, linking and the look-up API live in `awl_lsp.model.index` and `awl_lsp.model.resolve`.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from itertools import chain
from operator import attrgetter
from typing import Any

from awl_lsp.model.facts import ItemFacts
from awl_lsp.model.symbols import Kind, Reference, Symbol
from awl_lsp.syntax.offsets import Offsets

_NO_SYMBOLS: list[Symbol] = []
_VALUE_KINDS = (Kind.BINDING, Kind.PARAMETER)


class DeclarationTables:
    """The per-version tables of `SemanticModel` (see the module docstring)."""

    items: list[ItemFacts]
    _flat: dict[str, list[Any]]  # the joined lists made so far (see `symbols`)
    _by_kind: dict[Kind, dict[str, list[Symbol]]]
    _values: dict[str, dict[str, list[Symbol]]]  # name -> scope -> bindings and parameters
    _scoped: dict[str, dict[str, list[Symbol]]]  # scope -> name -> the same
    _kind_lists: dict[Kind, list[Symbol]]
    _item_starts: Offsets
    # the previous version's kind lists, where the changed run starts, its old and new symbols
    _run: tuple[dict[Kind, list[Symbol]], tuple[int, int], list[Symbol], list[Symbol]] | None

    @property
    def symbols(self) -> list[Symbol]:
        """Every item's top-level symbols, in document order (shared: read it, never change it)."""
        return self._joined("symbols", _SYMBOLS)

    @property
    def all_symbols(self) -> list[Symbol]:
        """Every symbol, nested ones included, in document order (shared: read it, never change it)."""
        return self._joined("all_symbols", _FLAT)

    @property
    def references(self) -> list[Reference]:
        """Every reference, in document order (shared: read it, never change it)."""
        return self._joined("references", _REFERENCES)

    def _joined(self, name: str, part: Callable[[ItemFacts], list[Any]]) -> list[Any]:
        found = self._flat.get(name)
        if found is None:  # (joined in C: a document's every symbol or reference passes here)
            found = self._flat[name] = list(chain.from_iterable(map(part, self.items)))
        return found

    def _index(self) -> None:
        self._flat = {}
        by_kind: dict[Kind, dict[str, list[Symbol]]] = {k: {} for k in Kind}
        values: dict[str, dict[str, list[Symbol]]] = {}  # name -> scope -> bindings and parameters
        scoped: dict[str, dict[str, list[Symbol]]] = {}  # scope -> name -> the same (see `visible_values`)
        binding, parameter = _VALUE_KINDS
        for s in self.all_symbols:
            k = s.kind
            name = s.name
            names = by_kind[k]
            same = names.get(name)
            if same is None:
                names[name] = [s]
            else:
                same.append(s)
            if k is binding or k is parameter:  # (`in _VALUE_KINDS`, without comparing strings)
                scope = s.scope
                scopes = values.get(name)
                if scopes is None:
                    values[name] = {scope: [s]}
                else:
                    same = scopes.get(scope)
                    if same is None:
                        scopes[scope] = [s]
                    else:
                        same.append(s)
                in_scope = scoped.get(scope)
                if in_scope is None:
                    scoped[scope] = {name: [s]}
                else:
                    same = in_scope.get(name)
                    if same is None:
                        in_scope[name] = [s]
                    else:
                        same.append(s)
        self._by_kind = by_kind
        self._values = values
        self._scoped = scoped

    def _patch(self, prev: DeclarationTables, p: int, s: int) -> None:
        """The previous model's index with its changed run of items replaced (the rest is the same)."""
        old_n, n = len(prev.items), len(self.items)
        old_mid = prev.items[p : old_n - s]
        new_mid = self.items[p : n - s]
        self._flat = {}  # (the joined lists: made when first read)
        gone = [x for it in old_mid for x in it.flat]
        came = [x for it in new_mid for x in it.flat]
        gone_ids = {id(x) for x in gone}
        # where the changed run starts: every kept symbol of the prefix lies before it, every other
        # one (the run's, old or new, and the moved suffix's) at or after it
        starts = [(it.start_row, it.start_col) for it in (prev.items[p : p + 1] + self.items[p : p + 1])]
        at = min(starts) if starts else (0, 0)
        self._by_kind = prev._by_kind  # taken over (see `Reuse`); each changed list is a new list
        for kind, name in {(x.kind, x.name) for x in gone + came}:
            names = self._by_kind[kind]
            add = [x for x in came if x.kind is kind and x.name == name]
            lost = sum(1 for x in gone if x.kind is kind and x.name == name)
            _splice(names, name, names.get(name, _NO_SYMBOLS), gone_ids, lost, add, at)
        self._run = (prev._kind_lists, at, gone, came)
        self._values = prev._values
        self._scoped = prev._scoped  # taken over too
        for name, scope in {(x.name, x.scope) for x in gone + came if x.kind in _VALUE_KINDS}:
            scopes = self._values.get(name)
            if scopes is None:
                scopes = self._values[name] = {}
            add = [x for x in came if x.kind in _VALUE_KINDS and x.name == name and x.scope == scope]
            lost = sum(1 for x in gone if x.kind in _VALUE_KINDS and x.name == name and x.scope == scope)
            _splice(scopes, scope, scopes.get(scope, _NO_SYMBOLS), gone_ids, lost, add, at)
            if not scopes:
                del self._values[name]
            in_scope = self._scoped.get(scope)
            if in_scope is None:
                in_scope = self._scoped[scope] = {}
            _splice(in_scope, name, in_scope.get(name, _NO_SYMBOLS), gone_ids, lost, add, at)
            if not in_scope:
                del self._scoped[scope]

    def _kind(self, kind: Kind) -> list[Symbol]:
        found = self._kind_lists.get(kind)
        if found is None:
            if not self._by_kind.get(kind):
                found = []
            elif self._run is not None and kind in self._run[0]:
                # the previous version's list with the changed run replaced (see `_splice`)
                lists, at, gone, came = self._run
                found = list(lists[kind])
                lost = [x for x in gone if x.kind is kind]
                _splice_list(found, {id(x) for x in lost}, len(lost), [x for x in came if x.kind is kind], at)
            else:
                found = [s for s in self.all_symbols if s.kind is kind]
            self._kind_lists[kind] = found
        return found


def moved_starts(prev: DeclarationTables, items: list[ItemFacts], p: int, s: int) -> Offsets:
    """Each item's first row: the previous model's, with the changed run replaced and the rest moved."""
    old_n, n = len(prev.items), len(items)
    rows = items[n - s].start_row - prev._item_starts[old_n - s] if s else 0
    return prev._item_starts.replaced(p, old_n - s, [item.start_row for item in items[p : n - s]], rows)


def position(s: Symbol) -> tuple[int, int]:
    """Where a symbol's declaration starts (the order of the tables' lists)."""
    r = s.range
    return r[0], r[1]


_SYMBOLS, _FLAT, _REFERENCES = attrgetter("symbols"), attrgetter("flat"), attrgetter("references")


def _splice_list(
    symbols: list[Symbol], gone: set[int], lost: int, add: list[Symbol], at: tuple[int, int]
) -> None:
    """Replace, in place, the `lost` symbols in `gone` by `add`: `symbols` is in document order, the
    run's symbols together, and those of the items before the run are exactly the ones before
    `at`, so the run is found by bisection."""
    i = bisect_left(symbols, at, key=position)
    j = i
    while j < len(symbols) and id(symbols[j]) in gone:
        j += 1
    if j - i == lost:
        symbols[i:j] = add
    else:  # not in the order this relies on: filter (never seen; kept so a slip costs time, not truth)
        symbols[:] = [x for x in symbols if id(x) not in gone]
        i = bisect_left(symbols, at, key=position)
        symbols[i:i] = add


def _splice(
    table: dict,
    key: object,
    old: list[Symbol],
    gone: set[int],
    lost: int,
    add: list[Symbol],
    at: tuple[int, int],
) -> None:
    """`table[key]` = `old` without the symbols in `gone`, with `add` where the changed items are.

    `old` is in document order, the run's symbols (the ones `gone`) together, and those of the
    items before the run are exactly the ones before `at`: the run is found by bisection."""
    kept = list(old)
    _splice_list(kept, gone, lost, add, at)
    if kept:
        table[key] = kept
    else:
        table.pop(key, None)
