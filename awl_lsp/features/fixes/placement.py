"""Where a fix writes new text so that `awl fmt` would leave it there: the printer's order and layout.

The canonical printer (`features.printer`) puts the top-level declarations in a fixed order (const,
type, worker, child, detached, subflow, step, retire), the header clauses in theirs, and a step's
statements before its `on failure` block, outcomes and `max N visits`; two spaces per level; a
blank line between top-level items kept where the source has one. The functions here answer
"after which line does a new item of this kind go, and with what indentation", so a generated
declaration or clause lands where the printer would have put it and needs no formatting after.

Nodes of the tree end where the next item starts, blank lines included: `content_end` is the end of
a node's last line holding text, where new lines are inserted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from awl_lsp.features.printer.blocks import HEADER_ORDER, STEP_ORDER, TOP_ORDER

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

INDENT = "  "
_FLOWS = ("workflow_declaration", "workloop_declaration")
_TRIVIA = ("comment", "doc_comment", "narration")


def line_text(snap: Snapshot, row: int) -> str:
    """The text of line `row` (without its line break), "" past the end."""
    starts = snap.doc.lines.byte_starts
    if row >= len(starts):
        return ""
    end = starts[row + 1] if row + 1 < len(starts) else len(snap.doc.source)
    return snap.doc.source[starts[row] : end].decode("utf-8", "replace").rstrip("\r\n")


def content_end(snap: Snapshot, node: Node) -> tuple[int, int]:
    """The end of the node's last line that holds text (not the blank lines the node runs over)."""
    row = node.end_point.row if node.end_point.column > 0 else node.end_point.row - 1
    while row > node.start_point.row and not line_text(snap, row).strip():
        row -= 1
    return row, len(line_text(snap, row).encode("utf-8"))


def flow_node(snap: Snapshot) -> Node | None:
    """The document's `workflow` or `workloop` declaration."""
    return next((c for c in snap.doc.root.named_children if c.type in _FLOWS), None)


def top_items(snap: Snapshot) -> list[Node]:
    """The top-level declarations after the header, in source order."""
    return [c for c in snap.doc.root.named_children if c.type in TOP_ORDER]


def after_top_level(snap: Snapshot, node_type: str) -> tuple[int, int] | None:
    """Where a new top-level item of `node_type` goes: after the last item of its rank or an earlier
    one (the flow's header when there is none). Insert `"\\n\\n" + text` there."""
    rank = TOP_ORDER[node_type]
    last: Node | None = flow_node(snap)
    for item in top_items(snap):
        if TOP_ORDER[item.type] <= rank and (last is None or item.start_byte > last.start_byte):
            last = item
    return content_end(snap, last) if last is not None else None


def top_level_insertion(snap: Snapshot, node_type: str, text: str) -> tuple[tuple[int, int], str] | None:
    """(where, what) to insert a new top-level item `text` (no line break at its end)."""
    where = after_top_level(snap, node_type)
    return (where, "\n\n" + text) if where is not None else None


def header_node(snap: Snapshot) -> Node | None:
    flow = flow_node(snap)
    return flow.child_by_field_name("header") if flow is not None else None


def header_clauses(snap: Snapshot) -> list[Node]:
    header = header_node(snap)
    return [c for c in header.named_children if c.type in HEADER_ORDER] if header is not None else []


def header_insertion(snap: Snapshot, clause_type: str) -> tuple[int, int] | None:
    """Where a new header clause of `clause_type` goes: after the last clause of its rank or an earlier
    one, else after the flow's name line. Insert `"\\n  " + clause` there."""
    flow = flow_node(snap)
    if flow is None:
        return None
    rank = HEADER_ORDER[clause_type]
    before = [c for c in header_clauses(snap) if HEADER_ORDER[c.type] <= rank]
    if before:
        return content_end(snap, before[-1])
    row = flow.start_point.row
    return row, len(line_text(snap, row).encode("utf-8"))


def block_indent(snap: Snapshot, owner: Node, items: list[Node]) -> str:
    """The indentation of a block's lines: its first item's, else one level below its owner's line."""
    if items:
        return " " * items[0].start_point.column
    own = line_text(snap, owner.start_point.row)
    return own[: len(own) - len(own.lstrip())] + INDENT


def body_items(node: Node, field: str = "body") -> list[Node]:
    """The items of a node's block (comments left out)."""
    body = node.child_by_field_name(field)
    return [c for c in body.named_children if c.type not in _TRIVIA] if body is not None else []


def statements_end(snap: Snapshot, step: Node) -> tuple[tuple[int, int], str]:
    """Where a new statement of a step goes — after its last statement or substep, before its
    `on failure` block, outcomes and `max N visits` (the printer's order) — and its indentation.
    Insert `"\\n" + indent + statement` there."""
    items = body_items(step)
    indent = block_indent(snap, step, items)
    later = next((k for k, i in enumerate(items) if STEP_ORDER.get(i.type, 0) > 0), len(items))
    statements = items[:later]  # (a statement written below an outcome is out of place: not a guide)
    if statements:
        return content_end(snap, statements[-1]), indent
    row = step.start_point.row  # no statement yet: the new one opens the body
    return (row, len(line_text(snap, row).encode("utf-8"))), indent


def block_end(snap: Snapshot, owner: Node, items: list[Node]) -> tuple[tuple[int, int], str]:
    """The end of a block's last line with its indentation (after the owner's line when empty)."""
    indent = block_indent(snap, owner, items)
    if items:
        return content_end(snap, items[-1]), indent
    row = owner.start_point.row
    return (row, len(line_text(snap, row).encode("utf-8"))), indent
