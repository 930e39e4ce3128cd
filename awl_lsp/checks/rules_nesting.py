"""Nesting rules: what the routes and `after` lists of steps name, seen from where each step stands.

`awl_lsp.checks.step_scopes` says what the engine lets a step see. Here:
- a substep's route names a sibling of its own block or an outcome arm of its parent (in a named
  fork, itself or the arms); anything else is refused, with what it could have named;
- a top-level step's route or `after` names a top-level step of its flow: a substep is out of reach;
- a substep's `after` names a sibling of its own block.
A name no step, outcome or arm has is left to the unknown-target rules (`rules_references`).
The cycles among siblings are the flow graph's (`rules_flow`, one graph per block).
"""

from __future__ import annotations

from tree_sitter import Node

from awl_lsp.checks.base import ItemContext
from awl_lsp.checks.step_scopes import (
    arms,
    block_kind,
    enclosing_step,
    route_siblings,
    siblings,
    where,
)
from awl_lsp.checks.suggest import name_data
from awl_lsp.checks.summary import route_target_name
from awl_lsp.model.symbols import Kind, Symbol
from awl_lsp.syntax import fields as F

# enum members read once (a member read through its class is a Python-level call on 3.11)
_K_OUTCOME = Kind.OUTCOME
_K_STEP = Kind.STEP
_K_STEP_OUTCOME = Kind.STEP_OUTCOME

_STEP_KINDS = (Kind.STEP, Kind.OUTCOME, Kind.STEP_OUTCOME)


def check_item(ctx: ItemContext) -> None:
    item = ctx.node
    if item is None or item.type not in ("step_declaration", "subflow_declaration"):
        return
    scope = ""
    if item.type == "subflow_declaration":
        scope = f"subflow:{ctx.text(item.child_by_field_id(F.NAME))}"
    for step in ctx.descendants("step_declaration"):
        after = step.child_by_field_id(F.AFTER)
        if after is not None:
            _after(ctx, step, after, scope)
    for route in ctx.descendants("route_statement"):
        owner = enclosing_step(route, item)
        name = route_target_name(ctx.source, route)
        if owner is None or not name:
            continue
        parent = enclosing_step(owner, item)
        if parent is None:
            _top_route(ctx, route, name, scope)
        else:
            _substep_route(ctx, route, name, owner, parent)


def _names(ctx: ItemContext, nodes: list[Node]) -> list[str]:
    return [n for n in (ctx.text(s.child_by_field_id(F.NAME)) for s in nodes) if n]


def _top_level(sym: Symbol) -> bool:
    """Is this step symbol a step of its flow or subflow (not a substep)?"""
    return sym.container is None or sym.scope == f"subflow:{sym.container}"


def _step_of_scope(ctx: ItemContext, name: str, scope: str) -> tuple[bool, Symbol | None]:
    """(a top-level step of this scope has the name, a substep of it that has the name)."""
    inner: Symbol | None = None
    for sym in ctx.model.lookup_in(_K_STEP, name, scope):
        if _top_level(sym):
            return True, None
        inner = inner or sym
    return False, inner


def _listed(names: list[str]) -> str:
    return ", ".join(f"`{n}`" for n in names) if names else "none"


def _top_route(ctx: ItemContext, route: Node, name: str, scope: str) -> None:
    top, inner = _step_of_scope(ctx, name, scope)
    if top or inner is None or ctx.model.first(_K_OUTCOME, name, scope) is not None:
        return
    target = route.child_by_field_id(F.TARGET) or route
    candidates = [
        s.name for s in ctx.model.of_kind(_K_STEP) if s.scope == scope and _top_level(s) and s.name != name
    ]
    ctx.error(
        target,
        f"`{name}` is a substep of `{inner.container}`: only the steps beside it and inside "
        f"`{inner.container}` route to it — a top-level step routes to a top-level step or an outcome",
        "route-target",
        name_data(name, candidates)[0],
    )


def _after(ctx: ItemContext, step: Node, after: Node, scope: str) -> None:
    parent = enclosing_step(step, ctx.node)
    me = ctx.text(step.child_by_field_id(F.NAME))
    for dep in after.children_by_field_name("step"):
        name = ctx.text(dep)
        if not name or ctx.model.first(_K_STEP, name) is None:
            continue  # no step has the name: `rules_references` says so
        if parent is None:
            top, _inner = _step_of_scope(ctx, name, scope)
            if top:
                continue
            candidates = [
                s.name
                for s in ctx.model.of_kind(_K_STEP)
                if s.scope == scope and _top_level(s) and s.name not in (name, me)
            ]
            ctx.error(
                dep,
                f"step `{me}` waits `after {name}`, but `{name}` is a substep: `after` names steps "
                f"beside `{me}` at the top level of the flow",
                "substep-after",
                name_data(name, candidates)[0],
            )
            continue
        beside = [n for n in _names(ctx, siblings(step)) if n != me]
        if name in beside:
            continue
        pname = ctx.text(parent.child_by_field_id(F.NAME))
        ctx.error(
            dep,
            f"substep `{me}` waits `after {name}`, but `after` names only the steps beside it in "
            f"{where(step.parent, pname)} (here: {_listed(beside)})",
            "substep-after",
            name_data(name, beside)[0],
        )


def _substep_route(ctx: ItemContext, route: Node, name: str, owner: Node, parent: Node) -> None:
    steps = _names(ctx, route_siblings(owner))
    parent_arms = _names(ctx, arms(parent))
    if name in steps or name in parent_arms:
        return
    if not any(ctx.model.first(k, name) is not None for k in _STEP_KINDS):
        return  # named by nothing at all: the unknown-target rule says so
    pname = ctx.text(parent.child_by_field_id(F.NAME))
    target = route.child_by_field_id(F.TARGET) or route
    me = ctx.text(owner.child_by_field_id(F.NAME))
    # (not the step itself: a route back to it is a cycle of its own)
    data = name_data(name, [n for n in steps if n != me] + parent_arms)[0]
    is_step = ctx.model.first(_K_STEP, name) is not None
    arms_part = f"the outcome arms of `{pname}` ({_listed(parent_arms)})"
    if block_kind(owner.parent) == "named fork" and name in _names(ctx, siblings(owner)):
        message = (
            f"substep `{me}` routes to `{name}`, another branch of the named `fork` in `{pname}`: each "
            f"branch runs on its own — route to `{me}` itself or to {arms_part}"
        )
    elif ctx.model.first(_K_OUTCOME, name) is not None and not is_step:
        message = (
            f"substep `{me}` routes to `{name}`, an outcome of the flow outside its parent step `{pname}`: "
            f"route to {arms_part} or a step beside `{me}`, and let `{pname}` route on"
        )
    elif (arm := ctx.model.first(_K_STEP_OUTCOME, name)) is not None and not is_step:
        message = (
            f"substep `{me}` routes to `{name}`, an outcome arm of step `{arm.container}`: a substep "
            f"routes only to the steps beside it ({_listed(steps)}) and to the outcome arms of its parent "
            f"step `{pname}` ({_listed(parent_arms)})"
        )
    else:
        message = (
            f"substep `{me}` routes to `{name}`, which is not beside it in {where(owner.parent, pname)}: "
            f"a substep routes only to the steps beside it ({_listed(steps)}) and to the outcome arms "
            f"of its parent step `{pname}` ({_listed(parent_arms)})"
        )
    ctx.error(target, message, "substep-route", data)
