"""Line layout: indentation rules the engine's lexer enforces and the tree alone does not show.

The indentation scanner turns indentation into blocks where the grammar expects one and treats it
as white space elsewhere, so some layouts the engine rejects parse here. This module names them,
each on the line the engine names:

* a code line indented by an odd number of spaces (a level is two spaces);
* a line indented more than one level deeper than the code line above it (also inside brackets);
* a line one level deeper than the line above where that line opens no block (a header clause
  under another, a statement under a statement — the latter the tree keeps as `unexpected_block`,
  which the checker reports);
* inside brackets, a line less indented than the line the brackets opened on;
* inside a type's `{ … }`, a field line deeper than the field line above it;
* an enum's `| Variant` on a line of its own (the variants go on the `type` line);
* an `outcome …,` line with no deeper line after it to carry its `route`;
* branches indented under a `join` (the `fork` above it has none: named on the `fork` line).

Blank lines, comment lines and the inside of `json { … }` bodies and `\"\"\"raw strings\"\"\"` are
free. Lines with a tab in their indentation are left to the tab rule (`errors.py`).
"""

from __future__ import annotations

import re
from itertools import accumulate

from tree_sitter import Node, Tree

from awl_lsp.syntax.layout_nodes import (
    TRIVIA,
    bracket_opener,
    in_error,
    largest_at,
    largest_with_parent,
    line_start,
    mask,
    multiline_opaque,
    opens_here,
)

Range = tuple[int, int, int, int]

_SLASH, _TAB, _BAR, _O = b"/\t|o"  # (a line's first byte, as a number)

_STRING = re.compile(rb'"(?:[^"\\\n]|\\.)*"?')
_COMMENT = re.compile(rb"//[^\n]*")
# every bracket as `(` or `)` (the line's depth counts them all alike), everything else but line breaks gone
_AS_PARENS = bytes.maketrans(b"[]{}", b"()()")
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"()[]{}\n")


def layout_problems(tree: Tree, source: bytes, cache: dict | None = None) -> list[tuple[Range, str, str]]:
    """(range, message, code) of every layout rule broken, first line first.

    `cache` (a dict the caller keeps per document between versions) holds the problems of each
    clean top-level declaration keyed by its text from the start of its first line, rows relative
    to it, read as if the whole tree were clean (`excused` tells what an error elsewhere excuses):
    a keystroke re-scans only the declaration it touched, whether or not it breaks the syntax
    elsewhere. It keeps only this version's declarations.
    """
    root = tree.root_node
    out: list[tuple[Range, str, str]] = []
    kept: dict[bytes, list[tuple[Range, str, str]]] = {}
    for item in root.children:
        start, end = item.start_byte, item.end_byte
        if end <= start or item.type in TRIVIA:
            continue
        begin = source.rfind(b"\n", 0, start) + 1
        base = item.start_point.row
        text = source[begin:end]
        found = None
        clean = not item.has_error
        if clean and cache is not None:
            found = kept.get(text)
            if found is None:
                found = cache.get(text)
        if found is None:
            problems = _item_problems(root, item, source, begin, text)
            found = (
                [
                    ((r0 - base, c0, r1 - base, c1), message, code)
                    for (r0, c0, r1, c1), message, code in problems
                ]
                if problems
                else []
            )
        if clean:
            kept[text] = found
        if found:  # (most items have none)
            moved = [
                ((r0 + base, c0, r1 + base, c1), message, code) for (r0, c0, r1, c1), message, code in found
            ]
            out += moved
    if cache is not None:
        cache.clear()
        cache.update(kept)
    return out


def item_layout_problems(root: Node, item: Node, source: bytes) -> list[tuple[Range, str, str]]:
    """One top-level item's share of `layout_problems` (rows are the document's)."""
    start, end = item.start_byte, item.end_byte
    if end <= start or item.type in TRIVIA:
        return []
    begin = source.rfind(b"\n", 0, start) + 1
    return _item_problems(root, item, source, begin, source[begin:end])


def excused(root: Node, span: Range, code: str) -> bool:
    """Whether a problem read as if the tree were clean is excused in this tree, which has an error:
    there a line under a statement that opens no block is left to the checker's `unexpected_block`
    (and to the error), as `_deeper` leaves it in a broken item."""
    if code != "unexpected-indent":
        return False
    first = largest_with_parent(root, span[0], span[1])[0]
    return first is not None and in_error(first)


