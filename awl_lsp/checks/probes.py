"""What the document-wide rules read of an item, noted while they run (`awl_lsp.checks.replay`
compares only that between two versions of the item).

- `NodeProbe` stands in for the item's tree node: reading anything but its type notes the item
  (its text becomes an input of the rules);
- `FactsProbe` for its facts: reading anything but its symbols (its references) notes the item;
- `TallyProbe` is its tally: reading what the item reads (names read, types used, hatched), other
  than by a gathering counting, notes the field with the item.

The engine keeps an item's probes as long as it keeps the item, aiming them at each run.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from awl_lsp.checks.tallies import Tally

if TYPE_CHECKING:
    from tree_sitter import Node

    from awl_lsp.checks.across import Counting
    from awl_lsp.model.facts import ItemFacts

T = TypeVar("T")
_NONE: frozenset[str] = frozenset()  # (shared: most items' names are read by the gatherings only)


class FactsProbe:
    """An item's facts as the document-wide rules see them: reading its references (or anything
    but its symbols) notes the item in `reads`."""

    __slots__ = ("_facts", "_index", "_reads")

    def __init__(self, facts: ItemFacts, index: int, reads: set[int]) -> None:
        self._facts = facts
        self._index = index
        self._reads = reads

    def aim(self, facts: ItemFacts, index: int, reads: set[int]) -> None:
        """The same probe for another run (the item's facts there, its index, that run's notes)."""
        self._facts = facts
        self._index = index
        self._reads = reads

    @property
    def flat(self) -> list:
        return self._facts.flat

    @property
    def symbols(self) -> list:
        return self._facts.symbols

    def __getattr__(self, name: str) -> Any:
        self._reads.add(self._index)
        return getattr(self._facts, name)


def _watched(name: str) -> property:
    """A field of what an item reads (`TallyProbe`): a read notes the field unless a gathering
    counts (the tally's own slot underneath)."""
    slot = Tally.__dict__[name]

    def read(self: TallyProbe) -> frozenset[str]:
        if not self._counting.now and name not in self.fields:
            self.fields = self.fields | {name}  # (a new set: most items share the empty one)
        return slot.__get__(self)

    def write(self: TallyProbe, value: frozenset[str]) -> None:
        slot.__set__(self, value)

    return property(read, write)


class TallyProbe(Tally):
    """An item's tally as the document-wide rules see it. A tally says what the item declares
    (from its symbols, which a shape compares one by one) and what it reads (`READ_FIELDS`, from
    its references): only these can differ between two versions of an item of the same shape, so
    only their reads are noted, in `fields` (kept with the item, whichever run read them, a rule's
    per-item partials included) — except what a gathering reads while it counts
    (`Across.counting`): those are compared by the gatherings' answers (`Across.swap`), not item
    by item. The other fields are the tally's own slots (read at C speed)."""

    __slots__ = ("_counting", "fields")

    def __init__(self, *values: Any, counting: Counting) -> None:  # noqa: ANN401 — the tally's fields
        self._counting = counting  # (the gatherings' flag, not the gatherings: no cycle through them)
        self.fields: frozenset[str] = _NONE
        super().__init__(*values)

    reads = _watched("reads")
    type_uses = _watched("type_uses")
    hatched = _watched("hatched")

    def attend(self, compute: Callable[[Any], T], item: object) -> T:
        """`compute(item)` — a rule's partial result for the item (`base.memo_of`), which the rule
        reads whoever asked for it first — with its reads noted even while a gathering counts."""
        flag = self._counting
        counting, flag.now = flag.now, False
        try:
            return compute(item)
        finally:
            flag.now = counting


READ_FIELDS = frozenset({"reads", "type_uses", "hatched"})  # the fields `TallyProbe` watches


class NodeProbe:
    """An item's node as the document-wide rules see it: reading anything but its type notes the
    item in `reads` (its text becomes an input of the rules)."""

    __slots__ = ("probed", "type", "_index", "_reads")

    def __init__(self, node: Node, index: int, reads: set[int]) -> None:
        self.probed = node
        self.type = node.type  # read freely (rules pick items by type)
        self._index = index
        self._reads = reads

    def aim(self, node: Node, index: int, reads: set[int]) -> None:
        """The same probe for another run (an item of the same type: its node there, its index,
        that run's notes)."""
        self.probed = node
        self._index = index
        self._reads = reads

    def __getattr__(self, name: str) -> Any:
        self._reads.add(self._index)
        return getattr(self.probed, name)

    def __eq__(self, other: object) -> bool:
        self._reads.add(self._index)
        return self.probed == getattr(other, "probed", other)

    def __hash__(self) -> int:
        return hash(self.probed)


__all__ = ["READ_FIELDS", "FactsProbe", "NodeProbe", "TallyProbe"]
