"""Fixes for record values: a field the record type lacks, a field given as `null`.

- `record-field` on a field the type does not have (`data.name`, `data.record`, `data.type` the
  value's type): add the field to the record type — `urgency: Int` — laid out as the body is (one
  line: `, urgency: Int` after the last field; one field per line: a line of its own at the
  fields' indentation, commas as the other lines have them). Required when the document then
  checks (every construction of the type gives it), else optional (`Int?`). Unsafe: the type is
  also what workers and contracts see. (Fields left out are the missing-arguments fix's,
  `arguments.py`, from `data.missing`.)
- `null-value` as a named argument (`body: null`): leave the argument out — what an absent
  optional value is in AWL. Safe where the field is optional (tried first: where it is not, the
  argument is only left out when that checks).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from awl_lsp.features.fixes.declared_types import writable
from awl_lsp.features.fixes.places import ancestor, end, node_at, start
from awl_lsp.features.fixes.trial import mends
from awl_lsp.features.fixes.values import Edit, Fix, edit
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot


def _field_added(snap: Snapshot, body: Node, line: str) -> list[Edit] | None:
    """Edits adding the field `line` (`name: T`) to a record body, in its layout."""
    fields = [f for f in body.named_children if f.type == "field_declaration"]
    if not fields:
        return None
    last = fields[-1]
    after = last.next_sibling
    trailing = after is not None and after.type == ","
    if body.start_point.row == body.end_point.row:
        return [edit(end(last), None, f", {line}")]
    rows = {f.start_point.row for f in fields}
    if len(rows) != len(fields):
        return None  # (several fields on one line of a multi-line body: no one layout to follow)
    indent = " " * last.start_point.column
    commas = trailing or any(f.next_sibling is not None and f.next_sibling.type == "," for f in fields[:-1])
    if trailing and after is not None:
        return [edit(end(after), None, f"\n{indent}{line},")]
    return [edit(end(last), None, f"{',' if commas else ''}\n{indent}{line}")]


def add_field_to_record(snap: Snapshot, problem: Problem) -> list[Fix]:
    data = problem.data or {}
    name, record, value_type = data.get("name"), data.get("record"), writable(data.get("type"))
    node = node_at(snap, problem.range)
    sym = snap.model.type_symbol(record) if isinstance(record, str) else None
    if sym is None or value_type is None or not isinstance(name, str) or snap.text(node) != name:
        return []
    decl = ancestor(node_at(snap, sym.selection), "type_declaration")
    body = decl.child_by_field_name("body") if decl is not None else None
    if body is None or body.type != "record_body" or body.has_error:
        return []
    choices = [value_type] if value_type.endswith("?") else [value_type, f"{value_type}?"]
    for t in choices:
        edits = _field_added(snap, body, f"{name}: {t}")
        if edits is not None and mends(snap, problem, edits):
            title = f"Add field `{name}: {t}` to type `{record}`"
            return [Fix(title, tuple(edits), safe=False, preferred=True)]
    return []


def leave_out_null(snap: Snapshot, problem: Problem) -> list[Fix]:
    node = node_at(snap, problem.range)
    argument = node.parent
    args = argument.parent if argument is not None else None
    if argument is None or args is None or argument.type != "argument" or args.type != "arguments":
        return []
    if argument.child_by_field_name("name") is None:
        return []
    given = [a for a in args.named_children if a.type == "argument"]
    i = next(j for j, a in enumerate(given) if a.id == argument.id)
    if i > 0:
        removed = edit(end(given[i - 1]), end(argument), "")
    elif len(given) > 1:
        removed = edit(start(argument), start(given[1]), "")
    else:
        removed = edit(start(argument), end(argument), "")
    if not mends(snap, problem, [removed]):
        return []
    title = f"Leave out `{snap.text(argument)}` (absent is left out)"
    return [Fix(title, (removed,), safe=True, preferred=True)]
