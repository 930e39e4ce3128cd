"""Fixes that rename a declaration and what names it, for a problem reported away from it.

- `naming` reported at a name's first use (`data.rename`, `data.kind`, `data.name`: a type, field
  or action whose spelling cannot be written where it is used): "Rename to `x`" — the declaration
  and every use in the document. Unsafe: a type, a field or an action is also named by payloads,
  workers and other documents, which a rename here does not reach.
- `step-named-outcome` (`data.rename`): "Rename step `s` to `s_step`" — the step, and the routes
  and `after`s that mean it (a route without a payload; a route with one means the outcome, and
  keeps the name). Unsafe: the new name is a placeholder.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from awl_lsp.features.fixes.places import node_at
from awl_lsp.features.fixes.usage import references_named, references_to
from awl_lsp.features.fixes.values import Edit, Fix
from awl_lsp.model import Kind, RefKind
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot


def rename_at_first_use(snap: Snapshot, problem: Problem) -> list[Fix]:
    data = problem.data or {}
    new, old, kind = data.get("rename"), data.get("name"), data.get("kind")
    if snap.model.symbol_at(problem.range[0], problem.range[1]) is not None:
        return []  # at the declaration: `names.rename_to_convention` offers it
    if not isinstance(new, str) or not isinstance(old, str) or kind not in {k.value for k in Kind}:
        return []
    sym = snap.model.first(Kind(kind), old)
    if sym is None or snap.model.first(sym.kind, new) is not None:
        return []
    ranges = {sym.selection} | {r.range for r in references_to(snap, sym)}
    if sym.kind is Kind.FIELD:  # field reads are matched by name
        ranges |= {r.range for r in references_named(snap, old) if r.kind is RefKind.FIELD}
    ranges = {r for r in ranges if snap.text(snap.doc.root.descendant_for_point_range(r[:2], r[2:])) == old}
    if not ranges:
        return []
    return [
        Fix(f"Rename to `{new}`", tuple(Edit(r, new) for r in sorted(ranges)), safe=False, preferred=True)
    ]


def rename_step(snap: Snapshot, problem: Problem) -> list[Fix]:
    new = (problem.data or {}).get("rename")
    node = node_at(snap, problem.range)
    step = snap.model.symbol_at(node.start_point.row, node.start_point.column)
    if not isinstance(new, str) or step is None or step.kind is not Kind.STEP:
        return []
    if snap.model.lookup(Kind.STEP, new) or snap.model.lookup(Kind.OUTCOME, new):
        return []
    edits = [Edit(step.selection, new)]
    for ref in references_named(snap, step.name):
        if ref.kind not in (RefKind.ROUTE, RefKind.STEP):
            continue
        at = snap.doc.root.descendant_for_point_range(ref.range[:2], ref.range[2:])
        route = at.parent.parent if at is not None and at.parent is not None else None
        if (
            route is not None
            and route.type == "route_statement"
            and (
                route.child_by_field_name("payload") is not None
                or route.child_by_field_name("input") is not None
            )
        ):
            continue  # it carries a value: it means the outcome
        edits.append(Edit(ref.range, new))
    if len(edits) == 1:
        return []  # nothing would lead into the renamed step any more: it would be unreachable
    return [Fix(f"Rename step `{step.name}` to `{new}`", tuple(edits), safe=False, preferred=True)]
