"""Fixes that declare a record type, or a field of one, from how the document uses it.

- `unknown-type` (and `unknown-call` on a `TitleCase` name, a record construction of an unknown
  type): "Declare type `X`" — `type X { … }` after the other types (where the printer puts it),
  with every field the document uses: the fields of its constructions `X(f: v)`, of route payloads
  and answers to outcomes and reports of type `X`, and the fields read from values of type `X`
  (`x.f`, `.f` in a combinator), each typed by what the use gives or asks for (a typed placeholder
  when nothing says). `type X {}` when nothing uses a field. Not offered when the uses disagree
  on a field's type, or when a close declared name was probably meant and nothing else uses it.
- `unknown-field` on a declared record (`data.type`): "Add field `f` to `X`", typed by what the
  read asks for. Not offered when the document constructs an `X` anywhere (each construction
  would then lack the field) or `X` comes from a schema.

Both unsafe: the new declaration is the author's to complete; its types are the ones the
document implies, so what used the name checks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from awl_lsp.features.fixes.declare_callables import PLACEHOLDER_TYPE
from awl_lsp.features.fixes.names import viable_candidates
from awl_lsp.features.fixes.placement import INDENT, line_text, top_level_insertion
from awl_lsp.features.fixes.places import end, node_at, span, start
from awl_lsp.features.fixes.type_uses import carrier_type, type_uses
from awl_lsp.features.fixes.usage import (
    CONFLICT,
    Typing,
    combine,
    strands_candidate,
    value_type,
)
from awl_lsp.features.fixes.values import Edit, Fix, edit, escape, tabstop
from awl_lsp.model import Kind, Symbol
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

WIDTH = 100  # the printer keeps a record type on one line up to this many columns


def used_fields(snap: Snapshot, type_name: str, reads_only: bool = False) -> dict[str, Typing]:
    """Every field of `type_name` the document builds or reads (only reads with `reads_only`), with
    the type each use implies (`type_uses`)."""
    uses = type_uses(snap)
    found: dict[str, list[Typing]] = {}
    for source in [uses.read] if reads_only else [uses.built, uses.read]:
        for name, typings in source.get(type_name, {}).items():
            found.setdefault(name, []).extend(typings)
    return {name: combine(types) for name, types in found.items()}


def flowing_types(snap: Snapshot, type_name: str) -> set[str]:
    """The types a `type_name` meets where values flow (`type_uses`)."""
    return set(type_uses(snap).flows.get(type_name, ()))


class _Fields:
    """The `name: Type` texts of generated fields, unknown types as numbered placeholders."""

    def __init__(self, first: int = 1) -> None:
        self.n = first - 1

    def text(self, name: str, typed: Typing) -> str:
        if typed is None:
            self.n += 1
            return f"{escape(name)}: {tabstop(self.n, PLACEHOLDER_TYPE)}"
        return f"{escape(name)}: {escape(typed)}"


def _type_text(name: str, fields: list[str]) -> str:
    if not fields:
        return f"type {name} {{}}"
    one = f"type {name} {{ {', '.join(fields)} }}"
    if len(one) <= WIDTH:
        return one
    return f"type {name} {{\n" + "".join(f"{INDENT}{f},\n" for f in fields) + "}"


def declare_type(snap: Snapshot, problem: Problem) -> list[Fix]:
    node = node_at(snap, problem.range)
    name = snap.text(node)
    if node.type not in ("type_identifier", "identifier") or not name[:1].isupper():
        return []
    if name != (problem.data or {}).get("name") or snap.model.type_symbol(name) is not None:
        return []
    if strands_candidate(snap, problem):
        return []
    flows = flowing_types(snap, name)
    if len(flows) > 1 or CONFLICT in flows:
        return []
    out: list[Fix] = []
    fields = used_fields(snap, name)
    if flows:  # a value of a declared type goes where the unknown one is asked for: that type, probably
        meant = next(iter(flows))
        record = snap.model.type_symbol(meant)
        shape = (
            {f.name: f.type for f in record.children if f.kind is Kind.FIELD} if record is not None else {}
        )
        if any(
            f not in shape or (t is not None and (shape[f] or "").rstrip("?") != t) for f, t in fields.items()
        ):
            return []  # the document uses fields that type does not have: neither fits
        constructed = _constructions(snap, name) > 0
        if meant not in (problem.data or {}).get("candidates", []) and not (constructed and shape):
            # (else the close-name fix says it, or the constructions would have to be rewritten)
            out.append(
                Fix(
                    f"Change to `{meant}`", (edit(start(node), end(node), meant),), safe=False, preferred=True
                )
            )
        if record is None or record.extra.get("form") != "record_body":
            return out  # a builtin, a list or an enum: no record declared here could take its place
        fields = dict(shape)
    if CONFLICT in fields.values():
        return out
    texts = _Fields()
    placed = top_level_insertion(
        snap, "type_declaration", _type_text(name, [texts.text(f, t) for f, t in fields.items()])
    )
    if placed is None:
        return out
    where, text = placed
    return [
        *out,
        Fix(f"Declare type `{name}`", (edit(where, None, text),), safe=False, preferred=True, snippet=True),
    ]


def _constructions(snap: Snapshot, type_name: str) -> int:
    """How many places build a `type_name` from named fields (constructions, payloads, answers)."""
    return type_uses(snap).constructions[type_name]


def _record(snap: Snapshot, name: object) -> tuple[Symbol, Node] | None:
    """A declared record type of that name and its `{ … }` body."""
    sym = snap.model.type_symbol(name) if isinstance(name, str) else None
    if sym is None or sym.extra.get("form") != "record_body":
        return None
    decl = snap.doc.root.named_descendant_for_point_range(sym.range[:2], sym.range[:2])
    while decl is not None and decl.type != "type_declaration":
        decl = decl.parent
    body = decl.child_by_field_name("body") if decl is not None else None
    if body is None or body.type != "record_body" or body.has_error:
        return None
    return sym, body


def _field_edit(snap: Snapshot, body: Node, field: str) -> Edit | None:
    """The edit adding `field` (`name: Type`) to a record's body, laid out as the printer does."""
    fields = [f for f in body.named_children if f.type == "field_declaration"]
    if fields and body.start_point.row != body.end_point.row:  # one field per line: a line of its own
        last = fields[-1]
        rest = line_text(snap, last.end_point.row).encode("utf-8")[last.end_point.column :].decode("utf-8")
        if rest.startswith(","):
            return edit((last.end_point.row, last.end_point.column + 1), None, f"\n{INDENT}{field},")
        if not rest.strip():
            return edit((last.end_point.row, last.end_point.column), None, f",\n{INDENT}{field},")
        return None  # a comment after the last field: it would move to the new one
    texts = [" ".join(snap.text(f).split()) for f in fields] + [field]
    line = line_text(snap, body.start_point.row)
    one = f"{{ {', '.join(texts)} }}"
    if len(line) - (body.end_point.column - body.start_point.column) + len(one) <= WIDTH:
        new = one
    else:
        new = "{\n" + "".join(f"{INDENT}{t},\n" for t in texts) + "}"
    return Edit(span(body), new)


