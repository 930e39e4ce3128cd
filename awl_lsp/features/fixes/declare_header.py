"""Fixes that declare in the flow's header what a statement names: a report, a carry, a signal.

- `answer` naming no report (`data.name`): "Declare report `r`" — `report r: type T`, `T` the one
  declared record the answer's fields fit, else a new record type named after the report with
  those fields (declared with it, after the other types).
- `route-start` naming no carry (`data.name`): "Declare carry `c`" — `carry c: T = <default>`,
  typed by the value passed and defaulting to a placeholder value of that type.
- `wait` or `on` naming no signal (`data.name`): "Declare signal `s`" — `signal s: T`, typed by
  what the reads of the `wait`'s binding ask for (a typed placeholder when nothing says).

Each clause goes where the printer puts it (`header_clauses`). All unsafe: a header clause is
the flow's interface to the engine and its callers, which only the author can settle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from awl_lsp.features.fixes.declare_callables import PLACEHOLDER_TYPE
from awl_lsp.features.fixes.header_clauses import add_header_clause
from awl_lsp.features.fixes.placement import top_level_insertion
from awl_lsp.features.fixes.places import node_at
from awl_lsp.features.fixes.usage import (
    CONFLICT,
    binding_symbol,
    binding_type,
    field_reads,
    strands_candidate,
    value_type,
)
from awl_lsp.features.fixes.values import Edit, Fix, edit, escape, tabstop
from awl_lsp.features.placeholders import value_for
from awl_lsp.model import Kind
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot


def _named(snap: Snapshot, problem: Problem, parent_type: str) -> Node | None:
    """The name the problem is about, when it still stands where the problem says, in `parent_type`."""
    node = node_at(snap, problem.range)
    if node.type != "identifier" or snap.text(node) != (problem.data or {}).get("name"):
        return None
    if node.parent is None or node.parent.type != parent_type or strands_candidate(snap, problem):
        return None
    return node


def _fix(title: str, edits: tuple[Edit, ...] | None, snippet: bool = True) -> list[Fix]:
    return [Fix(title, edits, safe=False, preferred=True, snippet=snippet)] if edits else []


def _title_case(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.split("_") if part)


def fitting_record(snap: Snapshot, given: dict[str, str | None]) -> str | None:
    """The one declared record type whose fields the given ones fill exactly (required ones all
    given, none unknown, each of the field's type where the value's is known)."""
    fits = []
    for t in snap.model.of_kind(Kind.TYPE):
        if t.extra.get("form") != "record_body":
            continue
        fields = {f.name: (f.type or "") for f in t.children if f.kind is Kind.FIELD}
        required = {n for n, ty in fields.items() if not ty.endswith("?")}
        if not required <= set(given) or not set(given) <= set(fields):
            continue
        if all(v is None or fields[n].rstrip("?") == v for n, v in given.items()):
            fits.append(t.name)
    return fits[0] if len(fits) == 1 else None


def declare_report(snap: Snapshot, problem: Problem) -> list[Fix]:
    node = _named(snap, problem, "call_expression")
    call = node.parent if node is not None else None
    if node is None or call is None or call.parent is None or call.parent.type != "answer_statement":
        return []
    name = snap.text(node)
    if snap.model.first(Kind.REPORT, name) is not None:
        return []
    args = call.child_by_field_name("arguments")
    given: dict[str, str | None] = {}
    for arg in args.named_children if args is not None else []:
        field = arg.child_by_field_name("name") if arg.type == "argument" else None
        if field is None:
            return []
        given[snap.text(field)] = value_type(snap, arg.child_by_field_name("value"))
    record = fitting_record(snap, given)
    extra: tuple[Edit, ...] = ()
    if record is None:
        made = _new_record(snap, name, given) if given else None
        if made is None:
            return []
        record, extra = made
    clause = add_header_clause(snap, "report_clause", f"report {escape(name)}: type {escape(record)}")
    if clause is None:
        return []
    return _fix(f"Declare report `{name}`", (*clause, *extra))


def declare_carry(snap: Snapshot, problem: Problem) -> list[Fix]:
    node = _named(snap, problem, "argument")
    if node is None or not snap.model.is_workloop or snap.model.first(Kind.CARRY, node and snap.text(node)):
        return []
    name = snap.text(node)
    typed = value_type(snap, node.parent.child_by_field_name("value") if node.parent is not None else None)
    if typed == CONFLICT:
        return []
    if typed is None:
        text = f"carry {escape(name)}: {tabstop(1, 'Int')} = {tabstop(2, '0')}"
    else:
        default = value_for(snap.model, typed)
        if default is None:
            return []
        text = f"carry {escape(name)}: {escape(typed)} = {tabstop(1, default)}"
    return _fix(f"Declare carry `{name}`", add_header_clause(snap, "carry_clause", text))


def declare_signal(snap: Snapshot, problem: Problem) -> list[Fix]:
    node = node_at(snap, problem.range)
    owner = node.parent
    if (
        node.type != "identifier"
        or owner is None
        or owner.type not in ("wait_statement", "on_clause")
        or snap.text(node) != (problem.data or {}).get("name")
        or strands_candidate(snap, problem)
    ):
        return []
    name = snap.text(node)
    if snap.model.first(Kind.SIGNAL, name) is not None:
        return []
    typed: str | None = None
    extra: tuple[Edit, ...] = ()
    if owner.type == "wait_statement":
        sym = binding_symbol(snap, owner.child_by_field_name("binding"))
        timed = owner.child_by_field_name("timeout") is not None  # the binding is the payload made optional
        found = binding_type(snap, sym, optional=timed) if sym is not None else None
        if found == CONFLICT:  # fields read that no declared record has: a record of its own
            fields = field_reads(snap, sym, optional=timed) if sym is not None else None
            made = _new_record(snap, name, fields) if fields else None
            if made is None:
                return []
            found, extra = made
        typed = found.removesuffix("?") if found is not None and timed else found
    shown = escape(typed) if typed is not None else tabstop(1, PLACEHOLDER_TYPE)
    clause = add_header_clause(snap, "signal_clause", f"signal {escape(name)}: {shown}")
    return _fix(f"Declare signal `{name}`", (*clause, *extra) if clause else None)


def _new_record(
    snap: Snapshot, name: str, fields: dict[str, str | None]
) -> tuple[str, tuple[Edit, ...]] | None:
    """A record type named after `name` with these fields (placeholders where untyped), and the
    edit declaring it; None when that name is taken or a field's uses disagree."""
    record = _title_case(name)
    if snap.model.type_symbol(record) is not None or CONFLICT in fields.values():
        return None
    stops = iter(range(2, 2 + len(fields)))
    texts = [
        f"{escape(f)}: {escape(t) if t else tabstop(next(stops), PLACEHOLDER_TYPE)}"
        for f, t in fields.items()
    ]
    placed = top_level_insertion(snap, "type_declaration", f"type {record} {{ {', '.join(texts)} }}")
    return (record, (edit(placed[0], None, placed[1]),)) if placed is not None else None
