"""Slots: the declaration whose stated type a value is held to, named in a type problem's `data`.

A type rule that finds a value of the wrong type knows where the expected type was written — a
parameter of a callable or a `detached`, a field of a record type, a carry, an outcome — and, for
an optional value, where its optionality was declared (a field read as `x.f`, an input, a carry).
It says so by name in the problem's `data` (`slot`, `source`), never by position: the declaration
may sit in another item, which moves independently of the problem. The fixes resolve the names
through the model of the text they fix (`features.fixes.declared_types`). A record given where a
list goes names its one list field (`list_field`).

A slot is a dict `{"kind": "parameter" | "field" | "carry" | "outcome" | "input", "owner": …,
"name": …}` (`owner`: the callable, detached or record type the member belongs to; "" for the
flow's own carries, inputs and outcomes).
"""

from __future__ import annotations

from tree_sitter import Node

from awl_lsp.model import Kind
from awl_lsp.model.schema_types import TypeTable
from awl_lsp.model.types import AwlType, TypeEnv
from awl_lsp.syntax import fields as F

Slot = dict[str, str]

_DECLARED = {Kind.INPUT: "input", Kind.CARRY: "carry"}


def parameter_slot(owner: str, name: str) -> Slot:
    return {"kind": "parameter", "owner": owner, "name": name}


def field_slot(owner: str, name: str) -> Slot:
    return {"kind": "field", "owner": owner, "name": name}


def carry_slot(name: str) -> Slot:
    return {"kind": "carry", "owner": "", "name": name}


def outcome_slot(name: str) -> Slot:
    return {"kind": "outcome", "owner": "", "name": name}


def source_slot(env: TypeEnv, node: Node | None, item: AwlType | None = None) -> Slot | None:
    """Where the type of the value `node` was declared: the field of `x.f` (or `.f` inside a
    combinator, whose record is `item`), or the input or carry a name reads; None otherwise."""
    while node is not None and node.type == "parenthesized_expression" and node.named_children:
        node = node.named_children[0]
    if node is None:
        return None
    if node.type in ("field_expression", "relative_field"):
        base = env.infer(node.child_by_field_id(F.VALUE)) if node.type == "field_expression" else item
        owner = base.strip() if base is not None else None
        fname = node.child_by_field_id(F.FIELD)
        if owner is None or owner.kind != "named" or fname is None:
            return None
        return field_slot(owner.name, env.text(fname))
    if node.type == "identifier":
        sym = env.symbol_of(node)
        kind = _DECLARED.get(sym.kind) if sym is not None else None
        if sym is None or kind is None or not sym.type:
            return None
        return {"kind": kind, "owner": "", "name": sym.name}
    return None


def list_field(table: TypeTable, t: AwlType) -> dict[str, str]:
    """`data` naming the one list field of a record given where a list goes (`lines` for an Order
    given to `count`); empty when the type is no record or has no list field or several."""
    fields = table.fields(t) if not t.is_optional else None
    lists = [n for n, ft in (fields or {}).items() if ft.is_list]
    return {"list_field": lists[0]} if len(lists) == 1 else {}
