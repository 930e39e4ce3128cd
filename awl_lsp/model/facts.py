"""`ItemFacts`: what one top-level item declares and references, and how it moves with the text.

Facts are cached per item text; an edit above an item only moves it, so `shifted` re-bases its
ranges (and the row-keyed fork scopes) instead of re-reading the tree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from awl_lsp.model.symbols import Reference, Symbol, shift_range

_FORK_SCOPE = re.compile(r"fork@(\d+)")


def shift_scope(scope: str, rows: int) -> str:
    """A scope key after its item moved `rows` lines (fork scopes are keyed by the fork's row)."""
    if "@" not in scope:
        return scope
    return _FORK_SCOPE.sub(lambda m: f"fork@{int(m.group(1)) + rows}", scope)


def _moved_symbol(s: Symbol, rows: int) -> Symbol:
    new = Symbol.__new__(Symbol)
    new.__dict__.update(s.__dict__)
    new.range = shift_range(s.range, rows)
    new.selection = shift_range(s.selection, rows)
    new.children = []
    if "@" in s.scope:
        new.scope = shift_scope(s.scope, rows)
    return new


def _moved_reference(r: Reference, rows: int) -> Reference:
    new = Reference.__new__(Reference)
    new.__dict__.update(r.__dict__)
    new.range = shift_range(r.range, rows)
    if "@" in r.scope:
        new.scope = shift_scope(r.scope, rows)
    return new


@dataclass
class ItemFacts:
    """What one top-level item declares and references."""

    symbols: list[Symbol] = field(default_factory=list)  # top-level symbols (with children)
    flat: list[Symbol] = field(default_factory=list)  # every symbol, nested ones included
    references: list[Reference] = field(default_factory=list)
    start_row: int = 0  # the item node's first row
    end_row: int = 0  # … and its end row

    def shifted(self, rows: int, moved: dict[int, Symbol] | None = None) -> ItemFacts:
        """The same facts for the item moved `rows` lines down (an edit above it).

        `moved`, when given, receives `id(old symbol) -> new symbol` for every symbol, so that
        references resolved against the old symbols can be re-pointed.
        """
        if rows == 0:
            return self
        mapping = moved if moved is not None else {}
        new_flat = []
        for s in self.flat:
            n = _moved_symbol(s, rows)
            mapping[id(s)] = n
            new_flat.append(n)
        for s, n in zip(self.flat, new_flat, strict=True):
            if s.children:
                n.children = [mapping[id(c)] for c in s.children if id(c) in mapping]
        return ItemFacts(
            [mapping[id(s)] for s in self.symbols],
            new_flat,
            [_moved_reference(r, rows) for r in self.references],
            self.start_row + rows,
            self.end_row + rows,
        )
