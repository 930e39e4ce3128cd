"""Workloop cadence insight: what `tolerance` and `retention` mean at the declared `every` cadence.

`tolerance 3 windows` at `every 25m` alarms after about 1h15m; `tolerance unconfirmed for 2h` at
`every 25m` spans about 4.8 iterations; `retention 7d` keeps about 403 iterations. A loop armed only
by `on SIGNAL` has no clock: its windows follow the signal, and that is what the hint says.
"""

from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node

_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def duration_seconds(text: str) -> int | None:
    """Seconds of a duration literal (`30s`, `5m`, `3h`, `2d`), or None for anything else."""
    if len(text) < 2 or text[-1] not in _UNIT_SECONDS or not text[:-1].isdigit():
        return None
    return int(text[:-1]) * _UNIT_SECONDS[text[-1]]


def human_duration(seconds: float) -> str:
    """`1h15m`, `2d`, `45s`: the largest units, at most two of them."""
    total = int(round(seconds))
    if total <= 0:
        return "0s"
    parts: list[str] = []
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60), ("s", 1)):
        if total >= size:
            parts.append(f"{total // size}{unit}")
            total %= size
        if len(parts) == 2:
            break
    return "".join(parts)


def _iterations(n: float) -> str:
    shown = f"{n:.0f}" if abs(n - round(n)) < 0.05 else f"{n:.1f}"
    return f"{shown} iteration" + ("" if shown == "1" else "s")


@dataclass(frozen=True)
class Insight:
    node: Node  # the clause the insight explains (the hint goes at its end)
    text: str


def _text(source: bytes, node: Node | None) -> str:
    return source[node.start_byte : node.end_byte].decode("utf-8", "replace") if node is not None else ""


def cadence_insights(header: Node, source: bytes) -> list[Insight]:
    """Insights for the tolerance and retention clauses of one workloop header."""
    every: int | None = None
    armed_by: str | None = None
    tolerances: list[Node] = []
    retentions: list[Node] = []
    for clause in header.named_children:
        if clause.type == "every_clause":
            every = duration_seconds(_text(source, clause.child_by_field_name("duration")))
        elif clause.type == "on_clause":
            armed_by = _text(source, clause.child_by_field_name("signal")) or armed_by
        elif clause.type == "retention_clause":
            retentions.append(clause)
        elif clause.type == "invariant_clause":
            tolerances.extend(c for c in clause.named_children if c.type == "tolerance_clause")
    out: list[Insight] = []
    at = f"at every {human_duration(every)}" if every else ""
    for clause in tolerances:
        count = clause.child_by_field_name("count")
        duration = clause.child_by_field_name("duration")
        if count is not None and count.type == "integer":
            n = int(_text(source, count))
            if every:
                out.append(Insight(clause, f"≈ {human_duration(n * every)} {at}"))
            elif armed_by:
                note = f"{n} windows of `{armed_by}` (no `every`: windows follow the signal)"
                out.append(Insight(clause, note))
        elif duration is not None:
            seconds = duration_seconds(_text(source, duration))
            if seconds and every:
                out.append(Insight(clause, f"≈ {_iterations(seconds / every)} {at}"))
            elif seconds and armed_by:
                out.append(Insight(clause, f"windows follow `{armed_by}` (no `every` cadence)"))
    for clause in retentions:
        seconds = duration_seconds(_text(source, clause.child_by_field_name("duration")))
        if seconds and every:
            out.append(Insight(clause, f"≈ {_iterations(seconds / every)} {at}"))
    return out
