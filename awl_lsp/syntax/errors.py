"""Syntax errors in words: ERROR and MISSING nodes, unterminated strings, tab indentation.

For an ERROR node the message names what was found and, from the parse state just before it,
what the grammar would have accepted there ("expected `windows`, a name or end of line").
"""

from __future__ import annotations

import re
from typing import Any

from tree_sitter import Node, Parser, Tree

from awl_lsp.syntax.layout import excused, item_layout_problems, layout_problems
from awl_lsp.syntax.layout_nodes import BLOCK_NODES
from awl_lsp.syntax.leaves import first_leaf as _first_leaf
from awl_lsp.syntax.leaves import last_leaf as _last_leaf
from awl_lsp.syntax.leaves import leaves as _leaves
from awl_lsp.syntax.leaves import node_range as _range
from awl_lsp.syntax.leaves import previous_leaf as _previous_leaf
from awl_lsp.syntax.leaves import snippet as _snippet
from awl_lsp.syntax.parser import LANGUAGE
from awl_lsp.syntax.problems import Problem, Severity
from awl_lsp.syntax.strings import item_strings, string_problems, unterminated_strings
from awl_lsp.syntax.unclosed import open_at_end, unclosed_fields

SyntaxProblem = Problem  # syntax errors are ordinary problems (severity error, no fix data yet)

# Problems found while the engine reads the text into tokens, before it parses anything: the engine
# reads the whole document first, so one of these anywhere is its first (and only) error, even when
# an earlier line would not parse. Where one exists, the parse problems are consequences of a text
# the engine never got to parse and are left out (see `reading_stops`).
READING_CODES = frozenset({"odd-indent", "indent-jump", "tab-indent", "string"})

