"""Error recovery checked where it happened: does an incremental re-parse of a broken text have the
tree a fresh parse of the same text has?

tree-sitter's error recovery depends on what the parser reuses from the tree before, so after an
edit that leaves a syntax error the re-parsed tree may differ from a fresh open's — and with it the
messages, the model and the colours. A fresh parse of the whole document costs what the document
costs (≈ 20 ms at 5,000 lines, on every keystroke of a broken text); what recovery can change lies
around the errors, though. So the top-level items of the new tree are grouped into windows — each
run of items with an error or touched by the edit, with one clean declaration on either side that
starts and ends on a line of its own (where the parser is back at the top level, its indentation
stack empty) — and each window's text is parsed fresh on its own. Where every window's tree is
node for node the re-parsed tree's (kinds, fields, byte spans, missing tokens), the re-parse stands;
otherwise the caller parses the whole text afresh. Outside the windows both trees hold the same
clean items (a clean item is parsed the same whatever was reused: tree-sitter never reuses a node
with an error in it).
"""

from __future__ import annotations

import threading

from tree_sitter import Node, Parser, Tree

from awl_lsp.syntax.parser import new_parser

_PARSERS = threading.local()  # one parser per thread for the windows parsed on their own
_TRIVIA = frozenset({"comment", "doc_comment", "narration"})
# beyond this many bytes in the windows, a fresh parse of everything costs about as much
MAX_WINDOW_BYTES = 64 * 1024


def recovery_windows(tree: Tree, source: bytes, start: int, end: int) -> list[tuple[int, int]] | None:
    """The byte spans of the windows around the errors of `tree` and the edited bytes [start, end)
    (see the module's docstring), first first; None where no window can be bounded (an error in
    an item that shares a line with its neighbour, say)."""
    root = tree.root_node
    children = root.children
    count = len(children)
    if not count:
        return None
    marked = [i for i, child in enumerate(children) if child.has_error]
    for i, child in enumerate(children):  # (the children the edit reaches, as a bisection would)
        if child.end_byte >= start:
            while i < count and children[i].start_byte <= end:
                marked.append(i)
                i += 1
            break
    if not marked:
        return []
    windows: list[tuple[int, int]] = []  # (first, last) child of each window
    for i in sorted(set(marked)):
        if windows and i <= windows[-1][1]:
            continue  # (its margins are the window's: nothing clean lies between it and them)
        first, last = _margin(children, source, i, -1), _margin(children, source, i, +1)
        if windows and first <= windows[-1][1]:
            windows[-1] = (windows[-1][0], last)
        else:
            windows.append((first, last))
    return [(children[lo].start_byte, children[hi].end_byte) for lo, hi in windows]


def _margin(children: list[Node], source: bytes, i: int, step: int) -> int:
    """The index of the nearest clean declaration before (`step` -1) or after (+1) child `i` that
    lies on lines of its own; the first or last child when the document ends first."""
    j = i + step
    while 0 <= j < len(children):
        child = children[j]
        if not child.has_error and child.is_named and child.type not in _TRIVIA and _own_lines(child, source):
            return j
        j += step
    return 0 if step < 0 else len(children) - 1


def _own_lines(node: Node, source: bytes) -> bool:
    start, end = node.start_byte, node.end_byte
    if start > 0 and source[start - 1 : start] != b"\n":
        return False
    return end >= len(source) or source[end - 1 : end] == b"\n"


def recovered_as_fresh(tree: Tree, source: bytes, start: int, end: int) -> bool:
    """Whether `tree` (an incremental re-parse of `source` with an error, the edit at [start, end))
    has the tree a fresh parse of `source` would have, as far as its windows tell."""
    spans = recovery_windows(tree, source, start, end)
    if spans is None or sum(b - a for a, b in spans) > MAX_WINDOW_BYTES:
        return False
    parser: Parser | None = getattr(_PARSERS, "parser", None)
    if parser is None:
        parser = _PARSERS.parser = new_parser()
    root = tree.root_node
    for a, b in spans:
        alone = parser.parse(source[a:b]).root_node
        inside = [c for c in root.children if c.start_byte >= a and c.end_byte <= b]
        if len(inside) != alone.child_count:
            return False
        if not all(_same(x, y, a) for x, y in zip(inside, alone.children, strict=True)):
            return False
    return True


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


__all__ = ["MAX_WINDOW_BYTES", "recovered_as_fresh", "recovery_windows"]
