"""Layout rules: lines the permissive grammar kept but the language refuses, explained in words.

- `unknown_clause` lines (a word no clause starts with) in a header, an invariant or a worker.
- Guard words other than `if`/`when`/`else`/`otherwise`.
- Tokens joined across lines: a `->` whose binding name sits on a later line, an outcome whose
  `, route …` never came on its own line.
- Header outcome lines with a misspelt route kind (`route sideways`) or no comma before `route`,
  and a `loop` without its `= seed` (the grammar keeps these lines whole).
"""

from __future__ import annotations

from functools import cache

from awl_lsp.checks.base import ItemContext
from awl_lsp.checks.rules_support import field, name_of
from awl_lsp.checks.suggest import close_names


def check_item(ctx: ItemContext) -> None:
    _unknown_clauses(ctx)
    _guards(ctx)
    _joined_lines(ctx)
    _broken_lines(ctx)


@cache
def _slot_words(slot: str, workloop: bool) -> str:
    # (the keyword catalog is loaded only for a message that lists the words: `awl check` on a
    # document without an unknown clause never reads it, as `suggest` does)
    from awl_lsp.reference import keywords_for_slot

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
        if name is None:
            continue
        arrow = binding.child(0) or binding
        if name.start_point.row != arrow.start_point.row:
            ctx.error(arrow, "`->` must be followed by a binding name on the same line", "binding")
    for outcome in ctx.descendants("step_outcome"):
        route = field(outcome, "route")
        broken, comma = False, None
        for c in outcome.children:
            kind = c.type
            if kind == "ERROR":
                broken = True
            elif kind == "," and comma is None:
                comma = c
        guard = field(outcome, "guard")
        if route is not None and guard is not None and route.start_point.row > guard.end_point.row:
            if comma is None or comma.start_point.row != guard.end_point.row:
                broken = True
        n = name_of(ctx, outcome)
        where = field(outcome, "name") or outcome
        if broken or route is None:
            ctx.error(
                where,
                f"outcome `{n}` has no route: write `outcome {n}: <guard>, route <target>` "
                "(a long outcome may break after its comma)",
                "outcome-route",
                None if broken else {"missing": "route"},
            )
        if guard is None and not broken:
            ctx.error(
                where,
                f"outcome `{n}` needs a guard: `outcome {n}: if <condition>, route …` or "
                f"`outcome {n}: else, route …`",
                "outcome-guard",
            )
        elif guard is not None and route is not None and comma is None and not broken:
            ctx.error(
                guard,
                f"outcome `{n}` needs a comma after its guard: `outcome {n}: <guard>, route …`",
                "outcome-route",
            )


def _broken_lines(ctx: ItemContext) -> None:
    """Header outcomes with a misspelt route kind or no comma before `route`, and `loop` without a
    seed: the grammar keeps these lines whole so they can be named here."""
    for header in ctx.descendants("header"):
        for clause in header.named_children:
            if clause.type != "outcome_clause":
                continue
            name = ctx.text(field(clause, "name"))
            route = field(clause, "route")
            if route is not None and route.type == "identifier":
                kinds = ["success", "failure"]
                ctx.error(
                    route,
                    f"outcome `{name}` routes to `{ctx.text(route)}`: a header outcome's route is "
                    "`success` or `failure`",
                    "outcome",
                    {
                        "name": ctx.text(route),
                        "candidates": close_names(ctx.text(route), kinds),
                        "choices": kinds,
                    },
                )
            has_type = field(clause, "type") is not None
            if route is not None and has_type and not any(c.type == "," for c in clause.children):
                ctx.error(
                    route,
                    f"outcome `{name}` needs a comma before `route`: `outcome {name}: type T, route …`",
                    "outcome",
                )
    for loop in ctx.descendants("loop_statement"):
        if field(loop, "seed") is None:
            name = ctx.text(field(loop, "binding"))
            ctx.error(
                field(loop, "binding") or loop,
                f"`loop {name}` needs a seed: `loop {name} = <expr>`, the value its first round starts from",
                "loop-seed",
            )
