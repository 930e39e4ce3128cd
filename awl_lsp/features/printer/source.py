"""The parsed text as the printer reads it: node text, tokens and the spacing between them,
comment lines and end-of-line comments, blank rows."""

from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node

from awl_lsp.syntax import SyntaxDocument

COMMENTS = frozenset({"comment", "doc_comment"})
VERBATIM = frozenset({"string", "raw_string", "json_body", "comment", "doc_comment", "narration"})
REFUSED = frozenset({"unknown_clause", "unknown_declaration", "unexpected_block", "unknown_setting"})
NO_SPACE_BEFORE = frozenset({",", ")", "]", ":", "?", ".."})
NO_SPACE_AFTER = frozenset({"(", "[", ".", ".."})


def literal(kind: str, text: str) -> str:
    """A number as the engine prints it: an integer or a duration's count without leading zeros
    (`007` → `7`, `05m` → `5m`); anything else (floats too) as written."""
    if kind == "integer" and text.isdigit():
        return str(int(text))
    if kind == "duration":
        digits = text.rstrip("smhd")
        if digits.isdigit():
            return str(int(digits)) + text[len(digits) :]
    return text


class Unprintable(Exception):
    """The printer cannot reproduce this document faithfully; it is left alone."""


@dataclass
class Tok:
    text: str
    row: int  # source row of its last line
    kind: str
    parent: str
    end_byte: int = 0


class Source:
    """One parsed document; the printer classes build on it."""

    def __init__(self, doc: SyntaxDocument) -> None:
        self.doc = doc
        self.src = doc.source
        self.rows = doc.text.split("\n")
        self.trailing: dict[int, str] = {}  # row -> the comment that ends that row after code
        self.used_trailing: set[int] = set()
        inside = self._survey()
        self.blank_rows = {i for i, line in enumerate(self.rows) if not line.strip() and i not in inside}

    def _survey(self) -> set[int]:
        """One walk over the tree: end-of-line comments (a `///` after code is an ordinary comment
        there), narration out of place, and the rows inside multi-line raw strings/JSON bodies."""
        inside: set[int] = set()
        root = self.doc.root
        cursor = self.doc.tree.walk()
        while True:
            node = cursor.node
            if node is None:
                break
            kind = node.type
            descend = False
            if kind in COMMENTS:
                if self.is_trailing(node):
                    self.trailing[node.start_point.row] = self.comment_text(node, plain=True)
            elif kind == "narration":
                if node.parent != root:
                    raise Unprintable("narration inside a declaration")
            elif kind in ("raw_string", "json_body"):
                inside.update(range(node.start_point.row + 1, node.end_point.row + 1))
            else:
                descend = node.child_count > 0
            if descend and cursor.goto_first_child():
                continue
            while not cursor.goto_next_sibling():
                if not cursor.goto_parent():
                    return inside
        return inside

    def text(self, node: Node) -> str:
        return self.src[node.start_byte : node.end_byte].decode("utf-8")

    def comment_text(self, node: Node, plain: bool = False) -> str:
        """A comment line's text as printed: `//` then one space and the text after the slashes (less
        one space); `//x` becomes `// x`, `// ` becomes `//`. Doc and narration lines stay as written."""
        text = self.text(node).rstrip("\n")
        if plain or node.type == "comment":
            body = text[2:].removeprefix(" ")
            text = "// " + body if body else "//"
        return text

    def is_trailing(self, node: Node) -> bool:
        row, col = node.start_point
        return bool(self.src[self.doc.lines.byte_starts[row] : self.doc.lines.byte_starts[row] + col].strip())

    def blank_before(self, node: Node) -> bool:
        return node.start_point.row - 1 in self.blank_rows

    def last_row(self, node: Node) -> int:
        """The last source row that holds text of `node`."""
        row = node.end_point.row if node.end_point.column else node.end_point.row - 1
        while row > node.start_point.row and row in self.blank_rows:
            row -= 1
        return row

    def tokens(self, node: Node, skip: frozenset[int] = frozenset()) -> list[Tok]:
        out: list[Tok] = []
        self._collect(node, skip, out)
        return out

    def tokens_of(self, node: Node) -> list[Tok]:
        if node.child_count == 0:
            parent = node.parent.type if node.parent else ""
            return [
                Tok(literal(node.type, self.text(node)), node.end_point.row, node.type, parent, node.end_byte)
            ]
        return self.tokens(node)

    def _collect(self, node: Node, skip: frozenset[int], out: list[Tok]) -> None:
        for child in node.children:
            if child.id in skip:
                continue
            if child.type in REFUSED or child.is_missing:
                raise Unprintable(child.type)
            if child.type in COMMENTS:
                if self.is_trailing(child):
                    continue
                raise Unprintable("comment inside a line")
            if child.child_count == 0 or child.type in VERBATIM:
                text = self.text(child)
                if not text:
                    continue
                out.append(
                    Tok(literal(child.type, text), child.end_point.row, child.type, node.type, child.end_byte)
                )
            else:
                self._collect(child, skip, out)

    def join(self, toks: list[Tok]) -> str:
        parts: list[str] = []
        prev: Tok | None = None
        for i, tok in enumerate(toks):
            if tok.text == "," and i + 1 < len(toks) and toks[i + 1].text in (")", "]", "}"):
                continue  # a trailing comma inside brackets goes
            if prev is not None and self._space(prev, tok):
                parts.append(" ")
            parts.append(tok.text)
            prev = tok
        return "".join(parts)

    @staticmethod
    def _space(prev: Tok, tok: Tok) -> bool:
        t, p = tok.text, prev.text
        if p in NO_SPACE_AFTER and prev.kind != "json_body":
            return False
        if t in NO_SPACE_BEFORE:
            return False
        if t == "(":
            return tok.parent == "parenthesized_expression"
        if t == "[":
            return tok.parent != "index_expression"
        if t == ".":
            return tok.parent == "relative_field"
        return True

    def with_trailing(self, toks: list[Tok], text: str) -> str:
        rows = sorted({t.row for t in toks})
        found = [r for r in rows if r in self.trailing and r not in self.used_trailing]
        if len(found) > 1:
            raise Unprintable("two comments on one line")
        for r in found:
            self.used_trailing.add(r)
            text = f"{text} {self.trailing[r]}"
        return text
