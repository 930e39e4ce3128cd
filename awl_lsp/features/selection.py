"""Selection ranges: expand the selection by syntax-tree ancestors (token → expression → statement →
block → step → document), each range trimmed of surrounding white space, containing the position
and the range before it, and never repeated."""

from __future__ import annotations

from lsprotocol import types as lsp
from tree_sitter import Node

from awl_lsp.features.lsp_positions import point
from awl_lsp.features.snapshot import Snapshot


def _trimmed(snap: Snapshot, node: Node) -> tuple[int, int] | None:
    """Byte offsets of the node without leading/trailing white space (block nodes own line breaks)."""
    source = snap.doc.source
    start, end = node.start_byte, node.end_byte
    while start < end and source[start] in b" \t\r\n\f":
        start += 1
    while end > start and source[end - 1] in b" \t\r\n\f":
        end -= 1
    return (start, end) if end > start else None


def _position(snap: Snapshot, byte: int) -> lsp.Position:
    lines = snap.doc.lines
    starts = lines.byte_starts
    lo, hi = 0, len(starts) - 1
    while lo < hi:  # the last line start at or before the byte
        mid = (lo + hi + 1) // 2
        if starts[mid] <= byte:
            lo = mid
        else:
            hi = mid - 1
    line, char = snap.doc.to_position((lo, byte - starts[lo]))
    return lsp.Position(line, char)


def selection_range(snap: Snapshot, position: lsp.Position) -> lsp.SelectionRange:
    row, col = point(snap, position)
    here = snap.doc.lines.byte_starts[min(row, len(snap.doc.lines.byte_starts) - 1)] + col
    node: Node | None = snap.node_at(row, col)
    spans: list[tuple[int, int]] = []
    while node is not None:
        span = _trimmed(snap, node)
        if span is not None and span[0] <= here <= span[1] and (not spans or span != spans[-1]):
            if not spans or (span[0] <= spans[-1][0] and span[1] >= spans[-1][1]):
                spans.append(span)
        node = node.parent
    if not spans:  # white space outside every node: just the position
        return lsp.SelectionRange(range=lsp.Range(position, position))
    result: lsp.SelectionRange | None = None
    for start, end in reversed(spans):
        rng = lsp.Range(_position(snap, start), _position(snap, end))
        result = lsp.SelectionRange(range=rng, parent=result)
    assert result is not None
    return result


def selection_ranges(snap: Snapshot, positions: list[lsp.Position]) -> list[lsp.SelectionRange]:
    return [selection_range(snap, p) for p in positions]
