"""Syntax errors in words: ERROR and MISSING nodes, unterminated strings, tab indentation.

For an ERROR node the message names what was found and, from the parse state just before it,
what the grammar would have accepted there ("expected `windows`, a name or end of line"): the
words for that live in `expected`, and a line repeated where only one is allowed in `repeated_lines`.
"""

from __future__ import annotations

import re
from typing import Any

from tree_sitter import Node, Tree

from awl_lsp.syntax.expected import (
    AFTER_WORDS,
    FIELD_WORDS,
    INSERTABLE,
    KEYWORD_PLACES,
    LINE_HINTS,
    PLACE_WORDS,
    TOKEN_NAMES,
    describe,
    expected_after,
    expected_tokens,
    line_complete,
    line_word,
    summarise,
)
from awl_lsp.syntax.layout import excused, item_layout_problems, layout_problems
from awl_lsp.syntax.layout_nodes import BLOCK_NODES
from awl_lsp.syntax.leaves import first_leaf as _first_leaf
from awl_lsp.syntax.leaves import last_leaf as _last_leaf
from awl_lsp.syntax.leaves import leaves as _leaves
from awl_lsp.syntax.leaves import node_range as _range
from awl_lsp.syntax.leaves import previous_leaf as _previous_leaf
from awl_lsp.syntax.leaves import snippet as _snippet
from awl_lsp.syntax.problems import Problem, Severity
from awl_lsp.syntax.repeated_lines import (
    arm_indented_after,
    line_after,
    next_code_line,
    next_code_row,
    second_of_a_kind,
)
from awl_lsp.syntax.strings import item_strings, string_problems, unterminated_strings
from awl_lsp.syntax.unclosed import open_at_end, unclosed_fields

SyntaxProblem = Problem  # syntax errors are ordinary problems (severity error, no fix data yet)

# Problems found while the engine reads the text into tokens, before it parses anything: the engine
# reads the whole document first, so one of these anywhere is its first (and only) error, even when
# an earlier line would not parse. Where one exists, the parse problems are consequences of a text
# the engine never got to parse and are left out (see `reading_stops`).
READING_CODES = frozenset({"odd-indent", "indent-jump", "tab-indent", "string"})


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


def _hidden_error(node: Node, source: bytes) -> SyntaxProblem:
    """`node` has an error no visible child shows: a line token the parser had to invent."""
    last = _last_leaf(node)
    if _block_depth(node) >= MAX_BLOCK_DEPTH:
        row, line = next_code_line(source, node.end_byte)
        indent = len(line) - len(line.lstrip(b" \t"))
        return SyntaxProblem(
            (row, indent, row, max(len(line.rstrip()), indent + 1)),
            f"too deeply nested: blocks nest at most {MAX_BLOCK_DEPTH} levels deep; "
            "move this line's work into a step of its own",
            "too-deep",
        )
    row, col = last.end_point.row, last.end_point.column
    repeated = line_after(node, last, source) or arm_indented_after(last, source)
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
            repeated = line_after(node, prev, source) or arm_indented_after(prev, source)
            if repeated is not None:
                out.append(repeated)
                return
        what = TOKEN_NAMES.get(child.type, f"`{child.type}`")
        if child.is_named:  # a value the parser stood in: name it by the place it fills
            place = (node.field_name_for_child(index) if index is not None else None) or ""
            what = PLACE_WORDS.get((node.type, place)) or FIELD_WORDS.get(place, what)
        elif child.type in ("success", "failure"):
            what = "`success` or `failure`"
        after = f" after `{_snippet(source, prev)}`" if prev is not None else ""
        data: dict[str, Any] | None = (
            {"missing": child.type} if not child.is_named and child.type in INSERTABLE else None
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
            row = next_code_row(source, child.start_byte)
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
    repeated = second_of_a_kind(node, children, source)
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
        and not line_complete(before, source)
    ):
        # the construct around the error began on an earlier line that stopped short; the parser
        # only noticed on the next line
        typed = source[opener.start_byte : before.end_byte].decode("utf-8", errors="replace").strip()
        message = f"incomplete `{opener.type}` line: `{typed}`"
        hint = LINE_HINTS.get(opener.type)
        if hint:
            message += f" — the form is `{hint}`"
        else:
            names = expected_tokens(before, source)
            wanted = describe(names) or summarise(names)
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
        hint = LINE_HINTS.get(culprit.type)
        if hint:
            message += f" — the form is `{hint}`"
        else:
            message += expected_after(culprit, node, source)
        end_col = col + len(source[culprit.start_byte : stop].rstrip())
        return SyntaxProblem((row, col, row, max(end_col, col + 1)), message, "syntax")
    names = expected_tokens(before, source)
    expected = describe(names)
    after = f" after `{_snippet(source, before)}`" if before is not None else ""
    if keyword and culprit.type in AFTER_WORDS and f"`{culprit.type}`" in names and typed == culprit.type:
        # the keyword fits here, and the line stops right after it
        what = AFTER_WORDS[culprit.type]
        message = f"missing {what} after `{culprit.type}`"
        hint = LINE_HINTS.get(line_word(source, culprit))
        if hint and re.search(rf"\b{re.escape(culprit.type)}\b", hint):  # the form shows this keyword
            message += f" — the form is `{hint}`"
        return SyntaxProblem((row, col, row, max(culprit.end_point.column, col + 1)), message, "syntax")
    message = f"unexpected `{_snippet(source, culprit)}`{after}"
    place = KEYWORD_PLACES.get(word)
    if place:
        message += f": {place}"
    else:
        message += f": expected {expected or summarise(names)}"
    end_col = culprit.end_point.column if culprit.end_point.row == row else col + 1
    return SyntaxProblem((row, col, row, max(end_col, col + 1)), message, "syntax")
