"""What the grammar would have accepted at a place, in words: the names of tokens, the shape of each
keyword-led line, what follows a keyword, where a keyword belongs, and what a missing piece stands for.

`expected_tokens` reads the parse state after a leaf (from a fresh parse of its top-level item, so a
message never depends on how the text was typed) and names the tokens the grammar accepts there;
the tables are facts of LANGUAGE.md written in our words. `errors` builds its messages from these.
"""

from __future__ import annotations

from tree_sitter import Node, Parser, Tree

from awl_lsp.syntax.leaves import leaves as _leaves
from awl_lsp.syntax.leaves import snippet as _snippet
from awl_lsp.syntax.parser import LANGUAGE

TOKEN_NAMES = {
    "_newline": "end of line",
    "_indent": "an indented block",
    "_dedent": "the end of the block",
    "identifier": "a name",
    "integer": "a number",
    "float": "a number",
    "duration": "a duration like `30s`",
    "string": "a string",
    "raw_string": "a string",
    "json_body": "a `{ … }` JSON body",
    "type_identifier": "a type",
}
# The shape of each keyword-led line, for "incomplete line" messages (facts of LANGUAGE.md).
LINE_HINTS = {
    "outcome": "outcome NAME: if COND, route TARGET` (in a step) or `outcome NAME: type T, route success",
    "input": "input NAME: Type",
    "signal": "signal NAME: Type",
    "carry": "carry NAME: Type = DEFAULT",
    "report": "report NAME: type T",
    "invariant": "invariant NAME: type T",
    "tolerance": "tolerance N windows` or `tolerance unconfirmed for D",
    "confirms": "confirms ROUTE",
    "every": "every DURATION",
    "retention": "retention DURATION",
    "timeout": "timeout DURATION",
    "action": "action NAME(param: Type, …) -> Type",
    "child": "child NAME(param: Type, …) -> Type",
    "detached": "detached NAME(param: Type, …)",
    "type": "type Name { field: Type, … }",
    "const": "const NAME = VALUE",
    "step": "step NAME [after a, b]",
    "route": "route TARGET[(field: value, …)]",
    "hatch": "hatch DETACHED(arg: value, …) key EXPR",
    "answer": "answer REPORT(field: value, …)",
    "wait": "wait SIGNAL [timeout D] -> NAME",
    "sleep": "sleep DURATION",
    "fork": "fork ITEM in LIST [sequential]",
    "loop": "loop NAME = SEED [counting N]",
    "spawn": "spawn CHILD(arg: value, …)",
    "collect": "collect NAME[?] -> NAME",
    "distribute": "distribute ITEM in LIST",
    "sequence": "sequence ITEM in LIST",
    "max": "max N visits` (a step's re-entry bound) or, as a `loop` body's last line, `max N",
    "until": "until CONDITION",
    "join": "join` or `join -> NAME",
    "on": "on failure` for a step's compensation, or `on SIGNAL",
    "retire": "retire",
    "workflow": "workflow NAME",
    "workloop": "workloop NAME",
    "subflow": "subflow NAME(param: Type, …)",
    "worker": "worker NAME",
}
# What follows a keyword written in the middle of a line (facts of LANGUAGE.md), for a line that
# stops right after it.
AFTER_WORDS = {
    "key": "the dedupe key (an expression such as `task.id`)",
    "for": "a duration like `30m`",
    "every": "a duration like `5m`",
    "timeout": "a duration like `30s`",
    "backoff": "a duration range like `1s..30s`",
    "retry": "a number of retries",
    "node": "a node name",
    "in": "the list to go over",
    "counting": "a name for the pass counter",
    "after": "the names of the steps to wait for",
    "route": "a route target (a step or an outcome)",
    "of": "a type name",
    "is": "`empty`, `present` or `absent`",
    "not": "a condition",
    "and": "a condition",
    "or": "a condition",
    "if": "a condition",
    "when": "a condition",
    "unconfirmed": "`for` and a duration",
    "confirms": "the route that confirms the invariant",
}
# Where a keyword belongs, for one found in the middle of a line where it cannot stand.
KEYWORD_PLACES = {
    "key": "only a `hatch` line takes a `key` (`hatch DETACHED(arg: value, …) key EXPR`)",
    "windows": "`windows` ends the count form `tolerance N windows`; after `tolerance unconfirmed for` "
    "comes a duration like `30m`",
    "visits": "`visits` ends a step's re-entry bound, `max N visits`, on a line of its own",
    "sequential": "`sequential` ends a `fork ITEM in LIST` line",
    "counting": "`counting N` follows a `loop NAME = SEED` line",
    "timeout": "`timeout D` ends a `wait SIGNAL` line or a call's settings line",
    "after": "`after a, b` follows a step's name on its `step` line",
}
# What a missing piece stands for in one construct (before the field-wide words below).
PLACE_WORDS = {
    ("enum_variant", "name"): "a variant name, as in `type Level = Low | High`",
    ("node_setting", "value"): "a node name",
}
# What a missing piece stands for, by the field it fills, where the token alone ("a name") says little.
FIELD_WORDS = {
    "duration": "a duration like `30s`",
    "timeout": "a duration like `30s`",
    "key": "the dedupe key (an expression such as `task.id`)",
    "limit": "a bound (a number)",
    "condition": "a condition",
    "collection": "the list to go over",
    "seed": "a starting value",
    "default": "a default value",
    "target": "a route target (a step or an outcome)",
    "type": "a type",
    "return_type": "a return type",
    "signal": "a signal name",
    "call": "a call",
    "value": "a value",
    "left": "a value",
    "right": "a value",
    "operand": "a value",
    "count": "a number of windows",
    "payload": "the payload",
}
# tokens a quick fix may insert where the parser found them missing (closing brackets and the like)
INSERTABLE = frozenset({")", "]", "}", ":", ",", "=", "->"})
_SKIP = {"comment", "doc_comment", "narration", "_line_scan", "_error_sentinel", "end", "ERROR"}


