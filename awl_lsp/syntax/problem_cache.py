"""Syntax problems of an open document, per version, re-read only around what an edit changed.

`syntax_problems` (`errors.py`) reads a whole tree. While the text parses without errors, what it
reports for a top-level item (an unterminated string, a layout rule broken) depends on that
item's own lines only, so after an edit the problems of the items before and after the edited
bytes are the last version's (those after it moved by the lines added or removed), and only the
items around the edit are asked again: their text, parsed on its own, goes through the very same
`syntax_problems`, and its answer is moved to where the items are. That is done only when the
text on its own parses into the same items (same trees) as inside the document, and the version
before was clean too; a broken text (before or after the edit), a tab, skipped parts, or a problem
that stops the reading, and everything is read again.
"""

from __future__ import annotations

import threading

from tree_sitter import Node

from awl_lsp.syntax.document import SyntaxDocument
from awl_lsp.syntax.errors import SyntaxProblem, reading_stops, syntax_problems
from awl_lsp.syntax.parser import new_parser
from awl_lsp.syntax.problems import moved

_PARSERS = threading.local()  # one parser per thread for the items read on their own


class SyntaxProblemCache:
    """The last version's syntax problems of one document (kept in its `Snapshot.shared`)."""

    def __init__(self) -> None:
        self._revision: int | None = None
        self._lines = 0
        self._problems: list[SyntaxProblem] = []
        self._clean = False  # were they read from a clean text (no error, tab or skipped part)?
        self.last_window: tuple[int, int] | None = None  # rows read again last time (None: all)

    def problems(
        self, doc: SyntaxDocument, strings: dict | None = None, layout: dict | None = None
    ) -> list[SyntaxProblem]:
        """`syntax_problems(doc.tree, doc.source, doc.text, strings, layout)`, for the newest version."""
        found = None
        clean = not doc.skipped and not doc.root.has_error and "\t" not in doc.text
        if self._clean and clean:  # (an error's problems are not the broken item's alone)
            changes = doc.changes_since(self._revision)
            if changes is not None:
                found = self._spliced(doc, changes)
        if found is None:
            self.last_window = None
            found = syntax_problems(doc.tree, doc.source, doc.text, strings, layout)
        self._revision, self._lines, self._problems = doc.revision, doc.lines.line_count, found
        self._clean = clean
        return list(found)

    def _spliced(self, doc: SyntaxDocument, changes: tuple[int, int, int]) -> list[SyntaxProblem] | None:
        start, _, end = changes
        old = self._problems
        if reading_stops(old):
            return None
        window = _window(doc, start, end)
        if window is None:
            return None
        nodes, first_byte, last_byte = window
        source = doc.source
        part = source[first_byte:last_byte]
        parser = getattr(_PARSERS, "parser", None)
        if parser is None:
            parser = _PARSERS.parser = new_parser()
        tree = parser.parse(part)
        alone = [c for c in tree.root_node.children]
        if tree.root_node.has_error or len(alone) != len(nodes):
            return None
        for a, b in zip(alone, nodes, strict=True):
            if a.type != b.type or a.end_byte - a.start_byte != b.end_byte - b.start_byte or str(a) != str(b):
                return None
        inside = syntax_problems(tree, part, part.decode("utf-8", errors="replace"))
        if reading_stops(inside):
            return None
        top = nodes[0].start_point.row
        end_point = nodes[-1].end_point
        bottom = end_point.row if end_point.column == 0 else end_point.row + 1  # rows [top, bottom)
        shift = doc.lines.line_count - self._lines
        old_bottom = bottom - shift
        self.last_window = (top, bottom)
        out: list[SyntaxProblem] = []
        for strings in (True, False):  # `syntax_problems` gives the strings first, then the layout
            out += [p for p in old if (p.code == "string") is strings and p.range[0] < top]
            out += [moved(p, top) for p in inside if (p.code == "string") is strings]
            out += [
                moved(p, shift) if shift else p
                for p in old
                if (p.code == "string") is strings and p.range[0] >= old_bottom
            ]
        return out


def document_syntax_problems(
    doc: SyntaxDocument, shared: dict[str, object], strings: dict | None = None, layout: dict | None = None
) -> list[SyntaxProblem]:
    """The document's syntax problems, through the `SyntaxProblemCache` kept in `shared` (a document's
    memory between versions, `Snapshot.shared`)."""
    cache = shared.get("syntax-problems")
    if not isinstance(cache, SyntaxProblemCache):
        cache = shared["syntax-problems"] = SyntaxProblemCache()
    return cache.problems(doc, strings, layout)


def _window(doc: SyntaxDocument, start: int, end: int) -> tuple[list[Node], int, int] | None:
    """The top-level nodes around source bytes [start, end), and the lines they cover (whole)."""
    root = doc.root
    cursor = root.walk()
    if cursor.goto_first_child_for_byte(max(0, start - 1)) is None:
        return None
    nodes: list[Node] = []
    while True:
        node = cursor.node
        if node is None:
            return None
        nodes.append(node)
        if node.start_byte > end or not cursor.goto_next_sibling():
            break
    if nodes[0].start_byte > start:  # the edit begins between items: the one before is read too
        before = nodes[0].prev_sibling
        if before is None:
            return None
        nodes.insert(0, before)
    source = doc.source
    first, last = nodes[0].start_byte, nodes[-1].end_byte
    if first > 0 and source[first - 1 : first] != b"\n":
        return None  # the items share a line with what lies before them
    if last < len(source) and source[last - 1 : last] != b"\n":
        return None
    return nodes, first, last


__all__ = ["SyntaxProblemCache", "document_syntax_problems"]
