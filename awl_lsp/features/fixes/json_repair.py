"""The fix for a `json { … }` or `schema { … }` body that is not valid JSON (`json-invalid`): the
mechanical repairs that have one reading.

- a comma before a closing `}` or `]` (a trailing comma): removed;
- a string in single quotes (`'draft'`) holding no double quote: in double quotes;
- a `}` or `]` that closes a bracket opened inside the one still open (`[1, 2 }`): the missing
  closer inserted before it (`[1, 2] }`).
Offered only when the body is then valid JSON, and safe: each repair has one reading, and what the
body says is otherwise as written. A body with other faults (a bare word, a missing value) gets no
fix: what it should say is the author's.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from awl_lsp.features.fixes.places import ancestor, node_at
from awl_lsp.features.fixes.schemas import body_point
from awl_lsp.features.fixes.values import Edit, Fix
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

_CLOSER = {"{": "}", "[": "]"}
_SPACE = " \t\r\n"


def _string_end(text: str, i: int, quote: str) -> int:
    """The offset just past the string opening at `i` with `quote` (the text's end when open)."""
    j = i + 1
    while j < len(text):
        if text[j] == "\\":
            j += 2
        elif text[j] == quote:
            return j + 1
        else:
            j += 1
    return len(text)


def repairs(text: str) -> list[tuple[int, int, str]] | None:
    """Edits (start, end, new text) that make `text` valid JSON by the repairs above; None when
    they do not."""
    edits: list[tuple[int, int, str]] = []
    stack: list[str] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c in "\"'":
            end = _string_end(text, i, c)
            body = text[i + 1 : end - 1]
            if c == "'":
                if end > len(text) or text[end - 1] != "'" or '"' in body:
                    return None
                edits += [(i, i + 1, '"'), (end - 1, end, '"')]
            i = end
            continue
        if c in _CLOSER:
            stack.append(c)
        elif c in "}]":
            j = i - 1
            while j >= 0 and text[j] in _SPACE:
                j -= 1
            after = j + 1  # (where a missing closer goes: right after the last item)
            if j >= 0 and text[j] == ",":
                edits.append((j, j + 1, ""))
                after = j
            if not stack:
                return None
            if _CLOSER[stack[-1]] != c:
                if len(stack) < 2 or _CLOSER[stack[-2]] != c:
                    return None
                edits.append((after, after, _CLOSER[stack.pop()]))
            stack.pop()
        i += 1
    if stack or not edits:
        return None
    new = text
    for start, stop, piece in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        new = new[:start] + piece + new[stop:]
    try:
        json.loads(new)
    except ValueError:
        return None
    return edits


def repair_json(snap: Snapshot, problem: Problem) -> list[Fix]:
    body = ancestor(node_at(snap, problem.range), "json_body")
    text = snap.text(body)
    found = repairs(text) if body is not None else None
    if body is None or found is None:
        return []
    edits = tuple(
        Edit((*body_point(body, text, start), *body_point(body, text, stop)), piece)
        for start, stop, piece in found
    )
    return [Fix("Repair the JSON", edits, safe=True, preferred=True)]
