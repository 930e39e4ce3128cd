"""Fixes for durations: a duration written as something else, in milliseconds, zero, or left out —
and the retry schedule that needs one.

- `duration` on a value that is no duration literal: a string holding one (`"30s"`) unquoted, a
  const whose value is one written in its place (`sleep pause` → `sleep 30s`) — safe, the value
  is the same —; a bare number given its unit, seconds (`sleep 5` → `sleep 5s`, unsafe: the unit
  is a guess). A `timeout` with no duration gets one to fill in (`timeout 30s`, unsafe).
- `duration-unit` (`500ms`): whole seconds — exact when the milliseconds make whole seconds
  (safe), else rounded up to the next second (unsafe: the duration changes).
- `timeout-zero` (a workflow `timeout 0s`): a positive duration to fill in (unsafe).
- `retry` without a schedule (`retry 2`): ` every 30s` to fill in; `backoff 10s` without its
  maximum: `..1m`, six times the minimum (unsafe: the schedule is the author's).

Values the user must choose are placeholders (`${1:30s}`) whose default is itself a valid duration.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from awl_lsp.features.cadence import duration_seconds
from awl_lsp.features.fixes.places import ancestor, end, node_at, span
from awl_lsp.features.fixes.values import Edit, Fix, edit, plain_text, tabstop
from awl_lsp.model import Kind
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

_UNITS = (("d", 86400), ("h", 3600), ("m", 60), ("s", 1))


def written(seconds: int) -> str:
    """A positive number of seconds as one duration literal, in the largest unit that divides it."""
    unit, size = next((u, n) for u, n in _UNITS if seconds % n == 0)
    return f"{seconds // size}{unit}"


def _const_value(snap: Snapshot, node_text: str) -> str | None:
    """The duration literal a const of that name holds, if it holds one."""
    sym = snap.model.first(Kind.CONST, node_text)
    decl = node_at(snap, sym.range) if sym is not None else None
    value = decl.child_by_field_name("value") if decl is not None else None
    return snap.text(value) if value is not None and value.type == "duration" else None


def write_duration(snap: Snapshot, problem: Problem) -> list[Fix]:
    """`duration`: what stands where a duration literal goes, written as one."""
    node = node_at(snap, problem.range)
    setting = ancestor(node, "timeout_setting")
    if setting is not None and span(setting) == problem.range:
        if setting.child_by_field_name("duration") is not None:
            return []
        text = " " + tabstop(1, "30s")
        return [Fix("Add a duration: `timeout 30s`", (edit(end(setting), None, text),), False, True, True)]
    if span(node) != problem.range:
        return []
    text = snap.text(node)
    if node.type == "string" and duration_seconds(text[1:-1]) is not None and text.endswith('"'):
        return [Fix(f"Write `{text[1:-1]}`", (Edit(span(node), text[1:-1]),), safe=True, preferred=True)]
    if node.type == "identifier":
        value = _const_value(snap, text)
        if value is None:
            return []
        return [Fix(f"Write `{value}` (the value of `{text}`)", (Edit(span(node), value),), True, True)]
    if node.type == "integer":
        new = text + tabstop(1, "s")
        return [Fix(f"Write `{plain_text(new)}`", (Edit(span(node), new),), False, True, snippet=True)]
    return []


def whole_seconds(snap: Snapshot, problem: Problem) -> list[Fix]:
    """`duration-unit`: milliseconds as whole seconds."""
    node = node_at(snap, problem.range)
    text = snap.text(node)
    if node.type != "duration" or not text.endswith("ms") or not text[:-2].isdigit():
        return []
    millis = int(text[:-2])
    seconds = max(1, -(-millis // 1000))
    new = written(seconds)
    return [Fix(f"Write `{new}`", (Edit(span(node), new),), safe=millis == seconds * 1000, preferred=True)]


def positive_timeout(snap: Snapshot, problem: Problem) -> list[Fix]:
    """`timeout-zero`: a positive duration in place of the zero."""
    node = node_at(snap, problem.range)
    if node.type != "duration" or duration_seconds(snap.text(node)) != 0:
        return []
    new = tabstop(1, "30m")
    return [Fix("Write `30m`", (Edit(span(node), new),), safe=False, preferred=True, snippet=True)]


def complete_retry(snap: Snapshot, problem: Problem) -> list[Fix]:
    """`retry`: the schedule a `retry N` lacks, or the maximum a `backoff MIN` lacks."""
    node = node_at(snap, problem.range)
    if node.type != "retry_setting" or span(node) != problem.range:
        return []
    attempts = node.child_by_field_name("attempts")
    interval, start, stop = (node.child_by_field_name(f) for f in ("interval", "from", "to"))
    if attempts is not None and interval is None and start is None and "backoff" not in snap.text(node):
        text = " every " + tabstop(1, "30s")
        title = f"Add a schedule: `{snap.text(node)}{plain_text(text)}`"
        return [Fix(title, (edit(end(node), None, text),), safe=False, preferred=True, snippet=True)]
    low = duration_seconds(snap.text(start)) if start is not None else None
    if start is None or stop is not None or not low:
        return []
    text = ".." + tabstop(1, written(6 * low))
    title = f"Add the maximum: `backoff {snap.text(start)}{plain_text(text)}`"
    return [Fix(title, (edit(end(start), None, text),), safe=False, preferred=True, snippet=True)]
