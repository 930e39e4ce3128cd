"""Const rules: compile-time values that name only other consts, without cycles, declared once,
never shadowed.

- A name in a const's value must be another const: an input, signal or carry is a runtime value
  ("is a workflow input or signal, not a const"); anything else is an unknown const.
- Consts may build on each other, but not in a cycle ("defined in terms of itself").
- A const's value is compile-time: literals (raw strings and `json { … }` too), `schema of T`,
  lists of these, `+` of these, or other consts — no record construction, comparison, `not`,
  indexing, field access or `workflow.id`.
- A const is declared once, and no binding (`-> name`, loop or fork names) reuses a const's name;
  no workflow input or signal shares its name either.
"""

from __future__ import annotations

from tree_sitter import Node

from awl_lsp.checks.base import CheckContext, ItemContext, Related
from awl_lsp.checks.suggest import name_data
from awl_lsp.model import Kind, Reference, RefKind, Symbol
from awl_lsp.model.symbols import contains
from awl_lsp.syntax import fields as F


def check_item(ctx: ItemContext) -> None:
    """The names a const's value uses: other consts only."""
    if ctx.node is None or ctx.node.type != "const_declaration":
        return
    const_name = ctx.text(ctx.node.child_by_field_id(F.NAME))
    _compile_time(ctx, ctx.node.child_by_field_id(F.VALUE), const_name)
    model = ctx.model
    for sym in ctx.facts.symbols:
        if sym.kind is not Kind.CONST:
            continue
        for ref in ctx.refs_of(RefKind.VALUE):
            if not contains(sym.range, ref.range[0], ref.range[1]):
                continue
            if model.first(Kind.CONST, ref.name) is not None:
                continue
            runtime = model.lookup(Kind.INPUT, ref.name) + model.lookup(Kind.SIGNAL, ref.name)
            runtime += model.lookup(Kind.CARRY, ref.name)
            if runtime:
                last = max(runtime, key=lambda s: s.selection)  # the last declaration in the document
                what = "workloop carry" if last.kind is Kind.CARRY else "workflow input or signal"
                ctx.error(
                    ref.range,
                    f"`{ref.name}` is a {what}, not a const: a const is fixed before the flow runs, "
                    "so it can only use literals and other consts",
                    "const",
                    {"const": sym.name},
                )
            elif not model.lookup(Kind.VARIANT, ref.name):
                data, meant = name_data(ref.name, model.names(Kind.CONST))
                data["const"] = sym.name
                ctx.error(
                    ref.range,
                    f"unknown const `{ref.name}`: a const may only use literals and other consts "
                    f"(declare `const {ref.name} = …`){meant}",
                    "const",
                    data,
                )


_COMPILE_TIME = frozenset(
    {"string", "raw_string", "json_literal", "schema_of", "integer", "float", "duration", "boolean"}
    | {"identifier"}
)
_NOT_COMPILE_TIME = {
    "call_expression": "a record construction",
    "not_expression": "a `not`",
    "is_expression": "an `is` test",
    "index_expression": "an index",
    "field_expression": "a field access",
    "workflow_builtin": "a runtime value",
    "parenthesized_expression": "a parenthesized expression",
    "pipe_expression": "a pipe",
}


def _compile_time(ctx: ItemContext, value: Node | None, const: str) -> None:
    """The first part of a const's value that is not known before the flow runs."""
    stack = [value] if value is not None else []
    while stack:
        node = stack.pop()
        t = node.type
        if t in _COMPILE_TIME:
            continue
        plus = t == "binary_expression" and ctx.text(node.child_by_field_id(F.OPERATOR)) == "+"
        if t == "list" or plus:
            stack.extend(reversed(node.named_children))
            continue
        if t in ("ERROR", "comment", "operator") or node.is_missing:
            continue
        what = _NOT_COMPILE_TIME.get(t, "a comparison" if t == "binary_expression" else "a runtime value")
        if t == "call_expression" and not ctx.text(node.child_by_field_id(F.FUNCTION))[:1].isupper():
            what = "a call"
        ctx.error(
            node,
            f"`{ctx.text(node)}` is {what}, which a const cannot hold: a const is a literal, a raw string, "
            "`json { … }`, `schema of T`, a list of these, a `+` of these, or another const",
            "const-compile-time",
            {"const": const},
        )
        return