def _item_problems(
    root: Node, item: Node, source: bytes, begin: int, text: bytes | None = None
) -> list[tuple[Range, str, str]]:
    """The layout problems of one top-level declaration (rows are the document's). `text`, when
    given, is `source[begin : item.end_byte]`."""
    first_row = item.start_point.row
    if text is None:
        text = source[begin : item.end_byte]
    opaque = multiline_opaque(root, source, begin, item.end_byte)
    free_rows: set[int] = set()
    for node in opaque:
        free_rows.update(range(node.start_point.row + 1, node.end_point.row + 1))
    if opaque:
        text = mask(text, begin, opaque)
    if _closed_per_line(text):  # (the usual item: no line leaves a bracket open)
        lines = text.split(b"\n")
        if text.endswith(b"\n"):
            lines.pop()  # the item's range runs to the start of the next line
        return _flat_lines(root, item, lines, begin, free_rows, text.find(b"\r") != -1)
    record_rows: set[int] = set()
    record = item.child_by_field_name("body") if item.type == "type_declaration" else None
    if record is not None and record.type == "record_body" and record.end_point.row > record.start_point.row:
        record_rows.update(range(record.start_point.row + 1, record.end_point.row + 1))
    lines = text.split(b"\n")
    if text.endswith(b"\n"):
        lines.pop()
    returns = text.find(b"\r") != -1

    out: list[tuple[Range, str, str]] = []
    open_arm: tuple[Range, int] | None = None  # an `outcome …,` line still waiting for its route line
    prev = 0  # indentation of the code line above (the first code line sits at the left margin)
    prev_row = -1
    depth = 0  # open brackets at the start of the line
    open_indent = 0  # indentation of the line the outermost open bracket opened on
    for row, raw in enumerate(lines, start=first_row):
        line = raw.rstrip(b"\r") if returns else raw
        body = line.lstrip(b" ")
        indent = len(line) - len(body)
        code = _code(body)
        # (a line's first byte, compared as a number, settles most of the checks below without a call)
        lead = body[0] if body else -1
        if lead == -1 or (lead == _SLASH and body.startswith(b"//")) or lead == _TAB or row in free_rows:
            pass
        else:
            if open_arm is not None and depth == 0 and (indent <= open_arm[1] or not _routes(body)):
                out.append((open_arm[0], _ARM_WITHOUT_ROUTE, "arm-route"))
            open_arm = None
            if depth > 0:
                # the text says "inside brackets"; the tree decides (a bracket a syntax error left
                # open closes where the parser closed it)
                opener = bracket_opener(root, row, indent)
                if opener is None or opener < first_row:
                    depth = 0
                else:
                    opened = lines[opener - first_row].rstrip(b"\r")
                    open_indent = len(opened) - len(opened.lstrip(b" "))
            continuation = depth > 0 or lead == _BAR
            if indent % 2:
                out.append(_odd_indent(row, indent, line))
            elif indent > prev + 2:
                out.append(_indent_jump(row, indent, line, prev))
            elif depth == 0 and lead == _BAR and not body.startswith(b"|>"):
                out.append((_span(row, indent, line), _ENUM_LINE, "enum-line"))
            elif depth > 0 and indent < open_indent:
                out.append(
                    (
                        _span(row, indent, line),
                        "this line continues the brackets opened above but is less indented than the line "
                        "that opened them: indent it at least as deep as that line",
                        "bracket-dedent",
                    )
                )
            elif depth > 0 and row in record_rows and indent <= open_indent and not body.startswith(b"}"):
                out.append(
                    _field_not_indented(lines, first_row, row, _span(row, indent, line), prev_row, record)
                )
            elif (
                depth > 0
                and row in record_rows
                and prev_row in record_rows
                and indent > prev
                and not body.startswith((b"}", b")", b"]"))
            ):
                out.append(
                    (
                        _span(row, indent, line),
                        "this field is indented deeper than the field above it: the fields of a type's "
                        "`{ … }` all sit at one level",
                        "field-indent",
                    )
                )
            elif not continuation and indent == prev + 2:
                found = _deeper(root, item, lines, row, indent, line, prev, prev_row)
                if found is not None:
                    out.append(found)
            prev, prev_row = indent, row
        if depth == 0 and lead == _O and body.startswith(b"outcome ") and row not in free_rows:
            if code.rstrip().endswith(b","):
                open_arm = ((row, indent, row, indent + len(code.rstrip())), indent)
        opens = code.count(b"(") + code.count(b"[") + code.count(b"{")
        if opens or depth:
            if depth == 0:
                open_indent = indent
            depth = max(0, depth + opens - code.count(b")") - code.count(b"]") - code.count(b"}"))
    if open_arm is not None:
        out.append((open_arm[0], _ARM_WITHOUT_ROUTE, "arm-route"))
    return out


