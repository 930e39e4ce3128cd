"""Type rules for statements: route payloads, guards, pipes left dangling, sleeps, fork collections, `[T?]`,
and the workloop's typed values: carry defaults, `route start(carry: …)`, `answer` fields and
`hatch` arguments.

`walk_statements` drives the expression walker of `rules_types` over every body of one item,
giving each outcome's route the facts its guard (and the arms before it) establish.
"""

from __future__ import annotations

from tree_sitter import Node

from awl_lsp.checks.base import ItemContext
from awl_lsp.checks.calls import Argument, arguments
from awl_lsp.checks.presence import absent_facts, present_facts
from awl_lsp.checks.rules_types import ExprChecker, Facts
from awl_lsp.checks.slots import carry_slot, field_slot, list_field, outcome_slot, parameter_slot
from awl_lsp.checks.suggest import close_names, did_you_mean
from awl_lsp.model.symbols import Kind, RefKind, Symbol
from awl_lsp.model.types import INT, AwlType, assignable, parse_type_text
from awl_lsp.syntax import fields as F

# (kinds as module constants: an Enum member read through its class is a Python-level call on 3.11)
_REPORT, _DETACHED, _CARRY, _OUTCOME = Kind.REPORT, Kind.DETACHED, Kind.CARRY, Kind.OUTCOME
_ROUTE_REF = RefKind.ROUTE

# The type rules' entry point: one walk per item, over the expression walker of `rules_types`.
# `[T?]`, pipe-stage arity and `sleep`/`wait … timeout` durations are reported by the declaration and
# reference rules, so they are not repeated here.


_WALKED = frozenset(
    {
        "const_declaration",
        "step_declaration",
        "subflow_declaration",
        "retire_block",
        "workflow_declaration",
        "workloop_declaration",
    }
)  # the items `walk_statements` reads (type, worker, child … declarations hold no expressions)


def check_item(ctx: ItemContext) -> None:
    """Every type rule over one top-level item."""
    if ctx.node.type in _WALKED:
        walk_statements(ExprChecker(ctx), ctx.node)


def walk_statements(ec: ExprChecker, item: Node) -> None:
    """Every body, guard, const value and carry default of one top-level item."""
    if item.type == "const_declaration":
        ec.walk(item.child_by_field_id(F.VALUE))
    elif item.type == "step_declaration":
        _step(ec, item)
    elif item.type == "subflow_declaration":
        for child in item.named_children:
            if child.type == "step_declaration":
                _step(ec, child)
    elif item.type == "retire_block":
        _block(ec, item.child_by_field_id(F.BODY))
    elif item.type in ("workflow_declaration", "workloop_declaration"):
        header = item.child_by_field_id(F.HEADER)
        for clause in header.named_children if header is not None else []:
            if clause.type == "carry_clause":
                default = clause.child_by_field_id(F.DEFAULT)
                ec.walk(default)
                type_node = clause.child_by_field_id(F.TYPE)
                if type_node is not None and default is not None:
                    name = ec.env.text(clause.child_by_field_id(F.NAME))
                    expected = parse_type_text(ec.env.text(type_node))
                    what = f"the default of carry `{name}`"
                    ec.check_value(default, expected, frozenset(), what, carry_slot(name))


def _step(ec: ExprChecker, step: Node) -> None:
    body = step.child_by_field_id(F.BODY)
    if body is None:
        return
    else_facts: set[str] = set()
    for st in body.named_children:
        if st.type == "step_declaration":
            _step(ec, st)
        elif st.type == "step_outcome":
            guard = st.child_by_field_id(F.GUARD)
            cond = guard.child_by_field_id(F.CONDITION) if guard is not None else None
            facts = frozenset(else_facts)
            route_facts: Facts = frozenset()
            if cond is not None:
                ec.walk(cond, facts)
                ec.expect_bool(cond, "an outcome guard", facts, None)
                route_facts = _guarded_names(ec, cond)
                else_facts |= absent_facts(ec.env, cond)
            route = st.child_by_field_id(F.ROUTE)
            if route is not None:
                _route(ec, route, route_facts)
        elif st.type == "visits_bound":
            limit = st.child_by_field_id(F.LIMIT)
            ec.walk(limit)
            lt = ec.env.infer(limit)
            if limit is not None and ec.known(lt) and lt != INT:
                ec.ctx.error(
                    limit,
                    f"`max … visits` takes an Int, but `{ec.show(limit)}` is {lt}",
                    "visits-type",
                    {"expected": "Int", "found": str(lt)},
                )
        else:
            _statement(ec, st)


def _guarded_names(ec: ExprChecker, cond: Node) -> Facts:
    """What an outcome guard proves present for its route: only a plain `x is present` guard does
    (not a compound condition, and not the arms before it)."""
    while cond.type == "parenthesized_expression" and cond.named_children:
        cond = cond.named_children[0]
    if cond.type != "is_expression":
        return frozenset()
    return frozenset(present_facts(ec.env, cond))


def _block(ec: ExprChecker, block: Node | None) -> None:
    for st in block.named_children if block is not None else []:
        _statement(ec, st)


