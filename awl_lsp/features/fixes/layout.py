"""Fixes for indentation and line layout: whitespace only, the code itself untouched.

- `tab-indent`: the line's tabs become two spaces each (a tab was typed for a level). Safe when
  the indentation is tabs alone; with spaces and tabs mixed it is a guess at the tab's width.
- `indent-jump` (a line two or more levels deeper than the line above): the line, and the lines
  under it that are at least as deep (the rest of its block), move left so it sits one level under
  the line above. Safe: it keeps the line deeper than the one above — all the author wrote — and
  the block's own nesting.
- `unexpected-indent` (one level deeper under a line that opens no block): the line and its block
  move left to the line above's indentation. Safe: no other indentation is legal there.
- `odd-indent`: the line moves to the nearer even indentation the parser read it at (inside the
  block it opened, or beside its neighbours). Unsafe: an odd indentation is between two levels.
- `field-indent`: every line inside the type's `{ … }` goes one level under the `type` line.
  Safe: a type body's fields all sit at that one level.
- `brace-indent`: the `}` of a type body written over several lines goes on a line of its own at
  the `type` line's indentation. Safe.
- `field-comma`: the comma between two fields on one line. Safe: the one token the engine missed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from awl_lsp.features.fixes import lines
from awl_lsp.features.fixes.places import ancestor, end, node_at
from awl_lsp.features.fixes.values import Edit, Fix, edit
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

LEVEL = 2


def spaces_for_tabs(snap: Snapshot, problem: Problem) -> list[Fix]:
    row = problem.range[0]
    text = lines.line(snap, row)
    lead = text[: len(text) - len(text.lstrip(b" \t"))]
    if b"\t" not in lead:
        return []
    new = lead.replace(b"\t", b" " * LEVEL).decode()
    only_tabs = not lead.strip(b"\t")
    fix = Fix("Indent with spaces", (edit((row, 0), (row, len(lead)), new),), safe=only_tabs, preferred=True)
    return [fix]


def _block_rows(snap: Snapshot, row: int) -> list[int]:
    """`row` and the rows after it that belong to its block: every following row at least as deep,
    blank and comment rows among them, up to the first code row less deep (trailing blank rows and
    rows inside a multi-line string or JSON body left out)."""
    depth = lines.indent(snap, row)
    out = [row]
    r = row + 1
    total = lines.row_count(snap)
    while r < total:
        if lines.blank(snap, r):
            r += 1
            continue
        if lines.indent(snap, r) < depth:
            break
        out.append(r)
        r += 1
    opaque = lines.opaque_rows(snap, row, out[-1])
    return [r for r in out if r not in opaque and not lines.blank(snap, r)]


def _shift(snap: Snapshot, rows: list[int], by: int) -> tuple[Edit, ...]:
    return tuple(lines.reindent(snap, r, max(0, lines.indent(snap, r) + by)) for r in rows)


def _tabbed(snap: Snapshot, row: int) -> bool:
    text = lines.line(snap, row)
    return b"\t" in text[: len(text) - len(text.lstrip(b" \t"))]


def one_level_under(snap: Snapshot, problem: Problem) -> list[Fix]:
    """`indent-jump`: the line (and its block) one level under the code line above."""
    row = problem.range[0]
    above = lines.code_row_above(snap, row)
    if above is None or _tabbed(snap, row):
        return []
    target = lines.indent(snap, above) + LEVEL
    here = lines.indent(snap, row)
    if here <= target:
        return []
    rows = _block_rows(snap, row)
    title = f"Indent this line {target} spaces, one level under the line above"
    return [Fix(title, _shift(snap, rows, target - here), safe=here % LEVEL == 0, preferred=True)]


def like_line_above(snap: Snapshot, problem: Problem) -> list[Fix]:
    """`unexpected-indent`: the line (and its block) at the indentation of the code line above."""
    row = problem.range[0]
    above = lines.code_row_above(snap, row)
    if above is None or _tabbed(snap, row) or _in_broken_item(snap, row) or _in_broken_item(snap, above):
        return []  # (around a syntax error the block the line belongs to is not known)
    target = lines.indent(snap, above)
    here = lines.indent(snap, row)
    if here <= target:
        return []
    rows = _block_rows(snap, row)
    return [
        Fix(
            "Indent this line like the line above",
            _shift(snap, rows, target - here),
            safe=True,
            preferred=True,
        )
    ]


def _in_broken_item(snap: Snapshot, row: int) -> bool:
    """Whether the top-level item holding `row` has a syntax error."""
    root = snap.doc.root
    col = lines.indent(snap, row)
    node = root.descendant_for_point_range((row, col), (row, col))
    while node is not None and node.parent is not None and node.parent != root:
        node = node.parent
    return node is None or node.has_error or node.type == "ERROR"


def even_indent(snap: Snapshot, problem: Problem) -> list[Fix]:
    """`odd-indent`: the line alone at the even indentation the parser read it at."""
    row = problem.range[0]
    here = lines.indent(snap, row)
    if here % LEVEL == 0 or _tabbed(snap, row):
        return []
    above = lines.code_row_above(snap, row)
    deepest = (lines.indent(snap, above) if above is not None else 0) + LEVEL
    target = _read_level(snap, row, here)
    if target not in (here - 1, here + 1) or target > deepest:
        target = here - 1
    return [
        Fix(
            f"Indent this line {target} spaces",
            (lines.reindent(snap, row, target),),
            safe=False,
            preferred=True,
        )
    ]


def _read_level(snap: Snapshot, row: int, col: int) -> int | None:
    """The indentation the parser's reading gives the line at (row, col): that of the other lines
    of the block it sits in, or — the block's first line — one level under the line that opened it."""
    node = snap.doc.root.descendant_for_point_range((row, col), (row, col))
    while node is not None and node.parent is not None and node.parent.start_point == node.start_point:
        node = node.parent
    block = node.parent if node is not None else None
    if block is None or block.parent is None:
        return None
    if block.type == "unexpected_block":  # under a line that opens no block: beside that line
        return lines.indent(snap, block.parent.start_point.row)
    siblings = [c for c in block.named_children if c.type not in lines.TRIVIA]
    if siblings and siblings[0].start_point.row != row:
        return siblings[0].start_point.column
    return lines.indent(snap, block.parent.start_point.row) + LEVEL


