"""Lines the grammar keeps so that the rest of the document parses, reported in words.

The grammar accepts a few shapes only to keep a half-typed line from swallowing its neighbours: a
top-level line starting with an unknown word (`workl`), an unknown word in a call's config line
(`time`), indented lines under a statement that opens no block (`fo` above a fork body), an
`action` without its parameter list, and parentheses around an expression (the engine has none).
"""

from __future__ import annotations

from tree_sitter import Node

from awl_lsp.checks.base import ItemContext
from awl_lsp.checks.rules_support import field
from awl_lsp.checks.suggest import close_names
from awl_lsp.syntax.fields import VALUE

_TOP_LEVEL = (
    "workflow",
    "workloop",
    "const",
    "type",
    "worker",
    "child",
    "detached",
    "subflow",
    "step",
    "retire",
)
_SETTINGS = ("node", "timeout", "retry")
# the words that open a header clause (a line with one at the margin belongs in the header)
_HEADER_WORDS = frozenset(
    {"timeout", "every", "on", "input", "signal", "carry", "outcome", "report", "invariant", "retention"}
)
_BLOCK_OPENERS = ("fork", "loop", "on failure", "step")


def _suggest(word: str, choices: tuple[str, ...]) -> str:
    close = close_names(word, list(choices), limit=1)
    return f" (did you mean `{close[0]}`?)" if close else ""


def _bodiless_step_above(node: Node) -> Node | None:
    """The `step NAME` line right above `node` when it has no indented body (a statement fell out)."""
    above = node.prev_named_sibling
    while above is not None and "comment" in above.type:
        above = above.prev_named_sibling
    if above is None or above.type != "step_declaration" or field(above, "body") is not None:
        return None
    return above


def check_item(ctx: ItemContext) -> None:
    for node in ctx.descendants("unknown_declaration"):
        word = field(node, "word")
        text = ctx.text(word)
        allowed = ", ".join(f"`{w}`" for w in _TOP_LEVEL)
        step = _bodiless_step_above(node)
        data = None
        if step is not None:
            data = {"name": text, "candidates": [], "statement": True}  # not a misspelt keyword
            message = (
                f"`{text}` sits at the left margin under `step {ctx.text(field(step, 'name'))}`, which has "
                f"no body: indent this line one level to make it the step's first statement (a line at "
                f"the margin starts a declaration: one of {allowed})"
            )
        else:
            message = (
                f"`{text}` does not start a declaration{_suggest(text, _TOP_LEVEL)}: "
                f"a top-level line starts with one of {allowed}"
            )
            if text in _HEADER_WORDS:
                data = {"move": "header"}  # a header clause written at the margin
        ctx.error(word or node, message, "unknown-declaration", data)
    for node in ctx.descendants("unknown_setting"):
        text = ctx.text(node)
        ctx.error(
            node,
            f"unknown setting `{text}`{_suggest(text, _SETTINGS)}: a config line takes `node NAME`, "
            "`timeout D` and `retry N every D` or `retry N backoff D..D`",
            "unknown-setting",
        )
    for node in ctx.descendants("fork_statement"):
        if field(node, "body") is None:
            ctx.error(
                node,
                "`fork` needs its branches: an indented block under it (one line per branch, or the "
                "body run for each item of `fork x in list`)",
                "fork-without-body",
            )
    for node in ctx.descendants("parenthesized_expression"):
        ctx.error(
            node,
            "parentheses do not group expressions in AWL: drop them (`not` binds tighter than `and`, "
            "`and` tighter than `or`), or bind the inner value to a name first",
            "parentheses",
        )
    for node in ctx.descendants("unexpected_block"):
        statement = node.parent
        value = field(statement, "value") if statement is not None else None
        head = ctx.text(value).split("\n", 1)[0].strip() if value is not None else ""
        words = head.split()
        hint = _suggest(words[0], _BLOCK_OPENERS) if words else ""
        # on the first line indented too deep, where the engine reports it
        first = next((c for c in node.named_children if "comment" not in c.type), None)
        ctx.error(
            first or value or node,
            f"this line is indented under `{head}`, which opens no block{hint}: "
            "indent it like its step's other lines, or start a block with `fork`, `loop` or "
            "`on failure`",
            "unexpected-block",
        )
    for node in ctx.descendants("action_declaration"):
        if field(node, "parameters") is None:
            name = field(node, "name")
            text = ctx.text(name)
            ctx.error(
                name or node,
                f"action `{text}` needs its parameter list: `{text}(name: Type, …) -> Type`",
                "action-parameters",
            )
    _incomplete_pieces(ctx)
    _unnamed(ctx)


def _incomplete_pieces(ctx: ItemContext) -> None:
    """Parts of a line the grammar lets go missing so a half-typed line stays on its line."""
    for args in ctx.descendants("arguments"):
        for arg in args.named_children:
            if arg.type == "argument" and arg.child_by_field_id(VALUE) is None:
                name = ctx.text(field(arg, "name"))
                ctx.error(
                    arg, f"argument `{name}` has no value: write `{name}: <expression>`", "argument-value"
                )
    for binding in ctx.descendants("binding"):
        if field(binding, "name") is None:
            ctx.error(binding, "`->` needs a binding name after it: `-> name`", "binding-name")
    for route in ctx.descendants("route_statement"):
        if field(route, "target") is None:
            keyword = next((c for c in route.children if c.type == "route"), route)
            ctx.error(
                keyword,
                "`route` needs a target: a step, an outcome (`route done(…)`) or, in a workloop, `start`",
                "route-no-target",
            )


def _unnamed(ctx: ItemContext) -> None:
    """Declarations whose name is still missing (`workflow`, `action`, `invariant` alone)."""
    forms = {
        "workflow_declaration": "workflow NAME",
        "workloop_declaration": "workloop NAME",
        "action_declaration": "action NAME(param: Type, …) -> Type",
        "invariant_clause": "invariant NAME: type T",
    }
    for kind, form in forms.items():
        for node in ctx.descendants(kind):
            if field(node, "name") is None:
                keyword = node.children[0] if node.children else node
                ctx.error(keyword, f"`{keyword.type}` needs a name: `{form}`", "name")
