"""Schema rules: `schema("path")` files exist, parse, stay in the workspace and use only supported
JSON Schema; inline `schema { … }` and `json { … }` bodies are valid JSON (schema bodies also keep to
the supported keywords); `schema of T` names one type, not a list or an optional of it.

Unsupported: `type` words other than string/integer/number/boolean/object/array, `type` lists,
`anyOf`, `oneOf`, `allOf`, `not`, `patternProperties`, a `$ref` other than `#/$defs/Name` or to a
`$defs` entry that does not exist, and the `null` type (absence is spelled by leaving a field out).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from tree_sitter import Node

from awl_lsp.checks.base import CheckContext, ItemContext
from awl_lsp.model.schema_files import load_schema_file
from awl_lsp.model.symbols import Range
from awl_lsp.syntax import fields as F
from awl_lsp.syntax.bounds import MAX_JSON_DEPTH, json_nesting

_JSON_TYPES = ("string", "integer", "number", "boolean", "object", "array")
_UNSUPPORTED = ("anyOf", "oneOf", "allOf", "not", "patternProperties")
SCHEMA_NODES = ("schema_import", "schema_body", "json_literal")


def check_item(ctx: ItemContext) -> None:
    _schema_of(ctx)
    for node in ctx.descendants(*SCHEMA_NODES):
        if _inside_schema(node, ctx.node):
            continue  # the walk stops at the outer one
        if node.type == "schema_import":
            _import(ctx, node)
        else:
            _inline(ctx, node)


def _schema_of(ctx: ItemContext) -> None:
    """`schema of [T]` or `schema of T?`: the schema of one type is what the form names."""
    for node in ctx.descendants("list_type", "optional_type"):
        parent = node.parent
        if parent is None or parent.type != "schema_of":
            continue
        ctx.error(
            node,
            f"`schema of` names one type, like `schema of Verdict`, not `{ctx.text(node)}`: declare a "
            "record type with the list or optional field and name that",
            "schema-of-type",
        )


def _inside_schema(node: Node, item: Node) -> bool:
    cur: Node | None = node
    while cur is not None and cur.id != item.id:
        cur = cur.parent
        if cur is None:
            return False
        if cur.type in SCHEMA_NODES:
            return True
    return False


def schema_problems(
    doc: object, root: object = None, path: Sequence[str] | None = ()
) -> list[tuple[str, str, dict]]:
    """(pattern, message, data) for each unsupported construct in a parsed schema; `pattern` (a
    regular expression over the JSON text) locates it; `data` says what it is for the fixes —
    `issue` (`ref`, `type-list`, `type-word`, `null`, `keyword`) and, where the construct is
    reached through object keys only, `path`: those keys, down to the construct's own."""
    root = doc if root is None else root
    out: list[tuple[str, str, dict]] = []
    if isinstance(doc, dict):
        for key, value in doc.items():
            at = None if path is None else [*path, key]
            if key in _UNSUPPORTED:
                out.append(
                    (
                        re.escape(f'"{key}"') + r"\s*:",
                        f"uses `{key}`, which AWL types cannot express: describe one shape "
                        "(a record, a list, an enum of strings)",
                        {"issue": "keyword", "path": at},
                    )
                )
            elif key == "$ref" and isinstance(value, str):
                problem = _ref_problem(value, root)
                if problem:
                    defs = root.get("$defs") if isinstance(root, dict) else None
                    entries = list(defs) if isinstance(defs, dict) else []
                    data = {"issue": "ref", "path": at, "ref": value, "defs": entries}
                    out.append((r'"\$ref"\s*:\s*' + re.escape(json.dumps(value)), problem, data))
            elif key == "type" and (value == "null" or isinstance(value, list) and "null" in value):
                out.append(
                    (
                        r'"type"\s*:\s*(\[[^\]]*)?"null"',
                        "declares a `null` type: AWL has no null — leave the field out of "
                        "`required` to make it optional",
                        {"issue": "null", "path": at},
                    )
                )
            elif key == "type" and isinstance(value, list):
                out.append(
                    (
                        r'"type"\s*:\s*\[',
                        "gives `type` a list of types: an AWL value has one type, so pick one",
                        {"issue": "type-list", "path": at, "types": [t for t in value if isinstance(t, str)]},
                    )
                )
            elif key == "type" and isinstance(value, str) and value not in _JSON_TYPES:
                out.append(
                    (
                        r'"type"\s*:\s*' + re.escape(json.dumps(value)),
                        f"uses the unknown `type` {json.dumps(value)}: a schema type is one of "
                        + ", ".join(f"`{t}`" for t in _JSON_TYPES),
                        {"issue": "type-word", "path": at, "word": value},
                    )
                )
            if key in ("properties", "$defs", "definitions") and isinstance(value, dict):
                for name, sub in value.items():
                    out.extend(schema_problems(sub, root, None if at is None else [*at, name]))
            elif key not in ("enum", "const", "default", "examples", "required"):
                out.extend(schema_problems(value, root, at))
    elif isinstance(doc, list):
        for item in doc:
            out.extend(schema_problems(item, root, None))  # (a list item has no key path)
    return out


def _ref_problem(value: str, root: object) -> str:
    """Why a `$ref` cannot be followed ("" when it names an entry of the schema's own `$defs`)."""
    if not value.startswith("#"):
        return (
            f"has a `$ref` to `{value}` outside this schema: only refs into its own `#/$defs/…` are supported"
        )
    if not value.startswith("#/$defs/") or value.count("/") != 2:
        return (
            f"has a `$ref` to `{value}`: only refs to an entry of its own `$defs` (`#/$defs/Name`) "
            "are supported"
        )
    name = value[len("#/$defs/") :]
    defs = root.get("$defs") if isinstance(root, dict) else None
    if not isinstance(defs, dict) or name not in defs:
        known = ", ".join(f"`{d}`" for d in defs) if isinstance(defs, dict) and defs else "none"
        return f"has a `$ref` to `{value}`, but its `$defs` has no entry `{name}` (entries: {known})"
    return ""


def _import(ctx: CheckContext, node: Node) -> None:
    p = node.child_by_field_id(F.PATH)
    if p is None:  # `schema()`: the grammar lets `(` end its line, so the path is asked for here
        ctx.error(node, '`schema(…)` needs a file path, e.g. `schema("ticket.schema.json")`', "schema-path")
        return
    if ctx.path is None:
        return
    rel = ctx.text(p).strip('"')
    if not rel:
        ctx.error(p, '`schema(…)` needs a file path, e.g. `schema("ticket.schema.json")`', "schema-path")
        return
    found = load_schema_file(rel, ctx.path, ctx.workspace)
    if found.code == "schema-outside":
        ctx.error(
            p, f"schema file `{rel}` lies outside the workspace: keep imported schemas inside it", found.code
        )
        return
    if found.code == "schema-missing":
        where = f"not found next to this document (looked for {found.target})"
        ctx.error(p, f"schema file `{rel}` {where}", found.code)
        return
    if found.code is not None:
        ctx.error(p, f"schema file `{rel}` {found.detail}", found.code)
        return
    doc = found.value
    for _, message, _ in schema_problems(doc):
        ctx.error(p, f"schema file `{rel}` {message}", "schema-unsupported")


def _inline(ctx: CheckContext, node: Node) -> None:
    body = node.child_by_field_id(F.JSON)
    if body is None:
        return
    raw = ctx.source[body.start_byte : body.end_byte].decode("utf-8", errors="replace")
    what = "schema body" if node.type == "schema_body" else "`json { … }` body"
    if json_nesting(raw) > MAX_JSON_DEPTH:
        ctx.error(body, f"this {what} is nested too deeply (more than {MAX_JSON_DEPTH} levels)", "too-deep")
        return
    try:
        doc = json.loads(raw)
    except json.JSONDecodeError as exc:
        token = re.match(r"[A-Za-z_$][\w$]*|\S", raw[exc.pos :])
        found = f"`{token.group(0)}`" if token else "the end of the body"
        ctx.error(
            _span(body, raw, exc.pos, len(token.group(0)) if token else 1),
            f"this {what} is not valid JSON: {exc.msg.lower()} at {found}",
            "json-invalid",
        )
        return
    if node.type != "schema_body":
        return
    for needle, message, data in schema_problems(doc):
        m = re.search(needle, raw)
        offset, length = (m.start(), m.end() - m.start()) if m else (0, 1)
        where = _span(body, raw, offset, length)
        ctx.error(where, f"this inline schema {message}", "schema-unsupported", data)


def _span(body: Node, raw: str, offset: int, length: int) -> Range:
    """The source range of `raw[offset:offset+length]` inside the JSON body node."""
    prefix = raw[:offset]
    row = body.start_point.row + prefix.count("\n")
    last = prefix.rfind("\n")
    col_chars = prefix[last + 1 :] if last != -1 else prefix
    col = len(col_chars.encode("utf-8")) + (body.start_point.column if last == -1 else 0)
    return (row, col, row, col + len(raw[offset : offset + length].encode("utf-8")))
