"""Flow rules: outcome arms, loops, `on failure`, route cycles, `after` cycles (with and without
fall-through), reachability, dead-end steps, a flow's last step.

Steps are grouped into containers (the flow's top-level steps, each subflow's steps, the substeps of
each block of a step); `awl_lsp.checks.flow_graph` builds their graphs from the per-item step
summaries. What a substep may route to or wait `after` is `rules_nesting`'s.
Outcome arms, loops and `on failure` are checked per item.
"""

from __future__ import annotations

from tree_sitter import Node

from awl_lsp.checks.base import CheckContext, ItemContext
from awl_lsp.checks.flow_graph import StepGraph, graphs, strongly_connected
from awl_lsp.checks.rules_support import STATEMENT_TYPES, in_substep
from awl_lsp.checks.summary import body_items
from awl_lsp.model.symbols import Kind
from awl_lsp.syntax import fields as F


def text(ctx: CheckContext, node: Node | None) -> str:
    return ctx.text(node)


def check_item(ctx: ItemContext) -> None:
    for node in ctx.descendants("step_declaration", "loop_statement", "on_failure"):
        if node.type == "step_declaration":
            _outcomes(ctx, node)
        elif node.type == "loop_statement":
            _loop(ctx, node)
        elif not in_substep(node):
            body = node.child_by_field_id(F.BODY)
            stmts = [c for c in body.named_children if c.type not in ("comment",)] if body is not None else []
            # (an `on failure` with no block at all is a line rule's: `rules_lines`)
            if body is not None and (not stmts or stmts[-1].type != "route_statement"):
                ctx.error(
                    node,
                    "an `on failure` block must end in a `route`: after compensating, say where the "
                    "step goes (e.g. `route failed(reason: …)`)",
                    "on-failure-route",
                    {"missing": "route"},
                )


def check(ctx: CheckContext) -> None:
    pairs = list(graphs(ctx))
    stuck = False
    for _, g in pairs:
        _cycles(ctx, g)
        stuck = _after_cycles(ctx, g) or stuck
    if stuck:
        # steps waiting `after` each other in a circle: the engine reports the circle and judges no
        # step's reachability or successor until it is broken (they would follow from the circle)
        return
    for c, g in pairs:
        steps = c.steps
        if c.kind == "substeps":
            # entered from their parent, in any order; what they may name is `rules_nesting`'s
            continue
        _reachability(ctx, g)
        if not ctx.model.is_workloop or c.kind == "subflow":
            _dead_ends(ctx, g)
            last = len(steps) - 1
            ends_open = (g.falls[last] or steps[last].open_end) and not steps[last].broken
            if ends_open:  # (even when a step above waits `after` it: the engine wants a last route)
                name = g.names[last]
                where = "subflow" if c.kind == "subflow" else "workflow"
                ctx.error(
                    steps[last].at(steps[last].name_rel),
                    f"step `{name}` is the last step and ends without a `route`: the {where} would fall off "
                    f"its end — finish it with `route <outcome>(…)` or outcome arms",
                    "falls-off-end",
                    {"missing": "route"},
                )


def _descendants(root: Node) -> list[Node]:
    out, stack = [], [root]
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(n.named_children)
    return out


def _loops(items: list[Node]) -> list[Node]:
    """The `loop`s a step runs itself: in its body, and in the fork and loop bodies there (not in
    substeps, which answer for their own, nor in an `on failure` block)."""
    out: list[Node] = []
    for item in items:
        if item.type == "loop_statement":
            out.append(item)
        if item.type in ("loop_statement", "fork_statement"):
            body = item.child_by_field_id(F.BODY)
            if body is not None:
                out += _loops([c for c in body.named_children if c.type not in ("comment", "doc_comment")])
    return out


