"""Nesting mutations of AWL workflows: steps moved between blocks, and routes and `after` pointed
at the steps around them, for differential testing against the engine.

A document is read as blocks by indentation (a `step`, `loop`, `fork` or `on failure` line and
the lines indented under it). The mutations:
- `nest-into`: a step (top-level or nested) moved, re-indented, into another block — a step's
  body, a `loop` body, a fork's branch block, an `on failure` block — at its start or its end;
- `nest-out`: a nested step moved out of its block: beside the block's own step, to the top level
  right after its top-level step, or between the two ends of a `distribute` … `collect` region;
- `nest-wrap`: a nested step wrapped in a named `fork` … `join`, or in `fork i in LIST` when
  the document has a list input;
(in a document with no nested step, `nest-out` and `nest-wrap` first move one in, as `nest-into`);
- `nest-route`: a step's route (a `route` line or an outcome arm's route) pointed at a sibling,
  itself, an arm of its parent, its parent's sibling, an arm further out, a step of another block,
  or an outcome of the flow;
- `nest-after`: an `after` added to a step, naming a sibling, its parent's sibling or a step of
  another block.
Like `mutate`, everything is driven by a `random.Random`, so a seed number reproduces the mutants.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass

from differential.mutate import _in_raw

_STEP = re.compile(r"^(\s*)step\s+([A-Za-z_]\w*)")
_OUTCOME = re.compile(r"^\s*outcome\s+([A-Za-z_]\w*)\s*:")
_ROUTE = re.compile(r"\broute\s+([A-Za-z_]\w*)(\([^\n]*\))?")
_LIST_INPUT = re.compile(r"^\s+input\s+([a-z_]\w*)\s*:\s*\[")


def _indent(s: str) -> int:
    return len(s) - len(s.lstrip(" "))


@dataclass
class Block:
    """A line that opens indented lines below it, and how far they reach."""

    start: int  # its line
    end: int  # one past its last indented line (trailing blank lines left out)
    kind: str  # "step", "loop", "fork", "named fork", "on failure", "flow"
    indent: int
    name: str = ""  # a step's name
    parent: Block | None = None  # the block it is written in (None at the top level)

    @property
    def body_indent(self) -> int:
        return self.indent + 2

    def step_parent(self) -> Block | None:
        """The nearest step around this block."""
        cur = self.parent
        while cur is not None and cur.kind != "step":
            cur = cur.parent
        return cur


def _kind(text: str) -> str | None:
    s = text.strip()
    if _STEP.match(text):
        return "step"
    if s.startswith("loop "):
        return "loop"
    if s == "fork" or s.startswith("fork //"):
        return "named fork"
    if s.startswith("fork "):
        return "fork"
    if s.startswith("on failure"):
        return "on failure"
    return None


def blocks(lines: list[str]) -> list[Block]:
    """The step, loop, fork and `on failure` blocks of a document, in line order."""
    raw = _in_raw(lines)
    out: list[Block] = []
    stack: list[Block] = []
    for i, s in enumerate(lines):
        if not s.strip() or s.lstrip().startswith("//") or i in raw:
            continue
        ind = _indent(s)
        while stack and stack[-1].indent >= ind:
            stack.pop()
        kind = _kind(s)
        if kind is None or (kind != "step" and not stack):
            if ind == 0:
                stack.clear()
            continue
        end = i + 1
        while end < len(lines) and (not lines[end].strip() or _indent(lines[end]) > ind):
            end += 1
        while end > i + 1 and not lines[end - 1].strip():
            end -= 1
        if end == i + 1:
            continue  # a block with nothing under it
        m = _STEP.match(s)
        b = Block(i, end, kind, ind, m.group(2) if m else "", stack[-1] if stack else None)
        out.append(b)
        stack.append(b)
    return out


def _children(bs: list[Block], block: Block | None) -> list[Block]:
    return [b for b in bs if b.parent is block and b.kind == "step"]


def _arms(lines: list[str], step: Block) -> list[tuple[int, str]]:
    """(line, name) of the outcome arms written at the step's body level."""
    out = []
    for j in range(step.start + 1, step.end):
        m = _OUTCOME.match(lines[j])
        if m and _indent(lines[j]) == step.body_indent:
            out.append((j, m.group(1)))
    return out


