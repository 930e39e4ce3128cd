"""Region statements in place: `distribute`/`sequence` and `collect` belong to top-level steps only.

A per-item region runs from a step that opens with `distribute x in xs` (or `sequence`) to a step
that opens with `collect b -> name`. Both are step-level lines of the flow's (or a subflow's)
own steps: never inside a substep, a fork, a loop or an `on failure` block. `collect` binds the
gathered list, so it always ends in `-> name`. (The region's extent — entries, exits, `after`
and what is collected — is checked over the step graph by `rules_flow_regions`.)
"""

from __future__ import annotations

from tree_sitter import Node

from awl_lsp.checks.base import ItemContext
from awl_lsp.syntax import fields as F

_TOP = ("source_file", "subflow_declaration")


def check_item(ctx: ItemContext) -> None:
    for stmt in ctx.descendants("distribute_statement", "collect_statement"):
        word = "collect" if stmt.type == "collect_statement" else ctx.text(stmt.child_by_field_id(F.MODE))
        word = word or "distribute"
        where = _misplaced(stmt)
        if where:
            ctx.error(
                stmt,
                f"`{word}` cannot sit inside {where}: it is a line of a top-level step — give it a step of "
                "its own in the flow",
                "region-nested",
            )
        if stmt.type == "collect_statement":
            binding = stmt.child_by_field_id(F.BINDING)
            name = binding.child_by_field_id(F.NAME) if binding is not None else None
            if name is None:
                value = ctx.text(stmt.child_by_field_id(F.VALUE)) or "value"
                ctx.error(
                    stmt,
                    f"`collect` must name the gathered list: write `collect {value} -> {value}s` "
                    "(or another name)",
                    "collect-binding",
                )


def _misplaced(stmt: Node) -> str:
    """What wrongly encloses a region statement ("" when it is a line of a top-level step)."""
    body = stmt.parent
    if body is None:
        return ""
    if body.type != "step_body":
        kind = body.parent.type if body.parent is not None else ""
        return {
            "fork_statement": "a `fork`",
            "loop_statement": "a `loop`",
            "on_failure": "an `on failure` block",
        }.get(kind, "a nested block")
    step = body.parent
    owner = step.parent if step is not None else None
    if owner is not None and owner.type not in _TOP:
        return "a substep"
    return ""
