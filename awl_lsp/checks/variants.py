"""Bare enum variants in expressions: where a TitleCase name like `Urgent` may stand, and which enum it
must belong to there.

A variant has no type of its own: it is read against the enum its context expects. It may be
compared with an enum-typed value (`result.category == Urgent`) or passed where an enum is
expected (an argument, a record or payload field); the enum must have that variant. Anywhere else
(a list element, an operand of `and`/`or`/`not`/`+`, a pipe input, a value whose slot is not an
enum) it is an error. These helpers serve `rules_types.ExprChecker`; they register no rule.
"""

from __future__ import annotations

from typing import Protocol

from tree_sitter import Node

from awl_lsp.checks.base import ItemContext
from awl_lsp.checks.suggest import name_data
from awl_lsp.model import Kind
from awl_lsp.model.schema_types import TypeTable
from awl_lsp.model.types import AwlType, TypeEnv
from awl_lsp.syntax import fields as F


class ExprChecker(Protocol):
    """What these helpers use of `rules_types.ExprChecker` (named here, so neither imports the other)."""

    ctx: ItemContext  # the checker runs per item
    env: TypeEnv
    table: TypeTable

    def known(self, t: AwlType) -> bool: ...

    def show(self, node: Node) -> str: ...


_VARIANT = Kind.VARIANT  # (a module constant: an Enum member read through its class is a call on 3.11)
_LOOSE_PARENTS = frozenset({"list", "not_expression", "pipe_expression"})


def bare_variant(ec: ExprChecker, node: Node | None) -> str | None:
    """The name, when `node` is a bare TitleCase name (a declared variant or an unknown one)."""
    if node is None:
        return None
    while node.type == "parenthesized_expression" and node.named_children:
        node = node.named_children[0]
    if node.type != "identifier" or not _may_be_title(ec, node):
        return None
    text = ec.env.text(node)
    if not text[:1].isupper():
        return None
    sym = ec.env.symbol_of(node)
    if sym is not None and sym.kind is not _VARIANT:
        return None
    return text


def _enum_name(t: AwlType) -> str:
    return str(t.strip())


def variant_value(ec: ExprChecker, node: Node, name: str, expected: AwlType, what: str) -> None:
    """A bare variant going where a value of `expected` goes."""
    variants = ec.table.variants(expected)
    if variants is not None:
        if name not in variants:
            data, meant = name_data(name, list(variants))
            data.update(enum=_enum_name(expected), variants=list(variants))
            ec.ctx.error(
                node,
                f"enum `{_enum_name(expected)}` has no variant `{name}` ({what}); its variants: "
                f"{', '.join(variants)}{meant}",
                "enum-variant",
                data,
            )
        return
    if ec.known(expected):
        ec.ctx.error(
            node,
            f"`{name}` looks like an enum variant, but {what} expects {expected}, not an enum: a bare "
            "variant only stands where an enum value is expected",
            "enum-variant",
            {"variant": name, "expected": str(expected)},
        )


def variant_comparison(
    ec: ExprChecker, node: Node, op: str, left: Node, right: Node, item: AwlType | None
) -> bool:
    """`x == Variant` (either side); True when one side is a bare variant (then handled here)."""
    lv, rv = bare_variant(ec, left), bare_variant(ec, right)
    if lv is None and rv is None:
        return False
    if lv is not None and rv is not None:
        ec.ctx.error(
            right,
            f"`{ec.show(left)} {op} {rv}` compares two bare variants: compare an enum-typed value "
            f"with a variant instead, e.g. `result.kind {op} {rv}`",
            "enum-variant",
        )
        return True
    name = lv if lv is not None else rv
    other, at = (right, left) if lv is not None else (left, right)
    if op not in ("==", "!="):
        ec.ctx.error(
            at,
            f"enum variants have no order: `{op}` cannot compare with `{name}`; use `==` or `!=`",
            "enum-variant",
        )
        return True
    ot = ec.env.infer(other, item)
    variants = ec.table.variants(ot)
    if variants is not None:
        if name not in variants:
            data, meant = name_data(name or "", list(variants))
            data.update(enum=_enum_name(ot), variants=list(variants))
            ec.ctx.error(
                at,
                f"enum `{_enum_name(ot)}` has no variant `{name}`; its variants: "
                f"{', '.join(variants)}{meant}",
                "enum-variant",
                data,
            )
    elif ec.known(ot):
        ec.ctx.error(
            node,
            f"`{op}` compares the variant `{name}` with `{ec.show(other)}`, which is {ot}, not an enum",
            "enum-variant",
            {"variant": name, "expected": str(ot), "at": "right" if lv is None else "left"},
        )
    return True


def _may_be_title(ec: ExprChecker, ident: Node) -> bool:
    """False when the identifier cannot start with a capital (an ASCII first byte that is not one),
    read from the source without decoding the name."""
    first = ec.env.source[ident.start_byte] if ident.end_byte > ident.start_byte else 0
    return first >= 0x80 or 0x41 <= first <= 0x5A


def loose_variant(ec: ExprChecker, node: Node) -> None:
    """A bare variant where no enum is expected: a list element, an operand, a pipe input."""
    if not _may_be_title(ec, node):
        return  # (not a bare variant: no need to find the parent, which costs a walk from the root)
    parent = node.parent
    if parent is None:
        return
    loose = parent.type in _LOOSE_PARENTS and (
        parent.type != "pipe_expression" or parent.child_by_field_id(F.INPUT) == node
    )
    if parent.type == "binary_expression":
        op = ec.env.text(parent.child_by_field_id(F.OPERATOR))
        loose = op in ("and", "or", "+")
    if not loose:
        return
    name = bare_variant(ec, node)
    if name is not None:
        ec.ctx.error(
            node,
            f"bare variant `{name}` here has no enum to belong to: compare an enum-typed value with it "
            f"(`x == {name}`) or pass it where an enum is expected",
            "enum-variant",
        )
