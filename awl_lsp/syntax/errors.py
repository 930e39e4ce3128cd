"""Syntax errors in words: ERROR and MISSING nodes, unterminated strings, tab indentation.

For an ERROR node the message names what was found and, from the parse state just before it,
what the grammar would have accepted there ("expected `windows`, a name or end of line").
"""

from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node, Query, QueryCursor, Tree

from awl_lsp.syntax.parser import LANGUAGE

Range = tuple[int, int, int, int]  # start row, start byte column, end row, end byte column

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
_STRINGS = Query(LANGUAGE, "(string) @s")
_SKIP = {"comment", "doc_comment", "narration", "_line_scan", "_error_sentinel", "end", "ERROR"}


@dataclass(frozen=True)
class SyntaxProblem:
    range: Range
    message: str
    code: str


def _range(node: Node) -> Range:
    return (node.start_point.row, node.start_point.column, node.end_point.row, node.end_point.column)


def _first_leaf(node: Node) -> Node:
    while node.child_count:
        node = node.children[0]
    return node


def _previous_leaf(node: Node) -> Node | None:
    cur: Node | None = node
    while cur is not None:
        prev = cur.prev_sibling
        while prev is not None and prev.is_extra:
            prev = prev.prev_sibling
        if prev is not None:
            while prev.child_count:
                prev = prev.children[-1]
            return prev
        cur = cur.parent
    return None


def expected_tokens(after: Node | None) -> list[str]:
    """Human names of the tokens the grammar accepts right after the leaf `after`."""
    state = after.next_parse_state if after is not None else 0
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
            if symbol.startswith("_") or symbol.isidentifier() and "_" in symbol:
                continue
            name = f"`{symbol}`"
        if name not in names:
            names.append(name)
    return names


def _describe(names: list[str]) -> str:
    if not names:
        return ""
    if len(names) > 7:
        return ""
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " or " + names[-1]


def _snippet(source: bytes, node: Node) -> str:
    text = source[node.start_byte : node.end_byte].decode("utf-8", errors="replace")
    first = text.strip().splitlines()[0] if text.strip() else text
    return first if len(first) <= 40 else first[:37] + "…"


def syntax_problems(tree: Tree, source: bytes, text: str | None = None) -> list[SyntaxProblem]:
    out: list[SyntaxProblem] = []
    root = tree.root_node
    if root.has_error:
        _collect(root, source, out)
    for _, captures in QueryCursor(_STRINGS).matches(root):
        for node in captures.get("s", []):
            if node.end_byte - node.start_byte < 2 or source[node.end_byte - 1 : node.end_byte] != b'"':
                out.append(SyntaxProblem(_range(node), 'unterminated string: close it with `"`', "string"))
    if text is not None and "\t" in text:
        for row, line in enumerate(text.split("\n")):
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


def _collect(node: Node, source: bytes, out: list[SyntaxProblem]) -> None:
    for child in node.children:
        if child.is_missing:
            prev = _previous_leaf(child)
            what = _TOKEN_NAMES.get(child.type, f"`{child.type}`")
            after = f" after `{_snippet(source, prev)}`" if prev is not None else ""
            out.append(SyntaxProblem(_range(child), f"missing {what}{after}", "missing"))
        elif child.is_error:
            out.append(_error_problem(child, source))
        elif child.has_error:
            _collect(child, source, out)


def _error_problem(node: Node, source: bytes) -> SyntaxProblem:
    prev = _previous_leaf(node)
    leaf = _first_leaf(node)
    # A zero-width or whitespace-only error (an unexpected line end) reads as "the line stops here".
    found = _snippet(source, leaf) if leaf.end_byte > leaf.start_byte else ""
    expected = _describe(expected_tokens(prev))
    if not found.strip():
        found_text = "the line ends here"
    else:
        found_text = f"unexpected `{found}`"
    after = (
        f" after `{_snippet(source, prev)}`" if prev is not None and prev.type not in ("_newline",) else ""
    )
    message = found_text + after
    if expected:
        message += f": expected {expected}"
    start = node.start_point
    end = node.end_point
    if end.row > start.row:  # keep the squiggle on the first line of a long error
        line_end = source.find(b"\n", node.start_byte)
        end_col = (line_end if line_end != -1 else len(source)) - (node.start_byte - start.column)
        return SyntaxProblem(
            (start.row, start.column, start.row, max(end_col, start.column + 1)), message, "syntax"
        )
    return SyntaxProblem(_range(node), message, "syntax")
