"""The values in scope as completion offers, listed only when the answer needs them.

In a long workloop nearly every binding above the cursor is in scope: hundreds of names, each
one an offer. `ValueBlock` stands for all of them at their place in the offer order. `choose`
picks what is sent: when more offers match the typed word than one answer carries, the values
(ranked by their distance from the cursor, after every other offer that matches as well) are
listed only if the other offers leave room for some; otherwise a few look-ups say which later
offers a value of the same name hides (`SemanticModel.visible_named`), and nothing costs what
the document declares.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import islice

from lsprotocol import types as lsp

from awl_lsp.features.completion_items import Entry, best
from awl_lsp.features.snapshot import Snapshot
from awl_lsp.model import Kind, Symbol

_VALUE_ITEM_KINDS = {Kind.CONST: lsp.CompletionItemKind.Constant}


@dataclass(slots=True)
class Group:
    """Offers made as they are needed: one per symbol (in order) whose name no earlier offer has —
    the declarations of a kind, hundreds in a large document, of which an answer sends a few."""

    symbols: list[Symbol]
    taken: frozenset[str]  # the names offered before the group
    make: Callable[[Symbol], Entry]


Offer = Entry | Group


def expand(offers: list[Offer]) -> Iterator[Entry]:
    """The offers one by one, in order, each group's made as they come."""
    for o in offers:
        if isinstance(o, Entry):
            yield o
            continue
        taken, seen, make = o.taken, set[str](), o.make
        for s in o.symbols:
            name = s.name
            if name not in taken and name not in seen:
                seen.add(name)
                yield make(s)


class ValueBlock:
    """The values in scope at `row`, offered after the first `at` offers (those before hide the
    values of their names); a binding is offered once bound, none on the cursor's own row."""

    def __init__(
        self,
        snap: Snapshot,
        row: int,
        scope: str,
        constants_only: bool,
        at: int,
        before: set[str],
        make: Callable[[Entry], tuple[str, str, str | None, bool]],
    ) -> None:
        self.snap, self.row, self.scope, self.constants_only = snap, row, scope, constants_only
        self.at, self.before, self.make = at, before, make
        self._entries: list[Entry] | None = None

    def offered(self, s: Symbol) -> bool:
        r = s.selection[0]
        if r == self.row or s.kind is Kind.BINDING and r > self.row:  # not bound yet at the cursor
            return False
        return (not self.constants_only or s.kind is Kind.CONST) and s.name not in self.before

    def entries(self) -> list[Entry]:
        """The offers, in document order (listing every value in scope: once per request)."""
        if self._entries is None:
            row, scope = self.row, self.scope
            listed = self.snap.derived(
                f"visible-values:{row}:{scope}", lambda snap: snap.model.visible_values(row, scope)
            )
            variable = lsp.CompletionItemKind.Variable
            self._entries = [
                Entry(
                    s.name, _VALUE_ITEM_KINDS.get(s.kind, variable), self.make, abs(s.selection[0] - row), s
                )
                for s in listed
                if self.offered(s)
            ]
        return self._entries

    def hides(self, labels: list[str]) -> set[str]:
        """Those of `labels` (offered after the block) that name a value the block offers."""
        if self._entries is not None:
            names = {e.label for e in self._entries}
            return {label for label in labels if label in names}
        found = self.snap.model.visible_named(labels, self.scope)
        return {name for name, s in found.items() if self.offered(s)}


def choose(offers: list[Offer], block: ValueBlock | None, typed: str, limit: int) -> tuple[list[Entry], bool]:
    """The offers to send, in offer order (at most `limit`: the best matches of `typed`, see `best`)
    and whether some were left out. `offers` are the offers other than the values of `block`."""
    # the others weigh nothing, a value at least 1: if the others that start with the typed word
    # fill the answer (and more offers remain), they are the answer, whatever values are in scope
    first = _first_matches(offers, block, typed.lower(), limit)
    if first is not None:
        return first, True
    if block is None:
        entries = list(expand(offers))
        if len(entries) <= limit:
            return entries, False
        return [entries[i] for i in best(entries, typed, limit)], True
    before, after = list(expand(offers[: block.at])), list(expand(offers[block.at :]))
    if after:
        hidden = block.hides([e.label for e in after])
        if hidden:
            after = [e for e in after if e.label not in hidden]
    full = before + block.entries() + after
    if len(full) <= limit:
        return full, False
    return [full[i] for i in best(full, typed, limit)], True


_CHUNK = 64  # offers after the block asked about at once


def _first_matches(
    offers: list[Offer], block: ValueBlock | None, typed: str, limit: int
) -> list[Entry] | None:
    """The first `limit` offers other than values that start with `typed` and that no value hides,
    if there are that many and at least one more offer (None otherwise). The offers after the block
    are made, and asked whether a value hides them, a few at a time, until the answer is full."""
    first: list[Entry] = []
    at = block.at if block is not None else len(offers)
    for e in expand(offers[:at]):
        if len(first) == limit:
            return first  # one more offer: the answer is cut
        if e.label.lower().startswith(typed):
            first.append(e)
    if block is None:
        return None
    after = expand(offers[at:])
    while chunk := list(islice(after, _CHUNK)):
        hidden = block.hides([e.label for e in chunk])
        for e in chunk:
            if e.label in hidden:
                continue
            if len(first) == limit:
                return first
            if e.label.lower().startswith(typed):
                first.append(e)
    return None