def expected_tokens(after: Node | None, source: bytes | None = None) -> list[str]:
    """Human names of the tokens the grammar accepts right after the leaf `after`.

    With `source`, the parse state is read from a fresh parse of the top-level item holding
    `after`: in and around error recovery the states of an incrementally re-parsed tree depend on
    the edit history, and the message must not change with how the text was typed.
    """
    state = (
        _fresh_state(after, source)
        if after is not None and source is not None
        else (after.next_parse_state if after is not None else 0)
    )
    try:
        iterator = LANGUAGE.lookahead_iterator(state)
        symbols = iterator.names() if iterator is not None else []
    except Exception:  # noqa: BLE001 — an out-of-range state simply gives no hint
        return []
    names: list[str] = []
    for symbol in symbols:
        if symbol in _SKIP:
            continue
        name = TOKEN_NAMES.get(symbol)
        if name is None:
            # keywords and punctuation only; named rules (`block`, `header`) are not tokens
            kind = LANGUAGE.id_for_node_kind(symbol, False)
            if symbol.startswith("_") or kind is None or not symbol:
                continue
            name = f"`{symbol}`"
        if name not in names:
            names.append(name)
    return names


_ITEM_TREES: dict[bytes, Tree] = {}
_ITEM_TREES_LIMIT = 256


def _fresh_state(after: Node, source: bytes) -> int:
    """`after.next_parse_state` as a fresh parse of its top-level item alone has it."""
    item = after
    while item.parent is not None and item.parent.parent is not None:
        item = item.parent
    text = source[item.start_byte : item.end_byte]
    tree = _ITEM_TREES.get(text)
    if tree is None:
        if len(_ITEM_TREES) >= _ITEM_TREES_LIMIT:
            _ITEM_TREES.clear()
        tree = _ITEM_TREES[text] = Parser(LANGUAGE).parse(text)
    leaf = tree.root_node.descendant_for_byte_range(
        after.start_byte - item.start_byte, after.end_byte - item.start_byte
    )
    return leaf.next_parse_state if leaf is not None else 0


def describe(names: list[str]) -> str:
    if not names:
        return ""
    if len(names) > 7:
        return ""
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " or " + names[-1]


def line_word(source: bytes, node: Node) -> str:
    """The first word of the line holding `node`."""
    start = source.rfind(b"\n", 0, node.start_byte) + 1
    words = source[start : node.start_byte].split()
    return words[0].decode("utf-8", errors="replace").split("(", 1)[0] if words else ""


def expected_after(culprit: Node, node: Node, source: bytes) -> str:
    """ ", expected … after `x`" for a keyword line with no known form: what could follow its last
    typed token (empty when that is not one short list)."""
    leaves = [leaf for leaf in _leaves(node) if source[leaf.start_byte : leaf.end_byte].strip()]
    row = culprit.start_point.row
    last = next((leaf for leaf in reversed(leaves) if leaf.start_point.row == row), culprit)
    names = expected_tokens(last, source)
    return f" — expected {describe(names) or summarise(names)} after `{_snippet(source, last)}`"


def summarise(names: list[str]) -> str:
    """What a long list of acceptable tokens amounts to, in words."""
    ends = TOKEN_NAMES["_newline"] in names
    values = any(n in names for n in (TOKEN_NAMES["identifier"], TOKEN_NAMES["string"]))
    if ends and not values:
        return "the end of the line, or an operator that continues the expression"
    if values and not ends:
        return "a value (a name, a literal, a list or a call)"
    if names:
        return "a value, an operator, or the end of the line"
    return "the end of the line"


def line_complete(before: Node, source: bytes) -> bool:
    """Whether the line ending with `before` could end there (`step wave` with its block below), so
    an error on a later line is that line's own, not this line stopping short."""
    names = expected_tokens(before, source)
    return TOKEN_NAMES["_newline"] in names or TOKEN_NAMES["_indent"] in names