def _outcomes(lines: list[str]) -> list[str]:
    """The flow's outcomes (header lines `outcome n: type …`)."""
    return [m.group(1) for s in lines if (m := _OUTCOME.match(s)) and _indent(s) == 2 and "type" in s]


def _payload(lines: list[str], outcome: str) -> str:
    """A payload some route in the document already gives this outcome (or none)."""
    for s in lines:
        for m in _ROUTE.finditer(s):
            if m.group(1) == outcome and m.group(2):
                return m.group(2)
    return ""


def _shift(chunk: list[str], by: int) -> list[str]:
    return [(" " * (_indent(s) + by) + s.lstrip(" ")) if s.strip() else s for s in chunk]


def _insertion(lines: list[str], b: Block, at_start: bool) -> int:
    """Where a step goes at the start or the end of a block's body (before the arms, `on failure`,
    `until`/`max` of a loop, or the last `route` of an `on failure` block)."""
    if at_start:
        return b.start + 1
    stop = b.end
    for j in range(b.start + 1, b.end):
        s = lines[j]
        if _indent(s) != b.body_indent:
            continue
        word = s.strip().split(" ", 1)[0]
        if (b.kind == "step" and word in ("outcome", "on")) or (
            b.kind == "loop" and word in ("until", "max")
        ):
            stop = j
            break
    if b.kind == "on failure" and lines[stop - 1].strip().startswith("route"):
        stop -= 1
    return stop


def _inside(b: Block, outer: Block) -> bool:
    return outer.start <= b.start < outer.end


def _move(lines: list[str], step: Block, dest: int, by: int) -> list[str] | None:
    if step.start <= dest <= step.end:
        return None
    chunk = _shift(lines[step.start : step.end], by)
    rest = lines[: step.start] + lines[step.end :]
    if dest > step.start:
        dest -= step.end - step.start
    return rest[:dest] + chunk + rest[dest:]


def _nest_into(rng: random.Random, lines: list[str], bs: list[Block]) -> list[str] | None:
    steps = [b for b in bs if b.kind == "step"]
    if not steps:
        return None
    step = rng.choice(steps)
    targets = [b for b in bs if not _inside(b, step) and b is not step.parent]
    if not targets:
        return None
    target = rng.choice(targets)
    dest = _insertion(lines, target, rng.random() < 0.4)
    return _move(lines, step, dest, target.body_indent - step.indent)


def _nested(rng: random.Random, lines: list[str], bs: list[Block]) -> tuple[list[str], list[Block]] | None:
    """The document and its blocks with at least one nested step (one moved in first, when none is)."""
    if any(b.kind == "step" and b.parent is not None for b in bs):
        return lines, bs
    moved = _nest_into(rng, lines, bs)
    return (moved, blocks(moved)) if moved is not None else None


def _nest_out(rng: random.Random, lines: list[str], bs: list[Block]) -> list[str] | None:
    made = _nested(rng, lines, bs)
    if made is None:
        return None
    lines, bs = made
    nested = [b for b in bs if b.kind == "step" and b.parent is not None]
    if not nested:
        return None
    step = rng.choice(nested)
    parent = step.parent
    assert parent is not None
    top = parent
    while top.parent is not None:
        top = top.parent
    choice = rng.randrange(3)
    if choice == 0:  # beside its block's own line, right after the block
        return _move(lines, step, parent.end, parent.indent - step.indent)
    if choice == 1:  # to the top level, after its top-level step
        return _move(lines, step, top.end, -step.indent)
    regions = [i for i, s in enumerate(lines) if re.match(r"^\s+(distribute|sequence)\s", s)]
    if not regions:
        return _move(lines, step, top.end, -step.indent)
    opener = next((b for b in bs if b.kind == "step" and b.start < regions[0] < b.end), None)
    if opener is None:
        return None
    return _move(lines, step, opener.end, -step.indent)


