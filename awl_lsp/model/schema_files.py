"""Schema files a document imports with `schema("…")`: the only files analysis ever reads.

A path is resolved (symlinks included) and refused when it lies outside the workspace *before*
anything is read — not its size, not its content. Files inside are bounded in size and in JSON
nesting, and read once per change on disk: the cache is keyed by resolved path, modification
time and size, so a keystroke in the document costs a `stat`, not a read. Without a workspace
the document's own folder is the boundary (as `awl check` does by default).
"""

from __future__ import annotations

import json
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from awl_lsp.syntax.bounds import MAX_JSON_DEPTH, json_nesting

MAX_SCHEMA_BYTES = 4 * 1024 * 1024
_CACHE: OrderedDict[tuple[Path, int, int], SchemaFile] = OrderedDict()
_CACHE_SIZE = 64


@dataclass(frozen=True)
class SchemaFile:
    """What a `schema("…")` import found: the parsed JSON, or a problem code and what went wrong."""

    target: Path | None
    value: object = None
    code: str | None = None  # schema-outside / schema-missing / schema-too-large / schema-unreadable / ...
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.code is None


def inside(target: Path, root: Path) -> bool:
    try:
        target.relative_to(root)
    except ValueError:
        return False
    return True


def load_schema_file(rel: str, document: Path, workspace: Path | None) -> SchemaFile:
    """The JSON of the schema file `rel` names, relative to `document`'s folder, within `workspace`."""
    try:
        target = (document.parent / rel).resolve()
        root = (workspace or document.parent).resolve()
    except (OSError, RuntimeError, ValueError) as exc:  # a symlink loop, a NUL in the path
        return SchemaFile(None, code="schema-unreadable", detail=str(exc))
    if not inside(target, root):
        return SchemaFile(target, code="schema-outside", detail="lies outside the workspace")
    try:
        st = target.stat()
    except (OSError, ValueError):
        return SchemaFile(target, code="schema-missing", detail="not found")
    if not target.is_file():
        return SchemaFile(target, code="schema-missing", detail="not found")
    if st.st_size > MAX_SCHEMA_BYTES:
        return SchemaFile(
            target,
            code="schema-too-large",
            detail=f"is {st.st_size:,} bytes; schema files over {MAX_SCHEMA_BYTES:,} bytes are not read",
        )
    key = (target, st.st_mtime_ns, st.st_size)
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key]
    found = _read(target)
    _CACHE[key] = found
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return found


def _read(target: Path) -> SchemaFile:
    try:
        with target.open("rb") as f:
            data = f.read(MAX_SCHEMA_BYTES + 1)
        raw = data.decode("utf-8")
    except (OSError, ValueError) as exc:
        return SchemaFile(target, code="schema-unreadable", detail=f"cannot be read: {exc}")
    if len(data) > MAX_SCHEMA_BYTES:
        return SchemaFile(target, code="schema-too-large", detail="grew past the size bound while being read")
    if json_nesting(raw) > MAX_JSON_DEPTH:
        return SchemaFile(
            target, code="schema-too-deep", detail=f"is nested more than {MAX_JSON_DEPTH} levels deep"
        )
    try:
        return SchemaFile(target, json.loads(raw))
    except json.JSONDecodeError as exc:
        return SchemaFile(
            target,
            code="schema-json",
            detail=f"is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}",
        )
    except RecursionError:
        return SchemaFile(target, code="schema-too-deep", detail="is nested too deeply")
