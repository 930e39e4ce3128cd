"""Error recovery checked where it happened: does an incremental re-parse of a broken text have the
tree a fresh parse of the same text has?

tree-sitter's error recovery depends on what the parser reuses from the tree before, so after an
edit that leaves a syntax error the re-parsed tree may differ from a fresh open's — and with it the
messages, the model and the colours. A fresh parse of the whole document costs what the document
costs (≈ 20 ms at 5,000 lines, on every keystroke of a broken text); what recovery can change lies
where the re-parse changed the tree, though. `SyntaxDocument.apply` takes the stretch the edit and
the tree's changed ranges cover; the window around it runs from the clean declaration before it to
the one after it (each starting and ending on a line of its own: there the parser is back at the
top level, its indentation stack empty), and the window's text is parsed fresh on its own. Where
that tree is node for node the re-parsed tree's there (kinds, fields, byte spans, missing tokens),
the re-parse stands; otherwise the caller parses the whole text afresh. Outside the stretch the
re-parse kept the last version's structure — itself a fresh parse's tree.
"""

from __future__ import annotations

import threading

from tree_sitter import Node, Parser, Tree

from awl_lsp.syntax.parser import new_parser

_PARSERS = threading.local()  # one parser per thread for the windows parsed on their own
_TRIVIA = frozenset({"comment", "doc_comment", "narration"})
# beyond this many bytes in the window, it is not worth telling (the whole text is parsed afresh)
MAX_WINDOW_BYTES = 64 * 1024


def recovery_window(tree: Tree, source: bytes, start: int, end: int) -> list[Node]:
    """The top-level children of `tree` from the clean declaration before the bytes [start, end)
    to the one after them (see the module's docstring), found walking out from there; the first
    or the last child where the document ends first."""
    root = tree.root_node
    if not root.child_count:
        return []
    cursor = root.walk()
    if cursor.goto_first_child_for_byte(start) is None:
        cursor.goto_last_child()
    before: list[Node] = []
    back = root.walk()
    back.reset_to(cursor)  # (not `cursor.copy()`: a copy crashes walking back)
    while back.goto_previous_sibling():
        node = back.node
        assert node is not None
        before.append(node)
        if _edge(node, source):
            break
    window = before[::-1]
    while True:
        node = cursor.node
        assert node is not None
        window.append(node)
        if node.start_byte >= end and _edge(node, source):
            break
        if not cursor.goto_next_sibling():
            break
    return window


def _edge(node: Node, source: bytes) -> bool:
    """Whether a top-level child is a clean declaration on lines of its own."""
    if node.has_error or node.is_missing or not node.is_named or node.type in _TRIVIA:
        return False
    start, end = node.start_byte, node.end_byte
    if start > 0 and source[start - 1 : start] != b"\n":
        return False
    return end >= len(source) or source[end - 1 : end] == b"\n"


def recovered_as_fresh(tree: Tree, source: bytes, start: int, end: int) -> bool:
    """Whether `tree` (an incremental re-parse of `source` with an error, its structure changed
    only within the bytes [start, end)) has the tree a fresh parse of `source` would have, as far
    as the window around [start, end) tells."""
    window = recovery_window(tree, source, start, end)
    if not window:
        return False
    a, b = window[0].start_byte, window[-1].end_byte
    if b - a > MAX_WINDOW_BYTES:
        return False
    parser: Parser | None = getattr(_PARSERS, "parser", None)
    if parser is None:
        parser = _PARSERS.parser = new_parser()
    alone = parser.parse(source[a:b]).root_node
    if len(window) != alone.child_count:
        return False
    return all(_same(x, y, a) for x, y in zip(window, alone.children, strict=True))


def _same(node: Node, alone: Node, offset: int) -> bool:
    """Whether `node` and `alone` (parsed from the text at `offset` on) are the same tree, node for
    node: kinds, fields, byte spans and missing tokens."""
    a, b = node.walk(), alone.walk()
    while True:
        x, y = a.node, b.node
        if x is None or y is None:
            return x is y
        if (
            x.kind_id != y.kind_id
            or x.start_byte - offset != y.start_byte
            or x.end_byte - offset != y.end_byte
            or x.is_missing != y.is_missing
            or a.field_id != b.field_id
        ):
            return False
        down_a, down_b = a.goto_first_child(), b.goto_first_child()
        if down_a != down_b:
            return False
        if down_a:
            continue
        while True:
            side_a, side_b = a.goto_next_sibling(), b.goto_next_sibling()
            if side_a != side_b:
                return False
            if side_a:
                break
            up_a, up_b = a.goto_parent(), b.goto_parent()
            if up_a != up_b:
                return False
            if not up_a:  # (a cursor does not go above the node it started from)
                return True


__all__ = ["MAX_WINDOW_BYTES", "recovered_as_fresh", "recovery_window"]
