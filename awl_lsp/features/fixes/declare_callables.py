"""Fixes that declare what a call names but nothing declares: an action, a child, a detached workflow.

- `unknown-call` on an action's name (a call `polish(note: name)` or a pipe stage `x |> polish`):
  "Declare action `polish`" — an `action` line in the worker whose actions the step already calls
  (else the last worker; a new `worker` block where the printer puts it when there is none), its
  parameters named and typed from the arguments (a stage's one parameter named after the piped
  value), its result type what the result's uses ask for (`Nil` when nothing takes it; a typed
  placeholder when nothing says). Not offered when the uses ask for different types.
- `spawn` of an unknown child: "Declare child `x`" — `child x(…) -> Nil` from the arguments.
- `hatch` of an unknown detached workflow: "Declare detached `x`" — `detached x(…)`.

All unsafe: the declaration states a contract with a worker or a workflow only the author knows;
the types are the ones the document already implies, so the document checks once it is added.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from awl_lsp.features.fixes.placement import INDENT, content_end, top_level_insertion
from awl_lsp.features.fixes.places import node_at
from awl_lsp.features.fixes.usage import CONFLICT, result_type, strands_candidate, value_type
from awl_lsp.features.fixes.values import Fix, edit, escape, tabstop
from awl_lsp.model import Kind
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

PLACEHOLDER_TYPE = "String"  # a type the user overwrites: any declared type checks where nothing says


class _Stops:
    """Numbers the placeholders of one snippet in the order they are written."""

    def __init__(self) -> None:
        self.n = 0

    def typed(self, known: str | None) -> str:
        if known is not None:
            return escape(known)
        self.n += 1
        return tabstop(self.n, PLACEHOLDER_TYPE)


def _call_parameters(snap: Snapshot, args: Node | None, stops: _Stops) -> list[str] | None:
    """`name: Type` for each named argument (None when one is positional or broken)."""
    out: list[str] = []
    seen: set[str] = set()
    for arg in args.named_children if args is not None else []:
        if arg.type != "argument":
            return None
        name = arg.child_by_field_name("name")
        if name is None or snap.text(name) in seen:
            return None
        seen.add(snap.text(name))
        typed = value_type(snap, arg.child_by_field_name("value"))
        if typed == CONFLICT:
            return None  # a type only partly known: no placeholder may stand for it
        out.append(f"{escape(snap.text(name))}: {stops.typed(typed)}")
    return out


def _stage_parameter(snap: Snapshot, piped: Node | None, stops: _Stops) -> str | None:
    name = "value"
    if piped is not None and piped.type == "identifier":
        name = snap.text(piped)
    elif piped is not None and piped.type == "field_expression":
        name = snap.text(piped.child_by_field_name("field")) or name
    typed = value_type(snap, piped)
    return None if typed == CONFLICT else f"{escape(name)}: {stops.typed(typed)}"


def _signature(snap: Snapshot, node: Node, stops: _Stops) -> tuple[str, Node] | None:
    """(`name(params)`, the call or pipe node) of the callee named by `node`, or None."""
    parent = node.parent
    if parent is None:
        return None
    if parent.type == "call_expression" and parent.child_by_field_name("function") == node:
        params = _call_parameters(snap, parent.child_by_field_name("arguments"), stops)
        return (f"{escape(snap.text(node))}({', '.join(params)})", parent) if params is not None else None
    if parent.type == "pipe_expression" and parent.child_by_field_name("stage") == node:
        param = _stage_parameter(snap, parent.child_by_field_name("input"), stops)
        return (f"{escape(snap.text(node))}({param})", node) if param is not None else None
    return None


def _worker_nodes(snap: Snapshot) -> list[Node]:
    return [c for c in snap.doc.root.named_children if c.type == "worker_declaration"]


def _worker_for(snap: Snapshot, at: Node) -> Node | None:
    """The worker whose actions the step around `at` calls (the last such call above it), else the
    document's last worker."""
    workers = _worker_nodes(snap)
    if not workers:
        return None
    row = at.start_point.row
    step = snap.model.enclosing(row, at.start_point.column, Kind.STEP)
    called = [
        r
        for r in snap.model.references
        if r.target is not None
        and r.target.kind is Kind.ACTION
        and step is not None
        and step.range[0] <= r.range[0] <= row
    ]
    if called:
        owner = max(called, key=lambda r: r.range).target
        name = owner.container if owner is not None else None
        for w in workers:
            if snap.text(w.child_by_field_name("name")) == name:
                return w
    return workers[-1]


def declare_action(snap: Snapshot, problem: Problem) -> list[Fix]:
    node = node_at(snap, problem.range)
    name = snap.text(node)
    if node.type != "identifier" or not name[:1].islower() or snap.model.callable(name) is not None:
        return []
    if strands_candidate(snap, problem):
        return []
    stops = _Stops()
    found = _signature(snap, node, stops)
    if found is None:
        return []
    signature, value = found
    returns = result_type(snap, value)
    if returns == CONFLICT:
        return []
    line = f"action {signature} -> {stops.typed(returns)}"
    worker = _worker_for(snap, node)
    if worker is None:
        placed = top_level_insertion(
            snap, "worker_declaration", f"worker {tabstop(stops.n + 1, 'main')}\n{INDENT}{line}"
        )
        if placed is None:
            return []
        where, text = placed
        title = f"Declare action `{name}` in a new worker"
    else:
        actions = [c for c in worker.named_children if c.type == "action_declaration"]
        indent = " " * actions[0].start_point.column if actions else INDENT
        where, text = content_end(snap, actions[-1] if actions else worker), f"\n{indent}{line}"
        title = f"Declare action `{name}` in worker `{snap.text(worker.child_by_field_name('name'))}`"
    return [Fix(title, (edit(where, None, text),), safe=False, preferred=True, snippet=True)]


def _declaration(snap: Snapshot, problem: Problem, statement: str, word: str, result: bool) -> list[Fix]:
    node = node_at(snap, problem.range)
    call = node.parent
    name = snap.text(node)
    if (
        node.type != "identifier"
        or call is None
        or call.type != "call_expression"
        or call.parent is None
        or call.parent.type != statement
        or name != (problem.data or {}).get("name")
    ):
        return []
    if snap.model.callable(name) is not None or snap.model.first(Kind.DETACHED, name) is not None:
        return []
    if strands_candidate(snap, problem):
        return []
    stops = _Stops()
    params = _call_parameters(snap, call.child_by_field_name("arguments"), stops)
    if params is None:
        return []
    text = f"{word} {escape(name)}({', '.join(params)})"
    if result:
        text += f" -> {tabstop(stops.n + 1, 'Nil')}"
    placed = top_level_insertion(snap, f"{word}_declaration", text)
    if placed is None:
        return []
    where, inserted = placed
    return [
        Fix(
            f"Declare {word} `{name}`",
            (edit(where, None, inserted),),
            safe=False,
            preferred=True,
            snippet=True,
        )
    ]


def declare_child(snap: Snapshot, problem: Problem) -> list[Fix]:
    return _declaration(snap, problem, "spawn_statement", "child", result=True)


def declare_detached(snap: Snapshot, problem: Problem) -> list[Fix]:
    return _declaration(snap, problem, "hatch_statement", "detached", result=False)
