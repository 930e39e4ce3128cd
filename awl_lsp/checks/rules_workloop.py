"""Workloop rules: arming, carries, invariants, reports, detached/hatch, `retire`, never completing.

A `workloop` is perpetual work: armed by `every D` and/or `on SIGNAL`, threading `carry` values from
iteration to iteration through `route start(…)`, and winding down only through its one `retire`
block. The workloop-only words are refused in a `workflow`, and the workflow-only header clauses
(`timeout`, outcomes) in a workloop. `hatch`, `answer` and `detached` are checked in
`rules_workloop_statements`.
"""

from __future__ import annotations

from tree_sitter import Node

from awl_lsp.checks.across import union
from awl_lsp.checks.base import CheckContext, ItemContext
from awl_lsp.checks.rules_support import (
    field,
    first_token,
    flow_node,
    header_clauses,
    is_duration,
    is_workloop,
    name_of,
    top_items,
)
from awl_lsp.checks.suggest import name_data
from awl_lsp.model import Kind

# enum members read once (a member read through its class is a Python-level call on 3.11)
_K_CARRY = Kind.CARRY
_K_SIGNAL = Kind.SIGNAL
_K_STEP = Kind.STEP

_LOOP_CLAUSES = {
    "every_clause": "every",
    "on_clause": "on",
    "carry_clause": "carry",
    "report_clause": "report",
    "invariant_clause": "invariant",
    "retention_clause": "retention",
}
_SKIP = frozenset({"comment", "doc_comment", "narration", "on_failure", "visits_bound"})


def check(ctx: CheckContext) -> None:
    flow = flow_node(ctx)
    if flow is None:
        return
    if is_workloop(ctx):
        _arming(ctx, flow)
        _header(ctx)
        _invariants(ctx)
        _retire(ctx, flow)
        _never_completes(ctx, flow)
    else:
        _workflow_refuses(ctx, flow)


def check_item(ctx: ItemContext) -> None:
    kind = ctx.flow_kind()
    if kind == "workloop_declaration":
        _route_start(ctx)
    elif kind is not None:
        _workflow_refuses_item(ctx)


# ---------------------------------------------------------------- workflow side
def _workflow_refuses(ctx: CheckContext, flow: Node) -> None:
    name = name_of(ctx, flow)
    for clause in header_clauses(ctx, *_LOOP_CLAUSES):
        word = _LOOP_CLAUSES[clause.type]
        ctx.error(
            first_token(clause),
            f"`{word}` is a workloop header clause; `workflow {name}` cannot use it "
            f"(declare `workloop {name}` for perpetual work)",
            "workloop-only",
        )
    for node in top_items(ctx, "detached_declaration", "retire_block"):
        word = "detached" if node.type == "detached_declaration" else "retire"
        what = "a `detached` declaration" if word == "detached" else "a `retire` block"
        ctx.error(
            first_token(node), f"{what} belongs to a workloop; a workflow cannot declare one", "workloop-only"
        )


def _workflow_refuses_item(ctx: ItemContext) -> None:
    for node in ctx.descendants("hatch_statement", "answer_statement"):
        word = node.type.split("_")[0]
        ctx.error(
            first_token(node), f"`{word}` is only available in a workloop, not in a workflow", "workloop-only"
        )
    starts = _start_routes(ctx)
    if starts and ctx.model.first(_K_STEP, "start") is None:
        for route in starts:
            target = field(route, "target")
            ctx.error(
                target or route,
                "`route start` ends a workloop iteration; a workflow has no `start`: route to a step "
                "or an outcome",
                "workloop-only",
            )


# ---------------------------------------------------------------- header
def _arming(ctx: CheckContext, flow: Node) -> None:
    every = header_clauses(ctx, "every_clause")
    on = header_clauses(ctx, "on_clause")
    name = field(flow, "name") or first_token(flow)
    if not every and not on:
        ctx.error(
            name,
            f"workloop `{ctx.text(name)}` is never armed: add `every <duration>` (a cadence) "
            "or `on <signal>` (a declared signal)",
            "workloop-arming",
            {"missing": "arming"},
        )
    for extra in every[1:]:
        ctx.error(
            first_token(extra), "a workloop has one cadence: remove this second `every`", "workloop-arming"
        )
    for clause in every:
        d = field(clause, "duration")
        if d is not None and not is_duration(d):
            ctx.error(d, f"`every` takes a duration like `25m`, not `{ctx.text(d)}`", "workloop-arming")
    for clause in on:
        sig = field(clause, "signal")
        if sig is not None and ctx.model.first(_K_SIGNAL, ctx.text(sig)) is None:
            ctx.error(
                sig,
                f"`on {ctx.text(sig)}` names no declared signal: add `signal {ctx.text(sig)}: T` to "
                "the header",
                "workloop-arming",
            )


