"""Loop and visit rules: a `loop` says when it stops and keeps its threaded value's type; `visits` bounds.

- a `loop` body has an `until` condition;
- the loop's `max` is fixed before the first pass, so it reads no loop-local name (the threaded
  value, the counter, or anything bound in the body);
- the `counting` name is readable after the loop only, not in its body;
- what the body binds stays in the loop: after it only the threaded value and the counter are
  readable, and the seed (read before the first pass) reads none of the loop's own names;
- the threaded value keeps the type of its seed when the body rebinds it;
- `max N visits` takes a bound fixed before the flow starts (a literal, an input, a constant),
  never a binding;
- `visits` is readable only in the outcome guards of a step bounded by `max … visits`.
"""

from __future__ import annotations

from tree_sitter import Node

from awl_lsp.checks.base import ItemContext
from awl_lsp.checks.rules_support import a_or_an
from awl_lsp.model.symbols import Kind, RefKind
from awl_lsp.model.types import assignable
from awl_lsp.syntax import fields as F


def check_item(ctx: ItemContext) -> None:
    for loop in ctx.descendants("loop_statement"):
        _loop(ctx, loop)
    for bound in ctx.descendants("visits_bound"):
        _visits_bound(ctx, bound)
    # (walked by `descendants`, with a cursor: `named_children` would cache a Node for every
    # descendant of the item's node, which its cached check results keep alive)
    node = ctx.node
    if ctx.source.find(b"visits", node.start_byte, node.end_byte) != -1:
        for ident in ctx.descendants("identifier"):
            if ident.text == b"visits":
                _visits_read(ctx, ident)


def _body_names(ctx: ItemContext, body: Node) -> set[str]:
    """Names bound anywhere inside a loop body."""
    names: set[str] = set()
    stack = [body]
    while stack:
        n = stack.pop()
        if n.type == "binding":
            names.add(ctx.text(n.child_by_field_id(F.NAME)))
        stack.extend(n.named_children)
    names.discard("")
    return names


def _loop(ctx: ItemContext, loop: Node) -> None:
    var = ctx.text(loop.child_by_field_id(F.BINDING))
    body = loop.child_by_field_id(F.BODY)
    if body is None:
        return
    items = [c for c in body.named_children if c.type not in ("comment", "doc_comment")]
    twice = any(sum(i.type == kind for i in items) > 1 for kind in ("until_clause", "loop_max"))
    if not twice and not any(i.type == "until_clause" for i in items):
        ctx.error(
            loop.child_by_field_id(F.BINDING) or loop,
            f"loop `{var}` has no `until` condition: add `until <condition>` to its body so an "
            "iteration can end it before `max` runs out",
            "loop-until",
        )
    for kind, word in (("until_clause", "`until` condition"), ("loop_max", "`max` line")):
        for extra in [i for i in items if i.type == kind][1:]:
            ctx.error(
                extra,
                f"loop `{var}` already has a {word}: a loop declares it once — merge the two into one",
                "loop-clause-twice",
            )
    local = _body_names(ctx, body) | {var, ctx.text(loop.child_by_field_id(F.COUNTER))}
    local.discard("")
    for mx in (i for i in items if i.type == "loop_max" and not twice):  # a second `max` is the error
        limit = mx.child_by_field_id(F.LIMIT)
        for ident in _identifiers_in(limit):
            name = ctx.text(ident)
            if name in local and _is_value(ident):
                ctx.error(
                    ident,
                    f"the loop's `max` is fixed before its first pass, but `{name}` is loop-local: "
                    "bound the loop by an input, a constant or a value bound before the loop",
                    "loop-max-local",
                )
                break
    _counter_read_inside(ctx, loop, items)
    _threaded_type(ctx, loop, var, body)
    _locals_escape(ctx, loop, var, body)


def _counter_read_inside(ctx: ItemContext, loop: Node, items: list[Node]) -> None:
    """`counting n` gives the number of passes once the loop is over: its body cannot read it."""
    counter = ctx.text(loop.child_by_field_id(F.COUNTER))
    if not counter:
        return
    for item in items:
        if item.type == "loop_max":
            continue  # the `max` line has its own rule
        for ident in _identifiers_in(item):
            if ctx.text(ident) == counter and _is_value(ident):
                ctx.error(
                    ident,
                    f"`{counter}` counts the loop's passes and is set when the loop ends: read it after "
                    "the loop (in an outcome guard or a later statement), not inside its body",
                    "loop-counter-inside",
                )
                return


def _span(node: Node) -> tuple[int, int, int, int]:
    return (node.start_point.row, node.start_point.column, node.end_point.row, node.end_point.column)


def _within(inner: tuple[int, ...], outer: tuple[int, ...]) -> bool:
    return outer[:2] <= inner[:2] and inner[2:4] <= outer[2:4]


