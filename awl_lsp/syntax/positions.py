"""Line/column arithmetic between text offsets, tree-sitter points (byte columns) and LSP positions.

LSP positions count columns in UTF-16 code units by default, or UTF-8 bytes / UTF-32 code points
when the client negotiates `positionEncodings`. tree-sitter counts bytes. A `LineIndex` is built
once per text and answers both directions, multibyte-safe; an edit gives the next version's
index with `LineIndex.replaced`, which re-reads only the edited lines (the starts of the lines
below are moved as a whole, `offsets.Offsets`: not one by one).

Lines are LSP's: a line ends at `\n`, `\r\n` or a lone `\r` — nothing else (form feed, vertical
tab, U+2028/U+2029 are ordinary characters, unlike in `str.splitlines`). A line's text never
includes its line break, so no position or range counts the CR of a CRLF. The tree-sitter source
is the text with each lone CR read as LF (`tree_source`), so its rows are exactly these lines.
"""

from __future__ import annotations

import re
from enum import Enum
from itertools import accumulate

from awl_lsp.syntax.offsets import Offsets

_BREAK = re.compile(r"\r\n|\r|\n")
_LONE_CR = re.compile(rb"\r(?!\n)")
_SURROGATE = re.compile("[\ud800-\udfff]")


def tree_source(text: str) -> bytes:
    """The UTF-8 bytes tree-sitter parses: the text, with a lone CR as LF (same length, same rows)."""
    data = text.encode("utf-8")
    return _LONE_CR.sub(b"\n", data) if b"\r" in data else data


