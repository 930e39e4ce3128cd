"""What a guard proves about a value: the expressions an outcome guard or a condition shows present
(`x is present and …`) when it holds, or when it fails (`x is absent or …`), and the type
environment the type rules share per item (`env_for`).
"""

from __future__ import annotations

from tree_sitter import Node

from awl_lsp.checks.base import CheckContext
from awl_lsp.model.types import TypeEnv
from awl_lsp.syntax import fields as F


def env_for(ctx: CheckContext) -> TypeEnv:
    """The item's TypeEnv (one per check run, its memory and look-up recording reset per item)."""
    env = getattr(ctx, "type_env", None)
    if env is None:
        env = TypeEnv(ctx.model, ctx.tree, ctx.source, ctx.path, workspace=ctx.workspace)
        ctx.type_env = env  # type: ignore[attr-defined]
    return env


def present_facts(env: TypeEnv, node: Node | None) -> set[str]:
    """Expressions proven present when `node` is true."""
    return _proven(env, node, True)


def absent_facts(env: TypeEnv, node: Node | None) -> set[str]:
    """Expressions proven present when `node` is false."""
    return _proven(env, node, False)


def _proven(env: TypeEnv, node: Node | None, holds: bool) -> set[str]:
    """What `node` proves present when it holds (`x is present and …`) or when it fails
    (`x is absent or …`): the two read the same, with the test word and the joining operator
    swapped, and a `not` turns one into the other."""
    if node is None:
        return set()
    if node.type == "parenthesized_expression" and node.named_children:
        return _proven(env, node.named_children[0], holds)
    if node.type == "is_expression" and env.text(node.child_by_field_id(F.TEST)) == (
        "present" if holds else "absent"
    ):
        return {env.text(node.child_by_field_id(F.VALUE))}
    if node.type == "binary_expression" and env.text(node.child_by_field_id(F.OPERATOR)) == (
        "and" if holds else "or"
    ):
        return _proven(env, node.child_by_field_id(F.LEFT), holds) | _proven(
            env, node.child_by_field_id(F.RIGHT), holds
        )
    if node.type == "not_expression":
        return _proven(env, node.child_by_field_id(F.OPERAND), not holds)
    return set()
