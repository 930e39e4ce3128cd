"""Fixes for subflows: a body reading a name of the flow around it, a subflow used as a pipe stage.

`subflow-outer-name`: a subflow sees only its parameters, so a workflow input (or carry) it reads
becomes a parameter of the same name and type, and every call of the subflow passes that value
(`name: name`). Safe: the body reads the very value it read before, now handed in — when every
call of the subflow has an argument list to add it to; otherwise nothing is offered.

`subflow-pipe-stage`: `x |> sub -> y` becomes the call `sub(param: x) -> y` — for a subflow of
one parameter, piped a plain value, as the chain's only stage — in a step of its own (the step is
split there, see `steps.py`). Unsafe: the new step names are the author's to choose.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from awl_lsp.features.fixes import steps
from awl_lsp.features.fixes.places import ancestor, end, node_at, span
from awl_lsp.features.fixes.values import Edit, Fix, edit, escape
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


def call_in_a_step_of_its_own(snap: Snapshot, problem: Problem) -> list[Fix]:
    stage = node_at(snap, problem.range)
    pipe = stage.parent
    statement = pipe.parent if pipe is not None else None
    if pipe is None or statement is None or pipe.type != "pipe_expression" or stage.type != "identifier":
        return []
    piped = pipe.child_by_field_name("input")
    if statement.type != "expression_statement" or piped is None or piped.type == "pipe_expression":
        return []
    if statement.child_by_field_name("binding") is None or statement.has_error:
        return []
    name = snap.text(stage)
    params = snap.model.parameters_of(snap.model.first(Kind.SUBFLOW, name))
    if len(params) != 1:
        return []
    call = f"{name}({params[0].name}: {snap.text(piped)})"
    rewrite = Edit(span(pipe), escape(call))
    body = statement.parent
    if body is None:
        return []
    others = [c for c in body.named_children if c.type not in ("comment", "doc_comment") and c != statement]
    split = steps.alone_in_its_step(snap, statement, f"`{name}(…)`") if others else []
    if others and not split:
        return []
    edits = (rewrite, *(split[0].edits if split else ()))
    title = f"Call `{name}(…)` in a step of its own"
    return [Fix(title, edits, safe=False, preferred=True, snippet=True)]
