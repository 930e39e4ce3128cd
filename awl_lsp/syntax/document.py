"""One open AWL text with its tree: full and incremental updates.

An incremental change (an LSP range edit) is applied to the text *and* to the tree with
`Tree.edit`, and the new text is re-parsed with the edited tree, so tree-sitter reuses every
subtree the edit did not touch. `changed_rows` says which rows the last update's edits replaced
(the tree before it is not kept: `Tree.changed_ranges` would need it); `changes_since` says
which bytes of the source the edits since a `revision` replaced, so the layers above can re-read
only those. Nothing here is rebuilt for the whole text per edit: the line index and the bounds'
scans (`SourceFacts`) are updated for the edited lines.

The text is the editor's, line breaks included (see `positions`); lone UTF-16 surrogates, which
no UTF-8 parser can take, become U+FFFD (same length in every position encoding) and are counted
in `surrogates_replaced` so the server can say so. What lies beyond the bounds of `bounds` (too
deep, too long a line, too large a document) is left out of `source` and listed in `skipped`.
"""

from __future__ import annotations

import copy
from collections import deque
from dataclasses import dataclass

from tree_sitter import Node, Point, Tree

from awl_lsp.syntax.bounds import MAX_ANALYSED_BYTES, SourceFacts, bounded_parse
from awl_lsp.syntax.parser import new_parser
from awl_lsp.syntax.positions import Encoding, LineIndex, tree_source, without_surrogates
from awl_lsp.syntax.recovery import recovered_as_fresh

_LOG = 64  # updates remembered for `changes_since`


class EditOutOfRange(ValueError):
    """A range edit whose lines lie past the end of the text: the editor's text is not ours."""


@dataclass(frozen=True)
class TextEdit:
    """Replace the LSP range (start_line, start_char)–(end_line, end_char) with `text`."""

    start_line: int
    start_char: int
    end_line: int
    end_char: int
    text: str