def check(ctx: CheckContext) -> None:
    consts = ctx.model.of_kind(Kind.CONST)
    if not consts:
        return
    _collisions(ctx, consts)
    _duplicates(ctx, consts)
    _cycles(ctx, consts, _edges(ctx, consts))
    _shadowing(ctx)


def _collisions(ctx: CheckContext, consts: list[Symbol]) -> None:
    for sym in consts:
        clash = ctx.model.lookup(Kind.INPUT, sym.name) + ctx.model.lookup(Kind.SIGNAL, sym.name)
        if clash:
            what = clash[0].kind.value
            ctx.error(
                sym.selection,
                f"const `{sym.name}` has the name of {what} `{sym.name}`: an expression could not tell "
                "them apart, so rename the const",
                "const-collision",
                None,
                (Related(clash[0].selection, f"{what} `{sym.name}` declared here"),),
            )


def _duplicates(ctx: CheckContext, consts: list[Symbol]) -> None:
    first: dict[str, Symbol] = {}
    for sym in sorted(consts, key=lambda s: s.selection):
        if sym.name in first:
            ctx.error(
                sym.selection,
                f"duplicate const declaration `{sym.name}`: it is already declared above",
                "duplicate",
                {"name": sym.name},
                (Related(first[sym.name].selection, f"`{sym.name}` first declared here"),),
            )
        else:
            first[sym.name] = sym


def _edges(ctx: CheckContext, consts: list[Symbol]) -> dict[int, list[tuple[str, Reference]]]:
    """For each const (by id), the const names its value uses."""
    names = {s.name for s in consts}
    edges: dict[int, list[tuple[str, Reference]]] = {}
    for it in ctx.items:
        if it.node.type != "const_declaration":
            continue
        for sym in it.facts.symbols:
            if sym.kind is not Kind.CONST:
                continue
            edges[id(sym)] = [
                (ref.name, ref)
                for ref in it.facts.references
                if ref.kind is RefKind.VALUE
                and contains(sym.range, ref.range[0], ref.range[1])
                and ref.name in names
            ]
    return edges


def _cycles(ctx: CheckContext, consts: list[Symbol], edges: dict[int, list[tuple[str, Reference]]]) -> None:
    by_name: dict[str, Symbol] = {}
    for sym in consts:
        by_name.setdefault(sym.name, sym)
    state: dict[str, int] = {}  # 1 = on the stack, 2 = done
    reported: set[str] = set()

    def visit(sym: Symbol, path: list[str]) -> None:
        state[sym.name] = 1
        for name, ref in edges.get(id(sym), []):
            target = by_name.get(name)
            if target is None:
                continue
            if state.get(name) == 1:
                cycle = (
                    [sym.name, *path[path.index(name) :], sym.name] if name in path else [sym.name, sym.name]
                )
                if sym.name not in reported:
                    reported.add(sym.name)
                    ctx.error(
                        ref.range,
                        f"const `{sym.name}` is defined in terms of itself ({' → '.join(cycle)}): "
                        "break the cycle with a literal",
                        "const-cycle",
                    )
            elif state.get(name) is None:
                visit(target, path + [sym.name])
        state[sym.name] = 2

    for sym in sorted(by_name.values(), key=lambda s: s.selection):
        if sym.name not in state:
            visit(sym, [])


def _shadowing(ctx: CheckContext) -> None:
    for name in ctx.model.names(Kind.CONST):
        for sym in ctx.model.lookup(Kind.BINDING, name):
            ctx.error(
                sym.selection,
                f"binding `{sym.name}` reuses the name of const `{sym.name}`: bindings cannot shadow consts; "
                "choose another name",
                "const-shadow",
            )
