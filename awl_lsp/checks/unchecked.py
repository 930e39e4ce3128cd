"""Blocks the engine parses but never checks: a substep's `on failure` body.

The engine's checker does not look inside the `on failure` block of a step nested in another step
(an unknown action, a wrong argument or an unknown route target there passes its check and only
fails when the block runs). Our rules still find those problems; this module turns them from
errors into warnings that say so, so that a document the engine accepts is not marked broken.
What the engine's parser rejects (`stages.PARSE_STAGE`: a missing value, a comment inside brackets, …)
stays an error there as anywhere.
"""

from __future__ import annotations

from dataclasses import replace

from tree_sitter import Node, Tree

from awl_lsp.checks.stages import PARSE_STAGE
from awl_lsp.syntax import fields as F
from awl_lsp.syntax.problems import Problem, Range, Severity

_NOTE = " (the engine does not check a substep's `on failure` block: this fails only when the block runs)"


def _substep_failure_blocks(top: Node) -> list[Range]:
    """The ranges of the `on failure` bodies below `top` (the root or a top-level item) that belong
    to a nested step."""
    found: list[Range] = []
    stack: list[tuple[Node, int]] = [(top, 0)]
    while stack:
        node, steps = stack.pop()
        if node.type == "on_failure" and steps >= 2:
            body = node.child_by_field_id(F.BODY)
            if body is not None:  # the block's own shape (missing, doubled) is still checked
                s, e = body.start_point, body.end_point
                found.append((s.row, s.column, e.row, e.column))
            continue
        if node.type == "step_declaration":
            steps += 1
        stack.extend((child, steps) for child in node.named_children)
    return found


def soften_unchecked(problems: list[Problem], tree: Tree | Node, source: bytes) -> list[Problem]:
    """`problems` with the errors inside a substep's `on failure` block made warnings (`tree` may
    be one top-level item holding all of them)."""
    top = tree.root_node if isinstance(tree, Tree) else tree
    if not any(p.severity is Severity.ERROR for p in problems):
        return problems
    if source.find(b"failure", top.start_byte, top.end_byte) == -1:
        return problems
    blocks = _substep_failure_blocks(top)
    if not blocks:
        return problems
    out: list[Problem] = []
    for p in problems:
        start = (p.range[0], p.range[1])
        if (
            p.severity is Severity.ERROR
            and p.code not in PARSE_STAGE
            and any((b[0], b[1]) <= start <= (b[2], b[3]) for b in blocks)
        ):
            p = replace(p, severity=Severity.WARNING, message=p.message + _NOTE)
        out.append(p)
    return out


__all__ = ["soften_unchecked"]
