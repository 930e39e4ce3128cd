"""Brackets left open: named on the line where the engine finds out, fixed where they belong.

* a multi-line `{ … }` of a type's fields with no `}`: the engine notices on the next line that
  holds a token (a `///` doc line is one, a `//` comment is not);
* a document that ends inside `(…)`, `[…]` or `{…}`: the engine notices at the end of the text.

(A `(` or `[` left open at a line's end inside a construct that parses on is `errors.py`'s.)
"""

from __future__ import annotations

from typing import Any

from tree_sitter import Node

from awl_lsp.syntax.leaves import leaves, node_range, previous_leaf, snippet
from awl_lsp.syntax.problems import Problem, Related, Severity

_PAIRS = {"(": ")", "[": "]", "{": "}"}


def unclosed_fields(body: Node, missing: Node, source: bytes, data: dict[str, Any] | None) -> list[Problem]:
    """A multi-line `{ … }` of fields left open: named on the next line that holds a token (a `///`
    doc line is one, a `//` comment is not), where the engine finds out; the fix still inserts the
    `}` where it belongs."""
    span = node_range(missing)
    row = span[0]  # (the lines below it read one at a time: the rest of the document is not split)
    end = source.find(b"\n", missing.start_byte)
    line = source[source.rfind(b"\n", 0, missing.start_byte) + 1 : end if end >= 0 else len(source)]
    while end >= 0:
        start, end = end + 1, source.find(b"\n", end + 1)
        row += 1
        line = source[start : end if end >= 0 else len(source)]
        text = line.strip()
        if text and (not text.startswith(b"//") or text.startswith(b"///")):
            break
    owner = body.parent
    name = owner.child_by_field_name("name") if owner is not None else None
    what = f"type `{snippet(source, name)}`" if name is not None else "this type"
    column = owner.start_point.column if owner is not None else 0
    fix = (
        {**data, "insert_at": [span[0], span[1]], "insert_text": "\n" + " " * column + "}"} if data else None
    )
    indent = len(line) - len(line.lstrip(b" "))
    return [
        Problem(
            span, f"the fields of {what} are never closed: end them with `}}` here", "missing", Severity.HINT
        ),
        Problem(
            (row, indent, row, max(len(line.rstrip()), indent + 1)),
            f"missing `}}`: the fields of {what} are still open where this line begins — close them "
            "with `}` on a line of its own after the last field",
            "missing",
            data=fix,
        ),
    ]


def open_at_end(node: Node, source: bytes) -> list[Problem]:
    """An ERROR the text ran out in, with a bracket still open: the engine names the end of the text.

    The parser could not close the declaration because the document ended inside `(…)`, `[…]` or
    `{…}`; the engine finds that out at the end of the text, so that line is the one named (the fix
    inserts the closer right after the last token).
    """
    if source[node.end_byte :].strip():
        return []
    stack: list[Node] = []
    last: Node | None = None
    for leaf in leaves(node):
        if leaf.type in _PAIRS:
            stack.append(leaf)
        elif stack and leaf.type == _PAIRS[stack[-1].type]:
            stack.pop()
        if source[leaf.start_byte : leaf.end_byte].strip():
            last = leaf
    if not stack or last is None:
        return []
    opener = stack[-1]
    closer = _PAIRS[opener.type]
    before = previous_leaf(opener)
    what = f"`{snippet(source, before)}{opener.type}`" if before is not None else f"`{opener.type}`"
    row = source.count(b"\n")
    col = len(source) - (source.rfind(b"\n") + 1)
    end = last.end_point
    return [
        Problem(
            (end.row, end.column, end.row, end.column + 1),
            f"the `{opener.type}` of {what} is never closed: end it with `{closer}` here",
            "missing",
            Severity.HINT,
        ),
        Problem(
            (row, col, row, col),
            f"missing `{closer}`: the document ends inside {what} — close it with `{closer}` after the last "
            "value",
            "missing",
            data={"missing": closer, "insert_at": [end.row, end.column]},
            related=(Related(node_range(opener), f"`{opener.type}` opened here"),),
        ),
    ]


__all__ = ["open_at_end", "unclosed_fields"]
