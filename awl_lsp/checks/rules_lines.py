"""Line rules: lines the grammar accepts one by one but the engine refuses in their place.

- A step's outcome clauses close it: no statement, `on failure` or substep after the first one
  (only `max N visits` and more outcomes may follow).
- A step has at most one `on failure` block and at most one `max N visits` bound.
- `///` doc lines attach to declarations (types, fields, actions, steps): not to a statement, a
  route, an `on failure` block or an outcome clause, and not to nothing at the end of a body.
- In a workflow, no comment sits inside `( … )` or `[ … ]` (argument and parameter lists, lists),
  nor between a wrapped outcome arm and its `route`; a type body `{ … }` may hold comment lines.
- A duration counts in `s`, `m`, `h` or `d` (no `ms`).
- String literals know only the escapes `\\"`, `\\\\`, `\\n` and `\\t`.
- A config line (`node …, timeout …, retry …`) sits one level under its action or call and names
  each key once; under a statement it sets a call (not a pipe chain or any other value).
- A workflow has at most one `timeout`, and it is a positive duration.
- Header clauses all start at one indentation; so do a type body's field lines and a step's
  outcome clauses (a deeper one is not
  a continuation).
"""

from __future__ import annotations

from tree_sitter import Node

from awl_lsp.checks.base import CheckContext, ItemContext
from awl_lsp.checks.rules_support import field

_ESCAPES = frozenset('"\\nt')
# brackets whose lines are items (arguments, parameters, list elements): no comment line among them
_ITEM_BRACKETS = {"arguments": "an argument list", "parameters": "a parameter list", "list": "a list"}
# what a `///` line may precede (the engine attaches it to the declaration that follows)
_DOCUMENTED = frozenset({"step_declaration", "action_declaration", "field", "type_declaration"})
_AFTER_OUTCOMES = frozenset({"step_outcome", "visits_bound", "comment", "doc_comment", "ERROR"})
_WHAT = {
    "step_outcome": "an outcome clause",
    "on_failure": "an `on failure` block",
    "route_statement": "a `route`",
    "visits_bound": "a `max … visits` bound",
}
_CONFIG_KEYS = {"node_setting": "node", "timeout_setting": "timeout", "retry_setting": "retry"}
_FLOWS = ("workflow_declaration", "workloop_declaration")
_TRIVIA = ("comment", "doc_comment", "narration", "ERROR")
_ZERO_UNITS = ("s", "m", "h", "d", "ms")


def check_item(ctx: ItemContext) -> None:
    if ctx.node is None:
        return
    for body in _step_bodies(ctx):
        _outcomes_close(ctx, body)
        _one_on_failure(ctx, body)
    _config_keys(ctx)
    _header_indent(ctx)
    _field_lines(ctx)
    _workflow_timeout(ctx)
    for node in ctx.descendants("string"):
        _escapes(ctx, node)
    docs = ctx.descendants("doc_comment")
    for node in docs:
        _doc_line(ctx, node)
    for node in ctx.descendants("duration"):
        _duration_unit(ctx, node)
    if not ctx.model.is_workloop:
        for node in ctx.descendants("comment") + docs:
            _comment_in_brackets(ctx, node)


def _duration_unit(ctx: ItemContext, node: Node) -> None:
    """A duration counts in `s`, `m`, `h` or `d`: there are no milliseconds."""
    text = ctx.text(node)
    if text.endswith("ms"):
        ctx.error(
            node,
            f"`{text}`: a duration counts in seconds, minutes, hours or days (`30s`, `5m`, `3h`, `2d`) — "
            "there are no milliseconds",
            "duration-unit",
        )


def _comment_in_brackets(ctx: ItemContext, comment: Node) -> None:
    """The engine reads `( … )` and `[ … ]` as items only: a comment there is not one. Nor may a
    comment line part a wrapped outcome arm from its `route` (the arm then routes nowhere)."""
    arm = comment.parent
    if arm is not None and arm.type == "step_outcome":
        ctx.error(
            arm.children[0],
            "a comment line parts this outcome arm from its `route`: move the comment above the arm",
            "comment-in-arm",
        )
        return
    where = _ITEM_BRACKETS.get(comment.parent.type if comment.parent is not None else "")
    if where is not None:
        ctx.error(
            comment,
            f"a comment cannot sit inside {where}: move it above the line that opens the brackets",
            "comment-in-brackets",
        )


def check(ctx: CheckContext) -> None:
    """A `///` line at the very end of the document documents nothing."""
    root = ctx.tree.root_node
    count = root.named_child_count
    node = root.named_child(count - 1) if count else None
    while node is not None:  # from the last top-level node up (not a list of them all)
        if node.type == "doc_comment":
            _doc_error(ctx, node, "nothing follows it")
        if node.type != "comment":
            return
        node = node.prev_named_sibling


