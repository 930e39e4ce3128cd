"""Declaration rules: narration and header placement, header clauses, types, workers and call config.

- `//!` narration comes first (at least one line) and never after the header; exactly one
  `workflow`/`workloop` header, and it is the first item.
- A workflow declares at least one outcome; a header outcome has `type T` and `route success|failure`;
  inputs and signals have types.
- Types: builtins are not redeclared, every named type exists, `List(…)`/`Option(…)` are spelled
  `[T]`/`T?`, list elements are not optional, a type is optional at most once (`T??`), enum
  variants carry no payload.
- Workers declare actions; actions and children declare `-> T`; every parameter has a type.
- Config lines: an action call site overrides only `node`/`timeout` (a child call takes none);
  `retry N` has `every D` or `backoff D..D`; `timeout` takes a duration.
"""

from __future__ import annotations

from tree_sitter import Node

from awl_lsp.checks.across import union
from awl_lsp.checks.base import CheckContext, ItemContext
from awl_lsp.checks.rules_support import (
    FLOW_TYPES,
    descendants,
    field,
    first_token,
    flow_node,
    header_clauses,
    is_builtin,
    is_duration,
    name_of,
)
from awl_lsp.model import BUILTIN_TYPES, Kind, RefKind
from awl_lsp.model.extract import ITEM_TYPES

# enum members read once (a member read through its class is a Python-level call on 3.11)
_K_CHILD = Kind.CHILD
_R_TYPE = RefKind.TYPE

_GENERIC = {
    "List": "write a list as `[T]`",
    "Array": "write a list as `[T]`",
    "Vec": "write a list as `[T]`",
    "Option": "write an optional as `T?`",
    "Optional": "write an optional as `T?`",
    "Maybe": "write an optional as `T?`",
}
_ITEM_WORD = {"retire_block": "retire"}


def check_item(ctx: ItemContext) -> None:
    _types(ctx)
    _workers_and_signatures(ctx)
    _config(ctx)


def check(ctx: CheckContext) -> None:
    _narration(ctx)
    _header_placement(ctx)
    _header_clauses(ctx)


# ---------------------------------------------------------------- document shape
def _narration(ctx: CheckContext) -> None:
    flow = flow_node(ctx)
    if flow is None:
        return
    header_row = flow.start_point.row
    narration = [(n.start_point.row, n.start_point.column) for n in ctx.doc.narration]
    # (whether any item holds narration is gathered per item: most documents' items hold none)
    if union(ctx, "narrated", lambda it: ("narration",) if it.summary.narration else ()):
        for it in ctx.items:
            if it.summary.narration:
                narration += it.summary.narration_points()
    if not any(row < header_row for row, _ in narration):
        # on the document's first non-blank line (a comment counts): where narration belongs
        top = next((n for n in ctx.tree.root_node.children if n.start_point.row < header_row), None)
        at = (top.start_point.row, 0, top.start_point.row, 0) if top is not None else first_token(flow)
        ctx.error(
            at,
            "missing `//!` narration: a document opens with at least one `//! …` line saying what "
            "the flow does, "
            "before the header",
            "narration",
            {"missing": "narration"},
        )
    for row, col in narration:
        if row > header_row:
            ctx.error(
                (row, col, row, col + 3),
                "`//!` narration is only allowed before the header; use `//` for a comment or `///` "
                "for a doc line",
                "narration",
                {"misplaced": "narration"},
            )


_NOT_CODE = frozenset({"comment", "doc_comment", "narration"})


def _header_placement(ctx: CheckContext) -> None:
    items = [it.node for it in ctx.items if it.node.type in ITEM_TYPES]
    flows = [n for n in items if n.type in ("workflow_declaration", "workloop_declaration")]
    if not flows:
        if items:
            # on the first line after the narration: where the header belongs (the engine's line)
            code = [n for n in ctx.tree.root_node.children if n.type not in _NOT_CODE]
            row = code[0].start_point.row if code else 0
            ctx.error(
                (row, 0, row, 0),
                "no `workflow NAME` or `workloop NAME` header: a document declares one flow, and its "
                "header is the first line after the `//!` narration",
                "header",
            )
        return
    for extra in flows[1:]:
        word = first_token(extra).type
        ctx.error(
            field(extra, "name") or first_token(extra),
            f"a document declares exactly one flow; this second `{word} {name_of(ctx, extra)}` "
            "belongs in its own file",
            "header",
        )
    first = items[0]
    if first is not flows[0]:
        word = _ITEM_WORD.get(first.type, first.type.split("_")[0])
        ctx.error(
            first_token(first),
            f"the `{first_token(flows[0]).type}` header must come first (after the `//!` narration); "
            f"move this `{word}` below it",
            "header",
        )


