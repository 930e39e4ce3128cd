"""The fix for an argument naming no parameter, when no parameter is spelt like it (`data.free`).

"Change to `p`" for each parameter no argument names yet — the argument most likely stands for
one of them (`send_message(recipient: …)` where the action takes `message`); preferred when only
one is left. Unsafe: a guess at which parameter the value was meant for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from awl_lsp.features.fixes.places import node_at, span
from awl_lsp.features.fixes.values import Edit, Fix
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot


def rename_to_free_parameter(snap: Snapshot, problem: Problem) -> list[Fix]:
    data = problem.data or {}
    node = node_at(snap, problem.range)
    free = [f for f in data.get("free", []) if isinstance(f, str) and f]
    arg = node.parent
    if (
        node.type != "identifier"
        or snap.text(node) != data.get("name")
        or arg is None
        or arg.type != "argument"
    ):
        return []
    args = arg.parent
    given = {snap.text(a.child_by_field_name("name")) for a in (args.named_children if args else [])}
    free = [f for f in free if f not in given]
    return [
        Fix(f"Change to `{f}`", (Edit(span(node), f),), safe=False, preferred=len(free) == 1) for f in free
    ]
