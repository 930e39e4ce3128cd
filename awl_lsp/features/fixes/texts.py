"""Texts and edits: a text with edits applied, and whether a text reads (has no syntax error).

What applying a fix (`apply`) and trying one (`trial`) both need, below either of them.
Inserted line breaks follow the text's own: a CRLF text gets CRLF.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from awl_lsp.features.fixes.values import Edit
from awl_lsp.syntax.positions import Encoding, LineIndex
from awl_lsp.syntax.problem_cache import document_syntax_problems
from awl_lsp.syntax.problems import Severity

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot


def apply_edits(text: str, edits: Iterable[Edit]) -> str:
    """The text with non-overlapping edits applied (any order); their ranges are in the coordinates
    of this text's snapshot (row, byte column)."""
    index = LineIndex(text)
    eol = "\r\n" if "\r\n" in text else "\n"

    def offset(row: int, col: int) -> int:
        return index.offset(*index.point_to_position(row, col, Encoding.UTF32), Encoding.UTF32)

    spans = sorted(
        ((offset(e.range[0], e.range[1]), offset(e.range[2], e.range[3]), e.text) for e in edits),
        key=lambda s: (s[0], s[1]),
    )
    for (_, a_end, _), (b_start, _, _) in zip(spans, spans[1:], strict=False):
        if a_end > b_start:
            raise ValueError("overlapping edits")
    for start, stop, new in reversed(spans):
        if eol != "\n":
            new = new.replace("\r\n", "\n").replace("\n", eol)
        text = text[:start] + new + text[stop:]
    return text


def syntax_broken(snap: Snapshot) -> bool:
    """Does the text have a syntax error (or a part too large to read)?"""
    doc = snap.doc
    if doc.root.has_error or getattr(doc, "skipped", None):
        return True
    return any(p.severity is Severity.ERROR for p in document_syntax_problems(doc, snap.shared))