def _outcomes(ctx: ItemContext, step: Node) -> None:
    if any(_within_node(b, step) for b in ctx.descendants("unexpected_block")):
        return  # a wrongly indented block: its arms may be hidden in it, and its error comes first
    items = body_items(step)
    arms = [i for i in items if i.type == "step_outcome"]
    if arms and any(i.type in STATEMENT_TYPES for i in items[items.index(arms[0]) :]):
        return  # a statement below the arms: that layout error comes first
    if not arms:
        loops = _loops(items)
        if ctx.model.is_workloop and any(i.type == "route_statement" for i in items):
            loops = []  # a workloop's iteration ends at its route either way (`route start`)
        if loops:  # in a workflow, a `route` after it would send an exhausted loop on as if it succeeded
            ctx.error(
                loops[0],
                "nothing handles this loop's exhaustion: a step with a `loop` needs outcome arms "
                "covering the case where `max` runs out (e.g. `outcome spent: else, route …`)",
                "loop-exhaustion",
            )
        return
    name = text(ctx, step.child_by_field_id(F.NAME))
    guards = [a.child_by_field_id(F.GUARD) for a in arms]
    kinds = [text(ctx, g.child_by_field_id(F.KEYWORD)) if g is not None else "" for g in guards]
    if any(g is None or g.child_by_field_id(F.UNKNOWN) is not None for g in guards):
        return
    for i, k in enumerate(kinds):
        if k in ("else", "otherwise") and i != len(kinds) - 1:
            ctx.error(
                arms[i],
                f"`{k}` must be the last outcome of step `{name}`: the arms after it can never fire",
                "else-not-last",
                {"move": "last"},
            )
    if any(k in ("else", "otherwise") for k in kinds):
        return
    uncovered = _enum_uncovered(ctx, [g.child_by_field_id(F.CONDITION) if g else None for g in guards])
    where = step.child_by_field_id(F.NAME) or step
    if uncovered == []:
        return
    if uncovered:
        enum, missing = uncovered
        listed = ", ".join(f"`{m}`" for m in missing)
        ctx.error(
            where,
            f"the outcomes of step `{name}` are not exhaustive: no `else` arm, and {listed} of "
            f"`{enum}` {'is' if len(missing) == 1 else 'are'} not covered",
            "outcomes-exhaustive",
            {"missing": "else", "variants": missing},
        )
    else:
        ctx.error(
            where,
            f"the outcomes of step `{name}` are not exhaustive: when no `if` arm holds nothing "
            "routes — add a last arm `outcome …: else, route …`",
            "outcomes-exhaustive",
            {"missing": "else"},
        )


def _enum_uncovered(ctx: ItemContext, conds: list[Node | None]) -> tuple[str, list[str]] | list | None:
    """For guards all of the form `x == Variant`: ([] when every variant is covered) or (enum, missing)."""
    covered: dict[str, set[str]] = {}
    for c in conds:
        if c is None or c.type != "binary_expression" or text(ctx, c.child_by_field_id(F.OPERATOR)) != "==":
            return None
        sides = [c.child_by_field_id(F.LEFT), c.child_by_field_id(F.RIGHT)]
        found = False
        for k, s in enumerate(sides):
            if s is not None and s.type == "identifier":
                v = ctx.model.first(Kind.VARIANT, text(ctx, s))
                if v is not None and v.container and _of_enum(ctx, sides[1 - k], v.container):
                    covered.setdefault(v.container, set()).add(v.name)
                    found = True
        if not found:
            return None
    if len(covered) != 1:
        return None
    enum, names = next(iter(covered.items()))
    sym = ctx.model.type_symbol(enum)
    variants = [c.name for c in sym.children if c.kind is Kind.VARIANT] if sym else []
    missing = [v for v in variants if v not in names]
    return (enum, missing) if missing else []


def _within_node(inner: Node, outer: Node) -> bool:
    return outer.start_byte <= inner.start_byte and inner.end_byte <= outer.end_byte


def _of_enum(ctx: ItemContext, scrutinee: Node | None, enum: str) -> bool:
    """Is the compared value known to be of this enum? (An unresolved name covers no variant.)"""
    env = ctx.type_env
    if scrutinee is None or env is None:
        return False
    t = env.infer(scrutinee).strip()
    return t.unknown is False and t.name == enum