def _flat_lines(
    root: Node, item: Node, lines: list[bytes], begin: int, free_rows: set[int], returns: bool
) -> list[tuple[Range, str, str]]:
    """`_item_problems` for an item none of whose lines leaves a bracket open (`_closed_per_line`):
    the same rules, with the bracket depth 0 on every line (no continuation, no field block)."""
    out: list[tuple[Range, str, str]] = []
    open_arm: tuple[Range, int] | None = None  # an `outcome …,` line still waiting for its route line
    prev = 0  # indentation of the code line above (the first code line sits at the left margin)
    prev_row = -1
    first_row = item.start_point.row
    starts: list[int] | None = None
    for row, raw in enumerate(lines, start=first_row):
        line = raw.rstrip(b"\r") if returns else raw
        body = line.lstrip(b" ")
        if not body:
            continue
        lead = body[0]
        if (lead == _SLASH and body.startswith(b"//")) or lead == _TAB or row in free_rows:
            continue
        indent = len(line) - len(body)
        if open_arm is not None:
            if indent <= open_arm[1] or not _routes(body):
                out.append((open_arm[0], _ARM_WITHOUT_ROUTE, "arm-route"))
            open_arm = None
        if indent % 2:
            out.append(_odd_indent(row, indent, line))
        elif indent > prev + 2:
            out.append(_indent_jump(row, indent, line, prev))
        elif lead == _BAR:  # (a `|` line continues the line above: only a variant line is wrong)
            if not body.startswith(b"|>"):
                out.append((_span(row, indent, line), _ENUM_LINE, "enum-line"))
        elif indent == prev + 2:
            if starts is None:  # (each line's first byte in the item's text, once a line needs it)
                starts = list(accumulate(map(len, lines), initial=0))
            at = begin + starts[row - first_row] + row - first_row + indent  # (+1 per line break)
            found = _deeper(root, item, lines, row, indent, line, prev, prev_row, at)
            if found is not None:
                out.append(found)
        prev, prev_row = indent, row
        if lead == _O and body.startswith(b"outcome "):
            code = _code(body).rstrip()
            if code.endswith(b","):
                open_arm = ((row, indent, row, indent + len(code)), indent)
    if open_arm is not None:
        out.append((open_arm[0], _ARM_WITHOUT_ROUTE, "arm-route"))
    return out


def _routes(body: bytes) -> bool:
    """Does the line below an outcome arm's trailing comma open with `route` (its continuation)?"""
    return body.startswith(b"route") and (len(body) == 5 or body[5] in b" \t\r(")


def _odd_indent(row: int, indent: int, line: bytes) -> tuple[Range, str, str]:
    spaces = f"{indent} space{'' if indent == 1 else 's'}"
    return (
        _span(row, indent, line),
        f"indented {spaces}: indentation goes in levels of two spaces",
        "odd-indent",
    )


def _indent_jump(row: int, indent: int, line: bytes, prev: int) -> tuple[Range, str, str]:
    return (
        _span(row, indent, line),
        f"indented {(indent - prev) // 2} levels deeper than the line above: a line may sit "
        "at most one level (two spaces) deeper than the one before it",
        "indent-jump",
    )


_ENUM_LINE = "enum variants go on the `type` line (`type Name = A | B | C`), not on lines of their own"


