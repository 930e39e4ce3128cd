"""Bounds on the work one document can cause: what is too deep, too long or too large is skipped, and said so.

Size: a document larger than `MAX_ANALYSED_BYTES` is analysed up to the last line break before
that bound (the tree ends there); a line longer than `MAX_LINE_BYTES` is blanked. Either way a
`Skipped` span says what was left out, and hovers and the rest keep answering elsewhere.

Nesting:
Everything above the syntax layer walks trees and JSON values, some of it recursively. So that
no user-controlled depth reaches a Python recursion, a tree nested deeper than `MAX_TREE_DEPTH`
is not handed on as it is: the outermost subtrees that reach that depth are blanked (their bytes
become spaces, line breaks kept, so every position stays where it was), the blanked source is
parsed again, and each blanked span is reported as a "too deeply nested" problem. Blanking only
happens when a cheap scan of the text (bracket and indentation depth) says it might be needed.

`json_nesting` bounds JSON the same way before it reaches `json.loads`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Node, Parser, Tree

MAX_ANALYSED_BYTES = 768 * 1024  # about 22,000 lines of AWL; beyond it a document is not analysed
MAX_LINE_BYTES = 10_000  # no AWL line needs more; longer ones are blanked
MAX_TREE_DEPTH = 160  # tree levels; normal documents stay below 40
MAX_JSON_DEPTH = 128  # levels of arrays/objects in JSON (schemas, `json { … }`, constants)
_BRACKET_TRIGGER = MAX_TREE_DEPTH // 4  # a bracket level costs at least 2 tree levels
_INDENT_TRIGGER = MAX_TREE_DEPTH // 4  # an indentation level (2 spaces) costs at least 2 tree levels
_BRACKETS = re.compile(rb"[\[\](){}]")
_INDENT = re.compile(rb"^[ \t]+", re.MULTILINE)


_LONG_LINE = re.compile(rb"[^\n]{%d,}" % (MAX_LINE_BYTES + 1))


@dataclass(frozen=True)
class Skipped:
    """A span left out of the analysis: (row, byte column) start and end, and why."""

    start: tuple[int, int]
    end: tuple[int, int]
    message: str
    code: str


def might_be_too_deep(source: bytes) -> bool:
    """Cheap over-estimate: could any subtree of this source be deeper than `MAX_TREE_DEPTH`?"""
    if source.count(b"(") + source.count(b"[") + source.count(b"{") > _BRACKET_TRIGGER:
        depth = deepest = 0
        for m in _BRACKETS.finditer(source):
            if m.group() in b"([{":
                depth += 1
                if depth > deepest:
                    deepest = depth
                    if deepest > _BRACKET_TRIGGER:
                        return True
            else:
                depth = max(0, depth - 1)
    widest = max((len(m.group()) for m in _INDENT.finditer(source)), default=0)
    return widest // 2 > _INDENT_TRIGGER


def too_deep(root: Node, limit: int = MAX_TREE_DEPTH) -> list[Node]:
    """The outermost nodes whose children would lie at depth `limit` (iterative; in document order)."""
    out: list[Node] = []
    cursor = root.walk()
    depth = 0
    while True:
        node = cursor.node
        if node is None:  # a cursor walked from a node always stands on one
            return out
        if depth >= limit - 1 and node.child_count:
            out.append(node)
        elif cursor.goto_first_child():
            depth += 1
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return out
            depth -= 1


def blank(source: bytes, nodes: list[Node]) -> bytes:
    """The source with each node's bytes as spaces (line breaks kept)."""
    data = bytearray(source)
    for node in nodes:
        for i in range(node.start_byte, node.end_byte):
            if data[i] not in (0x0A, 0x0D):
                data[i] = 0x20
    return bytes(data)


def bounded_parse(
    parser: Parser, source: bytes, old_tree: Tree | None = None
) -> tuple[Tree, bytes, list[Skipped]]:
    """Parse within the bounds: the tree, the source it was parsed from, and what was skipped."""
    skipped: list[Skipped] = []
    blanked = 0
    if len(source) > MAX_LINE_BYTES and _LONG_LINE.search(source):
        source, skipped = _without_long_lines(source)
        blanked = sum(s.end[1] for s in skipped)
        old_tree = None
    if len(source) - blanked > MAX_ANALYSED_BYTES:
        source, cut = _truncated(source)
        skipped = [s for s in skipped if s.start[0] < cut.start[0]] + [cut]
        old_tree = None
    tree = parser.parse(source, old_tree) if old_tree is not None else parser.parse(source)
    if not might_be_too_deep(source):
        return tree, source, skipped
    for _ in range(4):  # blanking makes the tree shallower; a few rounds always suffice
        deep = too_deep(tree.root_node)
        if not deep:
            break
        skipped += [
            Skipped(
                (n.start_point.row, n.start_point.column),
                (n.end_point.row, n.end_point.column),
                f"nested too deeply to analyse (more than {MAX_TREE_DEPTH} levels): this part is skipped",
                "too-deep",
            )
            for n in deep
        ]
        source = blank(source, deep)
        tree = parser.parse(source)
    return tree, source, skipped


def _truncated(source: bytes) -> tuple[bytes, Skipped]:
    cut = source.rfind(b"\n", 0, MAX_ANALYSED_BYTES) + 1
    row = source.count(b"\n", 0, cut)
    rows = source.count(b"\n")
    message = (
        f"this document is {len(source):,} bytes: only the first {cut:,} bytes ({row:,} lines) are "
        f"analysed (the bound is {MAX_ANALYSED_BYTES:,}); lines {row + 1:,}–{rows + 1:,} are skipped"
    )
    return source[:cut], Skipped((row, 0), (row, 0), message, "too-large")


def _without_long_lines(source: bytes) -> tuple[bytes, list[Skipped]]:
    data = bytearray(source)
    out: list[Skipped] = []
    for m in _LONG_LINE.finditer(source):
        row = source.count(b"\n", 0, m.start())
        length = m.end() - m.start()
        data[m.start() : m.end()] = b" " * length
        out.append(
            Skipped(
                (row, 0),
                (row, length),
                f"line {row + 1:,} is {length:,} bytes long: lines over {MAX_LINE_BYTES:,} bytes are not "
                "analysed",
                "line-too-long",
            )
        )
    return bytes(data), out


def json_nesting(text: str | bytes, limit: int = MAX_JSON_DEPTH) -> int:
    """The deepest array/object nesting in a JSON text (an upper bound: brackets in strings count too
    when the text has no quotes to tell them apart); 0 when it has no more brackets than `limit`."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    if text.count("[") + text.count("{") <= limit:
        return 0
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest
