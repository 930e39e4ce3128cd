"""What the operators accept: `==`/`!=` one plain type on both sides, `<`/`<=`/`>`/`>=` two Ints or
two Floats, `+` two Strings, and list literals one item type — as the engine's checker reads them.

No optionals on either side (even under a guard), no records or lists compared, no Int/Float
widening, no list concatenation. These helpers serve `rules_types.ExprChecker`; they register no rule.
"""

from __future__ import annotations

from tree_sitter import Node

from awl_lsp.checks.slots import source_slot
from awl_lsp.checks.variants import ExprChecker, bare_variant, variant_comparison
from awl_lsp.model.types import BOOL, DIR, FLOAT, INT, STRING, AwlType, assignable

_COMPARE = {"==", "!=", "<", "<=", ">", ">="}
_ORDERING = {"<", "<=", ">", ">="}


def operands(ec: ExprChecker, node: Node, op: str, left: Node, right: Node, item: AwlType | None) -> None:
    """A comparison or `+` (the `and`/`or` operands are checked by the walker)."""
    if op in _COMPARE and variant_comparison(ec, node, op, left, right, item):
        return
    lt, rt = ec.env.infer(left, item), ec.env.infer(right, item)
    if not (ec.known(lt) and ec.known(rt)):
        return
    if op in _COMPARE:
        comparison(ec, node, op, left, right, lt, rt, item)
        return
    for side, t in ((left, lt), (right, rt)):
        if t.is_optional:
            ec.ctx.error(
                side,
                f"`{ec.show(side)}` is optional ({t}) and may be absent, so `+` cannot join it: "
                "make it required, or join only values that are always there",
                "plus-mismatch",
                {"source": source_slot(ec.env, side, item)},
            )
            return
    ls, rs = lt.strip(), rt.strip()
    if not (ls == STRING and rs == STRING):
        ec.ctx.error(
            node,
            f"`+` joins two Strings (AWL has no arithmetic and no list concatenation), but here it is "
            f"{lt} + {rt}",
            "plus-mismatch",
            {"left": str(lt), "right": str(rt)},
        )


def list_items(ec: ExprChecker, node: Node, item: AwlType | None) -> None:
    """`[a, b, …]`: every item has the first item's type (no Int/Float or optional mixing)."""
    first: tuple[Node, AwlType] | None = None
    for child in node.named_children:
        if child.type in ("comment", "ERROR") or bare_variant(ec, child) is not None:
            continue
        ct = ec.env.infer(child, item)
        if not ec.known(ct) and not ct.is_list:
            continue
        if first is None:
            first = (child, ct)
            continue
        lists = ct.is_list and first[1].is_list
        if ct != first[1] and not (lists and assignable(ct, first[1], ec.table)):
            ec.ctx.error(
                child,
                f"list items must all have one type: `{ec.show(first[0])}` is {first[1]}, but "
                f"`{ec.show(child)}` is {ct}",
                "list-item-type",
                {"expected": str(first[1]), "found": str(ct)},
            )
            return


def comparison(
    ec: ExprChecker,
    node: Node,
    op: str,
    left: Node,
    right: Node,
    lt: AwlType,
    rt: AwlType,
    item: AwlType | None = None,
) -> None:
    """`==`/`!=` take two values of one plain type (String, Int, Float, Bool, Dir or one enum);
    `<`, `<=`, `>`, `>=` two Ints or two Floats. Optionals, lists and records do not compare."""
    for side, t in ((left, lt), (right, rt)):
        if t.is_optional:
            ec.ctx.error(
                side,
                f"`{ec.show(side)}` is optional ({t}), and `{op}` compares only plain values: "
                f"test it with `{ec.show(side)} is present` / `is absent` instead",
                "compare-optional",
                {"source": source_slot(ec.env, side, item)},
            )
            return
    ls, rs = lt.strip(), rt.strip()
    if op in _ORDERING:
        if not (ls == rs and ls in (INT, FLOAT)):
            ec.ctx.error(
                node,
                f"`{op}` orders two Ints or two Floats, but here it is {lt} {op} {rt}",
                "compare-mismatch",
                _sides(ec, left, right, lt, rt, item),
            )
        return
    plain = ls in (STRING, INT, FLOAT, BOOL, DIR) or ec.table.variants(ls) is not None
    if ls != rs or not plain:
        why = "both sides must have the same type" if ls != rs else "only plain values compare"
        ec.ctx.error(
            node,
            f"`{op}` compares {lt} with {rt}: {why} (String, Int, Float, Bool, Dir or one enum)",
            "compare-mismatch",
            _sides(ec, left, right, lt, rt, item),
        )


def _sides(
    ec: ExprChecker, left: Node, right: Node, lt: AwlType, rt: AwlType, item: AwlType | None
) -> dict[str, object]:
    """A comparison's `data`: the two types, and where each side's type was declared."""
    return {
        "left": str(lt),
        "right": str(rt),
        "left_source": source_slot(ec.env, left, item),
        "right_source": source_slot(ec.env, right, item),
    }