def _loop(ctx: ItemContext, loop: Node) -> None:
    var = text(ctx, loop.child_by_field_id(F.BINDING))
    body = loop.child_by_field_id(F.BODY)
    items = [c for c in body.named_children if c.type != "comment"] if body is not None else []
    until_twice = sum(i.type == "until_clause" for i in items) > 1  # a `max` written as `until`
    if not until_twice and not any(i.type == "loop_max" for i in items):
        ctx.error(
            loop, f"loop `{var}` is unbounded: add a `max N` line to its body so it always ends", "loop-max"
        )
    counter = loop.child_by_field_id(F.COUNTER)
    if counter is not None and text(ctx, counter) == var:
        ctx.error(
            counter,
            f"`counting {var}` reuses the loop binding's name: give the counter its own name, "
            "e.g. `counting rounds`",
            "loop-counter-shadow",
        )
    if body is None:
        return
    rebinds = False
    for n in _descendants(body):
        if n.type == "route_statement" and (n.parent is None or n.parent.type != "step_outcome"):
            # (an outcome arm of a substep in the body routes among its siblings: `rules_nesting`)
            ctx.error(
                n,
                "a `route` cannot leave from inside a `loop` body: let the loop end (`until` / `max`) and "
                "route from the step's outcome arms",
                "loop-route",
            )
        elif n.type == "binding" and text(ctx, n.child_by_field_id(F.NAME)) == var:
            rebinds = True
    if var and not rebinds:
        ctx.error(
            loop,
            f"loop `{var}` never rebinds `{var}`: each iteration must produce the next value with "
            f"`… -> {var}`",
            "loop-rebind",
        )


def _cycles(ctx: CheckContext, g: StepGraph) -> None:
    back_routes = [(u, v, r) for u, rs in enumerate(g.routes) for v, r in rs if v <= u]
    if any(d > i for i, deps in enumerate(g.after) for d in deps):
        _cycles_through_after(ctx, g)
    if not back_routes:
        return
    back: list[set[int]] = [set() for _ in g.steps]  # reverse edges
    for u, vs in enumerate(g.succ):
        for v in vs:
            back[v].add(u)
    bounded = [s.bounded for s in g.steps]
    # (a cycle through the route is unbounded when one runs through steps without a bound only)
    free = [{t for t in succ if not bounded[t]} for succ in g.succ]
    free_back = [{t for t in preds if not bounded[t]} for preds in back]
    for u, v, route in back_routes:
        if bounded[u] or bounded[v]:
            continue
        from_v = g.reach(v, free)
        if u not in from_v:
            continue
        cycle = sorted(from_v & g.reach(u, free_back))
        path = " → ".join(g.names[i] for i in cycle) + f" → {g.names[v]}"
        msg = (
            f"route `{g.names[v]}` closes a cycle ({path}) with no re-entry bound: "
            "add `max N visits` to a step in the cycle"
        )
        loops = [g.names[i] for i in cycle if g.steps[i].has_loop]
        outside = [g.names[i] for i, b in enumerate(bounded) if b and i not in cycle]
        if loops:
            msg += f"; the `loop … max` inside `{loops[0]}` bounds only its own iterations"
            msg += " — it is not a cycle bound"
        elif outside:
            msg += f"; `max … visits` on `{outside[0]}` is not a cycle bound"
            msg += " — that step is outside the cycle"
        ctx.error(g.steps[u].at(route), msg, "route-cycle")


def _cycles_through_after(ctx: CheckContext, g: StepGraph) -> None:
    """A cycle of forward routes closed by waiting `after` a later step: reported at its first route
    (a cycle with a route back up is reported at that route, by `_cycles`)."""
    for comp in strongly_connected(g.succ):
        members = set(comp)
        if len(members) < 2 or any(g.steps[i].bounded for i in members):
            continue
        inside = sorted(
            ((u, v, r) for u in members for v, r in g.routes[u] if v in members), key=lambda x: x[2][:2]
        )
        if not inside or any(v <= u for u, v, _ in inside):
            continue
        u, v, route = inside[0]
        path = " → ".join(g.names[i] for i in sorted(members)) + f" → {g.names[min(members)]}"
        ctx.error(
            g.steps[u].at(route),
            f"route `{g.names[v]}` closes a cycle ({path}, through waiting `after` a later step) with no "
            "re-entry bound: add `max N visits` to a step in the cycle, or drop that `after`",
            "route-cycle",
        )


