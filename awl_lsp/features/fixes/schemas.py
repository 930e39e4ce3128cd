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
- `keyword` on a `oneOf` / `anyOf` that is all its object says: one of its shapes in its place,
  each offered, unsafe.
A schema file's constructs are the file's to change: no fix edits another file. `allOf`, `not`,
`patternProperties` and the `null` type describe values AWL has no type for, and no one shape
of theirs is the obvious stand-in: they get no fix.
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


def body_point(body: Node, text: str, offset: int) -> tuple[int, int]:
    """The document point of a character offset into a JSON body's text."""
    row, col = point_of(text, offset)
    return body.start_point.row + row, col + (body.start_point.column if row == 0 else 0)


def _path(problem: Problem, up: int = 0) -> list[str] | None:
    """`data.path` (without its last `up` keys), when it is one."""
    path = (problem.data or {}).get("path")
    if not isinstance(path, list) or not all(isinstance(k, str) for k in path) or len(path) < up:
        return None
    return path[: len(path) - up]


def _located(
    snap: Snapshot, problem: Problem, path: list[str] | None
) -> tuple[Node, tuple[int, int], object] | None:
    """The schema's JSON body, the offsets of the value at `path`, and that value as read."""
    body = ancestor(node_at(snap, problem.range), "json_body")
    if body is None or path is None:
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


def _rewrite(
    snap: Snapshot, problem: Problem, values: list, safe: bool, up: int = 0, what: str = "Change to"
) -> list[Fix]:
    """A fix per value: the JSON value at `data.path` (less `up` keys) written as it (the first
    preferred)."""
    located = _located(snap, problem, _path(problem, up))
    if located is None:
        return []
    body, (start, stop), _ = located
    text = snap.text(body)
    where = (*body_point(body, text, start), *body_point(body, text, stop))
    out: list[Fix] = []
    for v in values:
        new = json.dumps(v)
        if any(f.edits[0].text == new for f in out):
            continue
        out.append(Fix(f"{what} `{new}`", (Edit(where, new),), safe=safe, preferred=not out))
    return out


def fix_ref(snap: Snapshot, problem: Problem) -> list[Fix]:
    data = problem.data or {}
    ref, defs = data.get("ref"), [d for d in data.get("defs") or [] if isinstance(d, str)]
    located = _located(snap, problem, _path(problem))
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
    located = _located(snap, problem, _path(problem))
    if not isinstance(types, list) or located is None or located[2] != types:
        return []
    return _rewrite(snap, problem, [t for t in types if t in _TYPES], safe=False)


def known_type_word(snap: Snapshot, problem: Problem) -> list[Fix]:
    word = (problem.data or {}).get("word")
    located = _located(snap, problem, _path(problem))
    if not isinstance(word, str) or located is None or located[2] != word:
        return []
    meant = _MEANT.get(word.lower())
    choices = [meant] if meant is not None else close_names(word.lower(), list(_TYPES))
    return _rewrite(snap, problem, choices, safe=False)


def keep_one_shape(snap: Snapshot, problem: Problem) -> list[Fix]:
    """`oneOf` / `anyOf` standing alone in its object: that object becomes one of the shapes."""
    path = _path(problem)
    located = _located(snap, problem, _path(problem, up=1))
    if path is None or not path or path[-1] not in ("oneOf", "anyOf") or located is None:
        return []
    holder = located[2]
    shapes = holder.get(path[-1]) if isinstance(holder, dict) and len(holder) == 1 else None
    if not isinstance(shapes, list) or not all(isinstance(s, dict) for s in shapes):
        return []
    return _rewrite(snap, problem, shapes, safe=False, up=1, what="Keep one shape:")
