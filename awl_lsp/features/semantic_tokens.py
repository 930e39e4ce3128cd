"""Semantic tokens: every token of the document classified (`token_classes`), kept per item between
versions and sent whole, as a delta, or for a range.

An item's tokens are kept with the comments above it, rows relative to the item, so a keystroke
re-classifies only the item it touched, and the answer is joined from the kept pieces by a few
passes in C (only each piece's first token depends on the piece before).
"""

from __future__ import annotations

import json
from array import array
from dataclasses import dataclass
from itertools import chain, compress, repeat, zip_longest
from operator import add, attrgetter, is_, is_not, itemgetter, mul, not_, sub
from struct import Struct

from lsprotocol import types as lsp
from tree_sitter import Node

from awl_lsp.features.cancel import checkpoint
from awl_lsp.features.lsp_positions import point
from awl_lsp.features.snapshot import Snapshot
from awl_lsp.features.token_classes import (
    TOKEN_MODIFIERS,
    TOKEN_TYPES,
    Token,
    _item_tokens,
    _items,
    decode,
    encode,
    tokens,
)
from awl_lsp.model.builder import NOT_ITEMS
from awl_lsp.model.facts import ItemFacts

__all__ = [
    "TOKEN_MODIFIERS",
    "TOKEN_TYPES",
    "decode",
    "encode",
    "full_tokens",
    "semantic_tokens_delta",
    "semantic_tokens_full",
    "semantic_tokens_full_json",
    "semantic_tokens_range",
    "tokens",
]


# Full-document tokens per top-level item, per document (`Snapshot.shared`), keyed by the item's
# bytes from the start of its first line (columns are absolute), its tree when broken (error
# recovery can read the same text differently), the position encoding and what the item's
# references resolve to (by kind): everything an item's classification reads. So a declaration
# added elsewhere (`pick() -> x` above a step reading `x`) re-classifies exactly the items whose
# references now resolve differently. Rows are relative to the item, so a keystroke re-classifies
# only the item it touched. The resolution is kept as its hash (every open document keeps one per
# item; a tuple per reference would cost more than the tokens themselves).
def _resolution(facts: ItemFacts | None) -> int:
    if facts is None:
        return 0
    row0 = facts.start_row
    return hash(
        tuple(
            (r.range[0] - row0, r.range[1], r.kind, None if r.target is None else r.target.kind)
            for r in facts.references
        )
    )


class _ItemTokens:
    """One item's tokens in wire form after its first token (`rest`: the int array's bytes; joining
    items only fixes each first token, the one thing that depends on the item before), with the
    first and last token's (row relative to the item, character). Kept compact (bytes, not a tuple
    per token): every open document holds one per item. `text` is `rest` as JSON integers, each
    after a comma, made when an answer first needs it."""

    __slots__ = ("rest", "first", "last", "text")

    def __init__(self, rest: bytes, first: tuple[int, int] | None, last: tuple[int, int] | None) -> None:
        self.rest = rest
        self.first = first
        self.last = last
        self.text: str | None = None

    @property
    def tokens(self) -> list[Token]:
        """The tokens, rows relative to the item (decoded from the wire form)."""
        if self.first is None:
            return []
        wire = array("i")
        wire.frombytes(self.rest)
        line, char = self.first
        out: list[Token] = []
        for i in range(-2, len(wire), 5):
            if i >= 0:
                delta_line, delta_char = wire[i : i + 2]
                line += delta_line
                char = char + delta_char if delta_line == 0 else delta_char
            length, type_index, bits = wire[i + 2 : i + 5]
            out.append((line, char, length, type_index, bits))
        return out


def _item_entry(snap: Snapshot, nodes: list[tuple[Node, ItemFacts | None]], first: int) -> _ItemTokens:
    """The tokens of `nodes` (an item and the comments above it), rows counted from `first`."""
    toks: list[Token] = []
    for node, facts in nodes:
        toks += _item_tokens(snap, node, facts, first)
    if not toks:
        return _ItemTokens(b"", None, None)
    toks.sort()
    return _ItemTokens(array("i", encode(toks)[2:]).tobytes(), toks[0][:2], toks[-1][:2])


@dataclass(frozen=True, slots=True)
class _Tables:
    """A version's tokens by segment, in document order: each item with the comments (and other
    non-items) between it and the item before, then what follows the last item. Rows are relative
    to the segment's row (its item's first row; 0 for the tail), so a moved item keeps its entry;
    kept side by side as lists, so joining them is a few passes in C, not a Python step per item."""

    rows: list[int]
    entries: list[_ItemTokens]


_MISSING = (None, None, None, 0)
Gap = list[tuple[Node, ItemFacts | None]]


