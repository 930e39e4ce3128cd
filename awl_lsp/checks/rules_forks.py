"""Named-fork rules: branches run in parallel, each with its own binding, and the `join` binds nothing.

In the named form (`fork` with one `call -> binding` line per branch) every branch binds its own
result, so `join -> x` has nothing to gather; and a branch cannot read a binding a sibling branch
makes, since the branches run at the same time (a branch that is a substep binds what its body
binds, and reads what its body reads, `after` or not).
"""

from __future__ import annotations

from tree_sitter import Node

from awl_lsp.checks.base import ItemContext
from awl_lsp.model import Range
from awl_lsp.model.symbols import RefKind
from awl_lsp.syntax import fields as F


def check_item(ctx: ItemContext) -> None:
    for fork in ctx.descendants("fork_statement"):
        _shape(ctx, fork)
        if fork.child_by_field_id(F.ITEM) is not None or fork.child_by_field_id(F.COLLECTION) is not None:
            continue
        _named(ctx, fork)


def _shape(ctx: ItemContext, fork: Node) -> None:
    """A fork has its branches indented under it and closes with `join`."""
    body = fork.child_by_field_id(F.BODY)
    if body is None:
        ctx.error(
            fork,
            "this `fork` has no branches: indent the work it fans out under it (one call per line, "
            "or the body run for each item), then close it with `join`",
            "fork-body",
        )
        return
    if fork.child_by_field_id(F.JOIN) is None:
        indented = next((st for st in body.named_children if _is_join(ctx, st)), None)
        if indented is not None:  # `join` among the branches: the engine stops right there
            ctx.error(
                indented,
                "`join` closes the `fork` at the fork's own indentation, not among its branches: move "
                "it one level to the left",
                "fork-join",
            )
            return
        row = _next_line(ctx.source, body.end_byte, fork.end_point.row)
        ctx.error(
            (row, 0, row, len(ctx.line_at(_row_start(ctx.source, row)).encode())),
            "the `fork` above is not closed: add `join` (or `join -> name` for a fork over a collection) "
            "at the fork's indentation, right after its branches",
            "fork-join",
        )


def _is_join(ctx: ItemContext, statement: Node) -> bool:
    """A branch line that is a `join` line read as a statement (`join` or `join -> name`)."""
    first = statement.named_children[0] if statement.named_child_count else None
    return (
        statement.type == "expression_statement"
        and first is not None
        and first.type == "identifier"
        and ctx.text(first) == "join"
    )


def _row_start(source: bytes, row: int) -> int:
    at = 0
    for _ in range(row):
        nl = source.find(b"\n", at)
        if nl == -1:
            return len(source)
        at = nl + 1
    return at


def _next_line(source: bytes, byte: int, fallback: int) -> int:
    """The row of the first line with code at or after `byte` (blank and comment lines skipped)."""
    row = source.count(b"\n", 0, byte)
    at = byte if byte == 0 or source[byte - 1 : byte] == b"\n" else source.find(b"\n", byte) + 1
    if at <= 0:
        return fallback
    row = source.count(b"\n", 0, at)
    while at < len(source):
        end = source.find(b"\n", at)
        line = source[at : len(source) if end == -1 else end].strip()
        if line and not line.startswith(b"//"):
            return row
        if end == -1:
            break
        at, row = end + 1, row + 1
    return fallback


def _named(ctx: ItemContext, fork: Node) -> None:
    join = fork.child_by_field_id(F.JOIN)
    binding = join.child_by_field_id(F.BINDING) if join is not None else None
    if binding is not None:
        ctx.error(
            binding,
            "a fork with named branches joins without a binding: each branch already binds its own "
            "result (`call(…) -> name`) — write a bare `join`",
            "fork-named-join",
        )
    body = fork.child_by_field_id(F.BODY)
    if body is None:
        return
    branches = [c for c in body.named_children if c.type not in ("comment", "doc_comment")]
    bound: dict[str, int] = {}
    steps = [(i, b.start_byte, b.end_byte) for i, b in enumerate(branches) if b.type == "step_declaration"]
    for i, b in enumerate(branches):
        binding = b.child_by_field_id(F.BINDING) if b.type == "expression_statement" else None
        name = ctx.text(binding.child_by_field_id(F.NAME)) if binding is not None else ""
        if name:
            bound.setdefault(name, i)
    if steps:  # a substep branch binds what its body binds
        for binding in ctx.descendants("binding"):
            holder = _branch(steps, binding.start_byte)
            name = ctx.text(binding.child_by_field_id(F.NAME))
            if holder is not None and name:
                bound.setdefault(name, holder)
    reads: list[tuple[int, Node | Range]] = []
    for i, b in enumerate(branches):
        value = b.child_by_field_id(F.VALUE) if b.type == "expression_statement" else None
        reads += [(i, ident) for ident in _reads(value)]
    if steps:
        first, last = body.start_point.row, body.end_point.row
        for ref in ctx.refs_of(RefKind.VALUE):
            if first <= ref.range[0] <= last:
                held = _branch(steps, _byte(ctx.source, ref.range, body))
                if held is not None:
                    reads.append((held, ref.range))
    for i, at in reads:
        name = ctx.text(at) if isinstance(at, Node) else _text_at(ctx.source, at, body)
        j = bound.get(name)
        if j is not None and j != i:
            ctx.error(
                at,
                f"`{name}` is bound by a parallel branch of this fork, which may not have finished: "
                f"read `{name}` after the `join`, or run the two calls one after the other",
                "fork-sibling-read",
            )


def _branch(steps: list[tuple[int, int, int]], byte: int) -> int | None:
    """Which substep branch (index among the branches) holds this byte, if any."""
    return next((i for i, start, end in steps if start <= byte < end), None)


def _byte(source: bytes, r: Range, near: Node) -> int:
    """The byte offset of a range's start (row, column in bytes), found from a node above it."""
    at = near.start_byte - near.start_point.column
    for _ in range(r[0] - near.start_point.row):
        at = source.find(b"\n", at) + 1
    return at + r[1]


def _text_at(source: bytes, r: Range, near: Node) -> str:
    start = _byte(source, r, near)
    return source[start : start + (r[3] - r[1])].decode("utf-8", "replace") if r[0] == r[2] else ""


def _reads(node: Node | None) -> list[Node]:
    """Identifiers read as values in an expression (not argument names, fields or called names)."""
    out: list[Node] = []
    stack = [node] if node is not None else []
    while stack:
        n = stack.pop()
        if n.type == "identifier":
            out.append(n)
            continue
        if n.type == "call_expression":
            args = n.child_by_field_id(F.ARGUMENTS)
            if args is not None:
                stack.append(args)
            continue
        if n.type == "argument":
            value = n.child_by_field_id(F.VALUE)
            if value is not None:
                stack.append(value)
            continue
        if n.type == "field_expression":
            value = n.child_by_field_id(F.VALUE)
            if value is not None:
                stack.append(value)
            continue
        stack.extend(n.named_children)
    return out
