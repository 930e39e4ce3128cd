"""Step graphs over the step summaries: containers, edges, reachability, strongly connected parts.

Steps are grouped into containers (the flow's top-level steps, each subflow's steps, the substeps
of each block of a step: its body, a `loop` body, a fork block, an `on failure` block). Inside a
container a step is entered by fall-through from the step above (unless it declares `after`), by
its `after` dependencies, or by a `route`; `StepGraph` holds those edges.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field

from awl_lsp.checks.base import CheckContext, Item
from awl_lsp.checks.summary import StepInfo, within
from awl_lsp.model import Range


@dataclass
class StepGraph:
    """One container's steps in document order and the edges between them."""

    steps: list[StepInfo]
    names: list[str]
    index: dict[str, int] = field(default_factory=dict)
    succ: list[set[int]] = field(default_factory=list)
    falls: list[bool] = field(default_factory=list)
    after: list[list[int]] = field(default_factory=list)
    routes: list[list[tuple[int, Range]]] = field(default_factory=list)  # (target index, route range)
    falls_into: list[bool] = field(default_factory=list)  # step i finishes into step i + 1

    def reach(self, start: int, edges: list[set[int]] | None = None) -> set[int]:
        edges = edges if edges is not None else self.succ
        seen, stack = {start}, [start]
        while stack:
            for n in edges[stack.pop()]:
                if n not in seen:
                    seen.add(n)
                    stack.append(n)
        return seen

    def entered(self) -> set[int]:
        """The steps a run can start: from the first step along routes and fall-through, and a step
        that waits `after` others once every one of them (of those the container has) has run."""
        waiting = [len(set(deps)) for deps in self.after]
        dependents: list[list[int]] = [[] for _ in self.steps]
        for i, deps in enumerate(self.after):
            for d in set(deps):
                dependents[d].append(i)
        seen, stack = {0}, [0]
        while stack:
            u = stack.pop()
            nexts = [t for t, _ in self.routes[u]]
            if self.falls_into[u]:
                nexts.append(u + 1)
            for i in dependents[u]:
                waiting[i] -= 1
                if waiting[i] == 0:
                    nexts.append(i)
            for v in nexts:
                if v not in seen:
                    seen.add(v)
                    stack.append(v)
        return seen


def build_graph(steps: list[StepInfo], alone: bool = False) -> StepGraph:
    """The graph of one container; with `alone` (the branches of a named fork) a route reaches only
    its own step, while `after` and falling through still link the steps."""
    names = [s.name for s in steps]
    g = StepGraph(steps, names)
    for i, n in enumerate(names):
        g.index[n] = i  # a repeated name means its last step, as in the engine
    g.succ = [set() for _ in steps]
    index = g.index
    for i, s in enumerate(steps):
        g.falls.append(s.falls)
        deps = [index[d] for d in s.after if d in index]
        g.after.append(deps)
        for d in deps:
            g.succ[d].add(i)
        rs = [(index[t], r) for t, r in s.routes if t in index and (not alone or index[t] == i)]
        g.routes.append(rs)
        for t, _ in rs:
            g.succ[i].add(t)
    targets = {t for rs in g.routes for t, _ in rs}
    g.falls_into = [False] * len(steps)
    for i in range(len(steps) - 1):
        # control falls into the next step unless it waits on `after` or is entered by routes
        if g.falls[i] and not g.after[i + 1] and i + 1 not in targets:
            g.succ[i].add(i + 1)
            g.falls_into[i] = True
    return g


@dataclass
class Container:
    kind: str  # "flow", "subflow" or "substeps"
    owner: StepInfo | None  # the parent step of substeps
    steps: list[StepInfo]
    items: list[Item]  # the top-level items the steps are in
    block: str = ""  # for substeps, the block they are written in (`step_scopes.block_kind`)


def containers(ctx: CheckContext) -> list[Container]:
    flow_items = [it for it in ctx.items if it.node.type == "step_declaration"]
    out = [Container("flow", None, [s for it in flow_items for s in it.summary.steps], flow_items)]
    for it in ctx.items:
        if it.node.type == "subflow_declaration":
            out.append(Container("subflow", None, list(it.summary.steps), [it]))
    for c in list(out):
        stack = list(c.steps)
        while stack:
            s = stack.pop()
            if s.substeps:
                out.append(Container("substeps", s, list(s.substeps), c.items, "body"))
                stack.extend(s.substeps)
            for kind, group in s.blocks:
                out.append(Container("substeps", s, list(group), c.items, kind))
                stack.extend(group)
    return out


def strongly_connected(edges: list[set[int]]) -> list[list[int]]:
    """The strongly connected components of a graph (iterative Tarjan), each as a list of nodes."""
    n = len(edges)
    index = [-1] * n
    low = [0] * n
    on_stack = [False] * n
    stack: list[int] = []
    out: list[list[int]] = []
    counter = 0
    for root in range(n):
        if index[root] != -1:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if index[w] == -1:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack[w] = True
                    work.append((w, iter(sorted(edges[w]))))
                    advanced = True
                    break
                if on_stack[w]:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                u = work[-1][0]
                low[u] = min(low[u], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack[w] = False
                    comp.append(w)
                    if w == v:
                        break
                out.append(comp)
    return out


def on_cycles(g: StepGraph) -> set[int]:
    """The steps a path of edges leads back to (the members of a strongly connected part of more
    than one step, and the steps with an edge to themselves)."""
    out = {i for i, succ in enumerate(g.succ) if i in succ}
    for part in strongly_connected(g.succ):
        if len(part) > 1:
            out.update(part)
    return out


class Locator:
    """Which of a container's steps holds a range (steps are disjoint and in document order)."""

    def __init__(self, steps: list[StepInfo]) -> None:
        self.ranges = [s.range for s in steps]
        self.starts = [(r[0], r[1]) for r in self.ranges]

    def step_of(self, r: Range) -> int | None:
        i = bisect_right(self.starts, (r[0], r[1])) - 1
        if i >= 0 and within(r, self.ranges[i]):
            return i
        return None


def graphs(ctx: CheckContext) -> list[tuple[Container, StepGraph]]:
    """Every container with its graph (built once per run, shared by the flow rules)."""
    found = ctx.memo.get("graphs")
    if found is None:
        found = ctx.memo["graphs"] = [
            (c, build_graph(c.steps, c.block == "named fork")) for c in containers(ctx) if c.steps
        ]
    return found  # type: ignore[return-value]
