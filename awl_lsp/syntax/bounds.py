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

An open document keeps `SourceFacts`: those scans' results per block of lines, so after an edit
only the blocks it touched are scanned again (a keystroke costs the same at any document size)
and the guards give exactly the answers a scan of the whole text gives.

`json_nesting` bounds JSON the same way before it reaches `json.loads`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import accumulate, islice
from operator import sub

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
_DEEP_INDENT = re.compile(rb"^[ \t]{%d,}" % (2 * _INDENT_TRIGGER + 2), re.MULTILINE)  # widest // 2 > trigger


@dataclass(frozen=True)
class Skipped:
    """A span left out of the analysis: (row, byte column) start and end, and why."""

    start: tuple[int, int]
    end: tuple[int, int]
    message: str
    code: str


def _bracket_facts(source: bytes, start: int = 0, end: int | None = None) -> tuple[int, int, int, int]:
    """How a run of bytes moves the bracket depth of `might_be_too_deep`'s scan (closes clamp at 0).

    Entering at depth d, the run leaves at `max(d + a, b)` and peaks at `max(d + x, y)`; runs
    compose (see `_compose`), so a document's depth is known from its blocks'. (The depth after
    each bracket is a running sum, its low so far a running minimum: both computed in C.)
    """
    run = source[start:end].translate(_BRACKET_STEPS, _NOT_BRACKETS)  # opens as 2, closes as 0
    if not run:
        return 0, 0, 0, 0
    depth = list(accumulate(map(_MINUS_ONE, run)))  # the depth after each bracket, from 0
    total = depth[-1]
    low = min(0, min(depth))
    high = max(0, max(depth))
    rise = max(0, max(map(sub, depth, islice(accumulate(depth, min, initial=0), 1, None))))
    return total, total - low, high, rise


_BRACKET_STEPS = bytes.maketrans(b"([{)]}", b"\x02\x02\x02\x00\x00\x00")
_NOT_BRACKETS = bytes(sorted(set(range(256)) - set(b"()[]{}")))
_MINUS_ONE = (1).__rsub__  # x -> x - 1


def _compose(first: tuple[int, int, int, int], then: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    a1, b1, x1, y1 = first
    a2, b2, x2, y2 = then
    return a1 + a2, max(b1 + a2, b2), max(x1, a1 + x2), max(y1, b1 + x2, y2)


@dataclass
class _Block:
    size: int  # bytes (a block ends just after a line break, except the last one)
    brackets: tuple[int, int, int, int]  # see `_bracket_facts`
    deep_indent: bool  # a line indented deeper than `_INDENT_TRIGGER` levels
    long_line: bool  # a line longer than `MAX_LINE_BYTES`


_BLOCK_BYTES = 4096


def _blocks(source: bytes, start: int, end: int) -> list[_Block]:
    """`source[start:end]` (which starts a line, and ends one or the source) in blocks of lines."""
    out: list[_Block] = []
    while start < end or not out:
        stop = source.find(b"\n", min(start + _BLOCK_BYTES, end) - 1, end)
        stop = end if stop == -1 else stop + 1
        part = source[start:stop]
        deep = _DEEP_INDENT.search(part) is not None
        out.append(_Block(stop - start, _bracket_facts(part), deep, _LONG_LINE.search(part) is not None))
        start = stop
    return out


class SourceFacts:
    """The guards' scans of one source, per block of lines, updated per edit (see the module doc).

    Kept only for sources within `MAX_ANALYSED_BYTES` (`for_source` gives None beyond: a larger
    one is cut at the bound, and the cut part is scanned as it always was).
    """

    @staticmethod
    def for_source(source: bytes) -> SourceFacts | None:
        return SourceFacts(source) if len(source) <= MAX_ANALYSED_BYTES else None

    def __init__(self, source: bytes) -> None:
        self.blocks = _blocks(source, 0, len(source))
        self.size = len(source)

    def edited(self, source: bytes, start: int, old_end: int, new_end: int) -> None:
        """`source` is the new text, where bytes [start, old_end) of the old one became [start, new_end)."""
        blocks = self.blocks
        first = last = -1
        at = 0
        for i, block in enumerate(blocks):
            end = at + block.size
            if first < 0 and (start < end or i == len(blocks) - 1):
                first, first_at = i, at
            if first >= 0 and (old_end < end or i == len(blocks) - 1):
                last, last_end = i, end
                break
            at = end
        delta = new_end - old_end
        self.blocks[first : last + 1] = _blocks(source, first_at, last_end + delta)
        self.size = len(source)

    def long_lines(self) -> bool:
        return any(b.long_line for b in self.blocks)

    def might_be_too_deep(self) -> bool:
        """The same answer as `might_be_too_deep(source)`."""
        depth = peak = 0
        deep = False
        for b in self.blocks:
            a, low, x, y = b.brackets
            peak = max(peak, depth + x, y)
            depth = max(depth + a, low)
            deep = deep or b.deep_indent
        return peak > _BRACKET_TRIGGER or deep


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
    parser: Parser, source: bytes, old_tree: Tree | None = None, facts: SourceFacts | None = None
) -> tuple[Tree, bytes, list[Skipped]]:
    """Parse within the bounds: the tree, the source it was parsed from, and what was skipped.

    `facts`, when given, are the guards' scans of this very `source` (kept up to date per edit).
    """
    skipped: list[Skipped] = []
    blanked = 0
    if facts is not None and facts.size != len(source):
        facts = None  # not this source's: scan it
    long_lines = (
        facts.long_lines()
        if facts is not None
        else len(source) > MAX_LINE_BYTES and _LONG_LINE.search(source) is not None
    )
    if long_lines:
        source, skipped = _without_long_lines(source)
        blanked = sum(s.end[1] for s in skipped)
        old_tree = facts = None
    if len(source) - blanked > MAX_ANALYSED_BYTES:
        source, cut = _truncated(source)
        skipped = [s for s in skipped if s.start[0] < cut.start[0]] + [cut]
        old_tree = facts = None
    tree = parser.parse(source, old_tree) if old_tree is not None else parser.parse(source)
    if not (facts.might_be_too_deep() if facts is not None else might_be_too_deep(source)):
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


_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)  # a whole string, escapes and all
_NOT_JSON_BRACKETS = re.compile(r"[^\[\]{}]+")


def json_nesting(text: str | bytes, limit: int = MAX_JSON_DEPTH) -> int:
    """The deepest array/object nesting in a JSON text (an upper bound: brackets in strings count too
    when the text has no quotes to tell them apart); 0 when it has no more brackets than `limit`
    outside its strings. The strings are cut out by a regular expression and only the brackets left
    are walked, so a large message whose brackets are all in one string (a document's text) costs a
    pass in C, not a Python step per character."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    if text.count("[") + text.count("{") <= limit:
        return 0
    bare = _JSON_STRING.sub("", text)
    quote = bare.find('"')  # a string never closed runs to the end
    if quote != -1:
        bare = bare[:quote]
    if bare.count("[") + bare.count("{") <= limit:
        return 0
    depth = deepest = 0
    for ch in _NOT_JSON_BRACKETS.sub("", bare):
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest
