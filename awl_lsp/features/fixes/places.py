"""Where a fix looks and writes: the tree node a problem points at, and the spans of nodes.

A fix re-reads the tree at its problem's range rather than trusting it: a problem the editor sends
back may be older than the text, and a fix then finds something else there and offers nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from awl_lsp.features.fixes.values import Range

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot


def span(node: Node) -> Range:
    """The node's range, in the coordinates of a problem and an edit."""
    s, e = node.start_point, node.end_point
    return (s.row, s.column, e.row, e.column)


def start(node: Node) -> tuple[int, int]:
    return node.start_point.row, node.start_point.column


def end(node: Node) -> tuple[int, int]:
    return node.end_point.row, node.end_point.column


def node_at(snap: Snapshot, r: Range) -> Node:
    """The smallest node covering the range (the root when none does)."""
    node = snap.doc.root.descendant_for_point_range((r[0], r[1]), (r[2], r[3]))
    return node if node is not None else snap.doc.root


def ancestor(node: Node | None, *types: str) -> Node | None:
    """The node itself or its nearest ancestor of one of `types`."""
    while node is not None and node.type not in types:
        node = node.parent
    return node


def widest_at(snap: Snapshot, r: Range) -> Node:
    """The largest node spanning exactly the range (a `count` combinator, not its `count` token);
    the smallest covering one when none spans it exactly."""
    node = node_at(snap, r)
    while node.parent is not None and span(node.parent) == r:
        node = node.parent
    return node
