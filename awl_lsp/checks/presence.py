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
    if node is None:
        return set()
    if node.type == "parenthesized_expression" and node.named_children:
        return present_facts(env, node.named_children[0])
    if node.type == "is_expression" and env.text(node.child_by_field_id(F.TEST)) == "present":
        return {env.text(node.child_by_field_id(F.VALUE))}
    if node.type == "binary_expression" and env.text(node.child_by_field_id(F.OPERATOR)) == "and":
        return present_facts(env, node.child_by_field_id(F.LEFT)) | present_facts(
            env, node.child_by_field_id(F.RIGHT)
        )
    if node.type == "not_expression":
        return absent_facts(env, node.child_by_field_id(F.OPERAND))
    return set()


def absent_facts(env: TypeEnv, node: Node | None) -> set[str]:
    """Expressions proven present when `node` is false."""
    if node is None:
        return set()
    if node.type == "parenthesized_expression" and node.named_children:
        return absent_facts(env, node.named_children[0])
    if node.type == "is_expression" and env.text(node.child_by_field_id(F.TEST)) == "absent":
        return {env.text(node.child_by_field_id(F.VALUE))}
    if node.type == "binary_expression" and env.text(node.child_by_field_id(F.OPERATOR)) == "or":
        return absent_facts(env, node.child_by_field_id(F.LEFT)) | absent_facts(
            env, node.child_by_field_id(F.RIGHT)
        )
    if node.type == "not_expression":
        return present_facts(env, node.child_by_field_id(F.OPERAND))
    return set()