def _statement(ec: ExprChecker, st: Node) -> None:
    t = st.type
    env = ec.env
    if t == "step_declaration":  # a substep in a `loop` body, a fork's branch or an `on failure` block
        _step(ec, st)
        return
    if t == "expression_statement":  # (the usual statement: asked first)
        value = st.child_by_field_id(F.VALUE)
        ec.walk(value)
        if value is not None and value.type == "pipe_expression" and st.child_by_field_id(F.BINDING) is None:
            if value.child_by_field_id(F.STAGE) is not None:  # a chain of calls as well as pure stages
                ec.ctx.error(
                    value,
                    "this pipe chain goes nowhere: end it with `-> name` to bind the result or "
                    "`|> route target`",
                    "pipe-unterminated",
                )
        return
    if t == "route_statement":
        _route(ec, st, frozenset())
        return
    if t == "on_failure":
        _block(ec, st.child_by_field_id(F.BODY))
        return
    if t in ("fork_statement", "loop_statement"):
        coll = st.child_by_field_id(F.COLLECTION)
        ec.walk(coll)
        ec.walk(st.child_by_field_id(F.SEED))
        if coll is not None:
            _needs_list(ec, coll, "`fork … in`")
        body = st.child_by_field_id(F.BODY)
        subs = body.named_children if body is not None else []
        one_max = sum(sub.type == "loop_max" for sub in subs) == 1  # a second `max` is the one error
        for sub in subs:
            if sub.type == "until_clause":
                cond = sub.child_by_field_id(F.CONDITION)
                ec.walk(cond)
                ec.expect_bool(cond, "the `until` condition", frozenset(), None)
            elif sub.type == "loop_max":
                limit = sub.child_by_field_id(F.LIMIT)
                ec.walk(limit)
                lt = env.infer(limit)
                if one_max and limit is not None and ec.known(lt) and lt.strip() != INT:
                    ec.ctx.error(
                        limit,
                        f"`max` takes an Int, but `{ec.show(limit)}` is {lt}",
                        "loop-max-type",
                        {"expected": "Int", "found": str(lt)},
                    )
            else:
                _statement(ec, sub)
        return
    if t == "distribute_statement":
        coll = st.child_by_field_id(F.COLLECTION)
        ec.walk(coll)
        if coll is not None:
            mode = env.text(st.child_by_field_id(F.MODE)) or "distribute"
            _needs_list(ec, coll, f"`{mode} … in`")
        return
    if t in ("sleep_statement", "wait_statement"):
        ec.walk(st.child_by_field_id(F.DURATION) or st.child_by_field_id(F.TIMEOUT))
        return
    if t == "answer_statement":
        _answer(ec, st)
        return
    if t == "hatch_statement":
        _hatch(ec, st)
        ec.walk(st.child_by_field_id(F.KEY))
        return
    for field in (F.CALL, F.KEY):
        ec.walk(st.child_by_field_id(field))


def _answer(ec: ExprChecker, st: Node) -> None:
    """`answer report(field: value, …)`: each value fits the field of the report's type."""
    call = st.child_by_field_id(F.CALL)
    if call is None or call.type != "call_expression":
        ec.walk(call)
        return
    name = ec.env.text(call.child_by_field_id(F.FUNCTION))
    report = ec.ctx.model.first(_REPORT, name)
    report_t = parse_type_text(report.type).strip() if report is not None and report.type else None
    fields = ec.table.fields(report_t) if report_t is not None else None
    for a in arguments(ec.ctx, call.child_by_field_id(F.ARGUMENTS)):
        value = a.value
        ec.walk(value)
        fname = a.name
        if fields is not None and fname in fields:
            what = f"field `{fname}` of report `{name}`"
            slot = field_slot(report_t.name, fname) if report_t is not None else None
            ec.check_value(value, fields[fname], frozenset(), what, slot)


def _hatch(ec: ExprChecker, st: Node) -> None:
    """`hatch detached(p: value, …) key …`: each value fits the detached's parameter."""
    call = st.child_by_field_id(F.CALL)
    if call is None or call.type != "call_expression":
        ec.walk(call)
        return
    name = ec.env.text(call.child_by_field_id(F.FUNCTION))
    target = ec.ctx.model.first(_DETACHED, name)
    params = ec.env.parameter_types(target) if target is not None else {}
    for a in arguments(ec.ctx, call.child_by_field_id(F.ARGUMENTS)):
        value = a.value
        ec.walk(value)
        pname = a.name
        if pname in params:
            what = f"`{pname}` of detached `{name}`"
            ec.check_value(value, params[pname], frozenset(), what, parameter_slot(name, pname))


def _start_payload(ec: ExprChecker, args: list[Argument], facts: Facts) -> None:
    """`route start(carry: value, …)`: each value fits the declared type of the carry it rebinds."""
    for a in args:
        if a.name_node is None:
            continue
        name = a.name
        carry = ec.ctx.model.first(_CARRY, name)
        if carry is None:
            continue  # unknown carries are reported by the workloop rules
        expected = ec.env.type_of_symbol(carry)
        ec.check_value(a.value, expected, facts, f"carry `{name}`", carry_slot(name))


