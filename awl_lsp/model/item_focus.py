"""`ItemFocus`: the one top-level item a check is running on, for inference's look-ups inside it.

Inference looks up the reference at every name it types (and at route targets and `collect`
names), and the node that declares every symbol it types. Inside the item being checked both
answers are in the item itself: its own facts, filed by range once per kind asked — instead of
the model's index of every reference of the item, which `SemanticModel.reference_with` builds on
demand — and a search from the item's node rather than from the root (the same node is found,
without passing every item above). Anything outside the item is still asked of the model and the
root (`TypeEnv` decides which).
"""

from __future__ import annotations

from operator import attrgetter

from tree_sitter import Node

from awl_lsp.model.facts import ItemFacts
from awl_lsp.model.symbols import Range, Reference, RefKind

_RANGE = attrgetter("range")


class ItemFocus:
    __slots__ = ("node", "start_byte", "end_byte", "start", "end", "facts", "_by_kind")

    def __init__(self, node: Node, facts: ItemFacts) -> None:
        self.node = node
        self.start_byte, self.end_byte = node.start_byte, node.end_byte
        s, e = node.start_point, node.end_point
        self.start, self.end = (s.row, s.column), (e.row, e.column)
        self.facts = facts
        self._by_kind: dict[RefKind, dict[Range, Reference]] = {}

    def holds(self, r: Range) -> bool:
        """Is the range `r` inside the item (so that a search from the item finds its node)?"""
        start, end = (r[0], r[1]), (r[2], r[3])
        return self.start <= start and end <= self.end and start < self.end

    def reference(self, node: Node, kind: RefKind) -> Reference | None:
        """The item's reference of `kind` at exactly `node` (a node inside the item)."""
        index = self._by_kind.get(kind)
        if index is None:  # (the last of equal ranges wins, as in the model's index)
            refs = self.facts.references_of(kind)
            index = self._by_kind[kind] = dict(zip(map(_RANGE, refs), refs, strict=True))
        return index.get(node.start_point + node.end_point)


__all__ = ["ItemFocus"]
