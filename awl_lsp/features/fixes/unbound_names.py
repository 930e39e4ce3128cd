"""Fixes for a value read where nothing binds it (`unknown-binding`), and a `wait` that binds nothing.

- `unknown-binding` (`data.name`): "Bind `f(…)` as `-> x`" for an unbound call
  above the read — in the same step, or in the step right above that falls through into it —
  whose result is of the type the reads ask for (the call was meant to produce the value);
  "Declare input `x`", typed by the reads (a typed placeholder when they say
  nothing). Unsafe: the first guesses which call, the second changes what the flow is given.
- `wait` without a binding (`data.missing == "binding"`): "Bind the payload as `-> x`" when the
  step reads a name nothing binds below the `wait` (a binding named for the signal would be read
  by nothing). Unsafe: a guess that this read was meant.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from awl_lsp.features.fixes.declare_callables import PLACEHOLDER_TYPE
from awl_lsp.features.fixes.header_clauses import add_header_clause
from awl_lsp.features.fixes.placement import body_items
from awl_lsp.features.fixes.places import ancestor, end, node_at
from awl_lsp.features.fixes.usage import CONFLICT, reads_type, references_named, strands_candidate, value_type
from awl_lsp.features.fixes.values import Fix, edit, escape, tabstop
from awl_lsp.model import Kind, RefKind
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot


def _top_step(node: Node | None) -> Node | None:
    """The top-level step around a node."""
    step = ancestor(node, "step_declaration")
    while step is not None and step.parent is not None and step.parent.type != "source_file":
        step = ancestor(step.parent, "step_declaration")
    return step


def _unresolved_reads(snap: Snapshot, name: str) -> list[Node]:
    """The reads of `name` that resolve to nothing, in the whole document (a binding or an input
    made for them is read by each)."""
    out = []
    for ref in references_named(snap, name):
        if ref.kind is RefKind.VALUE and ref.target is None:
            node = snap.doc.root.descendant_for_point_range(ref.range[:2], ref.range[2:])
            if node is not None:
                out.append(node)
    return out


def _unbound_calls(step: Node, before_row: int) -> list[Node]:
    """Call statements of the step's own body above the row that bind nothing, nearest first."""
    found = [
        i
        for i in body_items(step)
        if i.type == "expression_statement"
        and i.child_by_field_name("binding") is None
        and i.start_point.row < before_row
        and (v := i.child_by_field_name("value")) is not None
        and v.type in ("call_expression", "pipe_expression")
    ]
    return found[::-1]


def _falls_into(snap: Snapshot, step: Node) -> Node | None:
    """The top-level step right above, when it runs straight into this one (no route, no arms)."""
    prev = step.prev_named_sibling
    while prev is not None and prev.type in ("comment", "doc_comment"):
        prev = prev.prev_named_sibling
    if prev is None or prev.type != "step_declaration" or step.child_by_field_name("after") is not None:
        return None
    if any(i.type in ("route_statement", "step_outcome", "on_failure") for i in body_items(prev)):
        return None
    return prev


def bind_or_declare(snap: Snapshot, problem: Problem) -> list[Fix]:
    data = problem.data or {}
    node = node_at(snap, problem.range)
    name = snap.text(node)
    step = _top_step(node)
    if node.type != "identifier" or name != data.get("name") or step is None:
        return []
    if snap.model.resolve_value(name, "", node.start_point.row) is not None or strands_candidate(
        snap, problem
    ):
        return []
    reads = _unresolved_reads(snap, name)
    wanted = reads_type(snap, reads)
    if not reads or wanted == CONFLICT:
        return []
    out: list[Fix] = []
    calls = _unbound_calls(step, node.start_point.row)
    above = _falls_into(snap, step)
    calls += _unbound_calls(above, above.end_point.row + 1) if above is not None else []
    for st in calls:
        value = st.child_by_field_name("value")
        if value is not None and wanted is not None and value_type(snap, value) == wanted:
            shown = snap.text(value).split("(")[0]
            out.append(
                Fix(f"Bind `{shown}` as `-> {name}`", (edit(end(value), None, f" -> {name}"),), safe=False)
            )
            break
    flow = snap.model.flow
    if flow is not None and not snap.model.lookup(Kind.BINDING, name):
        # (a binding of that name elsewhere — a fork's item, a branch's result — would clash with it)
        typed = escape(wanted) if wanted is not None else tabstop(1, PLACEHOLDER_TYPE)
        edits = add_header_clause(snap, "input_clause", f"input {escape(name)}: {typed}")
        if edits:
            out.append(Fix(f"Declare input `{name}`", edits, safe=False, snippet=True))
    return [Fix(f.title, f.edits, f.safe, preferred=i == 0, snippet=f.snippet) for i, f in enumerate(out)]


def bind_wait(snap: Snapshot, problem: Problem) -> list[Fix]:
    wait = ancestor(node_at(snap, problem.range), "wait_statement")
    step = ancestor(wait, "step_declaration") if wait is not None else None
    if wait is None or step is None or wait.child_by_field_name("binding") is not None:
        return []
    names = [
        r.name
        for r in snap.model.references
        if r.kind is RefKind.VALUE
        and r.target is None
        and wait.end_point.row <= r.range[0] <= step.end_point.row
        and snap.model.resolve_value(r.name, "", r.range[0]) is None
    ]
    unread = list(dict.fromkeys(names))
    if len(unread) != 1:
        return []
    last = [c for c in wait.children if c.type not in ("comment", "doc_comment")][-1]
    title = f"Bind the payload as `-> {unread[0]}`"
    return [Fix(title, (edit(end(last), None, f" -> {unread[0]}"),), safe=False, preferred=True)]
