"""Reference rules: calls and their arguments, `spawn`, `wait`, `sleep`, `after`, route targets, rebinding.

- A call names a declared action, child or subflow (or a record type) and passes named arguments
  only: each parameter once, none missing, none unknown. A pipe stage is a one-argument action.
- `spawn` starts a declared `child` and binds nothing.
- `wait` names a declared signal and binds its payload with `-> name`; `sleep` takes a duration.
- `after` names steps; `route` targets a step, an outcome, or (in a workloop) `start`.
- A binding is single-assignment within its step (a loop body may rebind its loop variable).
"""

from __future__ import annotations

from collections import defaultdict

from tree_sitter import Node

from awl_lsp.checks.base import CheckContext
from awl_lsp.checks.rules_support import (
    descendants,
    field,
    first_token,
    flow_node,
    is_duration,
    is_workloop,
    listing,
    match_arguments,
)
from awl_lsp.model import Kind, RefKind, Symbol
from awl_lsp.model.symbols import contains


def check(ctx: CheckContext) -> None:
    root = ctx.tree.root_node
    spawned = _spawns(ctx, root)
    _calls(ctx, root, spawned)
    _pipe_stages(ctx, root)
    _argument_lists(ctx, root)
    _waits_and_sleeps(ctx, root)
    _after_and_routes(ctx)
    _rebinding(ctx)


def _callee_label(sym: Symbol) -> str:
    return f"{sym.kind.value} `{sym.name}`"


def _unknown_callee(name: str) -> str:
    if name[:1].isupper():
        return f"unknown type `{name}`: a record construction `{name}(…)` needs a declared record type"
    return (
        f"unknown action `{name}`: no worker declares it (add `action {name}(…) -> T` to a worker, "
        f"or declare `child {name}(…) -> T`)"
    )


# ---------------------------------------------------------------- calls
def _spawns(ctx: CheckContext, root: Node) -> set[int]:
    """Check `spawn` statements; return the start bytes of the calls they own."""
    owned: set[int] = set()
    for st in descendants(root, "spawn_statement"):
        call = field(st, "call")
        binding = field(st, "binding")
        if binding is not None:
            ctx.error(
                binding,
                f"`spawn` is fire-and-forget and has no result: drop `{ctx.text(binding)}` "
                "(call the child directly to await its result)",
                "spawn",
            )
        if call is None or call.type != "call_expression":
            ctx.error(
                call or first_token(st),
                "`spawn` takes a call of a declared child: `spawn name(arg: …)`",
                "spawn",
            )
            continue
        owned.add(call.start_byte)
        fn = field(call, "function")
        if fn is None:
            continue
        name = ctx.text(fn)
        child = ctx.model.first(Kind.CHILD, name)
        if child is not None:
            expected = [p.name for p in ctx.model.parameters_of(child)]
            match_arguments(ctx, field(call, "arguments"), expected, _callee_label(child), fn, "arguments")
            continue
        other = ctx.model.callable(name) or ctx.model.first(Kind.DETACHED, name)
        if other is not None:
            ctx.error(
                fn,
                f"`spawn` starts a child workflow, but `{name}` is {_article(other.kind.value)} "
                f"{other.kind.value}: "
                f"call it directly, or declare `child {name}(…) -> T`",
                "spawn",
            )
        else:
            ctx.error(
                fn,
                f"unknown child `{name}`: `spawn` needs a top-level `child {name}(…) -> T` declaration",
                "spawn",
            )
    return owned


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def _calls(ctx: CheckContext, root: Node, spawned: set[int]) -> None:
    for call in descendants(root, "call_expression"):
        parent = call.parent
        if call.start_byte in spawned or (
            parent is not None and parent.type in ("hatch_statement", "answer_statement")
        ):
            continue
        fn = field(call, "function")
        if fn is None:
            continue
        name = ctx.text(fn)
        target = ctx.model.callable(name)
        if target is None:
            if ctx.model.type_symbol(name) is None:
                ctx.error(fn, _unknown_callee(name), "unknown-call")
            continue
        expected = [p.name for p in ctx.model.parameters_of(target)]
        match_arguments(ctx, field(call, "arguments"), expected, _callee_label(target), fn, "arguments")


def _pipe_stages(ctx: CheckContext, root: Node) -> None:
    for pipe in descendants(root, "pipe_expression"):
        stage = field(pipe, "stage")
        if stage is None or stage.type != "identifier":
            continue
        name = ctx.text(stage)
        target = ctx.model.callable(name)
        if target is None:
            ctx.error(stage, _unknown_callee(name), "unknown-call")
            continue
        params = ctx.model.parameters_of(target)
        if len(params) != 1:
            names = listing([p.name for p in params]) or "none"
            ctx.error(
                stage,
                f"pipe stage `{name}` must be a one-argument action, but it takes {len(params)} ({names}): "
                "call it with named arguments instead",
                "pipe-stage",
            )


