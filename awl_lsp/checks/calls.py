"""Argument lists and calls, each read once per check: the arguments' names and values, a call's callee.

The reference rules (unknown callees; unknown, missing, positional and duplicate arguments, also
through `rules_support.match_arguments`) and the type rules (each value fits its parameter) read
the same argument lists and resolve the same callees in every item. The first rule to ask reads
a list (or resolves a call) and files it in the context's `memo`, which lives as long as one
item's check (or one document-wide run), so every later rule gets the same answer without reading
the tree again. Callees are looked up through the context's model: an item's recorded
dependencies are the same whichever rule asked first.
"""

from __future__ import annotations

from typing import NamedTuple

from tree_sitter import Node

from awl_lsp.checks.base import CheckContext
from awl_lsp.model import Symbol
from awl_lsp.syntax import fields as F

_ARGUMENTS = "\0arguments"  # (keys in `ctx.memo`)
_CALLS = "\0calls"


class Argument(NamedTuple):
    """One `argument` of an argument list: `name: value`, or a positional `value` (`name` is "")."""

    node: Node
    name: str
    name_node: Node | None
    value: Node | None


class Call(NamedTuple):
    """A call expression `name(…)` and what its name resolves to."""

    fn: Node | None  # the callee's name as written (None on a broken call)
    name: str  # its text ("" without one)
    callee: Symbol | None  # the action, child or subflow of that name (None: unknown, or a record type)
    args: Node | None  # the `arguments` node


_new = tuple.__new__  # (makes an `Argument` or a `Call` without the Python-level `__new__` of a NamedTuple)


def arguments(ctx: CheckContext, args: Node | None) -> list[Argument]:
    """The `argument`s of an `arguments` node (a call's or a route payload's), in order; other
    children (an ERROR) are left out. Read once per check."""
    if args is None:
        return []
    memo: dict[int, list[Argument]] | None = ctx.memo.get(_ARGUMENTS)  # type: ignore[assignment]
    if memo is None:
        memo = ctx.memo[_ARGUMENTS] = {}
    found = memo.get(args.id)
    if found is None:
        source = ctx.source
        found = []
        for arg in args.named_children:
            if arg.type != "argument":
                continue
            name = arg.child_by_field_id(F.NAME)
            text = "" if name is None else source[name.start_byte : name.end_byte].decode("utf-8", "replace")
            found.append(_new(Argument, (arg, text, name, arg.child_by_field_id(F.VALUE))))
        memo[args.id] = found
    return found


def call_of(ctx: CheckContext, node: Node) -> Call:
    """The call expression `node` with its callee resolved (`ctx.model.callable`), once per check."""
    memo: dict[int, Call] | None = ctx.memo.get(_CALLS)  # type: ignore[assignment]
    if memo is None:
        memo = ctx.memo[_CALLS] = {}
    found = memo.get(node.id)
    if found is None:
        fn = node.child_by_field_id(F.FUNCTION)
        name = "" if fn is None else ctx.source[fn.start_byte : fn.end_byte].decode("utf-8", "replace")
        callee = ctx.model.callable(name) if fn is not None else None
        found = memo[node.id] = _new(Call, (fn, name, callee, node.child_by_field_id(F.ARGUMENTS)))
    return found


__all__ = ["Argument", "Call", "arguments", "call_of"]
