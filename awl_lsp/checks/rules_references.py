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

from awl_lsp.checks.across import repeated, union
from awl_lsp.checks.base import CheckContext, ItemContext, Related
from awl_lsp.checks.calls import arguments, call_of
from awl_lsp.checks.rules_support import (
    FLOW_TYPES,
    field,
    first_token,
    is_duration,
    listing,
    match_arguments,
)
from awl_lsp.model import Kind, RefKind, Symbol
from awl_lsp.model.symbols import Reference, contains

# enum members read once (a member read through its class is a Python-level call on 3.11)
_K_CHILD = Kind.CHILD
_K_DETACHED = Kind.DETACHED
_K_SIGNAL = Kind.SIGNAL
_R_ROUTE = RefKind.ROUTE
_R_STEP = RefKind.STEP


def check_item(ctx: ItemContext) -> None:
    spawned = _spawns(ctx)
    _calls(ctx, spawned)
    _pipe_stages(ctx)
    _argument_lists(ctx)
    _waits_and_sleeps(ctx)
    _after_and_routes(ctx)


def check(ctx: CheckContext) -> None:
    _rebinding(ctx)


_STEP_OUTCOME = Kind.STEP_OUTCOME  # (read once: an enum member is a class look-up)
_KIND_WORDS = {kind: kind.value for kind in Kind}  # (`kind.value` is a Python-level property on 3.11)


def _callee_label(sym: Symbol) -> str:
    return f"{_KIND_WORDS[sym.kind]} `{sym.name}`"


def _unknown_callee(name: str) -> str:
    if name[:1].isupper():
        return f"unknown type `{name}`: a record construction `{name}(…)` needs a declared record type"
    return (
        f"unknown action `{name}`: no worker declares it (add `action {name}(…) -> T` to a worker, "
        f"or declare `child {name}(…) -> T`)"
    )


# ---------------------------------------------------------------- calls
def _spawns(ctx: ItemContext) -> set[int]:
    """Check `spawn` statements; return the start bytes of the calls they own."""
    owned: set[int] = set()
    for st in ctx.descendants("spawn_statement"):
        call = field(st, "call")
        binding = field(st, "binding")
        if binding is not None:
            ctx.error(
                binding,
                f"`spawn` is fire-and-forget and has no result: drop `{ctx.text(binding)}` "
                "(call the child directly to await its result)",
                "spawn",
                {"drop": "binding"},
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
        child = ctx.model.first(_K_CHILD, name)
        if child is not None:
            expected = [p.name for p in ctx.model.parameters_of(child)]
            match_arguments(ctx, field(call, "arguments"), expected, _callee_label(child), fn, "arguments")
            continue
        other = ctx.model.callable(name) or ctx.model.first(_K_DETACHED, name)
        if other is not None:
            ctx.error(
                fn,
                f"`spawn` starts a child workflow, but `{name}` is {_article(other.kind.value)} "
                f"{other.kind.value}: "
                f"call it directly, or declare `child {name}(…) -> T`",
                "spawn",
                {"call": name},
            )
        else:
            ctx.error(
                fn,
                f"unknown child `{name}`: `spawn` needs a top-level `child {name}(…) -> T` declaration",
                "spawn",
            )
    return owned


def _node_range(node: Node) -> tuple[int, int, int, int]:
    s, e = node.start_point, node.end_point
    return (s.row, s.column, e.row, e.column)


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def _calls(ctx: ItemContext, spawned: set[int]) -> None:
    # the calls right under a `hatch` or `answer` (their own rules check them), found from those
    # statements: asking each call for its parent walks down from the root every time
    owned = {
        c.id
        for st in ctx.descendants("hatch_statement", "answer_statement")
        for c in st.named_children
        if c.type == "call_expression"
    }
    for node in ctx.descendants("call_expression"):
        if node.start_byte in spawned or node.id in owned:
            continue
        call = call_of(ctx, node)  # (resolved once per item, shared with the type rules)
        fn, name, target = call.fn, call.name, call.callee
        if fn is None:
            continue
        if target is None:
            if ctx.model.type_symbol(name) is None:
                ctx.error(fn, _unknown_callee(name), "unknown-call")
            continue
        expected = [p.name for p in ctx.model.parameters_of(target)]
        match_arguments(ctx, call.args, expected, _callee_label(target), fn, "arguments")


def _pipe_stages(ctx: ItemContext) -> None:
    for pipe in ctx.descendants("pipe_expression"):
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
                {"stage": name},
            )


