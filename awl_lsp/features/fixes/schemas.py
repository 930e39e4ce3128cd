"""Fixes for what an inline `schema { … }` says that AWL types cannot (`schema-unsupported`).

The checker names the construct (`data.issue`) and the object keys that lead to it from the
schema's root (`data.path`); the fix finds that value in the body's JSON by those keys and
rewrites it there, nothing else of the body.
- `ref` (`data.ref`, `data.defs` the `$defs` entries): a `#/definitions/Entry` whose entry `$defs`
  has becomes `#/$defs/Entry` — safe: `definitions` is the older name of `$defs`, and the entry is
  there —; a `#/$defs/…` entry that does not exist, each close entry (every entry, when none is
  close and there are few), unsafe.
- `type-list` (`["string", "integer"]`, `data.types`): one of the types, each offered, unsafe.
- `type-word` (`"text"`, `data.word`): the schema type the word usually means (`text` →
  `string`, `int` → `integer`, `list` → `array`, …) or a close one, unsafe.
A schema file's constructs are the file's to change: no fix edits another file. `anyOf`, `oneOf`,
`patternProperties` and the `null` type describe values AWL has no type for: the shape is the
author's to choose, so they get no fix.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from tree_sitter import Node

from awl_lsp.checks.suggest import close_names
from awl_lsp.features.fixes.places import ancestor, node_at
from awl_lsp.features.fixes.values import Edit, Fix
from awl_lsp.model.schema_locations import json_value_span, point_of
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

_TYPES = ("string", "integer", "number", "boolean", "object", "array")
_MEANT = {
    "text": "string",
    "str": "string",
    "int": "integer",
    "long": "integer",
    "float": "number",
    "double": "number",
    "decimal": "number",
    "bool": "boolean",
    "list": "array",
    "dict": "object",
    "map": "object",
    "record": "object",
}
_FEW = 6


def _located(snap: Snapshot, problem: Problem) -> tuple[Node, tuple[int, int], object] | None:
    """The schema's JSON body, the offsets of the value at `data.path`, and that value as read."""
    path = (problem.data or {}).get("path")
    body = ancestor(node_at(snap, problem.range), "json_body")
    if body is None or not isinstance(path, list) or not all(isinstance(k, str) for k in path):
        return None
    text = snap.text(body)
    found = json_value_span(text, path)
    if found is None:
        return None
    try:
        value = json.loads(text[found[0] : found[1]])
    except ValueError:
        return None
    return body, found, value


def _rewrite(snap: Snapshot, problem: Problem, values: list[str], safe: bool) -> list[Fix]:
    """A fix per value: the JSON value at `data.path` written as it (the first preferred)."""
    located = _located(snap, problem)
    if located is None:
        return []
    body, (start, stop), _ = located
    text = snap.text(body)
    row0, col0 = body.start_point.row, body.start_point.column

    def absolute(offset: int) -> tuple[int, int]:
        row, col = point_of(text, offset)
        return row0 + row, col + (col0 if row == 0 else 0)

    where = (*absolute(start), *absolute(stop))
    out = []
    for i, v in enumerate(dict.fromkeys(values)):
        new = json.dumps(v)
        out.append(Fix(f"Change to `{new}`", (Edit(where, new),), safe=safe, preferred=i == 0))
    return out


def fix_ref(snap: Snapshot, problem: Problem) -> list[Fix]:
    data = problem.data or {}
    ref, defs = data.get("ref"), [d for d in data.get("defs") or [] if isinstance(d, str)]
    located = _located(snap, problem)
    if not isinstance(ref, str) or located is None or located[2] != ref:
        return []
    head, _, name = ref.rpartition("/")
    if head == "#/definitions" and name in defs:
        return _rewrite(snap, problem, [f"#/$defs/{name}"], safe=True)
    if head not in ("#/$defs", "#/definitions") or name in defs:
        return []
    close = close_names(name, defs) or (defs if len(defs) <= _FEW else [])
    return _rewrite(snap, problem, [f"#/$defs/{d}" for d in close], safe=False)


def pick_one_type(snap: Snapshot, problem: Problem) -> list[Fix]:
    types = (problem.data or {}).get("types")
    located = _located(snap, problem)
    if not isinstance(types, list) or located is None or located[2] != types:
        return []
    return _rewrite(snap, problem, [t for t in types if t in _TYPES], safe=False)


def known_type_word(snap: Snapshot, problem: Problem) -> list[Fix]:
    word = (problem.data or {}).get("word")
    located = _located(snap, problem)
    if not isinstance(word, str) or located is None or located[2] != word:
        return []
    meant = _MEANT.get(word.lower())
    choices = [meant] if meant is not None else close_names(word.lower(), list(_TYPES))
    return _rewrite(snap, problem, choices, safe=False)
