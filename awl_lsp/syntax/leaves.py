"""Tokens of a tree: the leaves around a place, a node's range and a short snippet of its text."""

from __future__ import annotations

from tree_sitter import Node

from awl_lsp.syntax.problems import Range


def node_range(node: Node) -> Range:
    return (node.start_point.row, node.start_point.column, node.end_point.row, node.end_point.column)


def first_leaf(node: Node) -> Node:
    while node.child_count:
        node = node.children[0]
    return node


def previous_leaf(node: Node) -> Node | None:
    cur: Node | None = node
    while cur is not None:
        prev = cur.prev_sibling
        while prev is not None and prev.is_extra:
            prev = prev.prev_sibling
        if prev is not None:
            while prev.child_count:
                prev = prev.children[-1]
            return prev
        cur = cur.parent
    return None


def snippet(source: bytes, node: Node) -> str:
    text = source[node.start_byte : node.end_byte].decode("utf-8", errors="replace")
    first = text.strip().splitlines()[0] if text.strip() else text
    return first if len(first) <= 40 else first[:37] + "…"


def leaves(node: Node, limit: int = 4000) -> list[Node]:
    """The non-extra tokens inside `node`, in order (bounded: a huge ERROR is rare and still cheap)."""
    out: list[Node] = []
    stack = list(reversed(node.children))
    while stack and len(out) < limit:
        cur = stack.pop()
        if cur.is_extra and cur.type in ("comment", "doc_comment", "narration"):
            continue
        if cur.child_count == 0:
            out.append(cur)
        else:
            stack.extend(reversed(cur.children))
    return out


def last_leaf(node: Node) -> Node:
    while node.child_count:
        node = node.children[-1]
    return node


__all__ = ["first_leaf", "last_leaf", "leaves", "node_range", "previous_leaf", "snippet"]
