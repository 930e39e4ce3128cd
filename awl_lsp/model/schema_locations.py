"""Where a definition sits inside a JSON Schema text: the place of a key path, for navigation.

`json_key_offset(text, keys)` follows the object keys `keys` from the root value of a JSON text and
gives the offset of the last key (its opening quote), or of the root value for no keys; where the
same key is written twice in one object, the last one counts, as for the parser that read the
schema. `json_value_span` gives where the value at such a path starts and ends (the quick fixes
rewrite values of inline schemas there). `schema_file_text` reads a `schema("…")` file for that,
under the same rules as the analysis (`schema_files`: inside the workspace, bounded in size), and
nothing else.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from awl_lsp.model.schema_files import MAX_SCHEMA_BYTES, load_schema_file

_SPACE = " \t\r\n"


def _skip_space(text: str, i: int) -> int:
    n = len(text)
    while i < n and text[i] in _SPACE:
        i += 1
    return i


def _string_end(text: str, i: int) -> int:
    """The offset just past the string that opens at `i` (the text's end when it is not closed)."""
    n = len(text)
    j = i + 1
    while j < n:
        c = text[j]
        if c == "\\":
            j += 2
        elif c == '"':
            return j + 1
        else:
            j += 1
    return n


def _value_end(text: str, i: int) -> int:
    """The offset just past the value that starts at `i` (nested objects and lists skipped whole)."""
    n = len(text)
    depth = 0
    while i < n:
        c = text[i]
        if c == '"':
            i = _string_end(text, i)
            if depth == 0:
                return i
            continue
        if c in "{[":
            depth += 1
        elif c in "}]":
            if depth == 0:
                return i  # (the end of the object or list a number or word stands in)
            depth -= 1
            if depth == 0:
                return i + 1
        elif depth == 0 and c in ",:" + _SPACE:
            return i
        i += 1
    return n


def _member(text: str, i: int, key: str) -> tuple[int, int] | None:
    """In the object that opens at `i`: (offset of the last `key`, offset of its value)."""
    if i >= len(text) or text[i] != "{":
        return None
    found = None
    i = _skip_space(text, i + 1)
    while i < len(text) and text[i] == '"':
        end = _string_end(text, i)
        try:
            name = json.loads(text[i:end])
        except ValueError:
            return None
        colon = _skip_space(text, end)
        if colon >= len(text) or text[colon] != ":":
            return None
        value = _skip_space(text, colon + 1)
        if name == key:
            found = (i, value)
        i = _skip_space(text, _value_end(text, value))
        if i < len(text) and text[i] == ",":
            i = _skip_space(text, i + 1)
    return found


def json_key_offset(text: str, keys: Sequence[str]) -> int | None:
    """The offset of the last of `keys` followed from the root object (the root value's offset for
    none); None when the text has no such path."""
    at = _skip_space(text, 0)
    if at >= len(text):
        return None
    key_at = at
    for key in keys:
        found = _member(text, at, key)
        if found is None:
            return None
        key_at, at = found
    return key_at


def json_value_span(text: str, keys: Sequence[str]) -> tuple[int, int] | None:
    """The offsets [start, end) of the value at the key path `keys` (followed as
    `json_key_offset` follows them); None when the text has no such path."""
    at = _skip_space(text, 0)
    for key in keys:
        found = _member(text, at, key)
        if found is None:
            return None
        at = found[1]
    if at >= len(text):
        return None
    return at, _value_end(text, at)


def point_of(text: str, offset: int) -> tuple[int, int]:
    """The (row, byte column) of a character offset, as tree-sitter points count."""
    row = text.count("\n", 0, offset)
    line_start = text.rfind("\n", 0, offset) + 1
    return row, len(text[line_start:offset].encode("utf-8"))


def schema_file_text(rel: str, document: Path, workspace: Path | None) -> tuple[Path, str] | None:
    """The path and text of the schema file `rel` names (relative to `document`), when analysis
    reads it: inside the workspace, small enough, valid JSON."""
    found = load_schema_file(rel, document, workspace)
    if not found.ok or found.target is None:
        return None
    try:
        with found.target.open("rb") as f:
            data = f.read(MAX_SCHEMA_BYTES + 1)
        return found.target, data[:MAX_SCHEMA_BYTES].decode("utf-8")
    except (OSError, ValueError):
        return None