def _step_bodies(ctx: ItemContext) -> list[Node]:
    bodies = []
    for step in ctx.descendants("step_declaration"):
        body = field(step, "body")
        if body is not None:
            bodies.append(body)
    return bodies


def _outcomes_close(ctx: ItemContext, body: Node) -> None:
    first = None
    for st in body.named_children:
        if st.type == "step_outcome":
            if first is not None and st.start_point.column > first.start_point.column:
                ctx.error(
                    st,
                    f"outcome `{ctx.text(field(st, 'name'))}` is indented deeper than the outcome above it: "
                    "a step's outcome clauses all start at its body's indentation",
                    "outcome-indent",
                )
                return
            first = first or st
        elif first is not None and st.type not in _AFTER_OUTCOMES:
            ctx.error(
                st,
                f"this line comes after outcome `{ctx.text(field(first, 'name'))}`: a step's outcome "
                "clauses close it, so move its statements, `on failure` block and substeps above them",
                "after-outcomes",
                {"move": "above"},
            )
            return


def _one_on_failure(ctx: ItemContext, body: Node) -> None:
    bounds = [st for st in body.named_children if st.type == "visits_bound"]
    for extra in bounds[1:]:
        ctx.error(
            extra,
            f"a second `max … visits` bound (the first is on line {bounds[0].start_point.row + 1}): a step "
            "declares its visit bound once; keep one",
            "visits-twice",
        )
        ctx.row_numbers = True
    blocks = [st for st in body.named_children if st.type == "on_failure"]
    for block in blocks:
        if not any(c.type == "block" for c in block.named_children):
            ctx.error(
                block,
                "`on failure` has nothing under it: indent the statements that run on failure one level "
                "deeper, on the lines below it",
                "on-failure-empty",
            )
    for extra in blocks[1:]:
        ctx.error(
            extra.children[0] if extra.children else extra,
            f"a second `on failure` block (the first is on line {blocks[0].start_point.row + 1}): a step has "
            "at most one; merge their statements into the first",
            "on-failure-twice",
        )
        ctx.row_numbers = True


def _doc_line(ctx: ItemContext, doc: Node) -> None:
    parent = doc.parent
    if parent is not None and parent.type == "record_body":
        nxt = doc.next_named_sibling
        while nxt is not None and nxt.type in ("comment", "doc_comment"):
            nxt = nxt.next_named_sibling
        if nxt is None or nxt.type != "field_declaration":
            _doc_error(ctx, doc, "no field follows it in this type")
        return
    if parent is None or parent.type not in ("step_body", "block"):
        return
    nxt = doc.next_named_sibling
    while nxt is not None and nxt.type in ("comment", "doc_comment"):
        nxt = nxt.next_named_sibling
    if nxt is not None and nxt.type in _DOCUMENTED:
        return
    if nxt is None:
        what = "nothing follows it in this body"
    else:
        what = f"it sits on {_WHAT.get(nxt.type, 'a statement')}"
    _doc_error(ctx, doc, what)


def _doc_error(ctx: CheckContext, doc: Node, what: str) -> None:
    ctx.error(
        doc,
        f"`///` documents a declaration (a type, field, action or step), but {what}: "
        "use `//` for a plain comment",
        "doc-line",
    )


def _escapes(ctx: ItemContext, node: Node) -> None:
    raw = ctx.source[node.start_byte : node.end_byte]
    i = 1
    while i < len(raw) - 1:
        if raw[i] == 0x5C:  # backslash
            nxt = raw[i + 1 : i + 2].decode("utf-8", errors="replace")
            if nxt not in _ESCAPES:
                row, col = node.start_point.row, node.start_point.column + i
                ctx.error(
                    (row, col, row, col + 1 + len(nxt.encode())),
                    f'unsupported escape `\\{nxt}` in a string: AWL strings know only `\\"`, `\\\\`, '
                    f'`\\n` and `\\t` (write `\\\\{nxt}` for a backslash, or use a `"""raw string"""`)',
                    "string-escape",
                )
                return
            i += 2
        else:
            i += 1


def _config_keys(ctx: ItemContext) -> None:
    for config in ctx.descendants("call_config"):
        owner = config.parent
        if _config_without_call(ctx, config):
            continue
        if owner is not None and owner.type in ("action_declaration", "expression_statement"):
            top, at = owner.start_point, config.start_point
            want = top.column + 2
            if at.row > top.row and at.column > want:
                ctx.error(
                    config,
                    f"this config line is indented {at.column - want + 2} spaces under its "
                    "line: a config line sits exactly one level (two spaces) deeper than the action or "
                    "call it sets",
                    "config-indent",
                )
        seen: set[str] = set()
        for setting in config.named_children:
            key = _CONFIG_KEYS.get(setting.type)
            if key is None:
                continue
            if key in seen:
                ctx.error(
                    setting,
                    f"`{key}` is given twice on this config line: keep one `{key}` setting",
                    "config-key-twice",
                    {"key": key},
                )
                break
            seen.add(key)


