"""Whole lines, for fixes that move, remove, insert or re-indent them.

AWL is a language of lines: a statement, a clause, a declaration's first line, a comment. The fixes
of the layout, comment, duplicate and flow families work line by line, and these helpers give them
the rows and edits in the snapshot's coordinates (row, byte column): a row's code and indentation,
the rows a node really occupies (its last token's row, not the blank lines the tree hangs on it),
the code row above, the `///` lines that document a declaration, an edit removing rows (and the
blank line that would otherwise double up), an edit inserting a line at a given indentation.
Nothing here reads text with patterns: rows come from the tree, columns from counting spaces.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from awl_lsp.features.fixes.values import Edit, edit

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

# node types whose text spans lines with no structure: their inner lines are never re-indented
OPAQUE = frozenset({"raw_string", "json_body", "schema_body", "json_literal", "string"})
TRIVIA = frozenset({"comment", "doc_comment", "narration"})


def row_count(snap: Snapshot) -> int:
    return len(snap.doc.lines.byte_starts)


def line(snap: Snapshot, row: int) -> bytes:
    """The bytes of a row, without its line break."""
    starts = snap.doc.lines.byte_starts
    source = snap.doc.source
    if row < 0 or row >= len(starts):
        return b""
    stop = starts[row + 1] - 1 if row + 1 < len(starts) else len(source)
    text = source[starts[row] : stop]
    return text[:-1] if text.endswith(b"\r") else text


def indent(snap: Snapshot, row: int) -> int:
    """The row's indentation in spaces (tabs count as the character they are)."""
    text = line(snap, row)
    return len(text) - len(text.lstrip(b" \t"))


def blank(snap: Snapshot, row: int) -> bool:
    return not line(snap, row).strip()


def comment_line(snap: Snapshot, row: int) -> bool:
    return line(snap, row).lstrip(b" \t").startswith(b"//")


def code_row_above(snap: Snapshot, row: int) -> int | None:
    """The nearest row above `row` holding code (not blank, not only a comment)."""
    r = row - 1
    while r >= 0 and (blank(snap, r) or comment_line(snap, r)):
        r -= 1
    return r if r >= 0 else None


def last_row(node: Node) -> int:
    """The last row a node's own text reaches (the tree often ends a node at the start of the line
    after it, or after the blank lines that follow)."""
    last = _last_token(node)
    if last is None:
        return node.start_point.row
    end = last.end_point
    # (a token that takes its line break with it, as a comment may, ends at the next row's start)
    return end.row - 1 if end.column == 0 and end.row > last.start_point.row else end.row


def _last_token(node: Node) -> Node | None:
    """The last leaf with text of the node (line-break and block tokens have none)."""
    for child in reversed(node.children):
        if child.end_byte <= child.start_byte:
            continue
        if child.child_count:
            found = _last_token(child)
            if found is not None:
                return found
            continue
        return child
    return None


def doc_rows_above(node: Node) -> int:
    """The first row of the `///` lines (and plain comment lines among them) right above a
    declaration that document it (the declaration's own row when there are none)."""
    first = node.start_point.row
    prev = node.prev_sibling
    while prev is not None and prev.type in ("doc_comment", "comment") and last_row(prev) == first - 1:
        if prev.type == "comment" and not _followed_by_doc(prev):
            break
        first = prev.start_point.row
        prev = prev.prev_sibling
    return first


def _followed_by_doc(comment: Node) -> bool:
    nxt = comment.next_sibling
    return nxt is not None and nxt.type == "doc_comment"


def remove_rows(snap: Snapshot, first: int, last: int) -> Edit:
    """An edit removing rows `first`..`last` whole; a blank line left doubled (or left at the end of
    the text, or right under the lines above a removed first declaration) goes with them."""
    total = row_count(snap)
    above_blank = first > 0 and blank(snap, first - 1)
    below = last + 1
    below_blank = below < total and blank(snap, below)
    at_end = below >= total or all(blank(snap, r) for r in range(below, total))
    if above_blank and (below_blank or at_end):
        first -= 1
    if below < total:
        return edit((first, 0), (below, 0), "")
    if first == 0:
        return edit((0, 0), (last, len(line(snap, last))), "")
    return edit((first - 1, len(line(snap, first - 1))), (last, len(line(snap, last))), "")


def insert_line_after(snap: Snapshot, row: int, text: str) -> Edit:
    """An edit adding `text` as a line of its own right after `row` (at the end of that line, so the
    line after it — or the end of the text — is untouched)."""
    return edit((row, len(line(snap, row))), None, "\n" + text)


def insert_line_before(row: int, text: str) -> Edit:
    """An edit adding `text` as a line of its own right before `row`."""
    return edit((row, 0), None, text + "\n")


def reindent(snap: Snapshot, row: int, column: int) -> Edit:
    """An edit giving `row` the indentation `column` (spaces), its code untouched."""
    return edit((row, 0), (row, indent(snap, row)), " " * column)


def opaque_rows(snap: Snapshot, first: int, last: int) -> set[int]:
    """The rows in first..last that lie inside a multi-line string or JSON body (after its first
    row): their indentation is text, not structure."""
    out: set[int] = set()
    root = snap.doc.root
    for row in range(first, last + 1):
        node = root.descendant_for_point_range((row, 0), (row, 0))
        while node is not None:
            if node.type in OPAQUE and node.start_point.row < row <= node.end_point.row:
                out.add(row)
                break
            node = node.parent
    return out
