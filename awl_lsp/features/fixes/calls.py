"""Fixes for how a call, a pipe stage or a combinator is written.

- `named-arguments` (a positional argument, `send(message)`): name it after the parameter it
  fills — the free parameter (one no argument names yet) of the value's own name, else the free
  parameters in order. Safe when that is the only reading: the value is named like a free
  parameter, or one positional argument meets one free parameter. Otherwise unsafe (the order is
  a guess).
- `pipe-stage` (`order |> pair`, a pipe into an action of several parameters): call it with named
  arguments — the piped value passed to the one parameter its type fits (or that has its name),
  the others a value of their type to fill in (`pair(a: order, b: 0)`). Unsafe.
- `combinator-accessor` on `map(.a.b)`: one field at a time, `map(.a) |> map(.b)`. Safe: the
  same values. (`filter`/`sort` by a nested field, or by a test, need a binding: no fix.)
- `combinator-argument` (`sort` without its field) over a list of records: `sort(.field)`, the
  record's first field, to change. Unsafe.
- `workflow-field` (`workflow.name`): `workflow.id`, the one builtin there is. Unsafe.
- `relative-field` (`.greeting` on its own): piped from the one value in scope that has the field
  (`greeting |> .greeting`), unsafe.
- `config-not-call` under a pipe into a one-parameter action: the call the pipe stands for
  (`x |> trim -> y` → `trim(text: x) -> y`), which the setting line then sets. Safe.

Each that may touch more than its place is tried first (`trial.mends`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from awl_lsp.features.callees import Callee, expected_parameters
from awl_lsp.features.fixes.places import ancestor, node_at, span, start, widest_at
from awl_lsp.features.fixes.trial import mends
from awl_lsp.features.fixes.values import Edit, Fix, edit, escape, plain_text, tabstop
from awl_lsp.features.placeholders import argument_value, names_in_scope
from awl_lsp.features.typing import type_env
from awl_lsp.model import Kind
from awl_lsp.model.type_base import element_of, parse_type_text
from awl_lsp.model.types import assignable
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

_HOW = {"hatch_statement": "hatch", "answer_statement": "answer", "spawn_statement": "spawn"}


def _callee(snap: Snapshot, args: Node) -> Callee | None:
    """What the argument list `args` fills: a call's, a hatch's, a route payload's parameters."""
    owner = args.parent
    if owner is None:
        return None
    if owner.type == "route_statement":
        target = owner.child_by_field_name("target")
        name, how = snap.text(target), "route"
    elif owner.type == "call_expression":
        name = snap.text(owner.child_by_field_name("function"))
        how = _HOW.get(owner.parent.type, "call") if owner.parent is not None else "call"
    else:
        return None
    return expected_parameters(snap, how, name, args.start_point.row, args.start_point.column)


def _last_name(snap: Snapshot, value: Node | None) -> str:
    """The name a value is known by: `x` for `x`, `f` for `a.f`."""
    if value is not None and value.type == "field_expression":
        value = value.child_by_field_name("field")
    return snap.text(value) if value is not None and value.type == "identifier" else ""


def name_positional_argument(snap: Snapshot, problem: Problem) -> list[Fix]:
    arg = ancestor(node_at(snap, problem.range), "argument")
    args = arg.parent if arg is not None else None
    if arg is None or args is None or span(arg) != problem.range or args.type != "arguments":
        return []
    callee = _callee(snap, args)
    if callee is None or any(p.positional for p in callee.params):
        return []
    given = [a for a in args.named_children if a.type == "argument"]
    named = {snap.text(a.child_by_field_name("name")) for a in given if a.child_by_field_name("name")}
    free = [p.name for p in callee.params if p.name not in named]
    positional = [a for a in given if a.child_by_field_name("name") is None]
    by_name = {a.id: _last_name(snap, a.child_by_field_name("value")) for a in positional}
    taken = {n for n in by_name.values() if n in free}
    rest = iter(p for p in free if p not in taken)
    chosen: dict[int, str | None] = {}
    for a in positional:
        own = by_name[a.id]
        chosen[a.id] = own if own in taken else next(rest, None)
    param = chosen.get(arg.id)
    if param is None:
        return []
    safe = by_name[arg.id] == param or (len(positional) == 1 and len(free) == 1)
    named_arg = edit(start(arg), None, f"{param}: ")
    if not mends(snap, problem, [named_arg]):
        return []
    title = f"Name the argument: `{param}: {snap.text(arg)}`"
    return [Fix(title, (named_arg,), safe=safe, preferred=True)]


def pipe_stage_as_call(snap: Snapshot, problem: Problem) -> list[Fix]:
    stage = node_at(snap, problem.range)
    pipe = stage.parent
    if stage.type != "identifier" or pipe is None or pipe.type != "pipe_expression":
        return []
    source = pipe.child_by_field_name("input")
    if source is None or source.type not in ("identifier", "field_expression"):
        return []  # (a chain before it would have to move into an argument)
    at = stage.start_point
    callee = expected_parameters(snap, "call", snap.text(stage), at.row, at.column)
    env = type_env(snap)
    if callee is None or env is None or len(callee.params) < 2:
        return []
    piped = env.infer(source)
    fits = [p for p in callee.params if assignable(piped, parse_type_text(p.type), env.table)]
    if len(fits) != 1:
        fits = [p for p in callee.params if p.name == _last_name(snap, source)]
    if len(fits) != 1:
        return []
    row = pipe.start_point.row
    ref = snap.model.reference_at(stage.start_point.row, stage.start_point.column)
    scope = ref.scope if ref is not None else ""
    parts, n = [], 0
    for p in callee.params:
        if p is fits[0]:
            parts.append(f"{escape(p.name)}: {escape(snap.text(source))}")
            continue
        value = argument_value(snap.model, p.name, p.type, row, scope)
        if value is None:
            return []
        n += 1
        parts.append(f"{escape(p.name)}: {tabstop(n, value)}")
    text = f"{escape(snap.text(stage))}({', '.join(parts)})"
    if not mends(snap, problem, [Edit(span(pipe), plain_text(text))]):
        return []
    title = f"Call it: `{plain_text(text)}`"
    return [Fix(title, (Edit(span(pipe), text),), safe=False, preferred=True, snippet=True)]


