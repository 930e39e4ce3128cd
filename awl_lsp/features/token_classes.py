"""What each token of a document *is*: the classification behind semantic tokens.

Names are classified by what the semantic model resolves them to (a declaration at the name, else
the reference there and its target), so `count` as a field is a property and `start` as a route
target an enum member. Keywords, literals and comments come from the tree. Tokens are encoded as
LSP deltas in the document's negotiated position encoding (UTF-16 by default), one token per line
(multi-line raw strings and JSON bodies are split), so multibyte lines come out right. (What is
kept between versions and sent is `semantic_tokens`.)
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator
from functools import cache

from tree_sitter import Node

from awl_lsp.features.cancel import checkpoint
from awl_lsp.features.snapshot import Snapshot
from awl_lsp.features.vocabulary import TOKEN_MODIFIERS, TOKEN_TYPES
from awl_lsp.model import BUILTIN_TYPES, Kind, Reference, RefKind, Symbol
from awl_lsp.model.builder import NOT_ITEMS
from awl_lsp.model.facts import ItemFacts

_TYPE = {name: i for i, name in enumerate(TOKEN_TYPES)}
_MOD = {name: 1 << i for i, name in enumerate(TOKEN_MODIFIERS)}

# what a declared (or referenced) symbol of each kind is: (token type, modifiers)
_KIND: dict[Kind, tuple[str, tuple[str, ...]]] = {
    Kind.WORKFLOW: ("namespace", ()),
    Kind.WORKLOOP: ("namespace", ()),
    Kind.INPUT: ("variable", ("readonly",)),
    Kind.SIGNAL: ("event", ()),
    Kind.OUTCOME: ("enumMember", ()),
    Kind.CARRY: ("variable", ()),
    Kind.REPORT: ("property", ()),
    Kind.INVARIANT: ("property", ()),
    Kind.CONST: ("variable", ("readonly",)),
    Kind.TYPE: ("type", ()),
    Kind.FIELD: ("property", ()),
    Kind.VARIANT: ("enumMember", ()),
    Kind.WORKER: ("namespace", ()),
    Kind.ACTION: ("function", ()),
    Kind.PARAMETER: ("parameter", ()),
    Kind.CHILD: ("function", ()),
    Kind.DETACHED: ("function", ()),
    Kind.SUBFLOW: ("function", ()),
    Kind.STEP: ("function", ()),
    Kind.STEP_OUTCOME: ("enumMember", ()),
    Kind.BINDING: ("variable", ()),
    Kind.RETIRE: ("keyword", ()),
}

# an unresolved reference is still classified by where it stands
_REF_FALLBACK: dict[RefKind, str] = {
    RefKind.STEP: "function",
    RefKind.ROUTE: "function",
    RefKind.CALL: "function",
    RefKind.HATCH: "function",
    RefKind.ANSWER: "property",
    RefKind.SIGNAL: "event",
    RefKind.TYPE: "type",
    RefKind.VALUE: "variable",
    RefKind.FIELD: "property",
    RefKind.ARGUMENT: "parameter",
    RefKind.COLLECT: "variable",
}

_LEAF_TYPES = {
    "comment": ("comment", ()),
    "doc_comment": ("comment", ("documentation",)),
    "narration": ("comment", ("documentation",)),
    "string": ("string", ()),
    "raw_string": ("string", ()),
    "integer": ("number", ()),
    "float": ("number", ()),
    "duration": ("number", ()),
    "start": ("enumMember", ()),
    "json_body": ("string", ()),
}
# what an anonymous token is by its parent (the same words are keywords elsewhere)
_BY_PARENT = {
    "outcome_kind": ("enumMember", ()),  # `route success` / `route failure`
    "combinator": ("function", ("defaultLibrary",)),  # `filter(…)`, `count`
    "workflow_builtin": ("variable", ("readonly", "defaultLibrary")),  # `workflow` in `workflow.id`
}
_OPERATORS = frozenset({"|>", "->", "==", "!=", "<", "<=", ">", ">=", "+", "=", "..", "?"})

Token = tuple[int, int, int, int, int]  # line, character, length (encoding units), type index, modifier bits


@cache
def _encode(token_type: str, modifiers: tuple[str, ...]) -> tuple[int, int]:
    bits = 0
    for m in modifiers:
        bits |= _MOD[m]
    return _TYPE[token_type], bits


class _Classifier:
    """Classifies the leaves of some top-level items, from those items' facts (declarations and
    resolved references are all within the item that holds them)."""

    def __init__(self, snap: Snapshot, facts: list[ItemFacts]) -> None:
        self.snap = snap
        self.decls: dict[tuple[int, int], Symbol] = {}
        self.refs: dict[tuple[int, int], Reference] = {}
        for f in facts:
            for s in f.flat:
                self.decls.setdefault((s.selection[0], s.selection[1]), s)
            for r in f.references:
                self.refs.setdefault((r.range[0], r.range[1]), r)

    def classify(self, leaf: Node) -> tuple[str, tuple[str, ...]] | None:
        t = leaf.type
        if t in _LEAF_TYPES:
            return _LEAF_TYPES[t]
        if t == "identifier":
            return self.identifier(leaf)
        if t == "type_identifier":
            builtin = self.snap.text(leaf) in BUILTIN_TYPES
            return ("type", ("defaultLibrary",) if builtin else ())
        if leaf.is_named or leaf.is_missing:
            return None
        parent = leaf.parent
        if parent is not None and parent.type in _BY_PARENT and (t[:1].isalpha()):
            if parent.type != "combinator" or parent.child_by_field_name("name") == leaf:
                return _BY_PARENT[parent.type]
        word = t
        if word[:1].isalpha():
            return ("keyword", ())
        if word in _OPERATORS:
            return ("operator", ())
        return None

    def identifier(self, leaf: Node) -> tuple[str, tuple[str, ...]] | None:
        key = (leaf.start_point.row, leaf.start_point.column)
        sym = self.decls.get(key)
        if sym is not None:
            token, mods = _KIND.get(sym.kind, ("variable", ()))
            return token, (*mods, "declaration")
        ref = self.refs.get(key)
        if ref is not None:
            if ref.kind is RefKind.ARGUMENT:
                return ("parameter", ())  # the `name:` of an argument, whatever it fills
            if ref.target is not None:
                return _KIND.get(ref.target.kind, ("variable", ()))
            if ref.kind is RefKind.VALUE and ref.name == "visits":
                return ("variable", ("readonly", "defaultLibrary"))
            if ref.kind is RefKind.CALL and ref.name[:1].isupper():
                return ("type", ())
            return (_REF_FALLBACK.get(ref.kind, "variable"), ())
        parent = leaf.parent
        ptype = parent.type if parent is not None else ""
        if ptype == "workflow_builtin":
            return ("property", ("defaultLibrary",))
        if ptype == "node_setting":
            return ("namespace", ())
        if ptype == "field_expression" or ptype == "relative_field":
            return ("property", ())
        if ptype == "parameter":  # a parameter the model did not take (e.g. inside an enum)
            return ("parameter", ("declaration",))
        return None


def _leaves(root: Node, first_row: int, last_row: int) -> Iterator[Node]:
    """The tree's leaves (tokens and comments) in document order, skipping subtrees outside the rows."""
    cursor = root.walk()
    while True:
        node = cursor.node
        descend = False
        if node is not None and node.end_point.row >= first_row and node.start_point.row <= last_row:
            if node.child_count == 0:
                yield node
            else:
                descend = True
        if descend and cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return


