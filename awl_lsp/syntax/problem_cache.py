"""Syntax problems of an open document, per version, re-read only around what an edit changed.

`syntax_problems` (`errors.py`) reads a whole tree. What it finds belongs to the top-level items:
each item's errors, unterminated strings and layout problems (`item_syntax_problems`) are read from
the item and the lines right around it, and `finish_problems` makes the document's answer of them
all. So the cache keeps each top-level child's share from the last version, and after an edit reads
again only the children between the nearest clean declarations on either side of the edited bytes
(each on lines of its own: what an error beside the edit reads around itself — the next code
line, the token before — lies in them, and they are the same as before, the ones after only moved).
The children before the window keep their problems, those after it are moved by the lines added or
removed; the errors elsewhere in a broken text are the same text in the same tree (`recovery.py`:
a broken text has the tree of a fresh parse), so they keep theirs too. A text with a tab, skipped
parts, an update that may have changed anything (`changes_since` None) or a window whose edges are
not where the last version had them, and everything is read again (a clean item's layout by its
text, from the last version's).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from itertools import compress

from tree_sitter import Node

from awl_lsp.syntax.document import SyntaxDocument
from awl_lsp.syntax.errors import (
    SyntaxProblem,
    finish_problems,
    item_syntax_problems,
    root_errors,
    syntax_problems,
)
from awl_lsp.syntax.offsets import Offsets
from awl_lsp.syntax.problems import moved

_TRIVIA = frozenset({"comment", "doc_comment", "narration"})


@dataclass(eq=False)
class _Share:
    """One top-level child's problems, at `row` (its first row when they were placed)."""

    row: int
    errors: list[SyntaxProblem]
    strings: list[SyntaxProblem]
    layout: list[SyntaxProblem]

    def at(self, row: int) -> _Share:
        """The same problems moved to `row` (this share, moved in place)."""
        if row != self.row:
            by = row - self.row
            self.errors = [moved(p, by) for p in self.errors]
            self.strings = [moved(p, by) for p in self.strings]
            self.layout = [moved(p, by) for p in self.layout]
            self.row = row
        return self


