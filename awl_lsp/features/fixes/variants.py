"""Fixes for enum variants: a variant the enum does not have, a variant where no enum goes.

- `enum-variant` with `data.enum` and `data.name` (a variant the enum lacks): "Add `Top` to enum
  `Priority`" — the variant appended to the enum's `A | B` declaration (preferred: the text as
  written stays) — and "Change to `Urgent`" for each variant the enum has that the close-name
  fix does not already offer (each tried: the name replaced may have been another enum's only
  use). Unsafe: whether the enum or the value is wrong is the author's call. Not offered for an
  enum a schema declares (its JSON is not ours to extend).
- `enum-variant` with `data.variant` where a String is expected (`reason: Urgent`,
  `summary == Urgent`): the name as a string, `"Urgent"`. Unsafe: a guess that text was meant.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from awl_lsp.features.fixes.places import end, node_at, span
from awl_lsp.features.fixes.trial import mends
from awl_lsp.features.fixes.values import Edit, Fix, edit
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

_MANY = 6  # an enum with more variants than this gets no "Change to" for each (the list is too long)


def add_variant(snap: Snapshot, problem: Problem) -> list[Fix]:
    data = problem.data or {}
    name, enum = data.get("name"), data.get("enum")
    node = node_at(snap, problem.range)
    sym = snap.model.type_symbol(enum) if isinstance(enum, str) else None
    if sym is None or not isinstance(name, str) or snap.text(node) != name:
        return []
    if sym.extra.get("form") != "enum_body":
        return []
    decl = node_at(snap, sym.range)
    body = decl.child_by_field_name("body") if decl.type == "type_declaration" else None
    variants = body.children_by_field_name("variant") if body is not None else []
    if body is None or body.type != "enum_body" or not variants or body.has_error:
        return []
    if any(v.child_by_field_name("payload") is not None for v in variants):
        return []  # (a variant with a payload is an error of its own: that fix comes first)
    added = edit(end(variants[-1]), None, f" | {name}")
    if not mends(snap, problem, [added]):
        return []
    return [Fix(f"Add `{name}` to enum `{enum}`", (added,), safe=False, preferred=True)]


def change_to_variant(snap: Snapshot, problem: Problem) -> list[Fix]:
    data = problem.data or {}
    name, variants = data.get("name"), data.get("variants")
    node = node_at(snap, problem.range)
    if not isinstance(variants, list) or len(variants) > _MANY or snap.text(node) != name:
        return []
    offered = set(data.get("candidates") or [])  # (the close-name fix offers these)
    changes = [
        (v, Edit(span(node), v)) for v in variants if isinstance(v, str) and v not in offered and v != name
    ]
    # (a variant of another enum, written here, may be that enum's only use: tried, not assumed)
    return [Fix(f"Change to `{v}`", (e,), safe=False) for v, e in changes if mends(snap, problem, [e])]


def variant_as_string(snap: Snapshot, problem: Problem) -> list[Fix]:
    data = problem.data or {}
    name = data.get("variant")
    node = node_at(snap, problem.range)
    side = data.get("at")
    if node.type == "binary_expression" and side in ("left", "right"):
        node = node.child_by_field_name(side) or node
        wanted = "String"  # (compared: an optional String would not compare either)
    else:
        wanted = str(data.get("expected", "")).rstrip("?")
    if wanted != "String" or not isinstance(name, str) or snap.text(node) != name:
        return []
    quoted = json.dumps(name)
    return [Fix(f"Write `{quoted}`", (Edit(span(node), quoted),), safe=False, preferred=True)]