def _deeper(
    root: Node,
    item: Node,
    lines: list[bytes],
    row: int,
    indent: int,
    line: bytes,
    prev: int,
    prev_row: int,
    byte: int = -1,
) -> tuple[Range, str, str] | None:
    """The problem of a code line one level deeper than the code line above it (not a continuation):
    a `fork` above a `join` with no branches, or a line under one that opens no block. `byte`, when
    known, is where the line's code starts in the source."""
    first_row, first_col = item.start_point
    # (a line of this item: searched from the item, unless it shares its first line)
    inside = row > first_row or indent >= first_col
    clean = not item.has_error  # (read as in a clean tree: `excused` tells what an error excuses)
    found = line_start(item, byte) if inside and byte >= 0 and clean else None
    first, parent = found if found is not None else largest_with_parent(item if inside else root, row, indent)
    # (a `join` line above: the `fork` over it may have no branches)
    joins = prev_row < first_row or lines[prev_row - first_row][prev : prev + 4] == b"join"
    fork = _fork_without_branches(root, prev_row, prev) if joins else None
    if fork is not None:
        return fork
    if first is not None and (clean or not in_error(first)) and not opens_here(first, parent):
        return (
            _span(row, indent, line),
            "this line is indented one level deeper than the line above, which opens no "
            "block: indent it like the line above",
            "unexpected-indent",
        )
    return None


def _code(body: bytes) -> bytes:
    """A line's code after its indentation: strings emptied, a trailing comment cut."""
    code = _STRING.sub(b'""', body) if body.find(b'"') != -1 else body
    cut = code.find(b"//")
    return code if cut == -1 else code[:cut]


def _closed_per_line(text: bytes) -> bool:
    """Whether no line of `text` ends with more brackets opened than closed in its code (`_code`),
    so that the bracket depth `_item_problems` counts stays 0 on every line. (Strings and comments
    are dropped from the whole text at once, as `_code` drops them line by line: neither reaches
    past a line break. What is left of the brackets, all as `(` and `)`, must pair up within each
    line; a line with a `(` left over may leave a bracket open.)"""
    # (`find`, not `in`: `bytes in bytes` first tries the needle as a number, and fails)
    code = text
    if code.find(b'"') != -1:
        code = _STRING.sub(b'""', code)
    if code.find(b"//") != -1:
        code = _COMMENT.sub(b"", code)
    brackets = code.translate(_AS_PARENS, _NOT_BRACKETS)
    while brackets.find(b"()") != -1:
        brackets = brackets.replace(b"()", b"")
    return brackets.find(b"(") == -1


def _span(row: int, indent: int, line: bytes) -> Range:
    """A code line's range from its indentation to its end."""
    return (row, indent, row, max(len(line), indent + 1))


def _field_not_indented(
    lines: list[bytes], first_row: int, row: int, span: Range, prev_row: int, record: Node | None
) -> tuple[Range, str, str]:
    """A field line at (or left of) its `type` line's indentation, named where the engine stops:
    the `{` line when it is the first field (no indented block follows `{`), a `///` line right
    above it (the block of fields ends after that doc line), else the field line itself."""
    above = row - 1
    while above > prev_row and not lines[above - first_row].strip():
        above -= 1
    doc = lines[above - first_row].strip().startswith(b"///") if above > prev_row else False
    if doc:
        text = lines[above - first_row].rstrip(b"\r")
        start = len(text) - len(text.lstrip(b" "))
        return (
            (above, start, above, len(text)),
            "this `///` line documents a field that is not indented under its `type` line: indent the "
            "field below one level deeper than the `type` line",
            "field-indent",
        )
    if record is not None and prev_row == record.start_point.row:
        r = record.start_point.row
        return (
            (r, record.start_point.column, r, record.start_point.column + 1),
            "no indented fields follow this `{`: a type's fields sit one level deeper than the `type` "
            "line — indent the field line below",
            "field-indent",
        )
    return (
        span,
        "this field is not indented under its `type` line: a type's fields sit one level deeper than the "
        "`type` line",
        "field-indent",
    )


def _fork_without_branches(root: Node, row: int, col: int) -> tuple[Range, str, str] | None:
    """The `fork` line above a `join` that came before its branches (the engine names the fork)."""
    above = largest_at(root, row, col)
    fork = above.parent if above is not None and above.type == "join_clause" else None
    if fork is None or fork.type != "fork_statement" or fork.child_by_field_name("body") is not None:
        return None
    r, c = fork.start_point.row, fork.start_point.column
    return (
        (r, c, r, c + 4),
        "this `fork` has no branches under it: indent its branches one level under the `fork` line, "
        "and put `join` after them",
        "fork-body",
    )


_ARM_WITHOUT_ROUTE = (
    "this outcome line ends with `,` but no `route` follows: put `route <target>` after the comma or "
    "on the next line, indented one level"
)


__all__ = ["excused", "item_layout_problems", "layout_problems"]
