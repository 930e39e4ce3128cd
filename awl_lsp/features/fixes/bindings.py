"""The fix for a binding nothing reads (`unused-binding`): remove its `-> name`.

Safe: the statement runs as before, only its result is no longer named. Not offered where the
binding is part of the statement's form — `wait` binds the signal's payload, `collect` names the
list it gathers, and a pipe chain must end in `-> name` or `|> route`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from awl_lsp.features.fixes.places import end, node_at
from awl_lsp.features.fixes.values import Fix, edit
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot


def remove_unused_binding(snap: Snapshot, problem: Problem) -> list[Fix]:
    node = node_at(snap, problem.range)
    binding = node.parent if node.type == "identifier" else None
    if binding is None or binding.type != "binding" or binding.parent is None:
        return []
    owner = binding.parent
    if owner.type in ("wait_statement", "collect_statement"):
        return []
    if owner.type == "expression_statement":
        value = owner.child_by_field_name("value")
        if value is None or value.type != "call_expression":
            return []
    before = binding.prev_sibling
    if before is None:
        return []
    title = f"Remove unused binding `{snap.text(binding)}`"
    return [Fix(title, (edit(end(before), end(binding), ""),), safe=True, preferred=True)]