def fields_one_level_under(snap: Snapshot, problem: Problem) -> list[Fix]:
    """`field-indent`: every line inside the type body one level under the `type` line."""
    decl = ancestor(node_at(snap, problem.range), "type_declaration")
    body = decl.child_by_field_name("body") if decl is not None else None
    if decl is None or body is None or body.type != "record_body" or body.has_error:
        return []
    first, last = body.start_point.row, body.end_point.row
    target = lines.indent(snap, decl.start_point.row) + LEVEL
    opaque = lines.opaque_rows(snap, first + 1, last - 1)
    rows = [
        r
        for r in range(first + 1, last)
        if not lines.blank(snap, r) and r not in opaque and lines.indent(snap, r) != target
    ]
    if not rows or any(_tabbed(snap, r) for r in rows):
        return []
    edits = tuple(lines.reindent(snap, r, target) for r in rows)
    return [Fix("Indent the fields one level under `type`", edits, safe=True, preferred=True)]


def closing_brace_on_its_line(snap: Snapshot, problem: Problem) -> list[Fix]:
    """`brace-indent`: the `}` at the start of a line of its own, at the `type` line's indentation."""
    close = node_at(snap, problem.range)
    decl = ancestor(close, "type_declaration")
    if close.type != "}" or decl is None:
        return []
    row, col = close.start_point.row, close.start_point.column
    target = lines.indent(snap, decl.start_point.row)
    before = lines.line(snap, row)[:col]
    if before.strip():
        # after a field: break the line before the `}` (the spaces before it go)
        stop = len(before.rstrip(b" \t"))
        fix = edit((row, stop), (row, col), "\n" + " " * target)
    elif col != target:
        fix = lines.reindent(snap, row, target)
    else:
        return []
    return [Fix("Put `}` on a line of its own under `type`", (fix,), safe=True, preferred=True)]


def comma_between_fields(snap: Snapshot, problem: Problem) -> list[Fix]:
    """`field-comma`: a `,` after the field before this one."""
    node = node_at(snap, problem.range)
    field = ancestor(node, "field_declaration")
    prev: Node | None = field.prev_named_sibling if field is not None else None
    while prev is not None and prev.type in lines.TRIVIA:
        prev = prev.prev_named_sibling
    if field is None or prev is None or prev.type != "field_declaration":
        return []
    return [Fix("Insert `,`", (edit(end(prev), None, ","),), safe=True, preferred=True)]
