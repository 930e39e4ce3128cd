"""Route rules within a step: what a route to a step may carry, and what may follow a route.

- a route to a step carries no payload, written or piped: steps receive bindings, only outcomes
  take a payload;
- a piped route's payload is the piped value: it writes no `(…)` of its own;
- a step may not share its name with an outcome of its flow (route targets share one namespace);
- a `route` directly in a body always leaves: no statement may follow it in that body, and a step
  whose body routes unconditionally has no outcome arms.
"""

from __future__ import annotations

from tree_sitter import Node

from awl_lsp.checks.base import ItemContext
from awl_lsp.checks.rules_support import STATEMENT_TYPES
from awl_lsp.checks.step_scopes import enclosing_step, in_unchecked_failure, route_siblings
from awl_lsp.checks.summary import route_target_name
from awl_lsp.model.symbols import Kind
from awl_lsp.syntax import fields as F

# enum members read once (a member read through its class is a Python-level call on 3.11)
_K_OUTCOME = Kind.OUTCOME
_K_STEP = Kind.STEP

_BODIES = ("step_body", "block", "loop_body")


def check_item(ctx: ItemContext) -> None:
    item = ctx.node
    if item is None or item.type not in ("step_declaration", "subflow_declaration", "retire_block"):
        return
    scope = ""
    if item.type == "subflow_declaration":
        scope = f"subflow:{ctx.text(item.child_by_field_id(F.NAME))}"
    for route in ctx.descendants("route_statement"):
        _route(ctx, route, scope)
    for body in ctx.descendants(*_BODIES):
        _after_route(ctx, body)
    if not ctx.model.is_workloop:
        for step in ctx.descendants("step_declaration"):
            if step.parent is not None and step.parent.type in ("source_file", "subflow_declaration"):
                _named_like_outcome(ctx, step, scope)


def _is_step(ctx: ItemContext, route: Node, name: str, scope: str) -> bool:
    """Whether `route name` goes to a step the route can see (a top-level step from a top-level
    step, a sibling from a substep). In a workflow a step shadows an outcome of its name, as the
    engine resolves it (the clash itself is reported at the step)."""
    if not name:
        return False
    owner = enclosing_step(route, ctx.node)
    if owner is not None and enclosing_step(owner, ctx.node) is not None:
        return any(ctx.text(s.child_by_field_id(F.NAME)) == name for s in route_siblings(owner))
    steps = ctx.model.lookup_in(_K_STEP, name, scope)
    return any(s.container is None or s.scope == f"subflow:{s.container}" for s in steps) and (
        not ctx.model.is_workloop or ctx.model.first(_K_OUTCOME, name, scope) is None
    )


def _route(ctx: ItemContext, route: Node, scope: str) -> None:
    target = route_target_name(ctx.source, route)
    payload = route.child_by_field_id(F.PAYLOAD)
    if not _is_step(ctx, route, target, scope):
        if payload is not None and route.child_by_field_id(F.INPUT) is not None:
            ctx.error(
                payload,
                f"a piped route already hands the piped value to `{target}` as its payload: drop the "
                f"`(…)` after `route {target}`, or end the pipe with `-> name` and route with a payload "
                "on its own line",
                "route-piped-payload",
            )
        return
    if payload is not None:
        ctx.error(
            payload,
            f"`{target}` is a step, and a route to a step carries no payload: steps read bindings — "
            f"bind the values first (`… -> name`) and write `route {target}`",
            "route-step-payload",
            {"drop": "payload"},
        )
    elif route.child_by_field_id(F.INPUT) is not None:
        ctx.error(
            route,
            f"a piped route hands the piped value to its target, but `{target}` is a step and takes no "
            f"value: end the pipe with `-> name` and write `route {target}` on its own line",
            "route-step-piped",
        )


def _items(body: Node) -> list[Node]:
    return [c for c in body.named_children if c.type not in ("comment", "doc_comment")]


def _after_route(ctx: ItemContext, body: Node) -> None:
    items = _items(body)
    routes = [i for i, n in enumerate(items) if n.type == "route_statement"]
    if not routes:
        return
    if in_unchecked_failure(body, ctx.node):
        return  # inside the `on failure` block of a substep: the engine leaves it free
    first = routes[0]
    # (a substep written below the route is never entered either)
    later = [n for n in items[first + 1 :] if n.type in STATEMENT_TYPES or n.type == "step_declaration"]
    if later:
        ctx.error(
            later[0],
            "this line can never run: the `route` above always leaves the step — move it above the "
            "`route`, or remove it",
            "after-route",
            {"move": "above"},
        )
        return
    if body.type == "step_body":
        arms = [n for n in items[first + 1 :] if n.type == "step_outcome"]
        if arms and not any(n.type == "step_outcome" for n in items[:first]):
            step = body.parent
            name = ctx.text(step.child_by_field_id(F.NAME)) if step is not None else ""
            ctx.error(
                arms[0],
                f"the outcome arms of step `{name}` can never fire: its body always routes away first — "
                "remove the `route` line or the arms",
                "arms-after-route",
            )


def _named_like_outcome(ctx: ItemContext, step: Node, scope: str) -> None:
    name_node = step.child_by_field_id(F.NAME)
    name = ctx.text(name_node)
    outcome = ctx.model.first(_K_OUTCOME, name, scope) if name else None
    # (only an outcome of the step's own flow: a subflow's steps route to its outcomes alone, and the
    # workflow's steps never to a subflow's — `first` falls back to another scope's when none is here)
    if outcome is not None and outcome.scope == scope:
        flow = "subflow" if scope else "workflow"
        ctx.error(
            name_node or step,
            f"step `{name}` has the name of a {flow} outcome: a `route {name}` could mean either — "
            "rename the step",
            "step-named-outcome",
            {"rename": f"{name}_step"},
        )