def add_field(snap: Snapshot, problem: Problem) -> list[Fix]:
    data = problem.data or {}
    node = node_at(snap, problem.range)
    name = snap.text(node)
    found = _record(snap, data.get("type"))
    if node.type != "identifier" or name != data.get("name") or found is None:
        return []
    sym, body = found
    if _constructions(snap, sym.name):
        return []  # each construction would lack the field
    typed = used_fields(snap, sym.name).get(name)
    if typed == CONFLICT:
        return []
    change = _field_edit(snap, body, _Fields().text(name, typed))
    title = f"Add field `{name}` to `{sym.name}`"
    return [Fix(title, (change,), safe=False, preferred=True, snippet=True)] if change else []


def _built_type(snap: Snapshot, args: Node) -> str | None:
    """The record type an argument list builds: a construction's, a route payload's, an answer's."""
    owner = args.parent
    if owner is None:
        return None
    if owner.type == "route_statement":
        return carrier_type(snap, owner)
    if owner.type == "call_expression":
        name = snap.text(owner.child_by_field_name("function"))
        if owner.parent is not None and owner.parent.type == "answer_statement":
            return carrier_type(snap, owner.parent)
        return name if name[:1].isupper() else None
    return None


def add_built_field(snap: Snapshot, problem: Problem) -> list[Fix]:
    """An argument naming no field of the record it builds: the field declared, typed by the value
    (optional when other places build the record without it)."""
    data = problem.data or {}
    node = node_at(snap, problem.range)
    arg = node.parent
    args = arg.parent if arg is not None else None
    if node.type != "identifier" or snap.text(node) != data.get("name") or viable_candidates(snap, problem):
        return []
    if arg is None or arg.type != "argument" or args is None or arg.child_by_field_name("name") != node:
        return []
    found = _record(snap, _built_type(snap, args))
    if found is None:
        return []
    sym, body = found
    name = snap.text(node)
    if any(f.name == name for f in sym.children):
        return []
    typed = value_type(snap, arg.child_by_field_name("value"))
    if typed == CONFLICT:
        return []
    text = _Fields().text(name, typed)
    if _constructions(snap, sym.name) > 1:  # built elsewhere without it: optional there
        if name in used_fields(snap, sym.name, reads_only=True):
            return []  # …but read as a plain value somewhere: an optional field would not do
        text = f"{escape(name)}: {escape(typed)}?" if typed is not None else text + "?"
    change = _field_edit(snap, body, text)
    title = f"Add field `{name}` to `{sym.name}`"
    return [Fix(title, (change,), safe=False, preferred=True, snippet=True)] if change else []