def _header_clauses(ctx: CheckContext) -> None:
    flow = flow_node(ctx)
    if flow is None:
        return
    is_workflow = flow.type == "workflow_declaration"
    outcomes = header_clauses(ctx, "outcome_clause")
    has_broken_outcome = any(
        c.type == "ERROR" and ctx.text(c).lstrip().startswith("outcome") for c in header_clauses(ctx)
    )
    if is_workflow and not outcomes and not has_broken_outcome:
        where = field(flow, "name") or first_token(flow)
        ctx.error(
            where,
            f"workflow `{ctx.text(where)}` declares no outcome: add `outcome NAME: type T, route "
            "success` to its header",
            "outcome",
            {"missing": "outcome"},
        )
    if is_workflow:
        for clause in outcomes:
            _header_outcome(ctx, clause)
    for clause in header_clauses(ctx, "input_clause", "signal_clause"):
        word = first_token(clause).type
        name = field(clause, "name")
        if name is not None and field(clause, "type") is None:
            n = ctx.text(name)
            ctx.error(
                name, f"{word} `{n}` has no type: write `{word} {n}: T`", "header-type", {"needs": "type"}
            )
    for clause in header_clauses(ctx, "timeout_clause"):
        d = field(clause, "duration")
        if d is not None and not is_duration(d):
            ctx.error(d, f"`timeout` takes a duration like `30m`, not `{ctx.text(d)}`", "duration")


def _header_outcome(ctx: CheckContext, clause: Node) -> None:
    name = field(clause, "name") or first_token(clause)
    n = ctx.text(name)
    if any(c.type == "ERROR" for c in clause.children):
        return  # the layout rules explain a broken outcome line
    if field(clause, "type") is None:
        ctx.error(
            name,
            f"outcome `{n}` needs a payload type: `outcome {n}: type T, route success|failure`",
            "outcome",
            {"missing": "type"},
        )
    if field(clause, "route") is None:
        ctx.error(
            name,
            f"outcome `{n}` needs its kind: end it with `, route success` or `, route failure`",
            "outcome",
            {"missing": "kind"},
        )


# ---------------------------------------------------------------- types
def _types(ctx: ItemContext) -> None:
    decl = ctx.node
    if decl.type == "type_declaration":
        name = field(decl, "name")
        if name is not None and is_builtin(ctx.text(name)):
            ctx.error(
                name,
                f"`{ctx.text(name)}` is a builtin type and cannot be redeclared: choose another name",
                "builtin-type",
            )
        body = field(decl, "body")
        if body is not None and body.type == "enum_body":
            for variant in body.named_children:
                payload = field(variant, "payload")
                if variant.type == "enum_variant" and payload is not None:
                    v = name_of(ctx, variant)
                    ctx.error(
                        variant,
                        f"enum variant `{v}` carries a payload `{ctx.text(payload)}`: AWL enums are "
                        "payload-less "
                        f"names (`A | B`); put the data in a record type",
                        "enum-payload",
                    )
    broken_rows: set[int] = set()
    if decl.type in FLOW_TYPES and ctx.is_flow_item():
        header = field(decl, "header")
        broken_rows = {
            c.start_point.row
            for c in (header.named_children if header is not None else [])
            if c.type == "outcome_clause" and any(x.type == "ERROR" for x in c.children)
        }
    for ref in ctx.refs_of(_R_TYPE):
        if ref.name in BUILTIN_TYPES or ctx.target(ref) is not None:
            continue
        if ref.range[0] in broken_rows:
            continue  # a broken outcome line: rules_layout explains it
        hint = _GENERIC.get(ref.name)
        if hint is not None:
            ctx.error(ref.range, f"`{ref.name}(…)` is not an AWL type: {hint}", "generic-type")
        else:
            builtins = ", ".join(BUILTIN_TYPES)
            ctx.error(
                ref.range,
                f"unknown type `{ref.name}`: declare `type {ref.name} …` or use a builtin ({builtins})",
                "unknown-type",
            )
    for err in ctx.descendants("ERROR"):  # `List(…)` the parser could not place
        for node in descendants(err, "type_identifier", "identifier"):
            word = ctx.text(node)
            if word in _GENERIC and ctx.source[node.end_byte : node.end_byte + 1] == b"(":
                ctx.error(node, f"`{word}(…)` is not an AWL type: {_GENERIC[word]}", "generic-type")
    for node in ctx.descendants("optional_type"):
        inner = field(node, "inner")
        if inner is not None and inner.type == "optional_type" and node.parent is not None:
            if node.parent.type != "optional_type":  # report the outermost once
                base = ctx.text(inner).rstrip("?")
                ctx.error(
                    node,
                    f"`{ctx.text(node)}` is optional more than once: a value is present or absent, "
                    f"so write `{base}?`",
                    "optional-twice",
                )
    for node in ctx.descendants("list_type"):
        element = field(node, "element")
        if element is not None and element.type == "optional_type":
            held = ctx.text(field(element, "inner"))
            ctx.error(
                node,
                f"a list element cannot be optional (`{ctx.text(node)}`): a list has no holes; "
                f"use `[{held}]`, or `[{held}]?` for an optional list",
                "list-element",
                {"choices": [f"[{held}]", f"[{held}]?"]},
            )