def without_surrogates(text: str) -> tuple[str, int]:
    """The text with lone UTF-16 surrogates (not encodable as UTF-8) as U+FFFD, and how many there were.

    U+FFFD has the surrogate's length in every position encoding, so positions stay the editor's.
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.subn("\ufffd", text)
    return text, 0


class Encoding(str, Enum):
    UTF8 = "utf-8"
    UTF16 = "utf-16"
    UTF32 = "utf-32"


def _units(ch: str, encoding: Encoding) -> int:
    if encoding is Encoding.UTF32:
        return 1
    code = ord(ch)
    if encoding is Encoding.UTF16:
        return 2 if code > 0xFFFF else 1
    if code < 0x80:
        return 1
    if code < 0x800:
        return 2
    if code < 0x10000:
        return 3
    return 4


def _starts(lines: list) -> list[int]:
    """Where each of `lines` (a text split at its newlines) starts."""
    return list(accumulate(map((1).__add__, map(len, lines[:-1])), initial=0))


class LineIndex:
    """Offsets of line starts in a text, in characters and in UTF-8 bytes (`Offsets`: the next
    version's index shares them, moved, so an edit costs the lines it touched)."""

    def __init__(self, text: str) -> None:
        self.text = text
        starts = [0]
        if "\r" in text:
            ends = []
            for m in _BREAK.finditer(text):
                ends.append(m.start())
                starts.append(m.end())
            ends.append(len(text))
            self._ends: Offsets | None = Offsets(ends)
            self._starts = Offsets(starts)
        else:
            self._starts = Offsets(_starts(text.split("\n")))
            self._ends = None
        self._bytes: Offsets | None = None  # (measured on first use; the same as `_starts` in ASCII)

    def replaced(self, start: int, end: int, inserted: str, text: str) -> LineIndex:
        """The index of `text`: this index's text with characters [start, end) replaced by `inserted`."""
        old = self.text
        if self._ends is None and "\r" in inserted:
            return LineIndex(text)  # the first CR: lines may now end in three ways
        starts = self._starts
        count = len(starts)
        first = starts.bisect_right(start) - 1
        while first > 0 and text[starts[first] - 1 : starts[first]] == "\r":
            first -= 1  # a CR before the edit may have become half a CRLF
        last = starts.bisect_right(end) - 1
        delta = len(inserted) - (end - start)
        window = starts[first]
        old_stop = starts[last + 1] if last + 1 < count else len(old)
        stop = old_stop + delta
        new = LineIndex.__new__(LineIndex)
        new.text = text
        new._bytes = None
        if self._ends is None:
            middle = _starts(text[window:stop].split("\n"))
            if last + 1 < count:
                middle.pop()  # the line after the window starts where it did (moved by delta)
            new._starts = starts.replaced(first, last + 1, [window + m for m in middle], delta)
            new._ends = None
        else:
            new_starts, new_ends = [window], []
            for m in _BREAK.finditer(text, window, stop):
                new_ends.append(m.start())
                new_starts.append(m.end())
            if last + 1 < count:
                new_starts.pop()  # the line after the window starts where it did (moved by delta)
            else:
                new_ends.append(len(text))
            new._starts = starts.replaced(first, last + 1, new_starts, delta)
            new._ends = self._ends.replaced(first, last + 1, new_ends, delta)
        known = self._bytes
        if known is not None and known is not starts and not text.isascii():
            byte_delta = len(inserted.encode("utf-8")) - len(old[start:end].encode("utf-8"))
            cs = new._starts
            mid = [known[first]]
            for row in range(first + 1, len(cs) - count + last + 1):
                mid.append(mid[-1] + len(text[cs[row - 1] : cs[row]].encode("utf-8")))
            new._bytes = known.replaced(first, last + 1, mid, byte_delta)
        return new

    def line_end(self, line: int) -> int:
        """Character offset where a line's text ends (before its line break)."""
        if self._ends is not None:
            return self._ends[line]
        starts = self._starts
        return starts[line + 1] - 1 if line + 1 < len(starts) else len(self.text)

    @property
    def char_starts(self) -> list[int]:
        """Where each line starts, in characters (a plain list: read it, never change it)."""
        return self._starts.to_list()

    def _byte_offsets(self) -> Offsets:
        found = self._bytes
        if found is None:
            text = self.text
            # (split and accumulate run in C: the first use after a non-ASCII text came measures it)
            if text.isascii():
                found = self._starts
            elif self._ends is None:
                found = Offsets(_starts(text.encode().split(b"\n")))
            else:  # lone CRs break lines too: measure each line's bytes
                starts = self.char_starts
                out, total = [0], 0
                for a, b in zip(starts, starts[1:], strict=False):
                    total += len(text[a:b].encode("utf-8"))
                    out.append(total)
                found = Offsets(out)
            self._bytes = found
        return found

    @property
    def byte_starts(self) -> list[int]:
        """Where each line starts, in UTF-8 bytes (a plain list: read it, never change it)."""
        return self._byte_offsets().to_list()

    def byte_start(self, row: int) -> int:
        """Where line `row` starts, in UTF-8 bytes (without writing the whole list out)."""
        return self._byte_offsets()[row]

    @property
    def line_count(self) -> int:
        return len(self._starts)

    def line_text(self, line: int) -> str:
        if line < 0 or line >= len(self._starts):
            return ""
        return self.text[self._starts[line] : self.line_end(line)]

    # ---- LSP position <-> character offset
    def offset(self, line: int, character: int, encoding: Encoding = Encoding.UTF16) -> int:
        """Character offset of an LSP position (clamped to the text)."""
        starts = self._starts
        if line >= len(starts):
            return len(self.text)
        if line < 0:
            return 0
        text = self.line_text(line)
        if encoding is Encoding.UTF32 or text.isascii():
            return starts[line] + min(character, len(text))
        units = 0
        for i, ch in enumerate(text):
            if units >= character:
                return starts[line] + i
            units += _units(ch, encoding)
        return starts[line] + len(text)

    def position(self, offset: int, encoding: Encoding = Encoding.UTF16) -> tuple[int, int]:
        """LSP (line, character) of a character offset."""
        offset = max(0, min(offset, len(self.text)))
        line = self._starts.bisect_right(offset) - 1
        prefix = self.text[self._starts[line] : min(offset, self.line_end(line))]
        if encoding is Encoding.UTF32 or prefix.isascii():
            return line, len(prefix)
        return line, sum(_units(ch, encoding) for ch in prefix)

    # ---- tree-sitter point (row, byte column) <-> LSP position
    def point_to_position(
        self, row: int, byte_col: int, encoding: Encoding = Encoding.UTF16
    ) -> tuple[int, int]:
        if row >= len(self._starts):
            last = len(self._starts) - 1
            return last, self._units_of(self.line_text(last), encoding)
        text = self.line_text(row)
        if text.isascii():
            return row, min(max(byte_col, 0), len(text))
        if encoding is Encoding.UTF8:
            return row, min(max(byte_col, 0), len(text.encode("utf-8")))
        prefix = text.encode("utf-8")[:byte_col].decode("utf-8", errors="ignore")
        return row, self._units_of(prefix, encoding)

    def position_to_point(
        self, line: int, character: int, encoding: Encoding = Encoding.UTF16
    ) -> tuple[int, int]:
        if line >= len(self._starts):
            last = len(self._starts) - 1
            return last, len(self.line_text(last).encode("utf-8"))
        text = self.line_text(line)
        if text.isascii():
            return line, min(character, len(text))
        if encoding is Encoding.UTF8:
            return line, min(character, len(text.encode("utf-8")))
        offset = self.offset(line, character, encoding) - self._starts[line]
        return line, len(text[:offset].encode("utf-8"))

    def byte_offset(self, line: int, character: int, encoding: Encoding = Encoding.UTF16) -> int:
        row, col = self.position_to_point(line, character, encoding)
        return self.byte_start(row) + col

    @staticmethod
    def _units_of(text: str, encoding: Encoding) -> int:
        if encoding is Encoding.UTF32 or text.isascii():
            return len(text) if encoding is not Encoding.UTF8 or text.isascii() else len(text.encode())
        return sum(_units(ch, encoding) for ch in text)