def _nest_wrap(rng: random.Random, lines: list[str], bs: list[Block]) -> list[str] | None:
    made = _nested(rng, lines, bs)
    if made is None:
        return None
    lines, bs = made
    nested = [b for b in bs if b.kind == "step" and b.parent is not None]
    if not nested:
        return None
    step = rng.choice(nested)
    lists = [m.group(1) for s in lines if (m := _LIST_INPUT.match(s))]
    pad = " " * step.indent
    head = f"{pad}fork each_one in {rng.choice(lists)}" if lists and rng.random() < 0.5 else f"{pad}fork"
    chunk = _shift(lines[step.start : step.end], 2)
    return lines[: step.start] + [head] + chunk + [f"{pad}join"] + lines[step.end :]


def _targets(lines: list[str], bs: list[Block], step: Block) -> list[str]:
    """Names a route of `step` might be pointed at: around it, beside it and further out."""
    parent = step.step_parent()
    names: list[str] = [step.name]
    names += [b.name for b in _children(bs, step.parent)]
    if parent is not None:
        names += [n for _, n in _arms(lines, parent)]
        names += [b.name for b in _children(bs, parent.parent)]
        grand = parent.step_parent()
        if grand is not None:
            names += [n for _, n in _arms(lines, grand)]
        names += [b.name for b in bs if b.kind == "step" and b.step_parent() is parent]  # other blocks
    names += [b.name for b in bs if b.kind == "step" and b.parent is step]  # its own substeps
    names += _outcomes(lines)
    return [n for n in dict.fromkeys(names) if n]


def _nest_route(rng: random.Random, lines: list[str], bs: list[Block]) -> list[str] | None:
    steps = [b for b in bs if b.kind == "step"]
    nested = [b for b in steps if b.parent is not None]
    pool = nested if nested and rng.random() < 0.8 else steps
    if not pool:
        return None
    step = rng.choice(pool)
    target = rng.choice(_targets(lines, bs, step))
    outcome = target in _outcomes(lines) and not any(b.name == target for b in steps)
    written = f"route {target}{_payload(lines, target) if outcome else ''}"
    own = [
        j
        for j in range(step.start + 1, step.end)
        if _indent(lines[j]) == step.body_indent and _ROUTE.search(lines[j])
    ]
    out = list(lines)
    if own and rng.random() < 0.8:
        j = rng.choice(own)
        out[j] = _ROUTE.sub(lambda _m: written, lines[j], count=1)
    else:
        dest = _insertion(lines, step, False)
        out = lines[:dest] + [" " * step.body_indent + written] + lines[dest:]
    return out if out != lines else None


def _nest_after(rng: random.Random, lines: list[str], bs: list[Block]) -> list[str] | None:
    steps = [b for b in bs if b.kind == "step"]
    nested = [b for b in steps if b.parent is not None]
    pool = nested if nested and rng.random() < 0.8 else steps
    if not pool:
        return None
    step = rng.choice(pool)
    names = [n for n in _targets(lines, bs, step) if n != step.name and any(b.name == n for b in steps)]
    if not names:
        return None
    name = rng.choice(names)
    s = lines[step.start]
    m = re.match(r"^(\s*step\s+\w+)(\s+after\s+[\w, ]+)?(.*)$", s)
    if m is None:
        return None
    new = f"{m.group(1)}{m.group(2) + ', ' + name if m.group(2) else ' after ' + name}{m.group(3)}"
    return lines[: step.start] + [new] + lines[step.start + 1 :]


NESTING: dict[str, Callable[[random.Random, list[str], list[Block]], list[str] | None]] = {
    "nest-after": _nest_after,
    "nest-into": _nest_into,
    "nest-out": _nest_out,
    "nest-route": _nest_route,
    "nest-wrap": _nest_wrap,
}


def nesting_mutant(rng: random.Random, kind: str, lines: list[str]) -> tuple[list[str], int] | None:
    """One mutant of `lines` by the nesting mutation `kind`, and the first line it changed (0-based)."""
    new = NESTING[kind](rng, lines, blocks(lines))
    if new is None or new == lines:
        return None
    first = next(
        (k for k, (a, b) in enumerate(zip(lines, new, strict=False)) if a != b), min(len(lines), len(new))
    )
    return new, first