# ---------------------------------------------------------------- workers, actions, parameters
def _workers_and_signatures(ctx: ItemContext) -> None:
    callables: list[tuple[str, Node]] = []
    item = ctx.node
    if item.type == "worker_declaration":
        worker = item
        actions = [c for c in worker.named_children if c.type == "action_declaration"]
        if not actions:
            where = field(worker, "name") or first_token(worker)
            ctx.error(
                where,
                f"worker `{ctx.text(where)}` declares no actions: add an indented `action name(p: T) -> R`",
                "worker",
                {"missing": "action"},
            )
        callables.extend(("action", a) for a in actions)
    elif item.type in ("child_declaration", "detached_declaration", "subflow_declaration"):
        callables.append((item.type.split("_")[0], item))
    for kind, node in callables:
        name = field(node, "name")
        label = f"{kind} `{ctx.text(name)}`"
        if kind in ("action", "child") and name is not None and field(node, "return_type") is None:
            ctx.error(
                name,
                f"{label} has no return type: add `-> T` after its parameters (`-> Nil` when it "
                "returns nothing)",
                "return-type",
                {"needs": "return type"},
            )
        params = field(node, "parameters")
        for p in params.named_children if params is not None else []:
            pname = field(p, "name")
            if p.type == "parameter" and pname is not None and field(p, "type") is None:
                n = ctx.text(pname)
                message = f"parameter `{n}` of {label} has no type: write `{n}: T`"
                ctx.error(pname, message, "parameter-type", {"needs": "type"})


# ---------------------------------------------------------------- config lines
def _config(ctx: ItemContext) -> None:
    for config in ctx.descendants("call_config"):
        at_call_site = config.parent is not None and config.parent.type != "action_declaration"
        if at_call_site and _calls_child(ctx, config.parent):
            ctx.error(
                config,
                "a `child` call takes no `node`/`timeout` line: the child workflow runs on its own "
                "terms — pin `node` and `timeout` on worker actions",
                "call-override",
            )
            continue
        for item in config.named_children:
            if item.type == "retry_setting":
                if at_call_site:
                    ctx.error(
                        first_token(item),
                        "a call site may override only `node` and `timeout`; declare `retry` on the "
                        "action itself",
                        "call-override",
                        {"setting": "retry"},
                    )
                _retry(ctx, item)
            elif item.type == "timeout_setting":
                d = field(item, "duration")
                if d is None:
                    ctx.error(item, "`timeout` needs a duration, e.g. `timeout 30s`", "duration")
                elif not is_duration(d):
                    ctx.error(d, f"`timeout` takes a duration like `30s`, not `{ctx.text(d)}`", "duration")


def _calls_child(ctx: ItemContext, statement: Node | None) -> bool:
    call = field(statement, "value")
    function = field(call, "function") if call is not None and call.type == "call_expression" else None
    return function is not None and ctx.model.first(_K_CHILD, ctx.text(function)) is not None


def _retry(ctx: ItemContext, item: Node) -> None:
    attempts = field(item, "attempts")
    if attempts is None:
        ctx.error(
            item,
            "`retry` needs a count and a schedule: `retry 3 every 1m` or `retry 3 backoff 5s..2m`",
            "retry",
        )
        return
    n = ctx.text(attempts)
    if attempts.type != "integer":
        ctx.error(attempts, f"`retry` takes a whole number of attempts, not `{n}`", "retry")
    interval, start, end = field(item, "interval"), field(item, "from"), field(item, "to")
    if interval is None and start is None:
        ctx.error(
            item,
            f"`retry {n}` needs a schedule: `retry {n} every <duration>` or `retry {n} backoff <min>..<max>`",
            "retry",
        )
        return
    if start is not None and end is None:
        ctx.error(
            item,
            f"`backoff {ctx.text(start)}` needs a range: `backoff {ctx.text(start)}..<max>` (min `..` max)",
            "retry",
        )
    for d in (interval, start, end):
        if d is not None and not is_duration(d):
            ctx.error(d, f"a retry schedule takes durations like `30s`, not `{ctx.text(d)}`", "retry")