def _locals_escape(ctx: ItemContext, loop: Node, var: str, body: Node) -> None:
    """A value the loop binds read where the loop does not guarantee it: in the seed (evaluated
    before the first pass) any of the loop's own names; past the body, a binding the body makes
    (other than the threaded value) — a pass may end before that line, so only `var` and the
    counter leave the loop."""
    seed = loop.child_by_field_id(F.SEED)
    whole, inside = _span(loop), _span(body)
    seed_span = _span(seed) if seed is not None else None
    counter = ctx.text(loop.child_by_field_id(F.COUNTER))
    for ref in ctx.refs_of(RefKind.VALUE):
        if _within(ref.range, inside):
            continue
        in_seed = seed_span is not None and _within(ref.range, seed_span)
        if not in_seed and (ref.range[0], ref.range[1]) < whole[2:4]:
            continue  # above the loop (or on its own line outside the seed)
        target = ctx.target(ref)
        if target is None or target.kind is not Kind.BINDING:
            continue
        where = target.range
        if in_seed and _within(where, whole):
            ctx.error(
                ref.range,
                f"`{ref.name}` is bound by this loop, but the seed is read before its first pass: "
                "seed the loop from an input or from a value bound before the loop",
                "loop-seed-local",
            )
            return
        if not in_seed and _within(where, inside) and ref.name not in (var, counter):
            kept = f"`{var}` and `{counter}` are" if counter else f"`{var}` is"
            ctx.error(
                ref.range,
                f"`{ref.name}` is bound inside the loop body (line {where[0] + 1}), so it is readable "
                f"only inside the loop: after it only {kept} sure to be set — "
                f"thread the value through `{var}`, or bind it after the loop",
                "loop-local-escapes",
            )
            ctx.row_numbers = True
            return


def _identifiers_in(node: Node | None) -> list[Node]:
    out: list[Node] = []
    stack = [node] if node is not None else []
    while stack:
        n = stack.pop()
        if n.type == "identifier":
            out.append(n)
            continue
        stack.extend(n.named_children)
    return out


def _is_value(ident: Node) -> bool:
    """An identifier read as a value (not a field name, an argument name or a called function)."""
    parent = ident.parent
    if parent is None:
        return True
    for field in ("field", "name", "function"):
        named = parent.child_by_field_name(field)
        if named is not None and named.id == ident.id:
            return parent.type in ("binary_expression",)
    return True


def _threaded_type(ctx: ItemContext, loop: Node, var: str, body: Node) -> None:
    env = ctx.type_env
    seed = loop.child_by_field_id(F.SEED)
    if env is None or seed is None or not var:
        return
    seed_type = env.infer(seed)
    if seed_type.unknown:
        return
    stack = [body]
    while stack:
        n = stack.pop()
        if n.type == "loop_statement" and n.id != loop.id:
            continue
        if n.type == "expression_statement":
            binding = n.child_by_field_id(F.BINDING)
            if binding is not None and ctx.text(binding.child_by_field_id(F.NAME)) == var:
                new = env.infer(n.child_by_field_id(F.VALUE))
                if not new.unknown and not assignable(new, seed_type, env.table):
                    one = a_or_an(str(seed_type))
                    ctx.error(
                        binding,
                        f"loop `{var}` threads its seed's type, {seed_type}, but this line rebinds it as "
                        f"{new}: every pass must produce {one} — bind the {new} to another name",
                        "loop-rebind-type",
                    )
        stack.extend(n.named_children)


def _visits_bound(ctx: ItemContext, bound: Node) -> None:
    body = bound.parent
    if body is not None:
        before = body.named_children
        earlier = [c for c in before if c.type == "visits_bound" and c.start_byte < bound.start_byte]
        if earlier:
            ctx.error(
                bound,
                f"this step already has a `max … visits` bound (line {earlier[0].start_point.row + 1}): a "
                "step declares its re-entry bound once — keep one",
                "visits-bound-twice",
            )
            ctx.row_numbers = True
    env = ctx.type_env
    limit = bound.child_by_field_id(F.LIMIT)
    if limit is None or env is None:
        return
    for ident in _identifiers_in(limit):
        if not _is_value(ident):
            continue
        sym = env.symbol_of(ident)
        if sym is not None and sym.kind is Kind.BINDING:
            ctx.error(
                ident,
                f"`max … visits` is fixed before the flow starts, but `{sym.name}` is bound while it "
                "runs: bound the visits by a literal, an input or a constant",
                "visits-bound-runtime",
            )
            return


def _visits_read(ctx: ItemContext, ident: Node) -> None:
    """`visits` is the visit counter only inside a bounded step's outcome guards."""
    if not _is_value(ident):
        return
    if ctx.model.first(Kind.INPUT, "visits") is not None or ctx.model.first(Kind.CONST, "visits") is not None:
        return
    cur = ident.parent
    guard = None
    while cur is not None and cur.type != "step_declaration":
        if cur.type == "guard":
            guard = cur
        cur = cur.parent
    if cur is None:
        return
    body = cur.child_by_field_id(F.BODY)
    bounded = body is not None and any(c.type == "visits_bound" for c in body.named_children)
    if guard is not None and bounded:
        return
    step = ctx.text(cur.child_by_field_id(F.NAME))
    where = "an outcome guard" if bounded else f"a step bounded by `max N visits` (step `{step}` has none)"
    ctx.error(
        ident,
        f"`visits` counts the entries of a bounded step and is readable only in its outcome guards: "
        f"this read is outside {where}",
        "visits-read",
    )