def _item_tables(snap: Snapshot) -> _Tables:
    """The segments of this version, reusing what the last version asked had.

    A segment is cached by its item's facts (the model keeps an item's facts while its text, the gap
    above it included, stays the same) and the names its resolution read (the model keeps those
    while the item needs no new resolution); a re-resolved item keeps its tokens when its references
    resolve to the same kinds as before (`_resolution`)."""
    shared = snap.shared
    encoding = str(snap.doc.encoding)
    known = shared.get("semantic-tokens")
    cache: dict[ItemFacts, tuple] = known[1] if isinstance(known, tuple) and known[0] == encoding else {}
    model = snap.model
    items = model.items
    rows = model.item_starts
    deps: list = model.item_deps
    found: list[tuple] = list(map(cache.get, items, repeat(_MISSING, len(items))))
    if len(deps) != len(items) or False in map(is_, map(itemgetter(1), found), deps):
        stale = [
            i
            for i, (part, by) in enumerate(zip_longest(found, deps[: len(items)]))
            if part[1] is not by or by is None
        ]
        gaps = _gaps(snap, [items[i] for i in stale])
        for i, nodes in zip(stale, gaps, strict=True):
            facts, by = items[i], deps[i] if i < len(deps) else None
            resolution = _resolution(facts)
            old = found[i]
            if old[0] is facts and old[3] == resolution:
                entry = old[2]
            else:
                checkpoint()  # a cancelled request stops between items (the shared tables stay as they were)
                entry = _item_entry(snap, nodes, rows[i])
            found[i] = (facts, by, entry, resolution)
    # (keyed by the facts themselves, compared by identity: no int made per item)
    shared["semantic-tokens"] = (encoding, dict(zip(items, found, strict=True)))
    tail = _item_entry(snap, _tail(snap, items[-1] if items else None), 0)
    return _Tables(rows + [0], list(map(itemgetter(2), found)) + [tail])


def _gaps(snap: Snapshot, wanted: list[ItemFacts]) -> list[Gap]:
    """For each of `wanted` (items of this version, in document order), the root's children from
    the one after the item before it to the item itself (paired with its facts): found from the
    item before with a tree cursor when few are wanted, else by one pass over the root's children."""
    if len(wanted) <= 32:
        found = _gaps_from_neighbours(snap, wanted)
        if found is not None:
            return found
    want = {id(f) for f in wanted}
    out: list[Gap] = []
    gap: Gap = []
    for child, facts in _items(snap):
        gap.append((child, facts))
        if facts is not None:
            if id(facts) in want:
                out.append(gap)
            gap = []
    return out


def _gaps_from_neighbours(snap: Snapshot, wanted: list[ItemFacts]) -> list[Gap] | None:
    """`_gaps` by a cursor from each item's neighbour above (None should the tree not line up)."""
    items = snap.model.items
    root = snap.doc.root
    out: list[Gap] = []
    for facts in wanted:
        i = items.index(facts)
        cursor = root.walk()
        if i == 0:
            if not cursor.goto_first_child():
                return None
        else:
            before = items[i - 1]
            at = (before.start_row, before.start_col)
            if cursor.goto_first_child_for_point(at) is None or cursor.node is None:
                return None
            if tuple(cursor.node.start_point) != at or not cursor.goto_next_sibling():
                return None
        gap: Gap = []
        while True:
            node = cursor.node
            if node is None:
                return None
            if node.is_named and node.type not in NOT_ITEMS:
                if tuple(node.start_point) != (facts.start_row, facts.start_col):
                    return None
                gap.append((node, facts))
                break
            gap.append((node, None))
            if not cursor.goto_next_sibling():
                return None
        out.append(gap)
    return out


def _tail(snap: Snapshot, last: ItemFacts | None) -> Gap:
    """The root's children after its last item (all of them when there is none)."""
    cursor = snap.doc.root.walk()
    if last is None:
        if not cursor.goto_first_child():
            return []
    else:
        cursor.goto_first_child_for_point((last.start_row, last.start_col))
        if not cursor.goto_next_sibling():
            return []
    out: Gap = []
    while True:
        node = cursor.node
        if node is None:
            return out
        out.append((node, None))
        if not cursor.goto_next_sibling():
            return out


def full_tokens(snap: Snapshot) -> list[Token]:
    """`tokens(snap)` for the whole document, reusing the items an edit did not touch."""
    out: list[Token] = []
    tables = snap.derived("semantic-tokens", _item_tables)
    for first, entry in zip(tables.rows, tables.entries, strict=True):
        out.extend((line + first, char, size, kind, mods) for line, char, size, kind, mods in entry.tokens)
    return out


_FIRST, _LAST, _REST = attrgetter("first"), attrgetter("last"), attrgetter("rest")
_LINE, _CHAR = itemgetter(0), itemgetter(1)
_PAIR = Struct("=2i")