class _Lines:
    """Per-row facts the encoder needs: is the line ASCII (then byte columns are positions), its length."""

    def __init__(self, snap: Snapshot) -> None:
        self.doc = snap.doc
        self._rows: dict[int, tuple[bool, int]] = {}

    def row(self, row: int) -> tuple[bool, int]:
        info = self._rows.get(row)
        if info is None:
            line = self.doc.lines.line_text(row)
            ascii_ = line.isascii()
            size = len(line) if ascii_ else len(line.encode("utf-8"))
            info = (ascii_, size - 1 if line.endswith("\r") else size)
            self._rows[row] = info
        return info

    def segments(self, leaf: Node) -> Iterator[tuple[int, int, int]]:
        """(line, character, length) in the document's encoding, one per line the token covers."""
        s, e = leaf.start_point, leaf.end_point
        for row in range(s.row, e.row + 1):
            ascii_, line_bytes = self.row(row)
            start = s.column if row == s.row else 0
            end = min(e.column if row == e.row else line_bytes, line_bytes)
            if end <= start:
                continue
            if ascii_:
                yield row, start, end - start
                continue
            line_no, a = self.doc.to_position((row, start))
            _, b = self.doc.to_position((row, end))
            if b > a:
                yield line_no, a, b - a


def _items(snap: Snapshot) -> Iterator[tuple[Node, ItemFacts | None]]:
    """The root's children, each with its facts (None for comments and other non-items)."""
    facts = iter(snap.model.items)
    for child in snap.doc.root.children:
        yield child, next(facts, None) if child.is_named and child.type not in NOT_ITEMS else None


