"""LSP formatting: the canonical printer's text offered as small edits.

`format_document` diffs the document's lines against `printer.canonical_text` and returns one edit
per changed run of lines (so an editor keeps cursors and folds elsewhere). `format_range` formats
only the top-level items (with their comment lines) that the range touches, each printed as the
whole-document printer prints it. A document with syntax errors gets no edits at all.
"""

from __future__ import annotations

from difflib import SequenceMatcher

from lsprotocol import types as lsp

from awl_lsp.features.printer import canonical_items, canonical_text
from awl_lsp.features.snapshot import Snapshot


def _pieces(text: str) -> list[str]:
    """The text as lines that keep their line break (the last piece has none and may be empty)."""
    parts = text.split("\n")
    return [p + "\n" for p in parts[:-1]] + [parts[-1]]


def _end(snap: Snapshot, row: int) -> lsp.Position:
    """The position of the start of `row`, or the end of the document past its last line."""
    rows = snap.doc.text.split("\n")
    if row < len(rows):
        return lsp.Position(row, 0)
    last = len(rows) - 1
    line, char = snap.doc.to_position((last, len(rows[last].encode("utf-8"))))
    return lsp.Position(line, char)


def line_edits(snap: Snapshot, new_text: str) -> list[lsp.TextEdit]:
    """Edits that turn the snapshot's text into `new_text`, one per changed run of lines."""
    old = _pieces(snap.doc.text)
    new = _pieces(new_text)
    head = 0  # lines the same at the start and at the end need no diffing
    while head < min(len(old), len(new)) and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < min(len(old), len(new)) - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    edits: list[lsp.TextEdit] = []
    # autojunk keeps large diffs fast (blank lines are "popular"); the edits stay exact either way
    matcher = SequenceMatcher(a=old[head : len(old) - tail], b=new[head : len(new) - tail])
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        i1, i2, j1, j2 = i1 + head, i2 + head, j1 + head, j2 + head
        start = _end(snap, i1)
        end = _end(snap, i2) if i2 < len(old) else _end(snap, len(old))
        edits.append(lsp.TextEdit(lsp.Range(start, end), "".join(new[j1:j2])))
    return edits


def format_text(snap: Snapshot) -> str | None:
    """The canonical text, or None when the document has syntax errors."""
    return canonical_text(snap.doc.text)


def format_document(snap: Snapshot) -> list[lsp.TextEdit]:
    """Edits to the canonical form (none when already canonical or not formattable)."""
    result = canonical_text(snap.doc.text)
    if result is None or result == snap.doc.text:
        return []
    return line_edits(snap, result)


def format_range(snap: Snapshot, rng: lsp.Range) -> list[lsp.TextEdit]:
    """Edits that print canonically the top-level items the range touches (and nothing else)."""
    items = canonical_items(snap.doc.text)
    if items is None:
        return []
    first = snap.doc.to_point(rng.start.line, rng.start.character)[0]
    last = snap.doc.to_point(rng.end.line, rng.end.character)[0]
    if rng.end.character == 0 and last > first:
        last -= 1  # a range that ends at the start of a line does not touch that line
    rows = snap.doc.text.split("\n")
    edits: list[lsp.TextEdit] = []
    for start, end, text in items:
        if end < first or start > last:
            continue
        if start == 0 and snap.doc.text.startswith("\ufeff"):
            text = "\ufeff" + text  # the byte-order mark stays
        old = "\n".join(rows[start : end + 1])
        if old.replace("\r\n", "\n").rstrip("\r") == text.replace("\r\n", "\n"):
            continue
        eol_cr = rows[end].endswith("\r")
        end_pos = snap.doc.to_position((end, len(rows[end].encode("utf-8")) - (1 if eol_cr else 0)))
        edits.append(lsp.TextEdit(lsp.Range(lsp.Position(start, 0), lsp.Position(*end_pos)), text))
    return edits
