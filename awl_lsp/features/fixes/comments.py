"""Fixes for comments where the engine does not take them: a `///` that documents nothing, a comment
inside brackets, a comment line between an outcome arm and its `route`.

- `doc-line`: `///` becomes `//`, a plain comment. Safe: the text stays, and a `///` there
  documented nothing.
- `comment-in-brackets`: the comment moves above the line that opens the brackets, at that line's
  indentation. Safe: the same words, in the nearest place the engine takes a comment.
- `comment-in-arm`: the comment lines between the arm and its `route` move above the arm. Safe.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from awl_lsp.features.fixes import lines
from awl_lsp.features.fixes.places import ancestor, node_at
from awl_lsp.features.fixes.values import Edit, Fix, edit
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

_BRACKETS = ("arguments", "parameters", "list")


def plain_comment(snap: Snapshot, problem: Problem) -> list[Fix]:
    doc = node_at(snap, problem.range)
    if doc.type != "doc_comment" or not snap.text(doc).startswith("///"):
        return []
    row, col = doc.start_point.row, doc.start_point.column
    return [
        Fix(
            "Write `//` (a plain comment)",
            (edit((row, col), (row, col + 3), "//"),),
            safe=True,
            preferred=True,
        )
    ]


def _moved_above(snap: Snapshot, comments: list[Node], row: int) -> tuple[Edit, ...] | None:
    """Edits moving the comments (each alone on its line, or at the end of one) to lines of their
    own right above `row`, at its indentation."""
    pad = " " * lines.indent(snap, row)
    out: list[Edit] = []
    for c in comments:
        r, col = c.start_point.row, c.start_point.column
        if c.end_point.row != r and (c.end_point.row, c.end_point.column) != (r + 1, 0):
            return None  # (a comment token may end with its line break)
        before = lines.line(snap, r)[:col]
        if before.strip():  # at the end of a code line: cut it from there (and the spaces before it)
            out.append(edit((r, len(before.rstrip(b" \t"))), (r, len(lines.line(snap, r))), ""))
        else:
            out.append(edit((r, 0), (r + 1, 0), ""))
    text = "".join(f"{pad}{snap.text(c).rstrip()}\n" for c in comments)
    return (edit((row, 0), None, text), *out)


def comment_above_brackets(snap: Snapshot, problem: Problem) -> list[Fix]:
    comment = node_at(snap, problem.range)
    if comment.type not in ("comment", "doc_comment"):
        return []
    # the outermost bracket it sits in, and the line that opens it
    outer = ancestor(comment.parent, *_BRACKETS)
    while outer is not None and ancestor(outer.parent, *_BRACKETS) is not None:
        outer = ancestor(outer.parent, *_BRACKETS)
    if outer is None:
        return []
    arm = ancestor(outer, "step_outcome")  # a wrapped arm's payload: above the arm, not its `route`
    opener = arm.start_point.row if arm is not None else outer.start_point.row
    if opener >= comment.start_point.row:
        return []
    found = [
        c for c in _comments_in(outer) if c.type in ("comment", "doc_comment") and c.start_point.row > opener
    ]
    if not found:
        return []
    edits = _moved_above(snap, found, opener)
    if edits is None:
        return []
    noun = "the comment" if len(found) == 1 else "the comments"
    return [Fix(f"Move {noun} above the line that opens the brackets", edits, safe=True, preferred=True)]


def _comments_in(node: Node) -> list[Node]:
    out: list[Node] = []
    for c in node.children:
        if c.type in ("comment", "doc_comment"):
            out.append(c)
        elif c.child_count:
            out += _comments_in(c)
    return out


def comment_above_arm(snap: Snapshot, problem: Problem) -> list[Fix]:
    arm = ancestor(node_at(snap, problem.range), "step_outcome")
    if arm is None:
        return []
    row = arm.start_point.row
    found = [c for c in arm.children if c.type in ("comment", "doc_comment") and c.start_point.row > row]
    if not found:
        return []
    edits = _moved_above(snap, found, row)
    if edits is None:
        return []
    return [Fix("Move the comment above the outcome arm", edits, safe=True, preferred=True)]
