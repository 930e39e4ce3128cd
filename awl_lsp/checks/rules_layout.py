"""Layout rules: lines the permissive grammar kept but the language refuses, explained in words.

- `unknown_clause` lines (a word no clause starts with) in a header, an invariant or a worker.
- Guard words other than `if`/`when`/`else`/`otherwise`.
- Tokens joined across lines: a `->` whose binding name sits on a later line, an outcome whose
  `, route …` never came on its own line.
- Broken header outcome lines (`outcome n: route success`, `route sideways`) and a `loop` without
  its `= seed`, read from the line text where the tree holds only an ERROR node.
"""

from __future__ import annotations

import re
from functools import cache

from tree_sitter import Node

from awl_lsp.checks.base import ItemContext
from awl_lsp.checks.rules_support import field, line_range, name_of
from awl_lsp.reference import keywords_for_slot

_OUTCOME_LINE = re.compile(
    r"^\s*outcome\s+(?P<name>\w+)\s*:\s*(?P<type>type\s+[\w\[\]?]+)?\s*,?\s*(?:route\s+(?P<route>\w+))?"
)
_LOOP_LINE = re.compile(r"^\s*loop\s+(?P<name>\w+)(?P<rest>[^=\n]*)$")


def check_item(ctx: ItemContext) -> None:
    _unknown_clauses(ctx)
    _guards(ctx)
    _joined_lines(ctx)
    _broken_lines(ctx)


@cache
def _slot_words(slot: str, workloop: bool) -> str:
    try:
        words = [e.keyword for e in keywords_for_slot(slot, workloop=workloop)]
    except ValueError:
        return ""
    return ", ".join(f"`{w}`" for w in words)


def _unknown_clauses(ctx: ItemContext) -> None:
    for node in ctx.descendants("unknown_clause"):
        word_node = field(node, "word")
        word = ctx.text(word_node)
        parent = node.parent
        prev = node.prev_sibling
        if prev is not None and prev.type == "ERROR" and prev.end_point.row == node.start_point.row:
            continue  # the tail of a line the syntax layer already reports
        if parent is not None and parent.type == "header":
            loop = parent.parent is not None and parent.parent.type == "workloop_declaration"
            slot = "workloop-header" if loop else "workflow-header"
            ctx.error(
                word_node or node,
                f"unknown header clause `{word}`; expected one of {_slot_words(slot, loop)}",
                "unknown-clause",
            )
        elif parent is not None and parent.type == "invariant_clause":
            ctx.error(
                word_node or node,
                f"unknown invariant clause `{word}`; expected `tolerance` or `confirms`",
                "unknown-clause",
            )
        elif parent is not None and parent.type == "worker_declaration":
            ctx.error(
                word_node or node,
                f"unexpected `{word}` in worker `{name_of(ctx, parent)}`: a worker holds only "
                "`action name(p: T) -> R` lines",
                "unknown-clause",
            )


def _guards(ctx: ItemContext) -> None:
    for guard in ctx.descendants("guard"):
        unknown = field(guard, "unknown")
        if unknown is not None:
            ctx.error(
                unknown,
                f"unknown guard word `{ctx.text(unknown)}`: an outcome guard is `if <condition>` (or `when`) "
                "or `else` (or `otherwise`)",
                "guard",
            )


def _joined_lines(ctx: ItemContext) -> None:
    for binding in ctx.descendants("binding"):
        name = field(binding, "name")
        arrow = binding.children[0] if binding.children else binding
        if name is not None and name.start_point.row != arrow.start_point.row:
            ctx.error(arrow, "`->` must be followed by a binding name on the same line", "binding")
    for outcome in ctx.descendants("step_outcome"):
        route = field(outcome, "route")
        broken = any(c.type == "ERROR" for c in outcome.children)
        comma = next((c for c in outcome.children if c.type == ","), None)
        guard = field(outcome, "guard")
        if route is not None and guard is not None and route.start_point.row > guard.end_point.row:
            if comma is None or comma.start_point.row != guard.end_point.row:
                broken = True
        if broken:
            n = name_of(ctx, outcome)
            ctx.error(
                field(outcome, "name") or outcome,
                f"outcome `{n}` has no route: write `outcome {n}: <guard>, route <target>` "
                "(a long outcome may break after its comma)",
                "outcome-route",
            )


def _broken_lines(ctx: ItemContext) -> None:
    header_outcomes: list[Node] = []
    for header in ctx.descendants("header"):
        for c in header.named_children:
            broken = c.type == "ERROR" or (
                c.type == "outcome_clause" and any(x.type == "ERROR" for x in c.children)
            )
            if broken and ctx.text(c).lstrip().startswith("outcome"):
                header_outcomes.append(c)
    for node in header_outcomes:
        m = _OUTCOME_LINE.match(ctx.line_at(node.start_byte))
        if m is None:
            continue
        name = m.group("name")
        route = m.group("route")
        if m.group("type") is None:
            ctx.error(
                line_range(ctx, node),
                f"outcome `{name}` needs a payload type: `outcome {name}: type T, route success|failure`",
                "outcome",
            )
        elif route is not None and route not in ("success", "failure"):
            ctx.error(
                line_range(ctx, node),
                f"outcome `{name}` routes to `{route}`: a header outcome's route is `success` or `failure`",
                "outcome",
            )
    for err in ctx.descendants("ERROR"):
        m = _LOOP_LINE.match(ctx.line_at(err.start_byte))
        if m is not None and ctx.text(err).lstrip().startswith("loop"):
            ctx.error(
                line_range(ctx, err),
                f"`loop {m.group('name')}` needs a seed: `loop {m.group('name')} = <expr>`",
                "loop-seed",
            )