def _items_from(snap: Snapshot, row: int) -> Iterator[tuple[Node, ItemFacts | None]]:
    """`_items(snap)` from the last item that starts above `row` on (the ones before it end above
    it too), found by bisection and a tree cursor rather than a pass over the document."""
    items = snap.model.items
    j = bisect_left(snap.model.item_starts, row) - 1
    if j <= 0:
        yield from _items(snap)
        return
    facts = items[j]
    at = (facts.start_row, facts.start_col)
    cursor = snap.doc.root.walk()
    node = cursor.node if cursor.goto_first_child_for_point(at) is not None else None
    if node is None or tuple(node.start_point) != at or not node.is_named or node.type in NOT_ITEMS:
        yield from _items(snap)  # (the tree does not line up: every item, as before)
        return
    while True:
        node = cursor.node
        assert node is not None
        if node.is_named and node.type not in NOT_ITEMS:
            yield node, items[j] if j < len(items) else None
            j += 1
        else:
            yield node, None
        if not cursor.goto_next_sibling():
            return


def tokens(snap: Snapshot, first_row: int = 0, last_row: int | None = None) -> list[Token]:
    """Absolute tokens (line, character, length, type, modifiers) in document order."""
    if last_row is None:
        last_row = snap.doc.lines.line_count
    lines = _Lines(snap)
    out: list[Token] = []
    for item, facts in _items_from(snap, first_row):
        if item.start_point.row > last_row:
            break
        if item.end_point.row < first_row:
            continue
        checkpoint()  # a cancelled request stops between items
        classifier = _Classifier(snap, [facts] if facts is not None else [])
        for leaf in _leaves(item, first_row, last_row):
            if leaf.start_byte == leaf.end_byte:
                continue
            kind = classifier.classify(leaf)
            if kind is None:
                continue
            type_index, bits = _encode(*kind)
            for line, char, length in lines.segments(leaf):
                if first_row <= line <= last_row:
                    out.append((line, char, length, type_index, bits))
    out.sort(key=lambda t: (t[0], t[1]))
    return out


def encode(items: list[Token]) -> list[int]:
    """The LSP wire form: five integers per token, positions relative to the previous token."""
    data: list[int] = []
    prev_line = prev_char = 0
    for line, char, length, type_index, bits in items:
        delta_line = line - prev_line
        delta_char = char - prev_char if delta_line == 0 else char
        data += (delta_line, delta_char, length, type_index, bits)
        prev_line, prev_char = line, char
    return data


def _item_tokens(snap: Snapshot, item: Node, facts: ItemFacts | None, first: int = 0) -> list[Token]:
    """The item's tokens, rows counted from `first`."""
    classifier = _Classifier(snap, [facts] if facts is not None else [])
    lines = _Lines(snap)
    out: list[Token] = []
    append = out.append
    for leaf in _leaves(item, item.start_point.row, item.end_point.row):
        if leaf.start_byte == leaf.end_byte:
            continue
        kind = classifier.classify(leaf)
        if kind is None:
            continue
        type_index, bits = _encode(*kind)
        s, e = leaf.start_point, leaf.end_point
        if s.row == e.row:  # the common case, without `segments`' generator
            ascii_, size = lines.row(s.row)
            if ascii_:
                end = min(e.column, size)
                if end > s.column:
                    append((s.row - first, s.column, end - s.column, type_index, bits))
                continue
        for line, char, length in lines.segments(leaf):
            append((line - first, char, length, type_index, bits))
    out.sort()  # (in document order already, but for a token split over lines; no two share a start)
    return out


def decode(data: list[int]) -> list[tuple[int, int, int, str, set[str]]]:
    """The inverse of `encode`, with names: (line, character, length, type, modifiers) — for tests."""
    out: list[tuple[int, int, int, str, set[str]]] = []
    line = char = 0
    for i in range(0, len(data), 5):
        dl, dc, length, type_index, bits = data[i : i + 5]
        line += dl
        char = char + dc if dl == 0 else dc
        mods = {m for j, m in enumerate(TOKEN_MODIFIERS) if bits & (1 << j)}
        out.append((line, char, length, TOKEN_TYPES[type_index], mods))
    return out
