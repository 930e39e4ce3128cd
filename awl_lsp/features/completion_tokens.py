"""The token view of a document that completion reasons over: `Tok`, `Plan` and `Analysis`.

The analysis reads the tree's tokens (its non-empty leaves, ERROR nodes' children included), so
it works on the half-typed line the user is editing: the tokens of the logical line before the
cursor say which construct is open, and the block the line belongs to comes from the opener
lines above it (the nearest less-indented code line, then the next, …). Bracket depth comes from
the bracket tokens, so multi-line argument lists and record bodies are understood too. The text
of the line is read only for the partial word under the cursor.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tree_sitter import Node

from awl_lsp.features.snapshot import Snapshot
from awl_lsp.model import Kind, SemanticModel
from awl_lsp.model.types import BOOL, INT, STRING, UNKNOWN, AwlType, TypeEnv, element_of

_TRIVIA = frozenset({"comment", "doc_comment", "narration"})
_OPEN = {"(": ")", "[": "]", "{": "}"}
_CLOSE = frozenset(_OPEN.values())
_TOP_WORDS = frozenset("workflow workloop const type worker child detached subflow step retire".split())
_COMBINATORS = frozenset("filter map sort count any all".split())
_OPERATORS = frozenset("and or not == != < <= > >= + is".split())
_VALUE_END = frozenset(
    {"identifier", "integer", "float", "string", "raw_string", "duration", "true", "false", ")", "]"}
)
_LITERALS = frozenset({"integer", "float", "string", "raw_string", "duration"})


def is_word(text: str) -> bool:
    return bool(text) and (text[0].isalpha() or text[0] == "_") and all(c.isalnum() or c == "_" for c in text)


@dataclass
class Tok:
    """One token of the document, with the bracket depth at its start."""

    node: Node
    text: str
    row: int
    col: int
    start: int  # byte offset
    end: int
    depth: int
    named: bool

    @property
    def kind(self) -> str:
        """`identifier`, a literal's type, or the token's own text for keywords and punctuation."""
        if self.node.type in ("identifier", "type_identifier") or self.node.type in _LITERALS:
            return "identifier" if self.node.type == "type_identifier" else self.node.type
        return self.text


@dataclass
class Plan:
    """What to offer at the cursor; `completion.py` turns it into items."""

    slots: list[str] = field(default_factory=list)  # keyword slots, in order
    words: list[str] = field(default_factory=list)  # single keywords
    drop: set[str] = field(default_factory=set)  # keywords not to offer
    types: bool = False
    values: bool = False
    constants_only: bool = False  # values restricted to consts (header defaults, const values)
    callables: bool = False
    record_types: bool = False
    stage_actions: bool = False
    detached: bool = False
    reports: bool = False
    signals: bool = False
    children: bool = False
    route_targets: bool = False
    confirms_targets: bool = False
    steps: list[str] | None = None  # step names to offer
    arguments: tuple[str, str] | None = None  # (how, callee): names for an argument list
    given: set[str] = field(default_factory=set)  # argument names already written
    fields_of: AwlType | None = None  # offer the fields of this type
    workflow_fields: bool = False
    enclosing_steps: list[str] = field(default_factory=list)  # innermost first
    scope: str = ""
    row: int = 0


class Analysis:
    """The token view of one snapshot around one cursor position."""

    def __init__(self, snap: Snapshot, row: int, col: int) -> None:
        self.snap = snap
        self.model: SemanticModel = snap.model
        self.row = row
        line = snap.doc.lines.line_text(row).encode("utf-8")
        col = min(col, len(line))
        start = col
        while start > 0 and (chr(line[start - 1]).isalnum() or line[start - 1] == ord("_")):
            start -= 1
        end = col
        while end < len(line) and (chr(line[end]).isalnum() or line[end] == ord("_")):
            end += 1
        self.prefix = line[start:col].decode("utf-8", errors="replace")
        self.word_start, self.word_end = start, end
        starts = snap.doc.lines.byte_starts
        base = starts[row] if row < len(starts) else len(snap.doc.source)
        self.word_byte = base + start
        self.toks = self._tokens(snap, *self._item_bytes(snap, row))
        # index of the first token at or after the partial word
        self.cut = next((i for i, t in enumerate(self.toks) if t.start >= self.word_byte), len(self.toks))
        self.scope = ""
        self.visits = False  # the cursor's step is bounded by `max N visits`
        self._env: TypeEnv | None = None
        self.row_first: dict[int, int] = {}
        for i, t in enumerate(self.toks):
            if t.row not in self.row_first:
                self.row_first[t.row] = i

    # ------------------------------------------------------------------ tokens
    @staticmethod
    def _item_bytes(snap: Snapshot, row: int) -> tuple[int, int]:
        """The bytes of the top-level item around `row`: from the last root child starting at column 0
        on or above it to the next one below it (tokens elsewhere never change the context)."""
        lo, hi = 0, len(snap.doc.source)
        root = snap.doc.root
        # how many root children start on or above `row` (by bisection: their rows never decrease)
        a, b = 0, root.child_count
        while a < b:
            m = (a + b) // 2
            child = root.child(m)
            if child is not None and child.start_point.row <= row:
                a = m + 1
            else:
                b = m
        node = root.child(a - 1) if a > 0 else None
        while node is not None:
            if node.start_point.column == 0 and node.type not in _TRIVIA:
                lo = node.start_byte
                break
            node = node.prev_sibling
        node = root.child(a) if a < root.child_count else None
        while node is not None:
            if node.start_point.column == 0 and node.type not in _TRIVIA:
                hi = node.start_byte
                break
            node = node.next_sibling
        return lo, hi

    @staticmethod
    def _tokens(snap: Snapshot, lo: int = 0, hi: int | None = None) -> list[Tok]:
        out: list[Tok] = []
        source = snap.doc.source
        hi = len(source) if hi is None else hi
        stack: list[str] = []
        cursor = snap.doc.tree.walk()
        # straight to the root's first child that reaches past `lo` (those before it hold no token
        # there); the walk visits nodes in the order they start, so it ends at the first at `hi`
        visited_children = cursor.goto_first_child_for_byte(lo) is None
        while True:
            node = cursor.node
            assert node is not None
            if not visited_children:
                if node.start_byte >= hi:
                    break
                if node.end_byte <= lo and node.end_byte > node.start_byte:
                    visited_children = True
                    continue
                if node.child_count == 0 or node.type in _TRIVIA:
                    if node.end_byte > node.start_byte and node.type not in _TRIVIA:
                        text = source[node.start_byte : node.end_byte].decode("utf-8", errors="replace")
                        p = node.start_point
                        if p.column == 0 and text in _TOP_WORDS:
                            stack.clear()  # an unclosed bracket never swallows the next item
                        out.append(
                            Tok(
                                node,
                                text,
                                p.row,
                                p.column,
                                node.start_byte,
                                node.end_byte,
                                len(stack),
                                node.is_named,
                            )
                        )
                        if text in _OPEN and not node.is_named:
                            stack.append(text)
                        elif text in _CLOSE and not node.is_named and stack and _OPEN[stack[-1]] == text:
                            stack.pop()
                    visited_children = True
                    continue
                if cursor.goto_first_child():
                    continue
                visited_children = True
            elif cursor.goto_next_sibling():
                visited_children = False
            elif not cursor.goto_parent():
                break
        return out

    def open_brackets(self, upto: int) -> list[int]:
        """Indexes of the brackets still open before token `upto`."""
        stack: list[int] = []
        for i in range(upto):
            t = self.toks[i]
            if t.col == 0 and t.text in _TOP_WORDS:
                stack.clear()
            if t.text in _OPEN and not t.named:
                stack.append(i)
            elif t.text in _CLOSE and not t.named and stack and _OPEN[self.toks[stack[-1]].text] == t.text:
                stack.pop()
        return stack

    def matching_open(self, close: int) -> int | None:
        depth = 0
        for i in range(close, -1, -1):
            t = self.toks[i].text
            if t in _CLOSE:
                depth += 1
            elif t in _OPEN:
                depth -= 1
                if depth == 0:
                    return i
        return None

    # ------------------------------------------------------------------ lines and blocks
    def is_line_start(self, i: int) -> bool:
        """Token `i` starts a logical line (first on its row, outside brackets, not a `|` continuation)."""
        t = self.toks[i]
        return self.row_first.get(t.row) == i and t.depth == 0 and not t.text.startswith("|")

    def line_start(self, i: int) -> int:
        """The first token of the logical line holding token `i`."""
        while i > 0 and not self.is_line_start(i):
            i -= 1
        return i

    def openers(self, row: int, indent: int) -> list[int]:
        """First tokens of the lines that open the blocks around a line at `indent`, innermost first."""
        out: list[int] = []
        threshold = indent
        for r in range(row - 1, -1, -1):
            if threshold == 0:
                break
            i = self.row_first.get(r)
            if i is None or not self.is_line_start(i):
                continue
            if self.toks[i].col < threshold:
                out.append(i)
                threshold = self.toks[i].col
        return out

    def line_tokens(self, first: int) -> list[Tok]:
        return self.toks[first : self.cut]

    def last_sibling(self, row: int, indent: int) -> int | None:
        """The first token of the nearest line above at the same indentation (within the same block)."""
        for r in range(row - 1, -1, -1):
            i = self.row_first.get(r)
            if i is None or not self.is_line_start(i):
                continue
            c = self.toks[i].col
            if c == indent:
                return i
            if c < indent:
                return None
        return None

    # ------------------------------------------------------------------ scope
    def scope_of(self, openers: list[int]) -> str:
        for i in openers:  # innermost first: the nearest `fork x in …` decides
            t = self.toks[i]
            if t.text == "fork":
                for s in self.model.of_kind(Kind.BINDING):
                    if s.extra.get("how") == "fork item" and s.selection[0] == t.row:
                        return s.scope
            if t.text == "subflow" and i + 1 < len(self.toks):
                return f"subflow:{self.toks[i + 1].text}"
        return ""

    # ------------------------------------------------------------------ types
    @property
    def env(self) -> TypeEnv:
        if self._env is None:  # the snapshot's own (its type table kept per item between versions)
            from awl_lsp.features.typing import type_env

            self._env = type_env(self.snap)
        return self._env

    def infer_back(self, j: int | None, depth: int = 0) -> AwlType:
        """The type of the expression that ends with token `j` (names, fields, calls, indexes, pipes).

        Token-based, so it also reads the half-typed line; the types of names, fields and calls
        come from `awl_lsp.model.types`.
        """
        if j is None or j < 0 or depth > 12:
            return UNKNOWN
        env = self.env
        t = self.toks[j]
        prev = self.toks[j - 1] if j > 0 else None
        if t.kind == "identifier":
            if prev is not None and prev.text == "." and prev.end == t.start:
                if j >= 2 and self.toks[j - 2].text == "workflow":
                    return STRING if t.text == "id" else UNKNOWN
                if j >= 2 and self.toks[j - 2].end == prev.start and self.toks[j - 2].kind in _VALUE_END:
                    return env.field_type(self.infer_back(j - 2, depth + 1), t.text) or UNKNOWN
                if j >= 3 and self.toks[j - 2].text == "|>":  # a `|> .field` stage
                    return env.field_type(self.infer_back(j - 3, depth + 1), t.text) or UNKNOWN
                item = element_of(self.pipe_input(j - 1, depth + 1))
                return env.field_type(item, t.text) or UNKNOWN if item is not None else UNKNOWN
            if prev is not None and prev.text == "|>":
                return env.callable_type(t.text) or UNKNOWN
            sym = self.model.resolve_value(t.text, self.scope, self.row)
            return env.type_of_symbol(sym) if sym is not None else UNKNOWN
        if t.kind in _LITERALS:
            return env.infer(t.node)
        if t.text in ("true", "false"):
            return BOOL
        if t.text == "count" and prev is not None and prev.text == "|>":
            return INT
        if t.text in ("filter", "sort") and prev is not None and prev.text == "|>":
            return self.infer_back(j - 2, depth + 1)
        if t.text == ")":
            k = self.matching_open(j)
            if k is None or k == 0:
                return UNKNOWN
            callee = self.toks[k - 1]
            if callee.text in ("filter", "sort") and k >= 2 and self.toks[k - 2].text == "|>":
                return self.infer_back(k - 3, depth + 1)
            if callee.text in ("any", "all"):
                return BOOL
            if callee.kind == "identifier":
                return env.callable_type(callee.text) or UNKNOWN
            return UNKNOWN
        if t.text == "]":
            k = self.matching_open(j)
            if k is None or k == 0:
                return UNKNOWN
            return element_of(self.infer_back(k - 1, depth + 1)) or UNKNOWN
        return UNKNOWN

    def pipe_input(self, j: int, depth: int = 0) -> AwlType:
        """The type flowing into the pipe stage that encloses token `j` (`xs |> filter(.f …`)."""
        k = j
        while k >= 0:
            if self.toks[k].text == "|>":
                return self.infer_back(k - 1, depth + 1)
            if self.is_line_start(k):
                return UNKNOWN
            k -= 1
        return UNKNOWN


# ---------------------------------------------------------------------- planning
