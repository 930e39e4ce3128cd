"""A top-level step and its substeps bind into one scope: which of them makes each binding.

The engine gives a step and every substep below it (in its body, a `loop` body, a fork's branches)
one scope of bindings, so a name bound in the step and again in a substep — or in two substeps — is
bound twice (the second in document order is the error), whatever cycle a substep is on. The one
exception is a `loop`'s value, rebound in the loop's body (by a substep written there, too). Two
bindings in one step's own lines are `rules_references`'s.
"""

from __future__ import annotations

from awl_lsp.checks.base import Item, memo_of
from awl_lsp.checks.summary import StepInfo, within
from awl_lsp.model import Range

Unit = tuple[int, str]  # (place of the step among its step and substeps, in document order; its name)


def units_of(it: Item, key: str, bindings: list[tuple[str, int, int]]) -> dict[int, Unit]:
    """For the item's bindings (name, top-level step, symbol index), the step or substep each is
    made in: symbol index -> unit; 0 is the top-level step itself (kept with the item)."""

    def make(it: Item) -> dict[int, Unit]:
        out: dict[int, Unit] = {}
        nested: dict[int, list[StepInfo]] = {}
        for _, local, k in bindings:
            if local not in nested:
                nested[local] = _preorder(it.summary.steps[local])
            steps = nested[local]
            if len(steps) == 1:  # (a step without substeps: every binding is its own)
                out[k] = (0, steps[0].name)
                continue
            at = it.facts.flat[k].range
            unit = 0
            for u in range(1, len(steps)):
                if within(at, steps[u].range):
                    unit = u  # (the innermost: substeps come after the steps around them)
            out[k] = (unit, steps[unit].name)
        return out

    return memo_of(it, key + "-units", make)


def loop_threaded(it: Item, local: int, loop_value: Range, rebound: Range) -> bool:
    """Is `rebound` inside the body of the `loop` whose value is bound at `loop_value`?"""
    step = it.summary.steps[local]
    bodies = [step.at(b) for b in step.loop_bodies]
    after = [b for b in bodies if (b[0], b[1]) > (loop_value[0], loop_value[1])]
    if not after:
        return False
    body = min(after, key=lambda b: (b[0], b[1]))
    return within(rebound, body)


def _preorder(step: StepInfo) -> list[StepInfo]:
    """The step and every substep below it, in document order."""
    out: list[StepInfo] = []
    stack = [step]
    while stack:
        s = stack.pop()
        out.append(s)
        below = list(s.substeps) + [t for _, group in s.blocks for t in group]
        stack.extend(sorted(below, key=lambda t: t.step_rel[:2], reverse=True))
    return out
