"""Fixes for a subflow's body reading a name of the flow around it.

`subflow-outer-name`: a subflow sees only its parameters, so a workflow input (or carry) it reads
becomes a parameter of the same name and type, and every call of the subflow passes that value
(`name: name`). Safe: the body reads the very value it read before, now handed in — when every
call of the subflow has an argument list to add it to; otherwise nothing is offered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from awl_lsp.features.fixes.places import ancestor, end, node_at
from awl_lsp.features.fixes.values import Edit, Fix, edit
from awl_lsp.model import Kind, RefKind
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

_PASSABLE = frozenset({Kind.INPUT, Kind.CARRY})


def pass_as_parameter(snap: Snapshot, problem: Problem) -> list[Fix]:
    read = node_at(snap, problem.range)
    sub = ancestor(read, "subflow_declaration")
    ref = snap.model.reference_at(problem.range[0], problem.range[1])
    if sub is None or ref is None or ref.target is None or ref.target.kind not in _PASSABLE:
        return []
    name, kind = ref.name, ref.target.type
    params = sub.child_by_field_name("parameters")
    sub_name = snap.text(sub.child_by_field_name("name"))
    sym = snap.model.first(Kind.SUBFLOW, sub_name)
    if params is None or params.has_error or not kind or sym is None:
        return []
    given = [p for p in params.named_children if p.type == "parameter"]
    if any(snap.text(p.child_by_field_name("name")) == name for p in given):
        return []
    declared = f"{name}: {kind}"
    edits: list[Edit] = [
        edit(end(given[-1]), None, ", " + declared)
        if given
        else edit(end(params.children[0]), None, declared)
    ]
    for call_ref in snap.model.references_to(sym):
        if call_ref.kind is not RefKind.CALL:
            continue
        call = ancestor(node_at(snap, call_ref.range), "call_expression")
        args = call.child_by_field_name("arguments") if call is not None else None
        if args is None or args.has_error:
            return []  # a call with no argument list (a pipe stage): nothing to pass it in
        passed = [a for a in args.named_children if a.type == "argument"]
        if any(snap.text(a.child_by_field_name("name")) == name for a in passed):
            continue
        arg = f"{name}: {name}"
        edits.append(
            edit(end(passed[-1]), None, ", " + arg) if passed else edit(end(args.children[0]), None, arg)
        )
    title = f"Add parameter `{name}` to `{sub_name}` and pass it at each call"
    return [Fix(title, tuple(edits), safe=True, preferred=True)]
