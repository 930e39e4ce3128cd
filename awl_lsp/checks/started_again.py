"""Steps started a second time, whose bindings the engine then counts as made twice.

A step waiting `after` another is started when that one finishes. When it could already have run
before — it sits above its dependency, or a route enters it first — the dependency finishing starts
it again, and everything it leads to runs again after it. The engine's single-assignment rule holds
those second runs against every binding there, except in the steps on a cycle (whose re-entry is
sanctioned). A cycle that no path from the first step enters is started on its own as well as by
its route back, with the same effect on what follows it.

Which steps ran "before" is read from where each step is first reached: from the container's first
step, then — for the steps it never reaches — from the first step not reached yet, in document
order, and so on (`StepGraph.reach`, every kind of edge). A dependency reached from there without
passing through the waiting step runs first, and starts nothing twice.
"""

from __future__ import annotations

from dataclasses import dataclass

from awl_lsp.checks.flow_graph import StepGraph, strongly_connected


@dataclass(frozen=True)
class StartedAgain:
    step: int  # the step started a second time
    by: int  # the step whose finishing (its `after` dependency) or route back starts it again
    routed: bool  # started again by a route back into a cycle nothing leads into (else by `after`)
    rerun: frozenset[int]  # the steps that run again with it: it and what it leads to, reached only so


def started_again(g: StepGraph) -> list[StartedAgain]:
    """Every step started a second time, with the steps that run again after it."""
    n = len(g.steps)
    waits = [(i, d) for i, deps in enumerate(g.after) for d in deps if d != i]
    if not waits and not any(t <= u for u, rs in enumerate(g.routes) for t, _ in rs):
        return []  # (nothing waits `after` and no route goes back: no cycle — the common case)
    first = g.reach(0) if n else set()
    if not waits and len(first) == n:
        return []  # (every step is reached from the first: its cycles are route cycles, re-entered)
    roots: list[int] = []
    root_of = [-1] * n
    for i in range(n):
        if root_of[i] == -1:
            roots.append(i)
            for v in g.reach(i) if i else first:
                if root_of[v] == -1:
                    root_of[v] = len(roots) - 1
    part = [0] * n
    for k, comp in enumerate(strongly_connected(g.succ)):
        for v in comp:
            part[v] = k
    # (step, its dependency on the same cycle) — or (a route's target, the step routing back to it) on
    # a cycle that the first step does not reach
    pairs = [(i, d, False) for i, d in waits if part[i] == part[d]]
    pairs += [
        (t, u, True) for u, rs in enumerate(g.routes) if root_of[u] > 0 for t, _ in rs if part[t] == part[u]
    ]
    out: list[StartedAgain] = []
    for i, d, routed in pairs:
        r = root_of[i]
        before: set[int] = set()
        for k in range(r):
            before |= g.reach(roots[k]) if k else first
        if roots[r] != i:
            before |= _reach_without(g, roots[r], i)
        if d not in before:
            out.append(StartedAgain(i, d, routed, frozenset(_rerun(g, i, before))))
    return out


def _rerun(g: StepGraph, start: int, before: set[int]) -> set[int]:
    """What runs again after `start` is started again: the steps it leads to, except those that ran
    before it and are only routed or fallen into again (a step waiting `after` one that runs again is
    started again too)."""
    dependents: list[list[int]] = [[] for _ in g.steps]
    for i, deps in enumerate(g.after):
        for d in deps:
            dependents[d].append(i)
    seen, stack = {start}, [start]
    while stack:
        u = stack.pop()
        nexts = [t for t, _ in g.routes[u] if t not in before]
        if g.falls_into[u] and u + 1 not in before:
            nexts.append(u + 1)
        nexts += dependents[u]
        for v in nexts:
            if v not in seen:
                seen.add(v)
                stack.append(v)
    return seen


def _reach_without(g: StepGraph, start: int, avoid: int) -> set[int]:
    seen, stack = {start, avoid}, [start]
    while stack:
        for n in g.succ[stack.pop()]:
            if n not in seen:
                seen.add(n)
                stack.append(n)
    seen.discard(avoid)
    return seen