def _header(ctx: CheckContext) -> None:
    for clause in header_clauses(ctx, "timeout_clause", "outcome_clause"):
        if clause.type == "timeout_clause":
            msg = "`timeout` is a workflow clause: a workloop never completes, so it has no overall timeout"
        else:
            msg = (
                f"a workloop has no outcomes (`outcome {name_of(ctx, clause)}`): it never completes; "
                "end an iteration with `route start`"
            )
        ctx.error(first_token(clause), msg, "workflow-only")
    for clause in header_clauses(ctx, "carry_clause"):
        name = field(clause, "name") or first_token(clause)
        n = ctx.text(name)
        if field(clause, "type") is None:
            ctx.error(
                name, f"carry `{n}` needs a type: `carry {n}: T = <default>`", "carry", {"missing": "type"}
            )
        if field(clause, "default") is None:
            ctx.error(
                name,
                f"carry `{n}` needs a default for the first iteration: `carry {n}: T = <expr>`",
                "carry",
                {"missing": "default"},
            )
    for clause in header_clauses(ctx, "report_clause", "invariant_clause"):
        t = field(clause, "type")
        if t is not None and not any(c.type == "type" and not c.is_named for c in clause.children):
            word = "report" if clause.type == "report_clause" else "invariant"
            n = ctx.text(field(clause, "name"))
            ctx.error(
                t,
                f"`{word} {n}: {ctx.text(t)}` is missing the word `type`: the form is `{word} NAME: type T` "
                f"— write `{word} {n}: type {ctx.text(t)}`",
                "header-type-word",
                {"insert": "type ", "at": [t.start_point.row, t.start_point.column]},
            )
    retention = header_clauses(ctx, "retention_clause")
    for extra in retention[1:]:
        ctx.error(first_token(extra), "`retention` may appear only once in a workloop header", "retention")
    for clause in retention:
        d = field(clause, "duration")
        if d is not None and not is_duration(d):
            ctx.error(d, f"`retention` takes a duration like `14d`, not `{ctx.text(d)}`", "retention")


def _signal_only(ctx: CheckContext) -> str | None:
    """The arming signal's name when the loop is armed by `on` alone (no `every`)."""
    if header_clauses(ctx, "every_clause"):
        return None
    on = header_clauses(ctx, "on_clause")
    return ctx.text(field(on[0], "signal")) if on else None


def _invariants(ctx: CheckContext) -> None:
    signal_only = _signal_only(ctx)
    routed = _route_targets(ctx)
    for inv in header_clauses(ctx, "invariant_clause"):
        name = field(inv, "name") or first_token(inv)
        n = ctx.text(name)
        tolerances = [c for c in inv.named_children if c.type == "tolerance_clause"]
        confirms = [c for c in inv.named_children if c.type == "confirms_clause"]
        if not tolerances:
            ctx.error(
                name,
                f"invariant `{n}` has no `tolerance` (there is no default): add `tolerance N windows` "
                "or `tolerance unconfirmed for <duration>`",
                "invariant",
                {"missing": "tolerance"},
            )
        if not confirms:
            ctx.error(
                name,
                f"invariant `{n}` has no `confirms`: add `confirms start` (or a step the loop routes to); "
                "an invariant nothing confirms alarms forever",
                "invariant",
                {"missing": "confirms"},
            )
        for extra in tolerances[1:]:
            ctx.error(
                first_token(extra), f"invariant `{n}` has a second `tolerance`; keep exactly one", "invariant"
            )
        for extra in confirms[1:]:
            ctx.error(
                first_token(extra), f"invariant `{n}` has a second `confirms`; keep exactly one", "invariant"
            )
        for tol in tolerances:
            _tolerance(ctx, tol, signal_only)
        for conf in confirms:
            _confirms(ctx, conf, routed)


def _tolerance(ctx: CheckContext, tol: Node, signal_only: str | None) -> None:
    count = field(tol, "count")
    unconfirmed = field(tol, "unconfirmed")
    if count is None and unconfirmed is None:
        ctx.error(
            first_token(tol),
            "`tolerance` needs `N windows` or `unconfirmed for <duration>`",
            "tolerance",
        )
        return
    if count is not None:
        text = ctx.text(count)
        if count.type != "integer":
            ctx.error(
                count,
                f"the tolerance count must be a whole number of windows (≥ 1), not `{text}`",
                "tolerance",
            )
        elif int(text) < 1:
            ctx.error(
                count,
                f"`tolerance {text} windows` tolerates nothing: the count must be at least 1",
                "tolerance",
                {"least": 1},
            )
        windows = field(tol, "windows")
        if windows is None or ctx.text(windows) != "windows":
            ctx.error(
                windows or count,
                f"expected `windows` or `unconfirmed for …` after `tolerance {text}`"
                + (f", found `{ctx.text(windows)}`" if windows is not None else ""),
                "tolerance",
                {"name": ctx.text(windows), "candidates": ["windows"]}
                if windows is not None
                else {"missing": "windows"},
            )
        if signal_only is not None:
            ctx.error(
                first_token(tol),
                f"this loop is armed only by signal `{signal_only}`, and silence has no samples to count: "
                "use `tolerance unconfirmed for <duration>` instead of windows",
                "tolerance",
                {"form": "unconfirmed"},
            )
        return
    duration = field(tol, "duration")
    has_for = any(c.type == "for" for c in tol.children)
    if not has_for or duration is None:
        ctx.error(
            unconfirmed or tol,
            "`tolerance unconfirmed` needs its window: `tolerance unconfirmed for <duration>`, e.g. "
            "`for 45m`",
            "tolerance",
        )
    elif not is_duration(duration):
        ctx.error(
            duration,
            f"`unconfirmed for` takes a duration like `45m`, not `{ctx.text(duration)}`",
            "tolerance",
        )


