"""Flow rules: outcome arms, loops, `on failure`, substep routes, route cycles, `after` cycles, reachability.

Steps are grouped into containers (the flow's top-level steps, each subflow's steps, each step's
substeps). Inside a container a step is entered by fall-through from the step above (unless it
declares `after`), by its `after` dependencies, or by a `route`; `StepGraph` holds those edges.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tree_sitter import Node

from awl_lsp.checks.base import CheckContext
from awl_lsp.model.symbols import Kind


def text(ctx: CheckContext, node: Node | None) -> str:
    return ctx.text(node)


def body_items(step: Node) -> list[Node]:
    body = step.child_by_field_name("body")
    return (
        [c for c in body.named_children if c.type not in ("comment", "doc_comment")]
        if body is not None
        else []
    )


def routes_in(node: Node, into_substeps: bool = False) -> list[Node]:
    """Route statements under `node` (outcome routes, body routes, `on failure`), not in substeps."""
    out: list[Node] = []
    stack = list(node.named_children)
    while stack:
        n = stack.pop()
        if n.type == "route_statement":
            out.append(n)
        elif n.type != "step_declaration" or into_substeps:
            stack.extend(n.named_children)
    return sorted(out, key=lambda r: r.start_byte)


def route_target_name(ctx: CheckContext, route: Node) -> str:
    target = route.child_by_field_name("target")
    node = target.named_children[0] if target is not None and target.named_children else None
    return text(ctx, node) if node is not None and node.type == "identifier" else ""


@dataclass
class StepGraph:
    """One container's steps in document order and the edges between them."""

    steps: list[Node]
    names: list[str]
    index: dict[str, int] = field(default_factory=dict)
    succ: list[set[int]] = field(default_factory=list)
    falls: list[bool] = field(default_factory=list)
    after: list[list[int]] = field(default_factory=list)
    routes: list[list[tuple[int, Node]]] = field(default_factory=list)  # (target index, route node)

    def reach(self, start: int, edges: list[set[int]] | None = None) -> set[int]:
        edges = edges if edges is not None else self.succ
        seen, stack = {start}, [start]
        while stack:
            for n in edges[stack.pop()]:
                if n not in seen:
                    seen.add(n)
                    stack.append(n)
        return seen


def can_fall_through(ctx: CheckContext, step: Node) -> bool:
    """True when the step can finish without routing (no outcome arms, no route in its own body)."""
    items = body_items(step)
    return not any(i.type in ("step_outcome", "route_statement") for i in items)


def build_graph(ctx: CheckContext, steps: list[Node]) -> StepGraph:
    names = [text(ctx, s.child_by_field_name("name")) for s in steps]
    g = StepGraph(steps, names)
    for i, n in enumerate(names):
        g.index.setdefault(n, i)
    g.succ = [set() for _ in steps]
    for i, s in enumerate(steps):
        g.falls.append(can_fall_through(ctx, s))
        after = s.child_by_field_name("after")
        deps = [
            g.index[text(ctx, d)]
            for d in (after.children_by_field_name("step") if after is not None else [])
            if text(ctx, d) in g.index
        ]
        g.after.append(deps)
        for d in deps:
            g.succ[d].add(i)
        rs = [
            (g.index[route_target_name(ctx, r)], r)
            for r in routes_in(s)
            if route_target_name(ctx, r) in g.index
        ]
        g.routes.append(rs)
        for t, _ in rs:
            g.succ[i].add(t)
    for i in range(len(steps) - 1):
        after = steps[i + 1].child_by_field_name("after")
        unresolved = after is not None and len(g.after[i + 1]) < len(after.children_by_field_name("step"))
        if g.falls[i] and (after is None or unresolved):
            g.succ[i].add(i + 1)
    return g


def containers(ctx: CheckContext) -> list[tuple[str, Node | None, list[Node]]]:
    """(kind, owner, steps): kind is "flow", "subflow" or "substeps" (owner = the parent step)."""
    out: list[tuple[str, Node | None, list[Node]]] = []
    root = ctx.tree.root_node
    out.append(("flow", None, [n for n in root.named_children if n.type == "step_declaration"]))
    for n in root.named_children:
        if n.type == "subflow_declaration":
            out.append(("subflow", n, [c for c in n.named_children if c.type == "step_declaration"]))
    stack = [s for _, _, steps in out for s in steps]
    while stack:
        s = stack.pop()
        subs = [c for c in body_items(s) if c.type == "step_declaration"]
        if subs:
            out.append(("substeps", s, subs))
            stack.extend(subs)
    return out


