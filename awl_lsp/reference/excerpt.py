"""Example excerpts for hovers: the part of a keyword's example that shows the keyword's own line.

A reference example is often a whole document (30+ lines); a hover shows only the block that
holds the first line using the keyword — the whole top-level item when it is short, otherwise
the item's opening line, the keyword line's parent and the keyword line with its own indented
block, with `…` where lines were left out. The full entry stays one `awl guide WORD` away.
"""

from __future__ import annotations

import re

MAX_LINES = 7


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _code(line: str) -> str:
    stripped = line.lstrip()
    return "" if stripped.startswith("//") else line.split(" //", 1)[0]


def keyword_line(lines: list[str], keyword: str) -> int | None:
    """The index of the first code line where `keyword` appears as a word (not in a comment)."""
    pattern = re.compile(rf"(?<![\w.]){re.escape(keyword)}(?!\w)")
    for i, line in enumerate(lines):
        if pattern.search(_code(line)):
            return i
    return None


def _block_end(lines: list[str], i: int) -> int:
    """One past the last line of the block line `i` opens (deeper lines and blanks inside it)."""
    end = i + 1
    last = i + 1
    while end < len(lines):
        line = lines[end]
        if line.strip():
            if _indent(line) <= _indent(lines[i]):
                break
            last = end + 1
        end += 1
    return last


def _ellipsis(indent: int) -> str:
    return " " * indent + "…"


def excerpt(example: str, keyword: str, limit: int = MAX_LINES) -> str:
    """The lines of `example` that show `keyword` in place, at most about `limit` lines."""
    lines = example.splitlines()
    k = keyword_line(lines, keyword)
    if k is None:
        return "\n".join(lines[:limit] + ([_ellipsis(0)] if len(lines) > limit else []))
    top = k
    while top > 0 and (not lines[top].strip() or _indent(lines[top]) > 0):
        top -= 1
    item_end = _block_end(lines, top)
    if item_end - top <= limit:
        return "\n".join(lines[top:item_end])
    out = [lines[top]]
    parent = k
    if _indent(lines[k]) > 0:
        parent = k - 1
        while parent > top and (not lines[parent].strip() or _indent(lines[parent]) >= _indent(lines[k])):
            parent -= 1
    if parent > top:
        if parent > top + 1:
            out.append(_ellipsis(_indent(lines[parent])))
        out.append(lines[parent])
    if k > parent + 1 and k != top:
        out.append(_ellipsis(_indent(lines[k])))
    own_end = _block_end(lines, k)
    room = max(1, limit - len(out))
    own = [line for line in lines[k:own_end] if line.strip()] if k != top else lines[k + 1 : own_end]
    if k == top:
        out += own[: room - 1]
        if len(own) > room - 1:
            out.append(_ellipsis(2))
        return "\n".join(out)
    out += own[:room]
    if len(own) > room or own_end < item_end:
        out.append(_ellipsis(_indent(lines[k])))
    return "\n".join(out)
