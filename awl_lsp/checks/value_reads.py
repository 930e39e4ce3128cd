"""What one item's value reads may see: a name bound on no path to the read (or a signal read as a
value), a value read above the line of its step that binds it (or in that very line), and a value
an `on failure` block reads that its own step binds outside the block (the step may fail before
binding it).

Run by `rules_flow_regions.check_item` on the item's value and `collect` reads, gathered once.
"""

from __future__ import annotations

from awl_lsp.checks.base import ItemContext
from awl_lsp.checks.flow_graph import within
from awl_lsp.checks.tallies import own_line
from awl_lsp.model import SemanticModel
from awl_lsp.model.symbols import Kind, Reference, Symbol
from awl_lsp.syntax import fields as F
from awl_lsp.syntax.problems import Related

_BINDING, _CONST = Kind.BINDING, Kind.CONST  # (read once: an enum member is a class look-up)

_NOT_BINDINGS = frozenset({"visits", "null"})


def unknown_names(ctx: ItemContext, reads: list[Reference]) -> None:
    """A value read that resolves to nothing (a signal read as a value says so)."""
    if not reads:
        return
    consts = [s.range for s in ctx.facts.flat if s.kind is _CONST]
    for ref in reads:
        if ref.name in _NOT_BINDINGS or ctx.target(ref) is not None:
            continue
        if any(within(ref.range, c) for c in consts) or not ref.name or not ref.name[0].islower():
            continue
        if ctx.model.first(Kind.SIGNAL, ref.name) is not None:
            if ctx.model.is_workloop:  # a workloop armed `on s` reads `s`
                continue
            ctx.error(
                ref.range,
                f"`{ref.name}` is a signal, not a value: receive it with `wait {ref.name} -> name` "
                "and read `name`",
                "signal-as-value",
            )
            continue
        ctx.error(
            ref.range,
            f"`{ref.name}` is not bound on any path to here: bind it first (`… -> {ref.name}`) "
            "or use a declared input",
            "unknown-binding",
        )


def read_before_bound(ctx: ItemContext, reads: list[Reference]) -> None:
    """A value read above the line of its step that binds it (the model resolved it forward)."""
    loops: list[tuple[tuple[int, int, int, int], tuple[int, int, int, int]]] | None = None
    item = _span(ctx.node) if ctx.node is not None and ctx.node.type == "step_declaration" else None
    for ref in reads:
        target = ctx.target(ref)
        if getattr(target, "kind", None) is not _BINDING:
            continue
        where = target.range  # type: ignore[union-attr]
        at = ref.range
        own = False
        if (at[0], at[1]) >= (where[0], where[1]):
            # below the binding's start: an error only in the line that binds it, above its name
            if at[0] > where[2] or not (own := own_line(ref)) or bound_elsewhere(ctx.model, ref):
                continue  # (bound elsewhere too: whether that runs first is the flow's)
        if item is not None and not within(where, item):
            continue  # bound in another step: whether it runs first is the flow's (`rules_flow_regions`)
        if any(ctx.model.first(k, ref.name) is not None for k in (Kind.INPUT, Kind.CONST)):
            continue  # the declared value is read here; rebinding it later is its own error
        if loops is None:
            loops = [
                (_span(n), _span(c))
                for n in ctx.descendants("loop_statement")
                if (body := n.child_by_field_id(F.BODY)) is not None
                for c in body.named_children
                if c.type in ("until_clause", "loop_max")
            ]
        if any(within(ref.range, clause) and within(where, lp) for lp, clause in loops):
            continue  # `until` / `max` are read when the pass ends, wherever they are written
        if own:
            message = (
                f"`{ref.name}` is read in the line that binds it: its value exists only once this line "
                "has run — bind it on an earlier line, or read another value"
            )
        else:
            message = (
                f"`{ref.name}` is read before it is bound: its binding comes further down — move this line "
                "below it, or bind the value earlier"
            )
        ctx.error(ref.range, message, "read-before-bound", related=(_bound_here(ref.name, target),))


def bound_elsewhere(model: SemanticModel, ref: Reference) -> bool:
    """Is the name `ref` reads bound by another binding of its flow or subflow too?"""
    target = ref.target
    home = target.scope.split("/", 1)[0] if target is not None else ""
    return any(b is not target and b.scope.split("/", 1)[0] == home for b in model.lookup(_BINDING, ref.name))


def read_in_failure(ctx: ItemContext, reads: list[Reference]) -> None:
    """A value an `on failure` block reads that its own step (or substep) binds outside the block:
    the block runs when any statement of the step fails, maybe before that binding was made, so it
    reads only what was bound before the step began — and what it binds itself."""
    failures = ctx.descendants("on_failure")
    if not failures or not reads:
        return
    blocks = [(_span(n), _span(n.parent)) for n in failures if n.parent is not None]
    for ref in reads:
        holding = [pair for pair in blocks if within(ref.range, pair[0])]
        if not holding:
            continue
        target = ctx.target(ref)
        if getattr(target, "kind", None) is not _BINDING:
            continue
        where = target.range  # type: ignore[union-attr]
        block, owner = holding[-1]  # (the innermost block holding the read, and its step's body)
        if not within(where, owner) or within(where, block):
            continue
        ctx.error(
            ref.range,
            f"`{ref.name}` is bound in this step, and the step may fail before binding it: an "
            "`on failure` block reads only what was bound before its step began, and what it binds itself",
            "failure-reads-step-binding",
            related=(_bound_here(ref.name, target),),
        )


def _bound_here(name: str, binding: Symbol | None) -> Related:
    """The place a binding is made, as a problem's related place (a message names no line)."""
    assert binding is not None
    return Related(binding.selection, f"`{name}` is bound here")


def _span(node) -> tuple[int, int, int, int]:  # noqa: ANN001 — a tree-sitter node
    return (node.start_point.row, node.start_point.column, node.end_point.row, node.end_point.column)