def _confirms(ctx: CheckContext, conf: Node, routed: set[str]) -> None:
    target = field(conf, "target")
    if target is None:
        ctx.error(
            first_token(conf),
            "`confirms` needs a route: `confirms start` or a step the loop routes to",
            "confirms",
        )
        return
    word = ctx.text(target)
    if word == "start":
        return
    if ctx.model.first(_K_STEP, word) is None:
        data, meant = name_data(word, ["start", *ctx.model.names(_K_STEP)])
        ctx.error(
            target.named_children[0] if target.named_children else target,
            f"`confirms {word}`: there is no step `{word}`; confirm `start` or a step the loop routes "
            f"to{meant}",
            "confirms",
            data,
        )
    elif word not in routed:
        ctx.error(
            target,
            f"`confirms {word}`: no `route` ever goes to step `{word}`, so nothing can confirm the "
            "invariant; "
            "confirm `start` or a step some route reaches",
            "confirms",
        )


# ---------------------------------------------------------------- routes
def _start_routes(ctx: ItemContext) -> list[Node]:
    out = []
    for route in ctx.descendants("route_statement"):
        target = field(route, "target")
        if target is not None and target.named_children and target.named_children[0].type == "start":
            out.append(route)
    return out


def _route_targets(ctx: CheckContext) -> set[str]:
    return union(ctx, "route targets", lambda it: it.summary.route_targets)


def _route_start(ctx: ItemContext) -> None:
    starts = _start_routes(ctx)
    if not starts:
        return
    carries = ctx.model.names(_K_CARRY)
    for route in starts:
        payload = field(route, "payload")
        if payload is None:
            continue
        for arg in payload.named_children:
            name = field(arg, "name")
            if arg.type == "argument" and name is not None and ctx.text(name) not in carries:
                n = ctx.text(name)
                known = ", ".join(f"`{c}`" for c in carries) or "none declared"
                ctx.error(
                    name,
                    f"`route start({n}: …)` rebinds no declared carry `{n}`: declare `carry {n}: T = "
                    "<default>` "
                    f"(carries: {known})",
                    "route-start",
                )


# ---------------------------------------------------------------- retire and completion
def _retire(ctx: CheckContext, flow: Node) -> None:
    blocks = top_items(ctx, "retire_block")
    name = field(flow, "name") or first_token(flow)
    if not blocks:
        ctx.error(
            name,
            f"workloop `{ctx.text(name)}` has no `retire` block: add a top-level `retire` with the "
            "wind-down statements",
            "retire",
            {"missing": "retire"},
        )
    for extra in blocks[1:]:
        ctx.error(
            first_token(extra),
            "a workloop has exactly one `retire` block: merge this one into the first",
            "retire",
            {"merge": "retire"},
        )
    for block in blocks:
        if field(block, "body") is None:
            ctx.error(
                first_token(block),
                "`retire` needs an indented body of wind-down statements",
                "retire",
                {"missing": "body"},
            )


def _ends_in_route(step: Node) -> bool:
    body = field(step, "body")
    if body is None:
        return False
    items = [c for c in body.named_children if c.type not in _SKIP]
    if not items:
        return False
    last = items[-1]
    if last.type in ("route_statement", "step_outcome"):
        return True
    if last.type == "step_declaration":
        return _ends_in_route(last)
    return False


def _never_completes(ctx: CheckContext, flow: Node) -> None:
    steps = top_items(ctx, "step_declaration")
    if not steps:
        return
    last = steps[-1]
    if not _ends_in_route(last):
        name = field(last, "name") or first_token(last)
        ctx.error(
            name,
            f"workloop `{name_of(ctx, flow)}` never completes, but its last step `{ctx.text(name)}` "
            "falls off the end: "
            "finish it with `route start` (or route to another step)",
            "workloop-route",
        )