def check(ctx: CheckContext) -> None:
    for node in _descendants(ctx.tree.root_node):
        if node.type == "step_declaration":
            _outcomes(ctx, node)
        elif node.type == "loop_statement":
            _loop(ctx, node)
        elif node.type == "on_failure":
            body = node.child_by_field_name("body")
            stmts = [c for c in body.named_children if c.type not in ("comment",)] if body is not None else []
            if not stmts or stmts[-1].type != "route_statement":
                ctx.error(
                    node,
                    "an `on failure` block must end in a `route`: after compensating, say where the "
                    "step goes (e.g. `route failed(reason: …)`)",
                    "on-failure-route",
                )
    for kind, owner, steps in containers(ctx):
        if not steps:
            continue
        g = build_graph(ctx, steps)
        _cycles(ctx, g)
        _after_cycles(ctx, g)
        _reachability(ctx, g, kind)
        if kind == "substeps" and owner is not None:
            _substep_routes(ctx, g, owner)
        elif not ctx.model.is_workloop or kind == "subflow":
            last = len(steps) - 1
            if (
                g.falls[last]
                and not any(last in a for a in g.after)
                and not any(c.type == "step_declaration" for c in body_items(steps[last]))
            ):
                name = g.names[last]
                where = "subflow" if kind == "subflow" else "workflow"
                ctx.error(
                    steps[last].child_by_field_name("name") or steps[last],
                    f"step `{name}` is the last step and ends without a `route`: the {where} would fall off "
                    f"its end — finish it with `route <outcome>(…)` or outcome arms",
                    "falls-off-end",
                )


def _descendants(root: Node) -> list[Node]:
    out, stack = [], [root]
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(n.named_children)
    return out


def _outcomes(ctx: CheckContext, step: Node) -> None:
    arms = [i for i in body_items(step) if i.type == "step_outcome"]
    if not arms:
        loops = [i for i in body_items(step) if i.type == "loop_statement"]
        items = body_items(step)
        for lp in loops:
            after = items[items.index(lp) + 1 :]
            if not any(i.type == "route_statement" for i in after):
                ctx.error(
                    lp,
                    "nothing handles this loop's exhaustion: a step with a `loop` needs outcome arms "
                    "covering the case where `max` runs out (e.g. `outcome spent: else, route …`)",
                    "loop-exhaustion",
                )
        return
    name = text(ctx, step.child_by_field_name("name"))
    guards = [a.child_by_field_name("guard") for a in arms]
    kinds = [text(ctx, g.child_by_field_name("keyword")) if g is not None else "" for g in guards]
    if any(g is None or g.child_by_field_name("unknown") is not None for g in guards):
        return
    for i, k in enumerate(kinds):
        if k in ("else", "otherwise") and i != len(kinds) - 1:
            ctx.error(
                arms[i],
                f"`{k}` must be the last outcome of step `{name}`: the arms after it can never fire",
                "else-not-last",
            )
    if any(k in ("else", "otherwise") for k in kinds):
        return
    uncovered = _enum_uncovered(ctx, [g.child_by_field_name("condition") for g in guards])
    where = step.child_by_field_name("name") or step
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
        )
    else:
        ctx.error(
            where,
            f"the outcomes of step `{name}` are not exhaustive: when no `if` arm holds nothing "
            "routes — add a last arm `outcome …: else, route …`",
            "outcomes-exhaustive",
        )


def _enum_uncovered(ctx: CheckContext, conds: list[Node | None]) -> tuple[str, list[str]] | list | None:
    """For guards all of the form `x == Variant`: ([] when every variant is covered) or (enum, missing)."""
    covered: dict[str, set[str]] = {}
    for c in conds:
        if c is None or c.type != "binary_expression" or text(ctx, c.child_by_field_name("operator")) != "==":
            return None
        sides = [c.child_by_field_name("left"), c.child_by_field_name("right")]
        found = False
        for s in sides:
            if s is not None and s.type == "identifier":
                v = ctx.model.first(Kind.VARIANT, text(ctx, s))
                if v is not None and v.container:
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


