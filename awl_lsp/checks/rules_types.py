"""Type rules for expressions: operators, predicates, pipes, field access, indexing, optionals, calls.

One walker visits every expression of every step body, outcome guard and route, carrying the
facts the surrounding guards establish (`x is present and x.f`, `x is absent or x.f`, the route of
an arm guarded by a plain `x is present`). Types come from `awl_lsp.model.types`; UNKNOWN never
reports. What operators accept lives in `operators`, where bare enum variants may stand in
`variants`; an optional value fits a plain slot only as a name its outcome guard proved present.
"""

from __future__ import annotations

from collections.abc import Callable

from tree_sitter import Node

from awl_lsp.checks.base import ItemContext
from awl_lsp.checks.calls import arguments, call_of
from awl_lsp.checks.operators import list_items, operands
from awl_lsp.checks.presence import absent_facts, env_for, present_facts
from awl_lsp.checks.slots import Slot, field_slot, list_field, parameter_slot, source_slot
from awl_lsp.checks.suggest import name_data
from awl_lsp.checks.variants import bare_variant, loose_variant, variant_value
from awl_lsp.model.types import (
    BOOL,
    DURATION,
    INT,
    AwlType,
    assignable,
    element_of,
    parse_type_text,
)
from awl_lsp.syntax import fields as F

Facts = frozenset[str]
_ACCESSOR_ONLY = ("filter", "map", "sort")  # `any`/`all` take a predicate expression
_BODY_EXPRS = (
    "value",
    "input",
    "call",
    "key",
    "timeout",
    "duration",
    "collection",
    "seed",
    "condition",
    "limit",
)