def _argument_lists(ctx: CheckContext, root: Node) -> None:
    for args in descendants(root, "arguments"):
        seen: dict[str, Node] = {}
        # a route payload to an outcome of a scalar type is one positional value: `route done(text)`
        positional_ok = (
            args.parent is not None
            and args.parent.type == "route_statement"
            and (ctx.text(field(args.parent, "target")) != "start")
        )
        for arg in args.named_children:
            if arg.type != "argument":
                continue
            name = field(arg, "name")
            if name is None:
                if positional_ok:
                    continue
                value = ctx.text(field(arg, "value")) or ctx.text(arg)
                ctx.error(
                    arg,
                    f"positional argument `{value}`: AWL calls take named arguments only (`name: {value}`)",
                    "named-arguments",
                )
                continue
            n = ctx.text(name)
            if n in seen:
                ctx.error(
                    name,
                    f"duplicate argument `{n}`: it is already passed on line {seen[n].start_point.row + 1}",
                    "duplicate",
                )
            else:
                seen[n] = name


# ---------------------------------------------------------------- wait / sleep
def _waits_and_sleeps(ctx: CheckContext, root: Node) -> None:
    for st in descendants(root, "wait_statement"):
        sig = field(st, "signal")
        if sig is None:
            continue
        name = ctx.text(sig)
        if ctx.model.first(Kind.SIGNAL, name) is None:
            ctx.error(sig, f"unknown signal `{name}`: declare `signal {name}: T` in the header", "wait")
        if field(st, "binding") is None:
            ctx.error(st.children[0], f"`wait {name}` needs `-> name` to bind the signal's payload", "wait")
        timeout = field(st, "timeout")
        if timeout is not None and not is_duration(timeout):
            ctx.error(
                timeout,
                f"`wait … timeout` takes a duration like `10m`, not `{ctx.text(timeout)}`",
                "duration",
            )
    for st in descendants(root, "sleep_statement"):
        d = field(st, "duration")
        if d is not None and d.type not in ("duration", "identifier"):
            ctx.error(d, f"`sleep` takes a duration like `30s`, not `{ctx.text(d)}`", "duration")


# ---------------------------------------------------------------- after / route
def _after_and_routes(ctx: CheckContext) -> None:
    flow = flow_node(ctx)
    header = field(flow, "header")
    header_range = (
        (header.start_point.row, header.start_point.column, header.end_point.row, header.end_point.column)
        if header is not None
        else None
    )
    loop = is_workloop(ctx)
    # outcomes whose header line is broken (an ERROR node) are still names a route may target
    broken = {
        ctx.text(c).split(":")[0].split()[-1]
        for c in (header.named_children if header is not None else [])
        if c.type == "ERROR" and ctx.text(c).lstrip().startswith("outcome ") and ":" in ctx.text(c)
    }
    for ref in ctx.model.references:
        if ref.target is not None:
            continue
        if ref.kind is RefKind.STEP:
            ctx.error(
                ref.range, f"unknown step `{ref.name}` in `after`: no step of that name is declared", "after"
            )
        elif ref.kind is RefKind.ROUTE:
            if header_range is not None and contains(header_range, ref.range[0], ref.range[1]):
                continue  # `confirms` targets: rules_workloop
            if ref.name in broken:
                continue
            options = "a step or an outcome" + (", or `start`" if loop else "")
            ctx.error(
                ref.range,
                f"unknown route target `{ref.name}`: no step or outcome of that name; route to {options}",
                "route-target",
            )


# ---------------------------------------------------------------- rebinding
def _rebinding(ctx: CheckContext) -> None:
    groups: dict[tuple, list[Symbol]] = defaultdict(list)
    loop_names: set[tuple] = set()
    for sym in ctx.model.of_kind(Kind.BINDING):
        key = (sym.container, sym.scope, sym.name)
        if sym.extra.get("how") in ("loop", "loop counter"):
            loop_names.add(key)
        else:
            groups[key].append(sym)
    for key, syms in groups.items():
        if key in loop_names or len(syms) < 2:
            continue
        ordered = sorted(syms, key=lambda s: s.selection)
        for dup in ordered[1:]:
            ctx.error(
                dup.selection,
                f"`{dup.name}` is already bound on line {ordered[0].selection[0] + 1}: bindings are "
                "single-assignment; bind this result to a new name",
                "rebinding",
            )