class SyntaxProblemCache:
    """The last version's syntax problems of one document, per top-level child (kept in its
    `Snapshot.shared`)."""

    def __init__(self) -> None:
        self._revision: int | None = None
        self._lines = 0
        # per top-level child, in order: its bytes, its first row, whether it can be a window's
        # edge, the text its layout is known by (b"": none) and its problems (None: none)
        self._starts = Offsets([])
        self._ends = Offsets([])
        self._rows = Offsets([])
        self._edges: list[bool] = []
        self._keys: list[bytes] = []
        self._shares: list[_Share | None] = []
        self._layout: dict[bytes, list[SyntaxProblem]] = {}  # a clean child's layout by its text
        self.last_window: tuple[int, int] | None = None  # rows read again last time (None: all)

    def problems(
        self, doc: SyntaxDocument, strings: dict | None = None, layout: dict | None = None
    ) -> list[SyntaxProblem]:
        """`syntax_problems(doc.tree, doc.source, doc.text)`, for the newest version (`strings` and
        `layout`, the item caches of `syntax_problems`, serve the texts this cache does not read)."""
        if doc.skipped or "\t" in doc.text:
            self._revision = None
            self.last_window = None
            return syntax_problems(doc.tree, doc.source, doc.text, strings, layout)
        changes = doc.changes_since(self._revision) if self._revision is not None else None
        if changes is None or not self._spliced(doc, changes):
            self.last_window = None
            self._read_all(doc)
        self._revision, self._lines = doc.revision, doc.lines.line_count
        return self._assembled(doc)

    def _read(self, root: Node, child: Node, source: bytes) -> tuple[bytes, _Share | None]:
        """A child's layout key and problems (a clean child's layout from the last version's, by
        its text)."""
        row = child.start_point.row
        key = b""
        if _cleanly(child) and child.type not in _TRIVIA:
            key = source[source.rfind(b"\n", 0, child.start_byte) + 1 : child.end_byte]
            known = self._layout.get(key)
            if known is not None:
                strings: list[SyntaxProblem] = []
                if source.find(b'"', child.start_byte, child.end_byte) != -1:
                    strings = item_syntax_problems(root, child, source)[1]
                layout = [moved(p, row) for p in known] if known else []
                return key, (_Share(row, [], strings, layout) if strings or layout else None)
        errors, strings, layout = item_syntax_problems(root, child, source)
        if key:
            self._layout[key] = [moved(p, -row) for p in layout] if layout else []
        return key, (_Share(row, errors, strings, layout) if errors or strings or layout else None)

    def _read_all(self, doc: SyntaxDocument) -> None:
        root, source = doc.root, doc.source
        children = root.children
        last, self._layout = self._layout, {}
        read = []
        for child in children:
            key = b""
            if _cleanly(child) and child.type not in _TRIVIA:  # (the last version's layout, by text)
                key = source[source.rfind(b"\n", 0, child.start_byte) + 1 : child.end_byte]
                if key in last:
                    self._layout[key] = last[key]
            read.append(self._read(root, child, source))
        self._starts = Offsets([c.start_byte for c in children])
        self._ends = Offsets([c.end_byte for c in children])
        self._rows = Offsets([c.start_point.row for c in children])
        self._edges = [_edge(c, source) for c in children]
        self._keys = [key for key, _ in read]
        self._shares = [share for _, share in read]

    def _spliced(self, doc: SyntaxDocument, changes: tuple[int, int, int]) -> bool:
        """Read again only the children between the edges around the edit; False when the new
        tree's children do not line up with the last version's there."""
        start, old_end, new_end = changes
        delta = new_end - old_end
        starts, ends, edges = self._starts, self._ends, self._edges
        count = len(starts)
        if not count:
            return False
        first = bisect_left(ends, start)  # the first child reaching the edit (or right after it)
        last = bisect_right(starts, old_end) - 1  # the last child starting at or before its end
        lo = first - 1
        while lo >= 0 and not edges[lo]:
            lo -= 1
        hi = max(last, first) + 1
        while hi < count and not edges[hi]:
            hi += 1
        # the new children between the edges: after the edge before (the same bytes), up to the
        # edge after (moved by `delta`), which must be where the last version had it
        root, source = doc.root, doc.source
        begin = ends[lo] if lo >= 0 else 0
        stop = starts[hi] + delta if hi < count else len(source) + 1
        found: list[Node] = []
        edge: Node | None = None
        cursor = root.walk()
        if cursor.goto_first_child_for_byte(begin) is not None:
            while True:
                node = cursor.node
                assert node is not None
                if node.start_byte >= stop:
                    edge = node
                    break
                found.append(node)
                if not cursor.goto_next_sibling():
                    break
        if found and found[0].start_byte < begin:
            return False  # the edge before is part of something else now
        if hi < count and (
            edge is None
            or edge.start_byte != stop
            or edge.end_byte != ends[hi] + delta
            or not _edge(edge, source)
        ):
            return False
        if hi == count and edge is not None:
            return False
        for key in self._keys[lo + 1 : hi]:
            self._layout.pop(key, None)  # (the cache holds this version's children's texts only)
        read = [self._read(root, child, source) for child in found]
        lines = doc.lines.line_count - self._lines
        upto = min(hi, count)  # (the children from the edge after the window on move)
        self._starts = starts.replaced(lo + 1, upto, [c.start_byte for c in found], delta)
        self._ends = ends.replaced(lo + 1, upto, [c.end_byte for c in found], delta)
        self._rows = self._rows.replaced(lo + 1, upto, [c.start_point.row for c in found], lines)
        self._edges[lo + 1 : hi] = [_edge(c, source) for c in found]
        self._keys[lo + 1 : hi] = [key for key, _ in read]
        self._shares[lo + 1 : hi] = [share for _, share in read]
        top = found[0].start_point.row if found else (edge.start_point.row if edge is not None else 0)
        bottom = found[-1].end_point.row + (found[-1].end_point.column > 0) if found else top
        self.last_window = (top, bottom)
        return True

    def _assembled(self, doc: SyntaxDocument) -> list[SyntaxProblem]:
        """The document's problems from the children's, in `syntax_problems`' order."""
        root = doc.root
        errors: list[SyntaxProblem] = []
        strings: list[SyntaxProblem] = []
        layout: list[SyntaxProblem] = []
        rows, shares = self._rows, self._shares
        for i in compress(range(len(shares)), shares):
            share = shares[i].at(rows[i])  # type: ignore[union-attr]
            errors += share.errors
            strings += share.strings
            layout += share.layout
        if root.has_error and not errors:  # (every child with an error has some: see `root_errors`)
            errors = root_errors(root, doc.source)
        return finish_problems(root, errors + strings + layout)


def _cleanly(child: Node) -> bool:
    return not child.has_error and not child.is_missing


def _edge(child: Node, source: bytes) -> bool:
    """Whether a top-level child can be a window's edge: a clean declaration on lines of its own."""
    if not _cleanly(child) or not child.is_named or child.type in _TRIVIA:
        return False
    start, end = child.start_byte, child.end_byte
    if start > 0 and source[start - 1 : start] != b"\n":
        return False
    return end >= len(source) or source[end - 1 : end] == b"\n"


def document_syntax_problems(
    doc: SyntaxDocument, shared: dict[str, object], strings: dict | None = None, layout: dict | None = None
) -> list[SyntaxProblem]:
    """The document's syntax problems, through the `SyntaxProblemCache` kept in `shared` (a document's
    memory between versions, `Snapshot.shared`)."""
    cache = shared.get("syntax-problems")
    if not isinstance(cache, SyntaxProblemCache):
        cache = shared["syntax-problems"] = SyntaxProblemCache()
    return cache.problems(doc, strings, layout)


__all__ = ["SyntaxProblemCache", "document_syntax_problems"]
