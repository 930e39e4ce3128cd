"""Subflow rules: where a subflow may be invoked, its single outcome, recursion, and what its body sees.

A subflow compiles inline as a step of its own, so an invocation is the only statement of its
top-level step (outside any fork, loop or `on failure` block, not in a substep, never a pipe stage);
a subflow declares exactly one outcome, which carries no route (the caller routes on); subflows
never invoke themselves, directly or through each other; and a subflow's body reads only its
parameters (and constants).
"""

from __future__ import annotations

from tree_sitter import Node, Query, QueryCursor

from awl_lsp.checks.base import CheckContext, ItemContext
from awl_lsp.checks.summary import body_items
from awl_lsp.model.symbols import Kind, RefKind
from awl_lsp.syntax import fields as F
from awl_lsp.syntax.parser import LANGUAGE

# enum members read once (a member read through its class is a Python-level call on 3.11)
_K_SUBFLOW = Kind.SUBFLOW
_R_VALUE = RefKind.VALUE

_BLOCKS = {"fork_statement": "a `fork`", "loop_statement": "a `loop`", "on_failure": "an `on failure` block"}
_CALLS = Query(LANGUAGE, "(call_expression) @call")
_FUNCTION = F.FUNCTION
_OUTER_VALUES = {Kind.INPUT: "workflow input", Kind.SIGNAL: "signal", Kind.CARRY: "carry"}


def check_item(ctx: ItemContext) -> None:
    item = ctx.node
    if item is None:
        return
    if item.type == "subflow_declaration":
        _declaration(ctx, item)
        _outer_reads(ctx, item)
    for call in ctx.descendants("call_expression"):
        name = ctx.text(call.child_by_field_id(F.FUNCTION))
        if name and ctx.model.first(_K_SUBFLOW, name) is not None:
            _placement(ctx, call, name)
    for pipe in ctx.descendants("pipe_expression"):
        for stage in pipe.children_by_field_name("stage"):
            name = ctx.text(stage) if stage.type == "identifier" else ""
            if name and ctx.model.first(_K_SUBFLOW, name) is not None:
                ctx.error(
                    stage,
                    f"subflow `{name}` cannot be a pipe stage: call it on a step of its own, "
                    f"`{name}(…) -> result`, and continue from `result`",
                    "subflow-pipe-stage",
                )


def _placement(ctx: ItemContext, call: Node, name: str) -> None:
    """A subflow invocation is a whole statement, directly in a step's body, alone there."""
    statement = call.parent
    if statement is None or statement.type != "expression_statement":
        return  # inside a larger expression: the type rules say what is wrong
    cur = statement.parent
    while cur is not None and cur.type not in ("step_body", "step_declaration"):
        what = _BLOCKS.get(cur.type)
        if what is not None:
            ctx.error(
                call,
                f"subflow `{name}` cannot run inside {what}: a subflow is a step of its own — move "
                f"`{name}(…)` to a step that does nothing else",
                "subflow-nested",
            )
            return
        cur = cur.parent
    step = cur.parent if cur is not None and cur.type == "step_body" else None
    if step is None:
        return
    if _is_substep(step):
        ctx.error(
            call,
            f"subflow `{name}` cannot run in substep `{ctx.text(step.child_by_field_id(F.NAME))}`: a "
            f"subflow is a top-level step of its own — move `{name}(…)` to a step outside",
            "subflow-nested",
        )
        return
    others = [i for i in body_items(step) if i.id != statement.id and i.type != "step_outcome"]
    if others:
        step_name = ctx.text(step.child_by_field_id(F.NAME))
        ctx.error(
            call,
            f"subflow `{name}` must be the only statement of step `{step_name}`: move the other "
            "statements to the steps before or after it",
            "subflow-not-alone",
        )


def _is_substep(step: Node) -> bool:
    up = step.parent
    while up is not None:
        if up.type == "step_declaration":
            return True
        up = up.parent
    return False


def _declaration(ctx: ItemContext, sub: Node) -> None:
    name = ctx.text(sub.child_by_field_id(F.NAME))
    outcomes = [c for c in sub.named_children if c.type == "outcome_clause"]
    if not outcomes:
        steps = [c for c in sub.named_children if c.type == "step_declaration"]
        what = "has no body" if not steps else "declares no outcome"
        ctx.error(
            sub.child_by_field_id(F.NAME) or sub,
            f"subflow `{name}` {what}: indent under it one `outcome <name>: type <Type>` and the steps "
            "that reach it",
            "subflow-outcomes",
        )
    first = ctx.text(outcomes[0].child_by_field_id(F.NAME)) if outcomes else ""
    for extra in outcomes[1:]:
        ctx.error(
            extra,
            f"subflow `{name}` already declares outcome `{first}`: "
            "a subflow has exactly one outcome — fold the cases into its payload type",
            "subflow-outcomes",
        )
    for o in outcomes:
        route = o.child_by_field_id(F.ROUTE)
        if route is not None:
            ctx.error(
                route,
                f"a subflow outcome carries no route: remove `route {ctx.text(route)}` — the step "
                f"that calls `{name}` binds the payload and the flow routes on from there",
                "subflow-outcome-route",
                {"drop": "route"},
            )


def _outer_reads(ctx: ItemContext, sub: Node) -> None:
    name = ctx.text(sub.child_by_field_id(F.NAME))
    for ref in ctx.refs_of(_R_VALUE):
        target = ctx.target(ref)
        what = _OUTER_VALUES.get(getattr(target, "kind", None))  # type: ignore[arg-type]
        if what is not None:
            ctx.error(
                ref.range,
                f"subflow `{name}` sees only its parameters: `{ref.name}` is a {what} of the "
                f"enclosing flow — add a parameter `{ref.name}` and pass it at the call",
                "subflow-outer-name",
            )


def check(ctx: CheckContext) -> None:
    """No subflow invokes itself, directly or through other subflows."""
    calls: dict[str, set[str]] = {}
    where: dict[str, Node] = {}
    for it in ctx.items:
        node = it.node
        if node.type != "subflow_declaration":
            continue
        name = ctx.text(node.child_by_field_id(F.NAME))
        where.setdefault(name, node)
        calls.setdefault(name, set()).update(_called(ctx, node))
    for name, node in where.items():
        path = _cycle(calls, name)
        if path:
            ctx.error(
                node.child_by_field_id(F.NAME) or node,
                f"subflow `{name}` invokes itself ({' → '.join(path)}): subflows are expanded in place "
                "and cannot recurse — use a `loop` or a bounded route back to a step",
                "subflow-recursion",
            )


def _called(ctx: CheckContext, node: Node) -> set[str]:
    """The names every call in the subflow's tree calls (found by a query, in C: not a Python step per
    node). The item's node is read through `walk` (so the document-wide rules note reading it)."""
    item = node.walk().node
    if item is None:
        return set()
    calls = QueryCursor(_CALLS).captures(item).get("call", [])
    return {ctx.text(call.child_by_field_id(_FUNCTION)) for call in calls}


def _cycle(calls: dict[str, set[str]], start: str) -> list[str]:
    """The shortest chain of subflow invocations from `start` back to itself ([] when none)."""
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt = []
        for n in frontier:
            for m in sorted(calls.get(n, ())):
                if m == start:
                    chain = [n]
                    while chain[-1] != start:
                        chain.append(previous[chain[-1]])
                    return [*reversed(chain), start]
                if m in calls and m not in previous:
                    previous[m] = n
                    nxt.append(m)
        frontier = nxt
    return []