_TOKEN_NAMES = {
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
_LINE_HINTS = {
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
_AFTER_WORDS = {
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
_KEYWORD_PLACES = {
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
_PLACE_WORDS = {
    ("enum_variant", "name"): "a variant name, as in `type Level = Low | High`",
    ("node_setting", "value"): "a node name",
}
# What a missing piece stands for, by the field it fills, where the token alone ("a name") says little.
_FIELD_WORDS = {
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
_INSERTABLE = frozenset({")", "]", "}", ":", ",", "=", "->"})
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
        name = _TOKEN_NAMES.get(symbol)
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


def _describe(names: list[str]) -> str:
    if not names:
        return ""
    if len(names) > 7:
        return ""
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " or " + names[-1]


def syntax_problems(
    tree: Tree,
    source: bytes,
    text: str | None = None,
    cache: dict | None = None,
    layout_cache: dict | None = None,
) -> list[SyntaxProblem]:
    """Every syntax problem of a tree, described in words.

    `cache` and `layout_cache` (dicts the caller keeps per document between versions) let the
    per-item string and layout scans reuse the items an edit did not touch; without them
    everything is scanned.
    """
    return finish_problems(tree.root_node, _syntax_problems(tree, source, text, cache, layout_cache))


def reading_stops(problems: list[SyntaxProblem]) -> bool:
    """Whether the engine stops while reading the text (before parsing or checking it)."""
    return any(problem.code in READING_CODES for problem in problems)


def _syntax_problems(
    tree: Tree, source: bytes, text: str | None, cache: dict | None, layout_cache: dict | None
) -> list[SyntaxProblem]:
    out: list[SyntaxProblem] = []
    root = tree.root_node
    if root.has_error:
        _collect(root, source, out)
    out.extend(unterminated_strings(root, source, cache))
    out.extend(
        SyntaxProblem(span, message, code)
        for span, message, code in layout_problems(tree, source, layout_cache)
    )
    if text is not None and "\t" in text:
        out += tab_problems(text)
    return out


def tab_problems(text: str) -> list[SyntaxProblem]:
    """A problem on each line indented with a tab."""
    out = []
    for row, line in enumerate(re.split(r"\r\n|\r|\n", text)):
        indent = len(line) - len(line.lstrip(" \t"))
        if "\t" in line[:indent]:
            out.append(
                SyntaxProblem(
                    (row, 0, row, indent),
                    "tab in indentation: AWL blocks are indented with two spaces per level",
                    "tab-indent",
                )
            )
    return out


def item_syntax_problems(
    root: Node, item: Node, source: bytes
) -> tuple[list[SyntaxProblem], list[SyntaxProblem], list[SyntaxProblem]]:
    """One top-level item's share of `syntax_problems` (before `finish_problems`): its errors, its
    unterminated strings and its layout problems (a clean item's read as if the whole tree were
    clean: `finish_problems` drops what an error elsewhere excuses). Together over the items, in
    order, they are what `_syntax_problems` finds, but for a tree with an error that no child shows
    (`root_errors`) and for tabs (`tab_problems`)."""
    errors: list[SyntaxProblem] = []
    if item.is_missing or item.is_error or item.has_error:
        _child_errors(root, None, item, source, errors)  # the root's children have no field names
    strings: list[SyntaxProblem] = []
    if source.find(b'"', item.start_byte, item.end_byte) != -1:
        strings = string_problems(item_strings(item, source, 0), 0)
    layout = [SyntaxProblem(*found) for found in item_layout_problems(root, item, source)]
    return errors, strings, layout


def root_errors(root: Node, source: bytes) -> list[SyntaxProblem]:
    """The error of a tree that has one no top-level child shows (see `_collect`), else none."""
    if root.has_error and not any(c.is_missing or c.is_error or c.has_error for c in root.children):
        return [_hidden_error(root, source)]
    return []


def finish_problems(root: Node, found: list[SyntaxProblem]) -> list[SyntaxProblem]:
    """What `syntax_problems` makes of the problems found (errors, strings, layout, tabs, in that
    order): in a tree with an error, the layout problems an error excuses dropped (`excused`); only
    the reading problems where the engine stops while reading; one problem per line and message."""
    if root.has_error:
        found = [p for p in found if not excused(root, p.range, p.code)]
    if reading_stops(found):
        found = [problem for problem in found if problem.code in READING_CODES]
    seen: set[tuple[int, str]] = set()
    unique: list[SyntaxProblem] = []
    for problem in found:  # two ERROR nodes on one line often tell the same story
        key = (problem.range[0], problem.message)
        if key not in seen:
            seen.add(key)
            unique.append(problem)
    return unique


# The scanner tracks at most this many nested blocks (MAX_DEPTH in tree-sitter-awl/src/scanner.c);
# a line deeper than that is left without its line token, so the parse fails right there.
MAX_BLOCK_DEPTH = 200
_BLOCKS = BLOCK_NODES | {"unexpected_block", "call_config"}


def _block_depth(node: Node) -> int:
    depth = 0
    cur: Node | None = node
    while cur is not None:
        if cur.type in _BLOCKS:
            depth += 1
        cur = cur.parent
    return depth


def _next_code_row(source: bytes, byte: int) -> int:
    """The row of the first non-blank line after the line holding `byte`."""
    return _next_code_line(source, byte)[0]


def _next_code_line(source: bytes, byte: int) -> tuple[int, bytes]:
    """The row and text of the first non-blank line after the line holding `byte` (else of the
    last line). The lines are read from `byte` on, one at a time: a key typed high in a long
    document does not split the rest of it."""
    row = source.count(b"\n", 0, byte)
    end = source.find(b"\n", byte)
    line = source[source.rfind(b"\n", 0, byte) + 1 : end if end >= 0 else len(source)]
    while end >= 0:
        start, end = end + 1, source.find(b"\n", end + 1)
        line = source[start : end if end >= 0 else len(source)]
        row += 1
        if line.strip():
            break
    return row, line


def _hidden_error(node: Node, source: bytes) -> SyntaxProblem:
    """`node` has an error no visible child shows: a line token the parser had to invent."""
    last = _last_leaf(node)
    if _block_depth(node) >= MAX_BLOCK_DEPTH:
        row, line = _next_code_line(source, node.end_byte)
        indent = len(line) - len(line.lstrip(b" \t"))
        return SyntaxProblem(
            (row, indent, row, max(len(line.rstrip()), indent + 1)),
            f"too deeply nested: blocks nest at most {MAX_BLOCK_DEPTH} levels deep; "
            "move this line's work into a step of its own",
            "too-deep",
        )
    row, col = last.end_point.row, last.end_point.column
    repeated = _line_after(node, last, source) or _arm_indented_after(last, source)
    if repeated is not None:
        return repeated
    message = f"missing end of line after `{_snippet(source, last)}`"
    return SyntaxProblem((row, col, row, col + 1), message, "missing")


def _collect(node: Node, source: bytes, out: list[SyntaxProblem]) -> None:
    if not any(c.is_missing or c.is_error or c.has_error for c in node.children):
        out.append(_hidden_error(node, source))
        return
    for index, child in enumerate(node.children):
        _child_errors(node, index, child, source, out)


def _child_errors(
    node: Node, index: int | None, child: Node, source: bytes, out: list[SyntaxProblem]
) -> None:
    """The errors `_collect` finds in one child of `node` (its `index`-th, where its field name
    matters): a missing token, an ERROR, or what lies below a child with an error."""
    if child.is_missing:
        prev = _previous_leaf(child)
        if child.type in ("_newline", "_dedent") and prev is not None:
            repeated = _line_after(node, prev, source) or _arm_indented_after(prev, source)
            if repeated is not None:
                out.append(repeated)
                return
        what = _TOKEN_NAMES.get(child.type, f"`{child.type}`")
        if child.is_named:  # a value the parser stood in: name it by the place it fills
            place = (node.field_name_for_child(index) if index is not None else None) or ""
            what = _PLACE_WORDS.get((node.type, place)) or _FIELD_WORDS.get(place, what)
        elif child.type in ("success", "failure"):
            what = "`success` or `failure`"
        after = f" after `{_snippet(source, prev)}`" if prev is not None else ""
        data: dict[str, Any] | None = (
            {"missing": child.type} if not child.is_named and child.type in _INSERTABLE else None
        )
        span = _range(child)
        message = f"missing {what}{after}"
        # a value after `name:` (a bare name could still be waiting for its `:`)
        lead = _previous_leaf(prev) if prev is not None else None
        complete = prev is not None and (
            ((prev.is_named or prev.type in _CLOSERS) and (lead is None or lead.type != ","))
            or prev.type == ","  # a list that goes on on the next line, where the engine looks
        )
        if (
            child.type == "}"
            and node.type == "record_body"
            and node.start_point.row < span[0]
            and _rest_is_blank(source, child.start_byte)
        ):
            out.extend(unclosed_fields(node, child, source, data))
            return
        if (
            child.type in _CLOSERS
            and complete
            and node.type != "list_type"  # a type's `[T]` ends with its line, where the engine looks
            and _rest_is_blank(source, child.start_byte)
        ):
            # the line ended with the bracket open: the parser finds out on the next line, which
            # is where the engine names it; the fix still inserts where the bracket belongs
            row = _next_code_row(source, child.start_byte)
            if row > span[0]:
                if data is not None:
                    data = {**data, "insert_at": [span[0], span[1]]}
                opener = _CLOSERS[child.type]
                message += f": the `{opener}` is still open on this line"
                out.append(
                    SyntaxProblem(
                        span,
                        f"the `{opener}` is never closed: end it with `{child.type}` here",
                        "missing",
                        Severity.HINT,
                    )
                )
                span = (row, 0, row, 0)
        out.append(SyntaxProblem(span, message, "missing", data=data))
    elif child.is_error:
        out.extend(open_at_end(child, source) or [_error_problem(child, source)])
    elif child.has_error:
        _collect(child, source, out)


# closers the engine looks for across line ends (a type's `{ … }` on one line ends with its line)
_CLOSERS = {")": "(", "]": "["}


def _rest_is_blank(source: bytes, byte: int) -> bool:
    """Whether only white space or a comment follows `byte` on its line."""
    end = source.find(b"\n", byte)
    rest = source[byte : end if end != -1 else len(source)].strip()
    return not rest or rest.startswith(b"//")


def _error_problem(node: Node, source: bytes) -> SyntaxProblem:
    """Describe an ERROR where the parse really failed, not where recovery began.

    tree-sitter wraps what it could not fit into the ERROR node, often starting with complete
    statements it had already read (a half-typed outcome turns the fork before it into ERROR
    content). The first token the ERROR holds directly — after those complete pieces — is where the
    input stopped making sense; the state after the piece before it says what was expected there.
    """
    children = [
        c for c in node.children if not (c.is_extra and c.type in ("comment", "doc_comment", "narration"))
    ]
    repeated = _second_of_a_kind(node, children, source)
    if repeated is not None:
        return repeated
    culprit: Node | None = None
    before: Node | None = None
    for i, child in enumerate(children):
        if child.child_count == 0 and source[child.start_byte : child.end_byte].strip():
            culprit = child
            prior = children[:i]
            before = _last_leaf(prior[-1]) if prior else _previous_leaf(node)
            break
    if culprit is None:
        leaves = [leaf for leaf in _leaves(node) if source[leaf.start_byte : leaf.end_byte].strip()]
        culprit = leaves[0] if leaves else _first_leaf(node)
        before = _previous_leaf(node)
    while before is not None and not source[before.start_byte : before.end_byte].strip():
        before = _previous_leaf(before)
    row, col = culprit.start_point.row, culprit.start_point.column
    parent = node.parent
    opener = parent.children[0] if parent is not None and parent.child_count else None
    if (
        before is not None
        and opener is not None
        and parent is not None
        and parent.type != "source_file"
        and not opener.is_named
        and opener.type[:1].isalpha()
        and opener.start_point.row == before.end_point.row < row
        and not _line_complete(before, source)
    ):
        # the construct around the error began on an earlier line that stopped short; the parser
        # only noticed on the next line
        typed = source[opener.start_byte : before.end_byte].decode("utf-8", errors="replace").strip()
        message = f"incomplete `{opener.type}` line: `{typed}`"
        hint = _LINE_HINTS.get(opener.type)
        if hint:
            message += f" — the form is `{hint}`"
        else:
            names = expected_tokens(before, source)
            wanted = _describe(names) or _summarise(names)
            message += f" — expected {wanted} after `{_snippet(source, before)}`"
        r, c = opener.start_point.row, opener.start_point.column
        return SyntaxProblem((r, c, r, before.end_point.column), message, "syntax")
    word = source[culprit.start_byte : culprit.end_byte].decode("utf-8", errors="replace")
    keyword = not culprit.is_named and culprit.type[:1].isalpha()
    line_end = source.find(b"\n", culprit.start_byte)
    stop = min(node.end_byte, line_end if line_end != -1 else len(source))
    typed = source[culprit.start_byte : stop].decode("utf-8", errors="replace").strip()
    if keyword and culprit.type in ("json", "schema") and "{" in typed:
        message = (
            f"the `{culprit.type} {{ … }}` body is never closed: `{typed}` — close every `{{`, `[` and "
            "string it opens"
        )
        end_col = col + len(source[culprit.start_byte : stop].rstrip())
        return SyntaxProblem((row, col, row, max(end_col, col + 1)), message, "syntax")
    if keyword and (before is None or before.end_point.row < row):
        # a keyword-led line the parser gave up on: show the line as typed, up to the error's end
        message = f"incomplete `{culprit.type}` line: `{typed}`"
        hint = _LINE_HINTS.get(culprit.type)
        if hint:
            message += f" — the form is `{hint}`"
        else:
            message += _expected_after(culprit, node, source)
        end_col = col + len(source[culprit.start_byte : stop].rstrip())
        return SyntaxProblem((row, col, row, max(end_col, col + 1)), message, "syntax")
    names = expected_tokens(before, source)
    expected = _describe(names)
    after = f" after `{_snippet(source, before)}`" if before is not None else ""
    if keyword and culprit.type in _AFTER_WORDS and f"`{culprit.type}`" in names and typed == culprit.type:
        # the keyword fits here, and the line stops right after it
        what = _AFTER_WORDS[culprit.type]
        message = f"missing {what} after `{culprit.type}`"
        hint = _LINE_HINTS.get(_line_word(source, culprit))
        if hint and re.search(rf"\b{re.escape(culprit.type)}\b", hint):  # the form shows this keyword
            message += f" — the form is `{hint}`"
        return SyntaxProblem((row, col, row, max(culprit.end_point.column, col + 1)), message, "syntax")
    message = f"unexpected `{_snippet(source, culprit)}`{after}"
    place = _KEYWORD_PLACES.get(word)
    if place:
        message += f": {place}"
    else:
        message += f": expected {expected or _summarise(names)}"
    end_col = culprit.end_point.column if culprit.end_point.row == row else col + 1
    return SyntaxProblem((row, col, row, max(end_col, col + 1)), message, "syntax")


def _line_word(source: bytes, node: Node) -> str:
    """The first word of the line holding `node`."""
    start = source.rfind(b"\n", 0, node.start_byte) + 1
    words = source[start : node.start_byte].split()
    return words[0].decode("utf-8", errors="replace").split("(", 1)[0] if words else ""


def _expected_after(culprit: Node, node: Node, source: bytes) -> str:
    """ ", expected … after `x`" for a keyword line with no known form: what could follow its last
    typed token (empty when that is not one short list)."""
    leaves = [leaf for leaf in _leaves(node) if source[leaf.start_byte : leaf.end_byte].strip()]
    row = culprit.start_point.row
    last = next((leaf for leaf in reversed(leaves) if leaf.start_point.row == row), culprit)
    names = expected_tokens(last, source)
    return f" — expected {_describe(names) or _summarise(names)} after `{_snippet(source, last)}`"


def _summarise(names: list[str]) -> str:
    """What a long list of acceptable tokens amounts to, in words."""
    ends = _TOKEN_NAMES["_newline"] in names
    values = any(n in names for n in (_TOKEN_NAMES["identifier"], _TOKEN_NAMES["string"]))
    if ends and not values:
        return "the end of the line, or an operator that continues the expression"
    if values and not ends:
        return "a value (a name, a literal, a list or a call)"
    if names:
        return "a value, an operator, or the end of the line"
    return "the end of the line"


def _line_complete(before: Node, source: bytes) -> bool:
    """Whether the line ending with `before` could end there (`step wave` with its block below), so
    an error on a later line is that line's own, not this line stopping short."""
    names = expected_tokens(before, source)
    return _TOKEN_NAMES["_newline"] in names or _TOKEN_NAMES["_indent"] in names


def _arm_indented_after(last: Node, source: bytes) -> SyntaxProblem | None:
    """An `outcome` line indented deeper than the outcome arm `last` ends: the engine names it."""
    arm: Node | None = last
    while arm is not None and arm.type != "step_outcome":
        arm = arm.parent
    row, line = _next_code_line(source, last.end_byte)
    if arm is None or row <= last.end_point.row:
        return None
    indent = len(line) - len(line.lstrip(b" "))
    if not line.lstrip(b" ").startswith(b"outcome ") or indent <= arm.start_point.column:
        return None
    return SyntaxProblem(
        (row, indent, row, len(line.rstrip())),
        "this `outcome` arm is indented under the arm above: every outcome arm of a step starts at the "
        "step's statement indentation (only an arm's `route` line goes one level deeper)",
        "syntax",
    )


# What a construct takes only one of, by the kind of the line repeated (facts of LANGUAGE.md).
_ONE_ONLY = {
    "call_config": "a call declaration takes one settings line: put every setting on that one line, "
    "separated by commas",
    "route_statement": "an outcome arm takes one `route`: give this route an `outcome` arm of its own, "
    "or move the work above the outcome clauses",
}


def _second_of_a_kind(node: Node, children: list[Node], source: bytes) -> SyntaxProblem | None:
    """An ERROR holding only complete lines, followed by one more: the construct had its line already.

    Error recovery keeps the last of two lines where only one is allowed and wraps the first in the
    ERROR; the parse really failed where the second began, so that is the line to name.
    """
    if not children or any(not c.is_named or c.has_error or c.is_missing for c in children):
        return None
    after = node.next_named_sibling
    while after is not None and after.is_extra:
        after = after.next_named_sibling
    if after is None or after.has_error or after.start_point.row <= children[-1].start_point.row:
        return None
    if after.type != children[-1].type:
        return None
    first = _first_leaf(after)
    row, col = first.start_point.row, first.start_point.column
    line_end = source.find(b"\n", first.start_byte)
    stop = min(after.end_byte, line_end if line_end != -1 else len(source))
    typed = source[first.start_byte : stop].decode("utf-8", errors="replace").strip()
    reason = _ONE_ONLY.get(after.type, "the construct above already has this line")
    message = f"unexpected second `{_snippet(source, first)}` line `{typed}`: {reason}"
    return SyntaxProblem((row, col, row, max(col + len(typed), col + 1)), message, "syntax")


def _line_after(node: Node, last: Node, source: bytes) -> SyntaxProblem | None:
    """A line token the parser invented after `last` because the next line repeats a one-only line.

    The parse failed where that next line began (a second `route` in an outcome arm, a second
    settings line under an action), so the problem is named there rather than after `last`.
    """
    row, line = _next_code_line(source, last.end_byte)
    if row <= last.end_point.row:
        return None
    root = node
    while root.parent is not None:
        root = root.parent
    col = len(line) - len(line.lstrip(b" "))
    start = root.descendant_for_point_range((row, col), (row, col))
    while start is not None and start.type not in _ONE_ONLY and start.parent is not None:
        if start.parent.start_point != start.start_point:
            start = None
            break
        start = start.parent
    if start is None or start.type not in _ONE_ONLY:
        return None
    typed = line.decode("utf-8", errors="replace").strip()
    word = typed.split(" ", 1)[0].split("(", 1)[0]
    message = f"unexpected second `{word}` line `{typed}`: {_ONE_ONLY[start.type]}"
    return SyntaxProblem((row, col, row, max(col + len(typed), col + 1)), message, "syntax")
