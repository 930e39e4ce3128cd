"""The fix for arguments or payload fields left out (`data.missing`, a list of names): add them.

Each missing `name: value` is added after the last argument given (or right after the `(`), the
value a same-named value in scope, else a placeholder of the parameter's type
(`features.placeholders`), each a tab stop the editor lets the user fill in turn. Unsafe: the
values are stand-ins for what only the author knows. Not offered when some value cannot be written
(a schema type, an unknown one): that would trade this error for another.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from awl_lsp.features.callees import expected_parameters
from awl_lsp.features.fixes.places import end, node_at
from awl_lsp.features.fixes.values import Fix, edit, escape, tabstop
from awl_lsp.features.placeholders import argument_value
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

_HOW = {"hatch_statement": "hatch", "answer_statement": "answer", "spawn_statement": "spawn"}


def add_missing_arguments(snap: Snapshot, problem: Problem) -> list[Fix]:
    wanted = [m for m in (problem.data or {}).get("missing", []) if isinstance(m, str)]
    node = node_at(snap, problem.range)
    if node.type == "arguments" and node.parent is not None and node.parent.type == "route_statement":
        args: Node | None = node
        how = "route"
        name = snap.text(node.parent.child_by_field_name("target"))
    else:
        if node.type == "arguments" and node.parent is not None and node.parent.type == "call_expression":
            node = node.parent.child_by_field_name("function") or node  # (`Type(…)` leaving out fields)
        call = node.parent if node.type == "identifier" else None
        if call is None or call.type != "call_expression":
            return []
        args = call.child_by_field_name("arguments")
        how = _HOW.get(call.parent.type, "call") if call.parent is not None else "call"
        name = snap.text(node)
    if args is None or args.has_error or not wanted:
        return []
    row, col = node.start_point.row, node.start_point.column
    callee = expected_parameters(snap, how, name, row, col)
    if callee is None:
        return []
    given = {snap.text(a.child_by_field_name("name")) for a in args.named_children if a.type == "argument"}
    types = {p.name: p.type for p in callee.params}
    missing = [m for m in wanted if m in types and m not in given]
    ref = snap.model.reference_at(row, col)
    scope = ref.scope if ref is not None else ""
    values = [argument_value(snap.model, m, types[m], row, scope) for m in missing]
    if not missing or any(v is None for v in values):
        return []
    text = ", ".join(
        f"{escape(m)}: {tabstop(i, v or '')}" for i, (m, v) in enumerate(zip(missing, values, strict=True), 1)
    )
    given_nodes = [a for a in args.named_children if a.type == "argument"]
    if given_nodes:
        where, text = end(given_nodes[-1]), ", " + text
    else:
        where = end(args.children[0])  # after `(`
    noun = "argument" if len(missing) == 1 else "arguments"
    title = f"Add missing {noun} " + ", ".join(f"`{m}`" for m in missing)
    return [Fix(title, (edit(where, None, text),), safe=False, preferred=True, snippet=True)]
