"""Fixes for a workloop's own clauses: arming, `retire`, invariants, carries, a `detached` contract.

- `workloop-arming` (`data.missing == "arming"`): "Add `every 1h`" (a cadence placeholder), and
  "Arm with `on s`" for each declared signal. Unsafe: when the loop runs is the author's call.
- `retire` (`data.missing == "retire"`): a `retire` block at the end of the document (where the
  printer puts it) with a placeholder statement; (`data.missing == "body"`): the same body under an
  empty `retire`; (`data.merge`): the statements of a second `retire` block moved to the end of the
  first and the second removed. Unsafe: what winds the loop down is the author's to write, and a
  merge is a guess at their order.
- `invariant` (`data.missing`): `confirms start` (the confirmation every iteration reaches) or
  `tolerance 3 windows` (`tolerance unconfirmed for 1h` in a loop armed only by a signal), as its
  indented clause in the printer's order. Unsafe: the numbers are placeholders.
- `tolerance`: a count under 1 (`data.least`) becomes that least count; windows in a loop armed
  only by a signal (`data.form == "unconfirmed"`) become `unconfirmed for 1h`. Unsafe: placeholders.
- `confirms` naming no step a route reaches: "Confirm `start`". Unsafe: another step may be meant.
- `carry` without a default (`data.missing == "default"`): ` = <a value of its type>`; without a
  type (`"type"`): `: T`, the default's type. The type is certain (safe); the default is not.
- `detached` with a result type (`data.drop == "result"`): remove `-> T`. Safe: a detached
  workflow owes its starter nothing, so no other reading of the declaration exists.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from awl_lsp.features.fixes.header_clauses import add_header_clause
from awl_lsp.features.fixes.placement import (
    INDENT,
    content_end,
    header_clauses,
    line_text,
    top_level_insertion,
)
from awl_lsp.features.fixes.places import ancestor, end, node_at, span, start
from awl_lsp.features.fixes.usage import CONFLICT, value_type
from awl_lsp.features.fixes.values import Edit, Fix, edit, escape, tabstop
from awl_lsp.features.placeholders import value_for
from awl_lsp.model import Kind
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

CADENCE = "1h"  # placeholder durations and counts: valid values for the user to overwrite
WINDOWS = "3"
WIND_DOWN = "sleep 1s"  # a statement any block takes, standing for the wind-down the author writes


def _fix(
    title: str, edits: tuple[Edit, ...] | None, *, safe: bool = False, snippet: bool = True
) -> list[Fix]:
    return [Fix(title, edits, safe=safe, preferred=True, snippet=snippet)] if edits else []


def add_arming(snap: Snapshot, problem: Problem) -> list[Fix]:
    if not snap.model.is_workloop:
        return []
    out = _fix(
        f"Add `every {CADENCE}`", add_header_clause(snap, "every_clause", f"every {tabstop(1, CADENCE)}")
    )
    for signal in snap.model.names(Kind.SIGNAL):
        edits = add_header_clause(snap, "on_clause", f"on {escape(signal)}")
        if edits:
            out.append(Fix(f"Arm with `on {signal}`", edits, safe=False, snippet=True))
    return out


def add_retire(snap: Snapshot, problem: Problem) -> list[Fix]:
    if not snap.model.is_workloop or snap.model.of_kind(Kind.RETIRE):
        return []
    placed = top_level_insertion(snap, "retire_block", f"retire\n{INDENT}{tabstop(1, WIND_DOWN)}")
    return _fix("Add a `retire` block", (edit(placed[0], None, placed[1]),) if placed else None)


def add_retire_body(snap: Snapshot, problem: Problem) -> list[Fix]:
    block = ancestor(node_at(snap, problem.range), "retire_block")
    if block is None or block.child_by_field_name("body") is not None:
        return []
    where = content_end(snap, block)
    if where[0] != block.start_point.row:
        return []
    return _fix("Add a wind-down statement", (edit(where, None, f"\n{INDENT}{tabstop(1, WIND_DOWN)}"),))


def merge_retire(snap: Snapshot, problem: Problem) -> list[Fix]:
    extra = ancestor(node_at(snap, problem.range), "retire_block")
    blocks = [c for c in snap.doc.root.named_children if c.type == "retire_block"]
    if extra is None or len(blocks) < 2 or extra == blocks[0]:
        return []
    first, body = blocks[0], extra.child_by_field_name("body")
    first_body = first.child_by_field_name("body")
    if body is None or first_body is None or body.has_error:
        return []
    lines = [line_text(snap, r) for r in range(body.start_point.row, content_end(snap, body)[0] + 1)]
    moved = "".join("\n" + line for line in lines)
    # the second block goes with the blank lines before it (they separated it from what is above)
    above = extra.prev_sibling
    cut_from = content_end(snap, above) if above is not None else start(extra)
    cut_to = content_end(snap, extra)
    if above == first:  # right below the first: one edit from the first's end
        edits: tuple[Edit, ...] = (edit(cut_from, cut_to, moved),)
    else:
        edits = (edit(content_end(snap, first), None, moved), edit(cut_from, cut_to, ""))
    return [Fix("Merge into the first `retire` block", edits, safe=False, preferred=True)]


def _invariant(snap: Snapshot, problem: Problem) -> Node | None:
    return ancestor(node_at(snap, problem.range), "invariant_clause")


def _signal_armed(snap: Snapshot) -> bool:
    """Is the loop armed by `on` alone (no `every`), so that it has no windows to count?"""
    types = {c.type for c in header_clauses(snap)}
    return "on_clause" in types and "every_clause" not in types


def add_invariant_clause(snap: Snapshot, problem: Problem) -> list[Fix]:
    missing = (problem.data or {}).get("missing")
    inv = _invariant(snap, problem)
    if inv is None or missing not in ("confirms", "tolerance"):
        return []
    subs = [c for c in inv.named_children if c.type in ("tolerance_clause", "confirms_clause")]
    if any(c.type == f"{missing}_clause" for c in subs):
        return []
    indent = " " * subs[0].start_point.column if subs else " " * inv.start_point.column + INDENT
    if missing == "confirms":
        text, title = "confirms start", "Add `confirms start`"
        after = subs[-1] if subs else inv
    elif _signal_armed(snap):
        text, title = (
            f"tolerance unconfirmed for {tabstop(1, CADENCE)}",
            f"Add `tolerance unconfirmed for {CADENCE}`",
        )
        after = inv
    else:
        text, title = f"tolerance {tabstop(1, WINDOWS)} windows", f"Add `tolerance {WINDOWS} windows`"
        after = inv
    where = (
        content_end(snap, after)
        if after is not inv
        else (inv.start_point.row, _line_end(snap, inv.start_point.row))
    )
    return _fix(title, (edit(where, None, f"\n{indent}{text}"),))


def _line_end(snap: Snapshot, row: int) -> int:
    return len(line_text(snap, row).encode("utf-8"))


def least_tolerance(snap: Snapshot, problem: Problem) -> list[Fix]:
    least = (problem.data or {}).get("least")
    tol = ancestor(node_at(snap, problem.range), "tolerance_clause")
    count = tol.child_by_field_name("count") if tol is not None else None
    if not isinstance(least, int) or count is None or count.type != "integer":
        return []
    return [Fix(f"Change to `{least}`", (Edit(span(count), str(least)),), safe=False, preferred=True)]


def unconfirmed_tolerance(snap: Snapshot, problem: Problem) -> list[Fix]:
    tol = ancestor(node_at(snap, problem.range), "tolerance_clause")
    count = tol.child_by_field_name("count") if tol is not None else None
    if tol is None or count is None:
        return []
    last = tol.child_by_field_name("windows") or count
    text = f"unconfirmed for {tabstop(1, CADENCE)}"
    return _fix(f"Use `tolerance unconfirmed for {CADENCE}`", (edit(start(count), end(last), text),))


def confirm_start(snap: Snapshot, problem: Problem) -> list[Fix]:
    conf = ancestor(node_at(snap, problem.range), "confirms_clause")
    target = conf.child_by_field_name("target") if conf is not None else None
    if (
        target is None
        or snap.text(target) == "start"
        or "start" in (problem.data or {}).get("candidates", [])
    ):
        return []
    return [Fix("Confirm `start`", (Edit(span(target), "start"),), safe=False, preferred=True)]


def complete_carry(snap: Snapshot, problem: Problem) -> list[Fix]:
    missing = (problem.data or {}).get("missing")
    clause = ancestor(node_at(snap, problem.range), "carry_clause")
    if clause is None:
        return []
    name, typ, default = (clause.child_by_field_name(f) for f in ("name", "type", "default"))
    if missing == "default" and typ is not None and default is None:
        value = value_for(snap.model, snap.text(typ))
        if value is None:
            return []
        return _fix(f"Add the default `= {value}`", (edit(end(typ), None, f" = {tabstop(1, value)}"),))
    if missing == "type" and typ is None and name is not None and default is not None:
        typed = value_type(snap, default)
        if typed is None or typed == CONFLICT:
            return []
        return _fix(
            f"Add the type `{typed}`",
            (edit(end(name), None, f": {escape(typed)}"),),
            safe=True,
            snippet=False,
        )
    return []


def drop_detached_result(snap: Snapshot, problem: Problem) -> list[Fix]:
    decl = ancestor(node_at(snap, problem.range), "detached_declaration")
    params = decl.child_by_field_name("parameters") if decl is not None else None
    result = decl.child_by_field_name("return_type") if decl is not None else None
    if params is None or result is None:
        return []
    return [
        Fix(
            f"Remove `-> {snap.text(result)}`",
            (edit(end(params), end(result), ""),),
            safe=True,
            preferred=True,
        )
    ]