class ExprChecker:
    def __init__(self, ctx: ItemContext) -> None:
        self.ctx = ctx
        self.env = env_for(ctx)
        self.env.focus(ctx.node, ctx.facts)
        self.table = self.env.table
        # is a type known (declared, not UNKNOWN)? The table's own method: asked at almost every check
        self.known: Callable[[AwlType], bool] = self.table.known

    def show(self, node: Node | None) -> str:
        text = " ".join(self.env.text(node).split())
        return text if len(text) <= 40 else text[:37] + "…"

    # ---- optionals
    def unguarded(self, node: Node, t: AwlType, facts: Facts, why: str) -> None:
        if t.is_optional and self.env.text(node) not in facts and self.known(t):
            self.ctx.error(
                node,
                f"`{self.show(node)}` is optional ({t}) and may be absent here: {why} only under a "
                f"`{self.show(node)} is present` guard",
                "optional-unguarded",
            )

    def null_value(self, node: Node) -> None:
        """`null` read as a value, anywhere (even where something is bound under that name)."""
        self.ctx.error(
            node,
            "`null` does not exist in AWL: an optional (`T?`) value is absent by being left out — "
            "omit the field or argument, and test a value with `is present` / `is absent`",
            "null-value",
        )

    def expect_bool(self, node: Node | None, what: str, facts: Facts, item: AwlType | None) -> None:
        if node is None:
            return
        t = self.env.infer(node, item)
        if self.known(t) and t.strip() != BOOL:
            data = {"found": str(t)}
            self.ctx.error(node, f"{what} must be Bool, but `{self.show(node)}` is {t}", "type-bool", data)
        elif self.known(t) and t.is_optional:
            self.ctx.error(
                node,
                f"{what} must be Bool, but `{self.show(node)}` is {t} and may be absent: make it required, "
                "or test it with `is present` / `is absent`",
                "type-bool",
                {"found": str(t), "source": source_slot(self.env, node, item)},
            )

    def check_value(
        self, node: Node | None, expected: AwlType, facts: Facts, what: str, slot: Slot | None = None
    ) -> None:
        """A value going where `expected` is: type fit and unguarded optionals (`null` is the walker's).
        `slot` names the declaration that expects it (see `slots`), for the fixes."""
        if node is None:
            return
        if node.type == "identifier":
            start, end = node.start_byte, node.end_byte
            if end - start == 4 and self.env.text(node) == "null":
                return  # (reported by the walker, which visits every value first)
            first = self.env.source[start] if end > start else 0  # (a variant is TitleCase: see `variants`)
            variant = bare_variant(self, node) if first >= 0x80 or 0x41 <= first <= 0x5A else None
        else:
            variant = bare_variant(self, node)
        if variant is not None:
            variant_value(self, node, variant, expected, what)
            return
        t = self.env.infer(node)
        if t is expected or t == expected:
            return  # (it fits, and is optional only where the slot is: nothing to report)
        if not assignable(t, expected, self.table):
            data = {"expected": str(expected), "found": str(t), "slot": slot}
            self.ctx.error(
                node, f"{what} expects {expected}, but `{self.show(node)}` is {t}", "type-mismatch", data
            )
        elif not expected.is_optional and self.known(expected):
            self.optional_into_plain(node, t, expected, what, facts, slot)

    def optional_into_plain(
        self, node: Node, t: AwlType, expected: AwlType, what: str, facts: Facts, slot: Slot | None = None
    ) -> None:
        """An optional value fits a plain slot only as a name its outcome guard proved present
        (`when x is present, route done(x)`); a path like `c.note` never does."""
        if facts and node.type == "identifier" and self.env.text(node) in facts:
            return
        if t.is_optional and self.known(t):
            self.ctx.error(
                node,
                f"{what} expects {expected}, but `{self.show(node)}` is optional ({t}): bind it to a name "
                f"and route under `when <name> is present`, or make the slot optional (`{expected}?`)",
                "optional-into-plain",
                {"expected": str(expected), "found": str(t), "slot": slot},
            )

    # ---- the walker
    def walk(self, node: Node | None, facts: Facts = frozenset(), item: AwlType | None = None) -> None:
        if node is None:
            return
        t = node.type
        env = self.env
        if t == "identifier":  # (the usual expressions first)
            start = node.start_byte
            first = env.source[start] if node.end_byte > start else 0  # (a variant is TitleCase)
            if first >= 0x80 or 0x41 <= first <= 0x5A:
                loose_variant(self, node)
            elif first == 0x6E and node.end_byte - start == 4 and env.text(node) == "null":
                self.null_value(node)
            return
        if t == "call_expression":
            self.call(node, facts)
            return
        if t == "binary_expression":
            op = env.text(node.child_by_field_id(F.OPERATOR))
            left, right = node.child_by_field_id(F.LEFT), node.child_by_field_id(F.RIGHT)
            self.walk(left, facts, item)
            if op == "and":
                self.walk(right, facts | present_facts(env, left), item)
            elif op == "or":
                self.walk(right, facts | absent_facts(env, left), item)
            else:
                self.walk(right, facts, item)
            self.binary(node, op, left, right, facts, item)
            return
        if t == "list":
            for child in node.named_children:
                self.walk(child, facts, item)
            list_items(self, node, item)
            return
        if t == "not_expression":
            self.walk(node.child_by_field_id(F.OPERAND), facts, item)
            self.expect_bool(node.child_by_field_id(F.OPERAND), "the operand of `not`", facts, item)
            return
        if t == "is_expression":
            value = node.child_by_field_id(F.VALUE)
            self.walk(value, facts, item)
            test = env.text(node.child_by_field_id(F.TEST))
            vt = env.infer(value, item)
            if self.known(vt) and test == "empty" and not vt.strip().is_list:
                message = f"`is empty` needs a list, but `{self.show(value)}` is {vt}"
                self.ctx.error(node, message, "is-empty", {"found": str(vt), **list_field(self.table, vt)})
            if self.known(vt) and test in ("present", "absent") and not vt.is_optional:
                self.ctx.error(
                    node,
                    f"`is {test}` applies only to optional values; `{self.show(value)}` is {vt}, "
                    "which is always present",
                    "is-present",
                    {"plain_source": source_slot(env, value, item)},
                )
            return
        if t == "field_expression":
            base = node.child_by_field_id(F.VALUE)
            self.walk(base, facts, item)
            self.field(node, env.infer(base, item), node.child_by_field_id(F.FIELD), base, facts)
            return
        if t == "relative_field":
            if item is None:
                self.ctx.error(
                    node,
                    f"`{self.show(node)}` is a field accessor: it works only as a pipe stage or "
                    "inside a combinator like `filter(.f)`, not on its own",
                    "relative-field",
                    {"field": env.text(node.child_by_field_id(F.FIELD))},
                )
            elif self.known(item):
                self.field(node, item, node.child_by_field_id(F.FIELD), None, facts)
            return
        if t == "workflow_builtin":
            f = node.child_by_field_id(F.FIELD)
            if f is None:
                self.ctx.error(
                    node,
                    "`workflow` is a builtin namespace, not a value: use `workflow.id`",
                    "workflow-bare",
                    {"rewrite": "workflow.id"},
                )
            elif env.text(f) != "id":
                data, meant = name_data(env.text(f), ["id"])
                data["only"] = "id"
                self.ctx.error(
                    f,
                    f"unknown workflow builtin `workflow.{env.text(f)}`: only `workflow.id` exists{meant}",
                    "workflow-field",
                    data,
                )
            return
        if t == "index_expression":
            self.index(node, facts, item)
            return
        if t == "pipe_expression":
            self.walk(node.child_by_field_id(F.INPUT), facts, item)
            self.stage(node, facts, item)
            return
        for child in node.named_children:
            self.walk(child, facts, item)

    def binary(
        self, node: Node, op: str, left: Node | None, right: Node | None, facts: Facts, item: AwlType | None
    ) -> None:
        if left is None or right is None:
            return
        if op in ("and", "or"):
            self.expect_bool(left, f"each operand of `{op}`", facts, item)
            self.expect_bool(right, f"each operand of `{op}`", facts, item)
            return
        operands(self, node, op, left, right, item)

    def field(
        self, node: Node, base: AwlType, fname: Node | None, base_node: Node | None, facts: Facts
    ) -> None:
        if fname is None:
            return
        name = self.env.text(fname)
        ft = self.env.field_type(base, name)
        if ft is None:
            variants = self.table.variants(base)
            if variants is not None:
                shown = f"`{self.show(base_node)}`" if base_node is not None else "this value"
                self.ctx.error(
                    fname,
                    f"{shown} is of enum type {base.strip()} ({' | '.join(variants)}), which has no fields: "
                    f"there is no `.{name}` to read — compare the value with a variant instead "
                    f"(`== {variants[0] if variants else 'Variant'}`)",
                    "enum-field",
                )
                return
            fields = self.env.fields_of_type(base)
            hint = f" (fields: {', '.join(fields)})" if fields else ""
            data, meant = name_data(name, list(fields))
            data["type"] = str(base.strip())  # the type without the field (a fix may add it there)
            self.ctx.error(fname, f"{base.strip()} has no field `{name}`{hint}{meant}", "unknown-field", data)
        elif base_node is not None:
            self.unguarded(base_node, base, facts, f"reading `.{name}` is allowed")

    def index(self, node: Node, facts: Facts, item: AwlType | None) -> None:
        value, index = node.child_by_field_id(F.VALUE), node.child_by_field_id(F.INDEX)
        self.walk(value, facts, item)
        if index is not None and index.type != "integer":
            self.ctx.error(
                index,
                f"an index must be a literal integer like `[0]`; `{self.show(index)}` is computed",
                "index-literal",
            )
        vt = self.env.infer(value, item)
        if self.known(vt) and not vt.strip().is_list:
            self.ctx.error(
                node,
                f"only lists can be indexed, but `{self.show(value)}` is {vt}",
                "index-non-list",
                list_field(self.table, vt),
            )

    def call(self, node: Node, facts: Facts) -> None:
        c = call_of(self.ctx, node)  # (resolved once per item, shared with the reference rules)
        fn, sym = c.name, c.callee
        params: dict[str, AwlType]
        if sym is not None:
            params = self.env.parameter_types(sym)
        else:
            params = self.table.record_fields(fn) or {}
            if params and c.args is not None:
                self.record_fields(fn, params, c.args)
        for arg in arguments(self.ctx, c.args):
            value = arg.value
            self.walk(value, facts)
            name = arg.name
            if name in params:
                slot = parameter_slot(fn, name) if sym is not None else field_slot(fn, name)
                self.check_value(value, params[name], facts, f"`{name}` of `{fn}`", slot)

    def record_fields(self, type_name: str, fields: dict[str, AwlType], args: Node) -> None:
        """`Type(field: …)`: every field named belongs to the type; every required one is given."""
        given: set[str] = set()
        named = {a.name for a in arguments(self.ctx, args) if a.name_node is not None}
        for arg in arguments(self.ctx, args):
            name_node = arg.name_node
            if name_node is None:
                continue  # positional arguments are reported with every argument list
            name = arg.name
            given.add(name)
            if name not in fields:
                # (a field passed already is not the one meant: it would be passed twice)
                data, meant = name_data(name, [f for f in fields if f not in named])
                data.update(record=type_name, type=str(self.env.infer(arg.value)))
                self.ctx.error(
                    name_node,
                    f"type `{type_name}` has no field `{name}`; its fields: {', '.join(fields)}{meant}",
                    "record-field",
                    data,
                )
        missing = [f for f, t in fields.items() if f not in given and not t.is_optional]
        if missing:
            names = ", ".join(f"`{m}`" for m in missing)
            self.ctx.error(
                args,
                f"`{type_name}(…)` leaves out {names}: every field of a record that is not optional "
                "must be given",
                "record-field",
                {"missing": missing, "types": {m: str(fields[m]) for m in missing}},
            )

    def stage(self, pipe: Node, facts: Facts, item: AwlType | None) -> None:
        env = self.env
        stage = pipe.child_by_field_id(F.STAGE)
        input_node = pipe.child_by_field_id(F.INPUT)
        it = env.infer(input_node, item)
        if stage is None:
            return
        if stage.type == "identifier":
            name = env.text(stage)
            sym = self.ctx.model.callable(name)
            if sym is None:
                return
            params = self.ctx.model.parameters_of(sym)
            if len(params) != 1:  # arity is reported by rules_references
                return
            pt = parse_type_text(params[0].type)
            if not assignable(it, pt, self.table):
                self.ctx.error(
                    stage,
                    f"`{name}` takes {pt} (`{params[0].name}`), but the piped value is {it}",
                    "pipe-stage-type",
                )
            elif not pt.is_optional and self.known(pt) and input_node is not None:
                slot = parameter_slot(name, params[0].name)
                self.optional_into_plain(input_node, it, pt, f"`{name}` (`{params[0].name}`)", facts, slot)
            return
        if stage.type == "relative_field":
            if self.known(it):
                self.field(stage, it, stage.child_by_field_id(F.FIELD), None, facts)
                if it.is_optional and input_node is not None:
                    self.unguarded(input_node, it, facts, f"piping it into `{env.text(stage)}` is allowed")
            return
        if stage.type == "combinator":
            self.combinator(stage, it, input_node, facts)

    def combinator(self, stage: Node, it: AwlType, input_node: Node | None, facts: Facts) -> None:
        env = self.env
        name = env.text(stage.children[0]) if stage.children else ""
        arg = stage.child_by_field_id(F.ARGUMENT)
        has_parens = any(c.type == "(" for c in stage.children)
        if self.known(it) and not it.strip().is_list:
            shown = self.show(input_node) if input_node is not None else "the input"
            self.ctx.error(
                stage,
                f"`{name}` needs a List collection, but `{shown}` is {it}",
                "combinator-list",
                list_field(self.table, it),
            )
            return
        elem = element_of(it)
        if name == "count":
            if arg is not None or has_parens:
                message = "`count` takes no argument: write `|> count`"
                self.ctx.error(stage, message, "count-argument", {"rewrite": "count"})
            return
        if arg is None:
            message = f"`{name}` needs an argument, e.g. `{name}(.field)`"
            self.ctx.error(stage, message, "combinator-argument", {"combinator": name})
            return
        if name in _ACCESSOR_ONLY and arg.type != "relative_field":
            self.ctx.error(
                arg,
                f"`{name}` takes one field accessor such as `{name}(.ready)`, not `{self.show(arg)}`: "
                "bind the values you need first, or use `any`/`all` for a predicate",
                "combinator-accessor",
                {"combinator": name},
            )
            return
        self.walk(arg, facts, elem if elem is not None else AwlType("unknown"))
        if name in ("filter", "any", "all") and elem is not None:
            self.expect_bool(arg, f"the `{name}` predicate", facts, elem)


__all__ = ["BOOL", "DURATION", "INT", "ExprChecker", "env_for", "present_facts", "absent_facts"]