def _needs_list(ec: ExprChecker, coll: Node, what: str) -> None:
    ct = ec.env.infer(coll)
    if ec.known(ct) and not ct.strip().is_list:
        ec.ctx.error(
            coll,
            f"{what} needs a list to fan out over, but `{ec.show(coll)}` is {ct}",
            "fork-non-list",
            list_field(ec.table, ct),
        )


def route_target(ec: ExprChecker, route: Node) -> tuple[str, Symbol | None]:
    target = route.child_by_field_id(F.TARGET)
    node = target.named_child(0) if target is not None and target.named_child_count else None
    if node is None or node.type != "identifier":
        return ("start" if node is not None else "", None)
    ref = ec.env.reference(node, _ROUTE_REF)  # (the item's own)
    return ec.env.text(node), ec.ctx.target(ref) if ref is not None else None


def _route(ec: ExprChecker, route: Node, facts: Facts) -> None:
    env = ec.env
    input_node = route.child_by_field_id(F.INPUT)
    ec.walk(input_node, facts)
    payload = route.child_by_field_id(F.PAYLOAD)
    args = arguments(ec.ctx, payload)
    for a in args:
        ec.walk(a.value, facts)
    name, target = route_target(ec, route)
    if name == "start" and target is None:
        _start_payload(ec, args, facts)
        return
    if target is None or target.kind is not _OUTCOME or not target.type:
        return
    out_t = parse_type_text(target.type)
    what = f"outcome `{name}`"
    if input_node is not None:
        it = env.infer(input_node)
        if not assignable(it, out_t, ec.table):
            ec.ctx.error(
                input_node,
                f"{what} carries {out_t}, but the piped value is {it}",
                "route-payload",
                {"outcome": name, "carried": str(it)},
            )
        elif not out_t.is_optional and ec.known(out_t):
            ec.optional_into_plain(input_node, it, out_t, what, facts, outcome_slot(name))
        return
    if payload is None:
        _bare_route(ec, route, name, out_t, facts)
        return
    if len(args) == 1 and args[0].name_node is None:
        ec.check_value(args[0].value, out_t, facts, f"the payload of {what}", outcome_slot(name))
        return
    fields = ec.table.fields(out_t)
    if fields is None or out_t.is_optional:
        if ec.known(out_t):
            if fields is not None:
                hint = f"declare the outcome as `type {out_t.strip()}`"
            else:
                hint = f"pass one value, e.g. `route {name}(value)`"
            ec.ctx.error(
                payload,
                f"{what} carries {out_t}, not a record: a payload built from named fields needs a "
                f"record-typed outcome — {hint}",
                "route-not-record",
                {"plain": str(out_t.strip())} if fields is not None else {"positional": True},
            )
        return
    given = {a.name for a in args}
    meant: set[str] = set()  # missing fields a misspelt one stands for: one error, not two
    for a in args:
        name_node = a.name_node
        fname = a.name
        if fname in fields:
            slot = field_slot(out_t.strip().name, fname)
            ec.check_value(a.value, fields[fname], facts, f"field `{fname}` of {out_t}", slot)
        elif name_node is not None:
            close = close_names(fname, [f for f in fields if f not in given and f not in meant])
            meant.update(close[:1])
            hint = did_you_mean(close) or f"; its fields are {', '.join(f'`{f}`' for f in fields)}"
            ec.ctx.error(
                name_node,
                f"{out_t} has no field `{fname}` for the payload of {what}{hint}",
                "route-unknown-field",
                {"name": fname, "candidates": close},
            )
    missing = [f for f, t in fields.items() if f not in given and not t.is_optional and f not in meant]
    if missing:
        names = ", ".join(f"`{m}`" for m in missing)
        ec.ctx.error(
            payload,
            f"the payload of {what} leaves out {names}: {out_t} requires "
            f"{'it' if len(missing) == 1 else 'them'}",
            "route-missing-field",
            {"missing": missing, "types": {m: str(fields[m]) for m in missing}},
        )


def _bare_route(ec: ExprChecker, route: Node, name: str, out_t: AwlType, facts: Facts) -> None:
    if not ec.known(out_t):
        return
    row = route.start_point.row
    ref_scope = next(
        (r.scope for r in ec.ctx.refs if r.kind is RefKind.ROUTE and r.range[0] == row and r.name == name),
        "",
    )
    sym = ec.ctx.model.resolve_value(name, ref_scope, row)
    if sym is None:
        ec.ctx.error(
            route,
            f"`route {name}` has no payload, but outcome `{name}` carries {out_t}: pass one "
            f"(`route {name}(…)`) or bind the value as `-> {name}` before routing",
            "route-no-payload",
            {"outcome": name, "type": str(out_t)},
        )
        return
    st = ec.env.type_of_symbol(sym)
    if not assignable(st, out_t, ec.table):
        ec.ctx.error(
            route,
            f"`route {name}` sends the binding `{name}` ({st}), but outcome `{name}` carries {out_t}",
            "route-payload",
            {"outcome": name, "carried": str(st)},
        )