class SyntaxDocument:
    def __init__(self, text: str, encoding: Encoding = Encoding.UTF16) -> None:
        self.encoding = encoding
        self._parser = new_parser()
        text, self.surrogates_replaced = without_surrogates(text)
        self.text = text
        self.lines = LineIndex(text)
        self.tree: Tree
        source = tree_source(text)
        self._facts = SourceFacts.for_source(source)
        self.tree, self.source, self.skipped = bounded_parse(self._parser, source, None, self._facts)
        self._changed_rows: list[tuple[int, int]] | None = None  # None: everything changed
        self.revision = 0  # counts updates (see `changes_since`)
        self._log: deque[tuple[int, tuple[int, int, int] | None]] = deque(maxlen=_LOG)

    @property
    def root(self) -> Node:
        return self.tree.root_node

    def frozen(self) -> SyntaxDocument:
        """This version as a value: the same text, line index and source, and a copy of the tree
        (O(1): tree-sitter shares the subtrees, and an edit of this document's tree copies the ones
        it changes), so later updates of this document leave it as it is. It takes no updates."""
        view = copy.copy(self)
        view.tree = self.tree.copy()
        view._parser = None  # type: ignore[assignment]
        view._facts = None  # (updated in place by `apply`; a view never parses)
        view._log = deque(self._log, maxlen=_LOG)
        return view

    def _writable(self) -> None:
        if self._parser is None:
            raise TypeError("a frozen version of a document takes no updates")

    @property
    def changed_rows(self) -> list[tuple[int, int]] | None:
        """The rows the edits of the last update replaced, in the new rows (None: everything)."""
        return self._changed_rows

    def changes_since(self, revision: int | None) -> tuple[int, int, int] | None:
        """`(start, old_end, new_end)`: the source bytes [start, old_end) at `revision` became
        [start, new_end) of this one, everything around them the same bytes and the same subtrees
        (reused by the incremental parse); None when anything may have changed (no revision, a full
        update, skipped parts, a broken text parsed afresh, too many updates ago)."""
        if revision is None or revision > self.revision:
            return None
        if revision == self.revision:
            return (0, 0, 0)
        log = self._log
        if not log or log[0][0] > revision + 1:
            return None
        out: tuple[int, int, int] | None = None
        for rev, change in log:
            if rev <= revision:
                continue
            if change is None:
                return None
            if out is None:
                out = change
            else:  # compose: bytes [a, o) of the middle version became [a, n)
                s0, o0, n0 = out
                a, o, n = change
                mid_end = max(n0, o)
                out = (min(s0, a), o0 + mid_end - n0, mid_end + n - o)
        return out

    def _note(self, change: tuple[int, int, int] | None) -> None:
        self.revision += 1
        self._log.append((self.revision, change))

    def replace(self, text: str) -> None:
        """Full-text update (no tree reuse)."""
        self._writable()
        text, self.surrogates_replaced = without_surrogates(text)
        self.text = text
        self.lines = LineIndex(text)
        source = tree_source(text)
        self._facts = SourceFacts.for_source(source)
        self.tree, self.source, self.skipped = bounded_parse(self._parser, source, None, self._facts)
        self._changed_rows = None
        self._note(None)

    def apply(self, edits: list[TextEdit]) -> None:
        """Apply LSP range edits in order, editing the tree in step, then re-parse once.

        A column past the end of its line means the end of the line (LSP's rule); a line past the
        end of the text raises `EditOutOfRange` after the edits before it were applied.
        """
        self._writable()
        if not edits:
            return
        tree = self.tree
        rows: list[tuple[int, int]] = []
        rejected: TextEdit | None = None
        dirty: tuple[int, int, int] | None = None  # (start, end, growth) of this update's edits
        for edit in edits:
            lines = self.lines
            text = self.text
            if (
                max(edit.start_line, edit.end_line) >= lines.line_count
                or min(edit.start_line, edit.end_line, edit.start_char, edit.end_char) < 0
            ):
                rejected = edit  # the edits before it stand; this one and the rest are not applied
                break
            start = lines.offset(edit.start_line, edit.start_char, self.encoding)
            end = lines.offset(edit.end_line, edit.end_char, self.encoding)
            if end < start:
                start, end = end, start
            inserted, replaced = without_surrogates(edit.text)
            self.surrogates_replaced += replaced
            if start > 0 and text[start - 1] == "\r":
                # a CR before the edit may turn from a lone CR (read as LF) into half a CRLF or back
                start -= 1
                inserted = "\r" + inserted
            start_row, start_col = self._point(lines, start)
            end_row, end_col = self._point(lines, end)
            start_byte = lines.byte_start(start_row) + start_col
            old_end_byte = lines.byte_start(end_row) + end_col
            # the inserted bytes as tree-sitter will read them (a trailing CR depends on what follows)
            piece = tree_source(inserted + text[end : end + 1])[: len(inserted.encode("utf-8"))]
            new_end_byte = start_byte + len(piece)
            newline_count = piece.count(b"\n")
            if newline_count:
                new_end = Point(start_row + newline_count, len(piece) - piece.rfind(b"\n") - 1)
            else:
                new_end = Point(start_row, start_col + len(piece))
            tree.edit(
                start_byte=start_byte,
                old_end_byte=old_end_byte,
                new_end_byte=new_end_byte,
                start_point=Point(start_row, start_col),
                old_end_point=Point(end_row, end_col),
                new_end_point=new_end,
            )
            self.text = text[:start] + inserted + text[end:]
            self.lines = lines.replaced(start, end, inserted, self.text)
            grown = new_end_byte - old_end_byte
            if dirty is None:
                dirty = (start_byte, new_end_byte, grown)
            else:  # the union of the edits so far and this one, in the new coordinates
                a, c, g = dirty
                dirty = (min(a, start_byte), max(c, old_end_byte) + grown, g + grown)
            # rows in new coordinates; earlier entries shift by the line delta
            delta = newline_count - (end_row - start_row)
            rows = [(a if a <= start_row else a + delta, b if b < start_row else b + delta) for a, b in rows]
            rows.append((start_row, new_end.row))
        had_skips = bool(self.skipped)
        source = tree_source(self.text)
        facts = self._facts
        if facts is None or len(source) > MAX_ANALYSED_BYTES:
            facts = self._facts = SourceFacts.for_source(source)  # (None while too large)
        elif dirty is not None:
            a, c, g = dirty
            facts.edited(source, a, c - g, c)
        new_tree, self.source, self.skipped = bounded_parse(self._parser, source, tree, facts)
        fresh = False
        if dirty is not None and (tree.root_node.has_error or new_tree.root_node.has_error):
            # Around an error the re-parse may read unchanged text differently (a bracket opened or
            # closed above changes how the lines below it read): the changed stretch reaches over
            # every range whose structure changed.
            a, c, g = dirty
            for changed in tree.changed_ranges(new_tree):
                a, c = min(a, changed.start_byte), max(c, changed.end_byte)
            dirty = (a, c, g)
        if new_tree.root_node.has_error:
            # Error recovery depends on history: a re-parse may recover differently from a fresh
            # parse. Around the stretch that changed, the re-parsed tree is compared with a fresh
            # parse of the items there (`recovery.py`); only a difference has the whole text parsed
            # afresh, so an edited document always has the tree (and diagnostics) of a fresh open.
            fresh = (
                dirty is None
                or bool(self.skipped)
                or not recovered_as_fresh(new_tree, self.source, dirty[0], dirty[1])
            )
        if fresh:
            new_tree, self.source, self.skipped = bounded_parse(self._parser, source, None, facts)
        self.tree = new_tree
        if had_skips or self.skipped:  # the tree may differ anywhere
            self._changed_rows = None
            self._note(None)
        else:
            self._changed_rows = rows
            if fresh:  # error recovery may differ anywhere
                self._note(None)
            elif dirty is not None:
                a, c, g = dirty
                self._note((a, c - g, c))
        if rejected is not None:
            raise EditOutOfRange(
                f"a change at line {rejected.start_line + 1}–{rejected.end_line + 1} lies past the end "
                f"of the text ({self.lines.line_count} lines)"
            )

    @staticmethod
    def _point(lines: LineIndex, offset: int) -> tuple[int, int]:
        row, char = lines.position(offset, Encoding.UTF32)
        prefix = lines.line_text(row)[:char]
        return row, len(prefix) if prefix.isascii() else len(prefix.encode("utf-8"))

    # ---- conveniences for the layers above
    def node_text(self, node: Node) -> str:
        return self.source[node.start_byte : node.end_byte].decode("utf-8", errors="replace")

    def to_position(self, point: Point | tuple[int, int]) -> tuple[int, int]:
        return self.lines.point_to_position(point[0], point[1], self.encoding)

    def to_point(self, line: int, character: int) -> tuple[int, int]:
        return self.lines.position_to_point(line, character, self.encoding)
