"""`ItemFacts`: what one top-level item declares and references, and how it moves with the text.

Facts are cached per item text; an edit above an item only moves it, so `shift` moves its
`Anchor` (one addition: its symbols' and references' ranges follow) instead of re-reading the
tree (fork scopes are item-relative, so they stay as they are).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

from awl_lsp.model.symbols import Anchor, Reference, RefKind, Symbol, shift_range

_FORK_SCOPE = re.compile(r"fork@(\d+)\.(\d+)")
_uids = itertools.count()
_new = object.__new__


def fork_scope(outer: str, row: int, facts: ItemFacts) -> str:
    """The scope key of a fork at `row` of the item: item-relative, so it survives moves, and marked
    with the facts' id, so that it is the document's only one."""
    return f"{outer}/fork@{row - facts.start_row}.{facts.uid}"


def plain_scope(scope: str) -> str:
    """A scope key without the id of the facts it came from (the same in every version)."""
    return _FORK_SCOPE.sub(r"fork@\1", scope) if "@" in scope else scope


def _rescope(scope: str, uid: int) -> str:
    return _FORK_SCOPE.sub(lambda m: f"fork@{m.group(1)}.{uid}", scope)


def _moved_symbol(s: Symbol, rows: int, uid: int, anchor: Anchor, same: Anchor) -> Symbol:
    """A copy of `s` on `anchor`, `rows` lines further down. (On `same`, an anchor `anchor` is
    `rows` rows ahead of, its stored ranges stay as they are.)"""
    new = Symbol.__new__(Symbol)
    fields = new.__dict__
    fields.update(s.__dict__)
    fields["_at"] = anchor
    if s._at is not same:  # type: ignore[attr-defined]
        fields["_range"] = shift_range(s.range, rows - anchor.rows)
        fields["_selection"] = shift_range(s.selection, rows - anchor.rows)
    fields["children"] = []
    if "@" in s.scope:
        fields["scope"] = _rescope(s.scope, uid)
    return new


def _moved_reference(r: Reference, rows: int, uid: int, anchor: Anchor, same: Anchor) -> Reference:
    new = Reference.__new__(Reference)
    fields = new.__dict__
    fields.update(r.__dict__)
    fields["_at"] = anchor
    if r._at is not same:  # type: ignore[attr-defined]
        fields["_range"] = shift_range(r.range, rows - anchor.rows)
    if "@" in r.scope:
        fields["scope"] = _rescope(r.scope, uid)
    return new


@dataclass(eq=False)
class ItemFacts:
    """What one top-level item declares and references (compared and hashed by identity)."""

    # (first: `start_row` and `end_row` are kept relative to it, see below)
    anchor: Anchor = field(default_factory=Anchor, compare=False, repr=False)  # see `symbols.Anchor`
    symbols: list[Symbol] = field(default_factory=list)  # top-level symbols (with children)
    flat: list[Symbol] = field(default_factory=list)  # every symbol, nested ones included
    references: list[Reference] = field(default_factory=list)
    start_row: int = 0  # the item node's first row
    end_row: int = 0  # … and its end row
    start_col: int = 0  # the item node's first column
    uid: int = field(default_factory=lambda: next(_uids))  # tells copies apart (fork scopes)
    _named: dict[str, list[Reference]] | None = field(default=None, init=False, repr=False, compare=False)
    _kinds: dict[RefKind, list[Reference]] | None = field(default=None, init=False, repr=False, compare=False)

    @classmethod
    def fresh(cls) -> ItemFacts:
        """`ItemFacts()`, made as its constructor makes it (the same attributes in the same order),
        without the constructor's default factories and row setters: one is made per item read."""
        facts = _new(cls)
        facts.anchor = Anchor()
        facts.symbols = []
        facts.flat = []
        facts.references = []
        facts._start_row = facts._end_row = 0  # type: ignore[attr-defined]  # (see `_anchored_row`)
        facts.start_col = 0
        facts.uid = next(_uids)
        return facts

    def references_of(self, *kinds: RefKind) -> list[Reference]:
        """The references of these kinds, in document order (filed by kind once: several item rules
        each read one or two kinds of every item)."""
        by_kind = self._kinds
        if by_kind is None:
            by_kind = {}
            for r in self.references:
                found = by_kind.get(r.kind)
                if found is None:
                    by_kind[r.kind] = [r]
                else:
                    found.append(r)
            self._kinds = by_kind
        if len(kinds) == 1:  # (the usual question: one kind)
            found = by_kind.get(kinds[0])
            return [] if found is None else found
        present = [k for k in kinds if k in by_kind]
        if not present:
            return []
        if len(present) == 1:
            return by_kind[present[0]]
        wanted = set(present)
        return [r for r in self.references if r.kind in wanted]

    def references_named(self, name: str) -> list[Reference]:
        if self._named is None:
            named: dict[str, list[Reference]] = {}
            for r in self.references:
                named.setdefault(r.name, []).append(r)
            self._named = named
        return self._named.get(name, [])

    def anchored(self) -> ItemFacts:
        """These facts with every symbol and reference on their anchor (right after reading them)."""
        anchor = self.anchor
        for s in self.flat:
            s._at = anchor  # type: ignore[attr-defined]
        for r in self.references:
            r._at = anchor  # type: ignore[attr-defined]
        return self

    def shift(self, rows: int) -> None:
        """Move these facts `rows` lines down in place (the item moved; no one reads the old model)."""
        self.anchor.rows += rows  # its rows and ranges follow (see `_anchored_row`, `symbols.Anchor`)

    def shifted(self, rows: int, moved: dict[int, Symbol] | None = None) -> ItemFacts:
        """The same facts for the item moved `rows` lines down (an edit above it).

        `moved`, when given, receives `id(old symbol) -> new symbol` for every symbol, so that
        references resolved against the old symbols can be re-pointed.
        """
        if rows == 0:
            return self
        return self.copied(rows, moved)

    def copied(self, rows: int = 0, moved: dict[int, Symbol] | None = None) -> ItemFacts:
        """New symbols and references for the same facts, moved `rows` lines down."""
        mapping = moved if moved is not None else {}
        copy = ItemFacts.fresh()
        uid, anchor, same = copy.uid, copy.anchor, self.anchor
        anchor.rows = same.rows + rows  # (so the stored ranges can be shared)
        copy.start_row, copy.end_row = self.start_row + rows, self.end_row + rows
        copy.start_col = self.start_col
        for s in self.flat:
            n = _moved_symbol(s, rows, uid, anchor, same)
            mapping[id(s)] = n
            copy.flat.append(n)
        for s, n in zip(self.flat, copy.flat, strict=True):
            if s.children:
                n.children = [mapping[id(c)] for c in s.children if id(c) in mapping]
        copy.symbols = [mapping[id(s)] for s in self.symbols]
        copy.references = [_moved_reference(r, rows, uid, anchor, same) for r in self.references]
        return copy


def _anchored_row(stored: str) -> property:
    """An item's row kept as read (in `stored`) and given moved by its anchor, like its ranges."""

    def get(self: ItemFacts) -> int:
        return int(getattr(self, stored)) + self.anchor.rows

    if stored == "_start_row":  # (the two read their attribute directly: asked of every item, often)

        def get(self: ItemFacts) -> int:
            return self._start_row + self.anchor.rows  # type: ignore[attr-defined]

    elif stored == "_end_row":

        def get(self: ItemFacts) -> int:
            return self._end_row + self.anchor.rows  # type: ignore[attr-defined]

    def put(self: ItemFacts, row: int) -> None:
        setattr(self, stored, row - self.anchor.rows)

    return property(get, put)


ItemFacts.start_row = _anchored_row("_start_row")  # type: ignore[assignment]
ItemFacts.end_row = _anchored_row("_end_row")  # type: ignore[assignment]
