"""The tree's nodes of a model's items, found one at a time: what a check run reads of the tree's
top level after a keystroke (the items it checks again, the last one, the flow) without making a
Python object for every item of the document.

`TopNodes(root, items)` is a sequence, lined up with `items` (the model's facts): `nodes[i]` is
item `i`'s node, found by a tree cursor at the item's first position; iterating (a document-wide
rule run) or any lookup that does not land on the item makes the whole list once, as
`root.named_children` without the non-items.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

from tree_sitter import Node

from awl_lsp.model.builder import NOT_ITEMS
from awl_lsp.model.facts import ItemFacts


class TopNodes(Sequence[Node]):
    def __init__(self, root: Node, items: list[ItemFacts]) -> None:
        self._root = root
        self._items = items
        self._all: list[Node] | None = None
        self._found: dict[int, Node] = {}

    def __len__(self) -> int:
        return len(self._items)

    @overload
    def __getitem__(self, i: int) -> Node: ...

    @overload
    def __getitem__(self, i: slice) -> list[Node]: ...

    def __getitem__(self, i: int | slice) -> Node | list[Node]:
        if isinstance(i, slice):
            return self.whole()[i]
        if self._all is not None:
            return self._all[i]
        n = len(self._items)
        j = i + n if i < 0 else i
        if not 0 <= j < n:
            raise IndexError(i)
        node = self._found.get(j)
        if node is None:
            node = self._find(j)
            if node is None:
                return self.whole()[j]
            self._found[j] = node
        return node

    def __iter__(self) -> Iterator[Node]:
        return iter(self.whole())

    def whole(self) -> list[Node]:
        """Every item's node (made once)."""
        if self._all is None:
            self._all = [n for n in self._root.named_children if n.type not in NOT_ITEMS]
            if len(self._all) != len(self._items):
                raise ValueError("the semantic model does not belong to this tree")
        return self._all

    def _find(self, j: int) -> Node | None:
        facts = self._items[j]
        at = (facts.start_row, facts.start_col)
        cursor = self._root.walk()
        if cursor.goto_first_child_for_point(at) is None:
            return None
        node = cursor.node
        if node is None or tuple(node.start_point) != at or not node.is_named or node.type in NOT_ITEMS:
            return None
        return node