def map_one_field_at_a_time(snap: Snapshot, problem: Problem) -> list[Fix]:
    arg = node_at(snap, problem.range)
    stage = arg.parent
    if stage is None or stage.type != "combinator" or snap.text(stage.children[0]) != "map":
        return []
    names: list[str] = []
    node: Node | None = arg
    while node is not None and node.type == "field_expression":
        names.append(snap.text(node.child_by_field_name("field")))
        node = node.child_by_field_name("value")
    if node is None or node.type != "relative_field" or not names:
        return []
    names.append(snap.text(node.child_by_field_name("field")))
    text = " |> ".join(f"map(.{n})" for n in reversed(names))
    return [Fix(f"Map one field at a time: `{text}`", (Edit(span(stage), text),), safe=True, preferred=True)]


def sort_by_field(snap: Snapshot, problem: Problem) -> list[Fix]:
    stage = widest_at(snap, problem.range)
    pipe = stage.parent
    env = type_env(snap)
    if stage.type != "combinator" or pipe is None or env is None:
        return []
    if snap.text(stage) not in ("sort", "filter"):
        return []
    element = element_of(env.infer(pipe.child_by_field_name("input")))
    record = snap.model.type_symbol(element.name) if element is not None and element.kind == "named" else None
    fields = snap.model.fields_of(record.name) if record is not None else []
    wanted = [f for f in fields if snap.text(stage) == "sort" or (f.type or "").strip() == "Bool"]
    if not wanted:
        return []
    text = f"{snap.text(stage)}({tabstop(1, '.' + wanted[0].name)})"
    title = f"Write `{plain_text(text)}`"
    return [Fix(title, (Edit(span(stage), text),), safe=False, preferred=True, snippet=True)]


def only_workflow_id(snap: Snapshot, problem: Problem) -> list[Fix]:
    data = problem.data or {}
    node = node_at(snap, problem.range)
    only = data.get("only")
    if node.type != "identifier" or snap.text(node) != data.get("name") or not isinstance(only, str):
        return []
    if not mends(snap, problem, [Edit(span(node), only)]):
        return []
    return [Fix(f"Change to `workflow.{only}`", (Edit(span(node), only),), safe=False, preferred=True)]


def pipe_into_call(snap: Snapshot, problem: Problem) -> list[Fix]:
    """`config-not-call` under a pipe into a one-parameter action (`x |> trim -> y` with a
    `timeout` line under it): the call the pipe stands for, `trim(text: x) -> y`, which the
    setting then sets. Safe: the same call."""
    config = ancestor(node_at(snap, problem.range[:2] * 2), "call_config")  # (it runs to the next line)
    statement = config.parent if config is not None else None
    pipe = statement.child_by_field_name("value") if statement is not None else None
    if pipe is None or pipe.type != "pipe_expression":
        return []
    stage, source = pipe.child_by_field_name("stage"), pipe.child_by_field_name("input")
    if stage is None or source is None or stage.type != "identifier" or source.type == "pipe_expression":
        return []
    action = snap.model.callable(snap.text(stage))
    params = snap.model.parameters_of(action) if action is not None and action.kind is Kind.ACTION else []
    if len(params) != 1:
        return []
    text = f"{snap.text(stage)}({params[0].name}: {snap.text(source)})"
    change = Edit(span(pipe), text)
    if not mends(snap, problem, [change]):
        return []
    return [Fix(f"Call it: `{text}`", (change,), safe=True, preferred=True)]


def pipe_a_value_into_accessor(snap: Snapshot, problem: Problem) -> list[Fix]:
    """`relative-field` (`.greeting` on its own, `data.field`): the accessor as a stage of a pipe
    from the one value in scope whose type has that field (`greeting |> .greeting`)."""
    name = (problem.data or {}).get("field")
    node = node_at(snap, problem.range)
    env = type_env(snap)
    if node.type != "relative_field" or not isinstance(name, str) or env is None:
        return []
    row = node.start_point.row
    ref = snap.model.reference_at(row, node.start_point.column + 1)
    visible = names_in_scope(snap.model, row, ref.scope if ref is not None else "")
    holders = [
        s.name
        for s in snap.model.visible_values(row, ref.scope if ref is not None else "")
        if s.name in visible and name in (env.table.fields(env.type_of_symbol(s)) or {})
    ]
    if len(holders) != 1:
        return []
    added = edit(start(node), None, f"{holders[0]} |> ")
    if not mends(snap, problem, [added]):
        return []
    return [
        Fix(f"Pipe `{holders[0]}` into it: `{holders[0]} |> .{name}`", (added,), safe=False, preferred=True)
    ]
