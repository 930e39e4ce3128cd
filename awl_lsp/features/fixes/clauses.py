"""Fixes that complete a clause: a `hatch` without its `key`, a `tolerance` without `windows`.

- `hatch-key` (`data.missing == "key"`): add ` key <expr>` after the call — an argument's `x.id`,
  else the first argument's value (of those with no error of their own: a copy would be a second
  one). Unsafe: the key decides which replays are the same hatch, and
  only the author knows which identity that is; the guess is a starting point.
- `tolerance` (`data.missing == "windows"`): add the missing ` windows` (or correct a misspelt
  one). Safe: `tolerance N` has no other reading.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from awl_lsp.features.fixes.places import ancestor, end, node_at, span
from awl_lsp.features.fixes.trial import problems_of
from awl_lsp.features.fixes.values import Edit, Fix, edit
from awl_lsp.syntax.problems import Problem, Range, Severity

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot


def add_hatch_key(snap: Snapshot, problem: Problem) -> list[Fix]:
    st = ancestor(node_at(snap, problem.range), "hatch_statement")
    call = st.child_by_field_name("call") if st is not None else None
    if st is None or call is None or st.child_by_field_name("key") is not None:
        return []
    args = call.child_by_field_name("arguments")
    values = [
        a.child_by_field_name("value")
        for a in (args.named_children if args is not None else [])
        if a.type == "argument"
    ]
    wrong = [p.range for p in problems_of(snap) if p.severity is Severity.ERROR]
    present = [v for v in values if v is not None and not any(_within(r, span(v)) for r in wrong)]
    ids = [
        v
        for v in present
        if v.type == "field_expression" and snap.text(v.child_by_field_name("field")) == "id"
    ]
    key = snap.text(ids[0]) if ids else snap.text(present[0]) if present else "workflow.id"
    return [Fix(f"Add `key {key}`", (edit(end(call), None, f" key {key}"),), safe=False, preferred=True)]


def _within(inner: Range, outer: Range) -> bool:
    return (outer[0], outer[1]) <= (inner[0], inner[1]) and (inner[2], inner[3]) <= (outer[2], outer[3])


def add_tolerance_windows(snap: Snapshot, problem: Problem) -> list[Fix]:
    tol = ancestor(node_at(snap, problem.range), "tolerance_clause")
    count = tol.child_by_field_name("count") if tol is not None else None
    if tol is None or count is None:
        return []
    windows = tol.child_by_field_name("windows")
    if windows is None:
        return [Fix("Add `windows`", (edit(end(count), None, " windows"),), safe=True, preferred=True)]
    if snap.text(windows) == "windows":
        return []
    return [Fix("Change to `windows`", (Edit(span(windows), "windows"),), safe=True, preferred=True)]
