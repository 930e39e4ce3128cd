"""Workloop statements: `hatch` of a declared detached with its `key`, `answer` of a declared report.

- `hatch name(args) key expr`: `name` is a declared `detached`, the arguments are exactly its
  parameters, and the `key` (the dedupe identity of replays) is mandatory; it binds nothing (`-> x`).
- `answer name(fields…)`: `name` is a declared `report`, the arguments are exactly its type's fields.
- `detached name(params)` is input only: a `-> T` result is refused.
"""

from __future__ import annotations

from tree_sitter import Node

from awl_lsp.checks.base import ItemContext
from awl_lsp.checks.rules_support import (
    a_or_an,
    field,
    first_token,
    match_arguments,
    name_of,
)
from awl_lsp.model import Kind

# enum members read once (a member read through its class is a Python-level call on 3.11)
_K_DETACHED = Kind.DETACHED
_K_REPORT = Kind.REPORT


def check_item(ctx: ItemContext) -> None:
    if ctx.flow_kind() != "workloop_declaration":
        return  # rules_workloop refuses these words in a workflow
    _hatches(ctx)
    _answers(ctx)
    _detached(ctx)


# ---------------------------------------------------------------- statements
def _call_parts(ctx: ItemContext, st: Node) -> tuple[Node | None, Node | None, Node | None]:
    """`(call_expression, function name node, arguments)` of a hatch/answer statement."""
    call = field(st, "call")
    if call is None or call.type != "call_expression":
        return call, None, None
    return call, field(call, "function"), field(call, "arguments")


def _hatches(ctx: ItemContext) -> None:
    for st in ctx.descendants("hatch_statement"):
        binding = field(st, "binding")
        if binding is not None:
            ctx.error(
                binding,
                f"`hatch` binds nothing: the hatched workflow runs on its own and returns nothing to this "
                f"iteration, so drop `{ctx.text(binding)}`",
                "hatch-binding",
            )
        call, fn, args = _call_parts(ctx, st)
        if fn is None:
            ctx.error(
                call or first_token(st),
                "`hatch` takes a call of a declared detached: `hatch name(arg: …) key …`",
                "hatch",
            )
            continue
        name = ctx.text(fn)
        target = ctx.model.first(_K_DETACHED, name)
        if target is None:
            other = ctx.model.callable(name)
            if other is not None:
                msg = (
                    f"`hatch {name}`: `{name}` is {a_or_an(other.kind.value)}, "
                    "but `hatch` starts a `detached` workflow"
                )
            else:
                msg = f"unknown detached `{name}`: `hatch` needs a top-level `detached {name}(…)` declaration"
            ctx.error(fn, msg, "hatch")
        else:
            expected = [p.name for p in ctx.model.parameters_of(target)]
            match_arguments(ctx, args, expected, f"detached `{name}`", fn, "hatch")
        if field(st, "key") is None:
            ctx.error(
                call or st,
                f"`hatch {name}` has no `key`: add `key <expr>`, the identity that dedupes replays",
                "hatch-key",
                {"missing": "key"},
            )


def _answers(ctx: ItemContext) -> None:
    for st in ctx.descendants("answer_statement"):
        call, fn, args = _call_parts(ctx, st)
        if fn is None:
            ctx.error(
                call or first_token(st),
                "`answer` takes a report and its fields: `answer name(field: …)`",
                "answer",
            )
            continue
        name = ctx.text(fn)
        report = ctx.model.first(_K_REPORT, name)
        if report is None:
            ctx.error(
                fn,
                f"unknown report `{name}`: declare `report {name}: type T` in the workloop header",
                "answer",
            )
            continue
        type_sym = ctx.model.type_symbol(report.type or "")
        if type_sym is None or type_sym.extra.get("form") != "record_body":
            continue
        expected = [f.name for f in ctx.model.fields_of(report.type)]
        optional = frozenset(f.name for f in ctx.model.fields_of(report.type) if (f.type or "").endswith("?"))
        match_arguments(
            ctx, args, expected, f"report `{name}` (type `{report.type}`)", fn, "answer", optional
        )


def _detached(ctx: ItemContext) -> None:
    for node in [ctx.node] if ctx.node.type == "detached_declaration" else []:
        rt = field(node, "return_type")
        if rt is not None:
            ctx.error(
                rt,
                f"detached `{name_of(ctx, node)}` takes input only: it owes its starter nothing, so "
                f"drop `-> {ctx.text(rt)}`",
                "detached",
                {"drop": "result"},
            )