def _argument_lists(ctx: ItemContext) -> None:
    # a route payload to an outcome of a scalar type is one positional value: `route done(text)`
    # (the argument lists right under a route, found from the routes: a node's parent is a walk)
    to_outcome: dict[int, bool] = {}
    for route in ctx.descendants("route_statement"):
        not_start = ctx.text(field(route, "target")) != "start"
        for child in route.named_children:
            if child.type == "arguments":
                to_outcome[child.id] = not_start
    for args in ctx.descendants("arguments"):
        seen: dict[str, Node] = {}
        positional_ok = to_outcome.get(args.id, False)
        for arg in arguments(ctx, args):  # (read once per item, shared with the type rules)
            name = arg.name_node
            if name is None:
                if positional_ok:
                    continue
                value = ctx.text(arg.value) or ctx.text(arg.node)
                ctx.error(
                    arg.node,
                    f"positional argument `{value}`: AWL calls take named arguments only (`name: {value}`)",
                    "named-arguments",
                    {"positional": value},
                )
                continue
            n = arg.name
            if n in seen:
                first_at = seen[n]
                ctx.error(
                    name,
                    f"duplicate argument `{n}`: it is already passed in this call",
                    "duplicate",
                    {"name": n},
                    (Related(_node_range(first_at), f"`{n}` first passed here"),),
                )
            else:
                seen[n] = name


# ---------------------------------------------------------------- wait / sleep
def _waits_and_sleeps(ctx: ItemContext) -> None:
    for st in ctx.descendants("wait_statement"):
        sig = field(st, "signal")
        if sig is None:
            continue
        name = ctx.text(sig)
        if ctx.model.first(_K_SIGNAL, name) is None:
            ctx.error(sig, f"unknown signal `{name}`: declare `signal {name}: T` in the header", "wait")
        if field(st, "binding") is None:
            ctx.error(
                st.children[0],
                f"`wait {name}` needs `-> name` to bind the signal's payload",
                "wait",
                {"missing": "binding"},
            )
        timeout = field(st, "timeout")
        if timeout is not None and not is_duration(timeout):
            ctx.error(
                timeout,
                f"`wait … timeout` takes a duration like `10m`, not `{ctx.text(timeout)}`",
                "duration",
            )
    for st in ctx.descendants("sleep_statement"):
        d = field(st, "duration")
        if d is not None and d.type != "duration":
            ctx.error(d, f"`sleep` takes a duration written out, like `30s`, not `{ctx.text(d)}`", "duration")


# ---------------------------------------------------------------- after / route
def _after_and_routes(ctx: ItemContext) -> None:
    unresolved: list[Reference] = []
    arms: list[tuple[Reference, Symbol]] = []
    for ref in ctx.refs_of(_R_STEP, _R_ROUTE):
        target = ctx.target(ref)
        if target is None:
            unresolved.append(ref)
        elif target.kind is _STEP_OUTCOME and not _in_substep(ctx, ref):
            arms.append((ref, target))
    for ref, arm in arms:
        ctx.error(
            ref.range,
            f"`{ref.name}` is an outcome arm of step `{arm.container}`, not a route target: route to a "
            f"step or an outcome of the flow (only a substep of `{arm.container}` routes to its arms)",
            "route-target",
        )
    if not unresolved:
        return
    header_range = None
    if ctx.node.type in FLOW_TYPES and ctx.is_flow_item():
        header = field(ctx.node, "header")
        if header is not None:
            s, e = header.start_point, header.end_point
            header_range = (s.row, s.column, e.row, e.column)
    for ref in unresolved:
        if ref.kind is _R_STEP:
            ctx.error(
                ref.range, f"unknown step `{ref.name}` in `after`: no step of that name is declared", "after"
            )
            continue
        if header_range is not None and contains(header_range, ref.range[0], ref.range[1]):
            continue  # `confirms` targets: rules_workloop
        if ref.name in ctx.broken_outcomes():
            continue
        loop = ctx.flow_kind() == "workloop_declaration"
        options = "a step or an outcome" + (", or `start`" if loop else "")
        ctx.error(
            ref.range,
            f"unknown route target `{ref.name}`: no step or outcome of that name; route to {options}",
            "route-target",
        )


def _in_substep(ctx: ItemContext, ref: Reference) -> bool:
    """Is `ref` (a route) written in a substep? Those routes are `rules_nesting`'s: a substep routes to
    the outcome arms of its parent."""
    at = ref.range[0], ref.range[1]
    depth = 0
    for node in ctx.descendants("step_declaration"):
        s, e = node.start_point, node.end_point
        if contains((s.row, s.column, e.row, e.column), *at):
            depth += 1
    return depth > 1


# ---------------------------------------------------------------- rebinding
def _rebinding(ctx: CheckContext) -> None:
    dups = repeated(ctx, "rebinds", lambda it: it.tally.rebinds, lambda it: it.tally.rebound)
    if not dups:
        return
    dups = dups - union(ctx, "loop bindings", lambda it: it.tally.loop_keys)
    groups: dict[str, list[Symbol]] = defaultdict(list)
    for it in ctx.items:
        if it.tally.rebinds.isdisjoint(dups):
            continue
        for sym, key in zip(it.facts.flat, it.tally.rebind_keys, strict=True):
            if key is not None and key in dups:
                groups[key].append(sym)
    for syms in groups.values():
        ordered = sorted(syms, key=lambda s: s.selection)
        for dup in ordered[1:]:
            ctx.error(
                dup.selection,
                f"`{dup.name}` is already bound above: bindings are "
                "single-assignment; bind this result to a new name",
                "rebinding",
                {"name": dup.name},
                (Related(ordered[0].selection, f"`{dup.name}` first bound here"),),
            )