def _after_cycles(ctx: CheckContext, g: StepGraph) -> bool:
    """Steps that wait `after` each other in a circle (is there one?), and steps that start each
    other again by falling through and waiting `after` with no bound."""
    edges: list[set[int]] = [set() for _ in g.steps]
    any_after = False
    for i, deps in enumerate(g.after):
        for d in deps:
            edges[d].add(i)
            any_after = True
    if not any_after:
        return False
    stuck = False
    pure = {frozenset(c) for c in strongly_connected(edges) if len(c) > 1}
    for i, into in enumerate(g.falls_into):
        if into:
            edges[i].add(i + 1)
    for comp in strongly_connected(edges):
        i = min(comp)
        if len(comp) > 1 and frozenset(comp) not in pure:  # fall-through closes it: a bound is enough
            if any(g.steps[j].bounded for j in comp):
                continue
            members = sorted(comp)
            chain = " → ".join(g.names[j] for j in members) + f" → {g.names[i]}"
            step = g.steps[i]
            ctx.error(
                step.at(step.after_rel if step.after_rel is not None else step.step_rel),
                f"steps {chain} start each other again (falling through and waiting `after`) with no "
                "bound: add `max N visits` to one of them, or reorder the steps",
                "after-fall-cycle",
            )
            continue
        if len(comp) > 1 or i in edges[i]:
            members = sorted(comp)
            chain = " → ".join(g.names[j] for j in members) + f" → {g.names[i]}"
            step = g.steps[i]
            # (what a fix drops: the step's waits on the members of the cycle, itself or later steps)
            drop = sorted({g.names[d] for d in g.after[i] if d in comp and d >= i})
            ctx.error(
                step.at(step.after_rel if step.after_rel is not None else step.step_rel),
                f"`after` dependencies form a cycle ({chain}): no step in it could ever start",
                "after-cycle",
                {"step": g.names[i], "drop": drop} if drop else None,
            )
            stuck = True
    return stuck


def _reachability(ctx: CheckContext, g: StepGraph) -> None:
    seen = g.entered()
    if len(seen) == len(g.steps):
        return
    for i, s in enumerate(g.steps):
        if i in seen:
            continue
        blocked = [g.names[d] for d in g.after[i] if d not in seen]
        routed = any(i == t for rs in g.routes for t, _ in rs)
        if blocked and not routed:
            message = (
                f"step `{g.names[i]}` can never start: it waits `after` `{blocked[0]}`, which never runs "
                f"before it (it is reached only through `{g.names[i]}`, or not at all) — drop `{blocked[0]}` "
                "from the `after` list, or route to this step"
            )
        else:
            message = (
                f"step `{g.names[i]}` is unreachable: nothing routes to it, it has no `after`, and the step "
                "above never falls through into it"
            )
        ctx.error(s.at(s.name_rel), message, "unreachable-step", _unreachable_data(g, i, seen))


def _unreachable_data(g: StepGraph, i: int, seen: set[int]) -> dict[str, object]:
    """What a fix of an unreachable step needs: whether the step can go without changing how any
    other step is entered or left (`removable`), and the step above that would run into it but for
    its `max … visits` bound (`enter_from`: a route from there enters it)."""
    s = g.steps[i]
    data: dict[str, object] = {"name": g.names[i]}
    above = g.steps[i - 1] if i > 0 else None
    routed = any(t == i for j, rs in enumerate(g.routes) if j != i for t, _ in rs)
    waited = any(i in deps for deps in g.after)
    if (
        not routed
        and not waited
        and s.dist is None
        and s.coll is None
        and (above is None or not g.falls[i - 1])
    ):
        data["removable"] = True
    if above is not None and s.bounded and g.falls[i - 1] and not g.after[i] and above.dist is None:
        named_once = g.names.count(g.names[i]) == 1 and g.names.count(g.names[i - 1]) == 1
        if i - 1 in seen and named_once and not above.broken and not s.broken:
            data["enter_from"] = g.names[i - 1]
    return data


def _dead_ends(ctx: CheckContext, g: StepGraph) -> None:
    """A step that can finish without routing needs a successor: the next step, or one `after` it."""
    followed = {d for deps in g.after for d in deps}
    for i in range(len(g.steps) - 1):
        # the next step waits on its `after` list (unknown names aside) or is entered by routes only
        if g.falls[i] and not g.falls_into[i] and i not in followed:
            s = g.steps[i]
            ctx.error(
                s.at(s.name_rel),
                f"step `{g.names[i]}` leads nowhere: it does not route, the next step `{g.names[i + 1]}` "
                "does not follow it (it waits on `after`, or only routes enter it), and no step runs `after "
                f"{g.names[i]}` — add a `route`, or `after {g.names[i]}` to the step that should follow",
                "dead-end-step",
                {"missing": "route", "next": g.names[i + 1]},
            )
