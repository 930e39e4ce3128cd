"""What the tree says about the lines of a declaration, for the layout rules (`layout.py`): the
largest node a line starts and its parent, whether that node is the first line of a block its
parent opened above, the bracket a line sits in, and the multi-line bodies (`json { … }`, raw
strings) whose lines are free text.
"""

from __future__ import annotations

import re

from tree_sitter import Node

_OPAQUE_START = re.compile(rb'"""|\b(?:json|schema)\s*\{')
# Nodes whose first line of content sits one level deeper than their own first line (the model's
# reader, the printer and the syntax errors walk the same blocks).
BLOCK_NODES = frozenset({"header", "step_body", "block", "loop_body"})
_BRACKETED = frozenset(
    {
        "arguments",
        "parameters",
        "list",
        "record_body",
        "list_type",
        "index_expression",
        "schema_import",
        "parenthesized_expression",
        "combinator",
    }
)
_INDENTED_PARTS = frozenset(
    {"worker_declaration", "subflow_declaration", "invariant_clause", "unknown_clause", "unknown_declaration"}
)


def mask(text: bytes, offset: int, nodes: list[Node]) -> bytes:
    """`text` (which starts at byte `offset`) with the given nodes' text blanked out, line breaks kept."""
    if not nodes:
        return text
    out = bytearray(text)
    for node in nodes:
        for i in range(max(node.start_byte - offset, 0), min(node.end_byte - offset, len(out))):
            if out[i] != 0x0A:
                out[i] = 0x20
    return bytes(out)


def largest_at(root: Node, row: int, col: int) -> Node | None:
    return largest_with_parent(root, row, col)[0]


def largest_with_parent(within: Node, row: int, col: int) -> tuple[Node | None, Node | None]:
    """The largest node starting at (row, col), and its parent. `within` is the root or a node
    holding the position (searched from there: the same node, without the root's other children)."""
    node = within.descendant_for_point_range((row, col), (row, col))
    if node is None:
        return None, None
    start = node.start_byte  # (the same start byte is the same start point)
    parent = node.parent  # (each `parent` is a walk down from the root: asked once per node)
    while parent is not None and parent.start_byte == start:
        node = parent
        parent = node.parent
    return node, parent


def line_start(item: Node, byte: int) -> tuple[Node, Node] | None:
    """`largest_with_parent(item, row, col)` for the first character of a line of `item` (at `byte`,
    past the item's own start) in a tree without errors, found walking down from the item: the
    first node on the way that starts there, and the node above it (`Node.parent` walks down from
    the root each time). None when no node starts there (then ask `largest_with_parent`)."""
    if byte <= item.start_byte:
        return None  # (the item itself, or what holds it, is the largest node there)
    node = item
    while True:
        child = node.first_child_for_byte(byte)  # (the first child reaching past `byte`)
        if child is None:
            return None
        start = child.start_byte
        if start == byte:
            return child, node
        if start > byte:
            return None
        node = child


def opens_here(node: Node, parent: Node | None) -> bool:
    """Whether `node` is the first content line of a block its parent opened on an earlier line."""
    if parent is None:
        return False
    if node.type == "call_config":
        return True
    if parent.type == "step_outcome":
        return node.start_point.row > parent.start_point.row
    if parent.type not in BLOCK_NODES and parent.type not in _INDENTED_PARTS:
        return False
    # (`node.prev_named_sibling`, skipping trivia, read from the parent's children: asking the node
    # walks down from the root again)
    before = None
    for sibling in parent.children:
        if sibling == node:
            break
        if sibling.is_named and sibling.type not in TRIVIA:
            before = sibling
    else:  # (not among them: never seen; asked the long way)
        before = node.prev_named_sibling
        while before is not None and before.type in TRIVIA:
            before = before.prev_named_sibling
    if parent.type in BLOCK_NODES:
        return before is None
    # worker, subflow, invariant: the lines under the declaration's own line
    return before is None or before.start_point.row == parent.start_point.row


def bracket_opener(root: Node, row: int, col: int) -> int | None:
    """The row of the outermost bracket, opened on an earlier row, that holds (row, col)."""
    node = root.descendant_for_point_range((row, col), (row, col))
    found: int | None = None
    while node is not None:
        if node.type in _BRACKETED and node.start_point.row < row:
            found = node.start_point.row
        node = node.parent
    return found


def in_error(node: Node) -> bool:
    cur: Node | None = node
    while cur is not None:
        if cur.is_error or cur.type == "unexpected_block":
            return True
        cur = cur.parent
    return False


TRIVIA = frozenset({"comment", "doc_comment", "narration"})


def multiline_opaque(root: Node, source: bytes, begin: int, end: int) -> list[Node]:
    """The `json { … }` bodies and raw strings in `source[begin:end]` that span lines."""
    found: list[Node] = []
    if source.find(b'"""', begin, end) < 0 and source.find(b"json", begin, end) < 0:
        if source.find(b"schema", begin, end) < 0:
            return found  # (the usual item: three scans in C instead of the regex's)
    seen: set[int] = set()
    for match in _OPAQUE_START.finditer(source, begin, end):
        start = match.start() if match.group().startswith(b'"') else match.end() - 1
        node = root.descendant_for_byte_range(start, start + 1)
        while node is not None and node.type not in ("json_body", "raw_string"):
            node = node.parent
        if node is not None and node.id not in seen and node.end_point.row > node.start_point.row:
            seen.add(node.id)
            found.append(node)
    return found


__all__ = [
    "TRIVIA",
    "bracket_opener",
    "in_error",
    "largest_at",
    "largest_with_parent",
    "line_start",
    "mask",
    "multiline_opaque",
    "opens_here",
]