def _heads(snap: Snapshot) -> tuple[list[_ItemTokens], list[int], list[int]]:
    """The items with tokens, and each one's first token's (line delta, character delta) from the
    last token of the one before: the only integers of the answer that depend on two items
    (computed by passes in C over the items, not a Python step per item)."""
    tables = snap.derived("semantic-tokens", _item_tables)
    some = list(map(is_not, map(_FIRST, tables.entries), repeat(None)))
    entries = list(compress(tables.entries, some))
    rows = list(compress(tables.rows, some))
    firsts, lasts = list(map(_FIRST, entries)), list(map(_LAST, entries))
    # a first token's line after the last token before it, as sums of small numbers (the rows
    # between the two items, and lines within each): no int object made per item
    steps = list(map(sub, rows, [0, *rows[:-1]]))
    deltas = list(map(sub, map(add, steps, map(_LINE, firsts)), [0, *map(_LINE, lasts)]))
    end_chars = [0, *map(_CHAR, lasts)]
    chars = list(map(sub, map(_CHAR, firsts), map(mul, end_chars, map(not_, deltas))))
    return entries, deltas, chars


def _full_wire(snap: Snapshot) -> array:
    """The whole document's tokens in wire form, joined from the items' (only first tokens change);
    an int array, since the last one sent is kept for the next delta."""
    entries, deltas, chars = _heads(snap)
    data = array("i")
    data.frombytes(
        b"".join(chain.from_iterable(zip(map(_PAIR.pack, deltas, chars), map(_REST, entries), strict=True)))
    )
    return data


def semantic_tokens_full(snap: Snapshot) -> lsp.SemanticTokens:
    data = snap.derived("semantic-tokens-data", _full_wire)
    return lsp.SemanticTokens(data=data.tolist(), result_id=_sent(snap, data))


def semantic_tokens_full_json(snap: Snapshot) -> str:
    """`semantic_tokens_full(snap)` as the JSON text of the LSP result (`SemanticTokens`): the same
    integers, joined from each item's tokens kept as ready-made JSON text. Only an item's first token
    depends on the item before it, so an answer encodes two integers per item, not five per token
    (115,000 integers at 5,000 lines: `json.dumps` alone would take ≈ 6 ms)."""
    data = snap.derived("semantic-tokens-data", _full_wire)
    result_id = _sent(snap, data)
    return (
        '{"resultId": '
        + json.dumps(result_id)
        + ', "data": ['
        + snap.derived("semantic-tokens-json", _full_text)
        + "]}"
    )


def _full_text(snap: Snapshot) -> str:
    """`_full_wire` as comma-separated integers, from the items' texts (each made once per item)."""
    entries, deltas, chars = _heads(snap)
    texts = list(map(_TEXT, entries))
    if None in texts:
        for i in [i for i, text in enumerate(texts) if text is None]:
            entry = entries[i]
            wire = array("i")
            wire.frombytes(entry.rest)
            entry.text = texts[i] = "".join(map(",{}".format, wire))
    return ",".join(map(str.__add__, map("{},{}".format, deltas, chars), texts))


_TEXT = attrgetter("text")


def semantic_tokens_delta(snap: Snapshot, previous: str) -> lsp.SemanticTokens | lsp.SemanticTokensDelta:
    """The edit from the tokens last sent as `previous` to this version's (all of them if unknown)."""
    before = snap.shared.get("semantic-tokens-sent")
    data = snap.derived("semantic-tokens-data", _full_wire)
    if not (isinstance(before, tuple) and before[0] == previous):
        return lsp.SemanticTokens(data=data.tolist(), result_id=_sent(snap, data))
    old: array = before[1]
    p, s = _common_ends(old, data)
    edits = []
    if p < len(old) - s or p < len(data) - s:
        changed = data[p : len(data) - s].tolist()
        edits.append(lsp.SemanticTokensEdit(start=p, delete_count=len(old) - s - p, data=changed))
    return lsp.SemanticTokensDelta(edits=edits, result_id=_sent(snap, data))


def _common_ends(old: array, new: array) -> tuple[int, int]:
    """How many integers the two lists share at the start, and then at the end (compared a block
    at a time, so unchanged megabytes of tokens cost little)."""
    n = min(len(old), len(new))
    p = 0
    block = 512
    while p + block <= n and old[p : p + block] == new[p : p + block]:
        p += block
    while p < n and old[p] == new[p]:
        p += 1
    s = 0
    lo, ln = len(old), len(new)
    while s + block <= n - p and old[lo - s - block : lo - s] == new[ln - s - block : ln - s]:
        s += block
    while s < n - p and old[lo - 1 - s] == new[ln - 1 - s]:
        s += 1
    return p, s


def _sent(snap: Snapshot, data: array) -> str:
    """Remember the tokens sent last (per document) under a new result id."""
    serial = int(snap.shared.get("semantic-tokens-serial", 0)) + 1  # type: ignore[call-overload]
    snap.shared["semantic-tokens-serial"] = serial
    snap.shared["semantic-tokens-sent"] = (str(serial), data)
    return str(serial)


def semantic_tokens_range(snap: Snapshot, rng: lsp.Range) -> lsp.SemanticTokens:
    start_row, _ = point(snap, rng.start)
    end_row, _ = point(snap, rng.end)
    return lsp.SemanticTokens(data=encode(tokens(snap, start_row, end_row)))
