"""The fix for escapes AWL strings do not know (`string-escape`): write each as AWL spells it.

AWL strings know `\\"`, `\\\\`, `\\n` and `\\t`. The fix rewrites every other escape of the string
at once (the checker reports the first; fixing only that one would reveal the next):
- an escape other languages read as one character — `\\'`, `\\xHH`, `\\uHHHH` — becomes that
  character (`\\x09` the tab AWL writes `\\t`, `\\u0041` an `A`);
- any other — `C:\\logs`, `\\d` — keeps its backslash, written `\\\\`.
Safe when every escape was of the first kind: those spellings mean one character in every language
that has them. Unsafe when a backslash is kept: the author may have meant an escape AWL lacks
(`\\r`), not a backslash. Not offered for a character AWL cannot write in a string (a control
character other than tab and newline).

A string left open to the end of its line (`string`) is closed before the brackets that close
what the line opened before it, else at the end of the line (`close_string`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from awl_lsp.features.fixes.places import ancestor, node_at, span
from awl_lsp.features.fixes.values import Edit, Fix, edit
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

_KNOWN = frozenset('"\\nt')
_AS_AWL = {"\t": "\\t", "\n": "\\n", '"': '\\"', "\\": "\\\\"}
_HEX = {"x": 2, "u": 4}


def _character(body: str, i: int) -> tuple[str, int] | None:
    """The character the escape at `body[i]` (a backslash) means in other languages, as AWL writes
    it, and the length of the escape; None when it is not one of those."""
    kind = body[i + 1]
    if kind == "'":
        return "'", 2
    digits = _HEX.get(kind)
    if digits is None:
        return None
    code = body[i + 2 : i + 2 + digits]
    if len(code) != digits or any(c not in "0123456789abcdefABCDEF" for c in code):
        return None
    char = chr(int(code, 16))
    if char in _AS_AWL:
        return _AS_AWL[char], 2 + digits
    if not char.isprintable():
        return None
    return char, 2 + digits


def rewrite_escapes(snap: Snapshot, problem: Problem) -> list[Fix]:
    node = ancestor(node_at(snap, problem.range), "string")
    text = snap.text(node)
    if node is None or len(text) < 2 or not text.endswith('"'):
        return []
    body, out, safe, i = text[1:-1], [], True, 0
    while i < len(body):
        if body[i] != "\\" or i + 1 >= len(body):
            out.append(body[i])
            i += 1
            continue
        if body[i + 1] in _KNOWN:
            out.append(body[i : i + 2])
            i += 2
            continue
        meant = _character(body, i)
        if meant is None:
            if not body[i + 1].isprintable():
                return []
            out.append("\\\\" + body[i + 1])
            safe = False
            i += 2
        else:
            out.append(meant[0])
            i += meant[1]
    new = '"' + "".join(out) + '"'
    if new == text:
        return []
    title = f"Write `{new}`" if len(new) <= 40 else "Write the escapes as AWL spells them"
    return [Fix(title, (Edit(span(node), new),), safe=safe, preferred=True)]


def _open_brackets(line: str) -> int:
    """How many `(` and `[` the line opens and leaves open (strings on it skipped)."""
    depth, i = 0, 0
    while i < len(line):
        c = line[i]
        if c == '"':
            i += 1
            while i < len(line) and line[i] != '"':
                i += 2 if line[i] == "\\" else 1
        elif c in "([":
            depth += 1
        elif c in ")]":
            depth = max(0, depth - 1)
        i += 1
    return depth


def close_string(snap: Snapshot, problem: Problem) -> list[Fix]:
    """`string` (a string left open to the end of its line): the closing quote before the brackets
    that close what the line opened before the string (`done("open)` → `done("open")`), else at
    the end of the line. Unsafe: where the text was meant to end is a guess."""
    node = ancestor(node_at(snap, problem.range), "string")
    text = snap.text(node)
    if node is None or node.start_point.row != node.end_point.row or (len(text) > 1 and text.endswith('"')):
        return []
    row, col = node.start_point.row, node.start_point.column
    before = snap.doc.source[snap.doc.lines.byte_starts[row] : node.start_byte].decode("utf-8", "replace")
    content = text[1:].rstrip()
    keep = len(content)
    for _ in range(_open_brackets(before)):
        if keep == 0 or content[keep - 1] not in ")]":
            break
        keep -= 1
    at = (row, col + 1 + len(content[:keep].encode("utf-8")))
    closed = '"' + content[:keep] + '"'
    return [Fix(f"Close the string: `{closed}`", (edit(at, None, '"'),), safe=False, preferred=True)]
