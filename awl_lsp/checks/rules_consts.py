"""Const rules: compile-time values that name only other consts, without cycles, declared once,
never shadowed.

- A name in a const's value must be another const: an input, signal or carry is a runtime value
  ("is a workflow input or signal, not a const"); anything else is an unknown const.
- Consts may build on each other, but not in a cycle ("defined in terms of itself").
- A const is declared once, and no binding (`-> name`, loop or fork names) reuses a const's name.
"""

from __future__ import annotations

from awl_lsp.checks.base import CheckContext
from awl_lsp.model import Kind, Reference, RefKind, Symbol
from awl_lsp.model.symbols import contains


def check(ctx: CheckContext) -> None:
    consts = ctx.model.of_kind(Kind.CONST)
    if not consts:
        return
    _duplicates(ctx, consts)
    edges = _references(ctx, consts)
    _cycles(ctx, consts, edges)
    _shadowing(ctx)


def _duplicates(ctx: CheckContext, consts: list[Symbol]) -> None:
    first: dict[str, Symbol] = {}
    for sym in sorted(consts, key=lambda s: s.selection):
        if sym.name in first:
            ctx.error(
                sym.selection,
                f"duplicate const declaration `{sym.name}`: it is already declared on line "
                f"{first[sym.name].selection[0] + 1}",
                "duplicate",
            )
        else:
            first[sym.name] = sym


def _references(ctx: CheckContext, consts: list[Symbol]) -> dict[int, list[tuple[str, Reference]]]:
    """For each const (by id), the const names its value uses; reports the names that are no const."""
    names = {s.name for s in consts}
    runtime = {s.name: s.kind for s in ctx.model.of_kind(Kind.INPUT, Kind.SIGNAL, Kind.CARRY)}
    variants = set(ctx.model.names(Kind.VARIANT))
    edges: dict[int, list[tuple[str, Reference]]] = {}
    for sym in consts:
        uses: list[tuple[str, Reference]] = []
        for ref in ctx.model.references:
            if ref.kind is not RefKind.VALUE or not contains(sym.range, ref.range[0], ref.range[1]):
                continue
            if ref.name in names:
                uses.append((ref.name, ref))
            elif ref.name in runtime:
                what = "workloop carry" if runtime[ref.name] is Kind.CARRY else "workflow input or signal"
                ctx.error(
                    ref.range,
                    f"`{ref.name}` is a {what}, not a const: a const is fixed before the flow runs, "
                    "so it can only use literals and other consts",
                    "const",
                )
            elif ref.name not in variants:
                ctx.error(
                    ref.range,
                    f"unknown const `{ref.name}`: a const may only use literals and other consts "
                    f"(declare `const {ref.name} = …`)",
                    "const",
                )
        edges[id(sym)] = uses
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
    consts = set(ctx.model.names(Kind.CONST))
    for sym in ctx.model.of_kind(Kind.BINDING):
        if sym.name in consts:
            ctx.error(
                sym.selection,
                f"binding `{sym.name}` reuses the name of const `{sym.name}`: bindings cannot shadow consts; "
                "choose another name",
                "const-shadow",
            )