def _config_without_call(ctx: ItemContext, config: Node) -> bool:
    """A config line under a statement whose value is no call (a pipe, a name, a sum): the engine's
    parser takes it for a stray indented block. Reported here unless it holds only unknown words
    (the layout rules report that line already)."""
    owner = config.parent
    if owner is None or owner.type != "expression_statement":
        return False
    value = field(owner, "value")
    if value is None or value.type == "call_expression":
        return False
    if all(s.type == "unknown_setting" for s in config.named_children):
        return False
    what = "a pipe chain" if value.type == "pipe_expression" else "a value that is no call"
    ctx.error(
        config,
        f"a `node`/`timeout` line sets one action call, but the line above is {what}: "
        "drop this line, or call the action on a line of its own (`action(arg: x) -> y`) and "
        "put the setting under that call",
        "config-not-call",
        {"value": value.type},
    )
    return True


def _header_indent(ctx: ItemContext) -> None:
    node = ctx.node
    header = field(node, "header") if node is not None and node.type in _FLOWS else None
    clauses = [c for c in (header.named_children if header is not None else []) if c.type not in _TRIVIA]
    for clause in clauses[1:]:
        if clause.start_point.column > clauses[0].start_point.column:
            ctx.error(
                clause,
                "this header clause is indented deeper than the clauses above it: every header clause "
                "starts at the same indentation (two spaces)",
                "header-indent",
            )
            return


def _field_lines(ctx: ItemContext) -> None:
    """The field lines of a multi-line record type body all start at one column; two fields on one
    line are parted by a comma; a `}` on a line of its own sits at the type's indentation."""
    node = ctx.node
    body = field(node, "body") if node is not None and node.type == "type_declaration" else None
    if body is None or body.type != "record_body":
        return
    _closing_brace(ctx, node, body)
    column = None
    last_row = node.start_point.row
    previous: Node | None = None
    for f in body.children:
        kind = f.type
        if kind == ",":
            previous = None
            continue
        if kind != "field_declaration":
            continue
        start = f.start_point
        if previous is not None and previous.end_point.row == start.row:
            ctx.error(
                f,
                f"a comma must part field `{ctx.text(field(f, 'name'))}` from the field before it on "
                "this line",
                "field-comma",
            )
            return
        previous = f
        if start.row == last_row:  # a second field on one line
            last_row = f.end_point.row
            continue
        last_row = f.end_point.row
        if column is None:
            column = start.column
        elif start.column != column:
            how = "deeper than" if start.column > column else "to the left of"
            ctx.error(
                f,
                f"field `{ctx.text(field(f, 'name'))}` is indented {how} the field lines above it: every "
                "field line of a type body starts at the same indentation",
                "field-indent",
            )
            return


def _closing_brace(ctx: ItemContext, declaration: Node, body: Node) -> None:
    close = body.children[-1] if body.children else None
    if (
        close is None
        or close.type != "}"
        or close.is_missing
        or close.start_point.row == body.start_point.row
    ):
        return
    line_start = ctx.source.rfind(b"\n", 0, close.start_byte) + 1
    if ctx.source[line_start : close.start_byte].strip():
        ctx.error(
            close,
            "the `}` closing a type body written over several lines goes on a line of its own",
            "brace-indent",
        )
        return
    if close.start_point.column != declaration.start_point.column:
        ctx.error(
            close,
            "the `}` closing this type body sits on a line of its own at the indentation of `type`: "
            "move it to the start of the line",
            "brace-indent",
        )


def _workflow_timeout(ctx: ItemContext) -> None:
    node = ctx.node
    if node is None or node.type != "workflow_declaration":
        return
    header = field(node, "header")
    clauses = header.named_children if header is not None else []
    timeouts = [c for c in clauses if c.type == "timeout_clause"]
    for extra in timeouts[1:]:
        ctx.error(
            extra,
            f"a second workflow `timeout` (the first is on line {timeouts[0].start_point.row + 1}): "
            "a workflow has one timeout; keep one",
            "timeout-twice",
        )
        ctx.row_numbers = True
    for clause in clauses:
        duration = field(clause, "duration") if clause.type == "timeout_clause" else None
        if duration is not None and duration.type == "duration" and _is_zero(ctx.text(duration)):
            ctx.error(
                duration,
                f"workflow `timeout {ctx.text(duration)}` would end every run at once: a workflow's "
                "timeout is a positive duration, such as `timeout 30m`",
                "timeout-zero",
            )


def _is_zero(text: str) -> bool:
    digits = text.rstrip("".join(_ZERO_UNITS))
    return digits.isdigit() and int(digits) == 0