def _loop(ctx: CheckContext, loop: Node) -> None:
    var = text(ctx, loop.child_by_field_name("binding"))
    body = loop.child_by_field_name("body")
    items = [c for c in body.named_children if c.type != "comment"] if body is not None else []
    if not any(i.type == "loop_max" for i in items):
        ctx.error(
            loop, f"loop `{var}` is unbounded: add a `max N` line to its body so it always ends", "loop-max"
        )
    counter = loop.child_by_field_name("counter")
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
        if n.type == "route_statement":
            ctx.error(
                n,
                "a `route` cannot leave from inside a `loop` body: let the loop end (`until` / `max`) and "
                "route from the step's outcome arms",
                "loop-route",
            )
        elif n.type == "binding" and text(ctx, n.child_by_field_name("name")) == var:
            rebinds = True
    if var and not rebinds:
        ctx.error(
            loop,
            f"loop `{var}` never rebinds `{var}`: each iteration must produce the next value with "
            f"`… -> {var}`",
            "loop-rebind",
        )


def _cycles(ctx: CheckContext, g: StepGraph) -> None:
    back = [[] for _ in g.steps]  # reverse edges
    for u, vs in enumerate(g.succ):
        for v in vs:
            back[v].append(u)
    back_sets = [set(b) for b in back]
    bounded = [any(i.type == "visits_bound" for i in body_items(s)) for s in g.steps]
    for u, rs in enumerate(g.routes):
        for v, route in rs:
            if v > u:
                continue
            from_v = g.reach(v)
            if u not in from_v:
                continue
            cycle = sorted(from_v & g.reach(u, back_sets))
            if any(bounded[i] for i in cycle):
                continue
            path = " → ".join(g.names[i] for i in cycle) + f" → {g.names[v]}"
            msg = (
                f"route `{g.names[v]}` closes a cycle ({path}) with no re-entry bound: "
                "add `max N visits` to a step in the cycle"
            )
            loops = [
                g.names[i] for i in cycle if any(n.type == "loop_statement" for n in _descendants(g.steps[i]))
            ]
            outside = [g.names[i] for i, b in enumerate(bounded) if b and i not in cycle]
            if loops:
                msg += f"; the `loop … max` inside `{loops[0]}` bounds only its own iterations"
                msg += " — it is not a cycle bound"
            elif outside:
                msg += f"; `max … visits` on `{outside[0]}` is not a cycle bound"
                msg += " — that step is outside the cycle"
            ctx.error(route, msg, "route-cycle")


def _after_cycles(ctx: CheckContext, g: StepGraph) -> None:
    edges = [set() for _ in g.steps]
    for i, deps in enumerate(g.after):
        for d in deps:
            edges[d].add(i)
    reported: set[int] = set()
    for i in range(len(g.steps)):
        if i in reported:
            continue
        others = [j for j in g.reach(i, edges) if j != i and i in g.reach(j, edges)]
        if others or i in edges[i]:
            members = sorted([*others, i])
            reported.update(members)
            chain = " → ".join(g.names[j] for j in members) + f" → {g.names[i]}"
            ctx.error(
                g.steps[i].child_by_field_name("after") or g.steps[i],
                f"`after` dependencies form a cycle ({chain}): no step in it could ever start",
                "after-cycle",
            )


def _reachability(ctx: CheckContext, g: StepGraph, kind: str) -> None:
    seen = g.reach(0)
    for i, s in enumerate(g.steps):
        if i not in seen:
            ctx.error(
                s.child_by_field_name("name") or s,
                f"step `{g.names[i]}` is unreachable: nothing routes to it, it has no `after`, and the step "
                "above never falls through into it",
                "unreachable-step",
            )


def _substep_routes(ctx: CheckContext, g: StepGraph, parent: Node) -> None:
    parent_name = text(ctx, parent.child_by_field_name("name"))
    arms = {text(ctx, a.child_by_field_name("name")) for a in body_items(parent) if a.type == "step_outcome"}
    steps = {s.name for s in ctx.model.of_kind(Kind.STEP)}
    for i, s in enumerate(g.steps):
        for r in routes_in(s):
            t = route_target_name(ctx, r)
            if t and t not in g.index and t not in arms and t in steps:
                ctx.error(
                    r,
                    f"substep `{g.names[i]}` routes to `{t}`, outside its parent step `{parent_name}`: a "
                    "substep may route only to its sibling substeps or the parent's outcomes",
                    "substep-route",
                )
