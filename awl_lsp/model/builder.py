"""`ModelBuilder`: semantic models for successive versions of one document, re-reading only what changed.

Each top-level item's facts are cached by the item's text (and the doc lines above it). On every
update only items whose text changed are re-read from the tree; items that merely moved are shifted
in place — unless the last model is still in use (`build(keep=True)`): then it is left as it was and
the new model is made of copies.
The items are then lined up with the previous version (common prefix and suffix): the changed run
in the middle decides which declarations changed (`awl_lsp.model.declaration_changes`), and the
resolutions of the other items are kept unless they consulted one of those names.
"""

from __future__ import annotations

import gc
from bisect import bisect_left
from collections.abc import Iterator
from contextlib import contextmanager

from tree_sitter import Node, Query, QueryCursor, Tree

from awl_lsp.model.declaration_changes import LOCAL, changed_declarations, export_key
from awl_lsp.model.extract import ItemFacts, extract_item
from awl_lsp.model.index import Reuse, SemanticModel
from awl_lsp.model.symbols import Symbol
from awl_lsp.syntax.alignment import common_ends
from awl_lsp.syntax.offsets import Offsets
from awl_lsp.syntax.parser import LANGUAGE

_DOC_QUERY = Query(LANGUAGE, "(doc_comment) @doc")
NOT_ITEMS = frozenset({"comment", "doc_comment", "narration"})


@contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic garbage collection while a burst of (acyclic) objects is built.

    Analysis builds tens of thousands of small objects; collections triggered midway would walk
    every live object again and again. Nothing built here forms a cycle, so reference counting
    frees it all the same.

    What survives the burst (a model, check results) lives as long as the document version, so it
    goes straight to the oldest generation (`freeze` + `unfreeze` moves every tracked object there
    without looking at any, and resets the young generation's count): otherwise the first
    allocation after the pause would trigger a young collection that walks every object just built
    (≈ 50 ms on a 5,000-line document).
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.unfreeze()
        gc.enable()


def _doc_map(
    root: Node, source: bytes, start: int, end: int, above: list[Node] | None = None, at: int = -1
) -> dict[int, str]:
    """Map a declaration's row to the `///` lines right above it, for docs in [start, end).

    `above`, when given, are the top-level doc lines between `start` and `at`, where the item
    starts: when no other `///` is near, they are all there is, and the tree is not searched."""
    # Most items have no doc line at all: then no query runs. (A doc line the query could return
    # lies within [start, end), or ends where it starts, so it begins at most a line above.)
    nl = source.rfind(b"\n", 0, start)
    lo = 0 if nl <= 0 else source.rfind(b"\n", 0, nl) + 1
    first = source.find(b"///", lo, end + 2)
    if first == -1:
        return {}
    docs: list[Node]
    if above is not None and start <= first and source.find(b"///", at, end + 2) == -1:
        docs = above  # (every `///` near lies between the items, where only top-level lines can be)
    else:
        cursor = QueryCursor(_DOC_QUERY)
        cursor.set_byte_range(start, end)
        docs = [node for _, captures in cursor.matches(root) for node in captures.get("doc", [])]
    lines: dict[int, str] = {}
    for node in docs:
        text = source[node.start_byte : node.end_byte].decode("utf-8", errors="replace")
        lines[node.start_point.row] = text.rstrip("\r\n")[3:].strip()
    out: dict[int, str] = {}
    for row in sorted(lines):
        if row + 1 in lines:
            continue
        block = [lines[row]]
        r = row - 1
        while r in lines:
            block.append(lines[r])
            r -= 1
        out[row + 1] = "\n".join(reversed(block))
    return out


def item_key(source: bytes, node: Node, prev_end: int) -> bytes:
    """What identifies an item between versions: its lines (the gap above it included, from the
    line where the item before it ends), where on them it lies when it shares a line, and for a
    broken item also its tree — error recovery can read past an item, so the same broken text may
    parse differently."""
    start = source.rfind(b"\n", 0, prev_end) + 1
    end = node.end_byte
    if end > 0 and source[end - 1 : end] != b"\n":
        nl = source.find(b"\n", end)
        end = len(source) if nl == -1 else nl + 1
    key = source[start:end]
    if start != prev_end or end != node.end_byte:  # shares a line with its neighbour
        key += b"\0%d:%d:%d" % (prev_end - start, node.start_byte - start, node.end_byte - start)
    if node.has_error:
        key += b"\0" + str(node).encode()
    return key


def item_keys(source: bytes, nodes: list[Node]) -> list[bytes]:
    """`item_key` of each item."""
    keys = []
    prev_end = 0
    for node in nodes:
        keys.append(item_key(source, node, prev_end))
        prev_end = node.end_byte
    return keys


class ModelBuilder:
    """Builds `SemanticModel`s for successive versions of one document, re-reading only changed items.

    Given the source bytes an edit changed (`SyntaxDocument.take_changes`), only the items around
    them are looked at: the items before are the same, and the items after are the same once one
    of them lines up with an old item (same place, moved by the edit, and same key); everything
    after that one is moved, not compared. Without that knowledge every item's key is compared.
    """

    def __init__(self) -> None:
        self._cache: dict[bytes, ItemFacts] = {}
        self._keys: list[bytes] = []
        self._starts = Offsets([])  # each item's first byte in the last version's source
        self._ends = Offsets([])  # … and its end
        self._model: SemanticModel | None = None
        self.last_reused = 0
        self.last_extracted = 0
        self.last_resolved = 0  # items whose references were resolved afresh
        self.last_window = 0  # items of the last version looked at (all of them without `changes`)

    def build(
        self, tree: Tree, source: bytes, changes: tuple[int, int, int] | None = None, keep: bool = False
    ) -> SemanticModel:
        """The model of `tree`; `changes` (start, old_end, new_end) says which bytes of the source of
        the last build became which of this one (None: anything may have changed).

        The new model takes over the last one's facts and tables and moves them (the last model is
        then no longer right). `keep` says the last model is still in use (a snapshot of it is
        held): then nothing of it changes — the new model is built from copies of the cached facts
        and resolved afresh, at a cost that follows the document rather than the edit.
        """
        with gc_paused():
            if keep:
                return self._build(tree, source, reuse=False)
            if changes is not None and self._model is not None and self._model.items:
                model = self._build_window(tree, source, changes)
                if model is not None:
                    return model
            return self._build(tree, source)

    def _build(self, tree: Tree, source: bytes, reuse: bool = True) -> SemanticModel:
        root = tree.root_node
        nodes: list[Node] = []
        docs: list[list[Node]] = []  # each item's top-level doc lines since the item before
        above: list[Node] = []
        for child in root.named_children:
            t = child.type
            if t not in NOT_ITEMS:
                nodes.append(child)
                docs.append(above)
                above = []
            elif t == "doc_comment":
                above.append(child)
        keys = item_keys(source, nodes)
        prev = self._model if reuse else None
        n = len(nodes)
        p, s = common_ends(self._keys, keys) if prev is not None else (0, 0)
        offset = len(self._keys) - n
        items: list[ItemFacts] = []
        cache: dict[bytes, ItemFacts] = {}
        reused = extracted = 0
        prev_end = 0
        for i, node in enumerate(nodes):
            key = keys[i]
            row = node.start_point.row
            if prev is not None and (i < p or i >= n - s):
                facts = prev.items[i if i < p else i + offset]  # the same item, maybe moved
                facts.shift(row - facts.start_row)
                reused += 1
            else:
                facts, copied = self._read(root, source, node, key, prev_end, docs[i])
                reused += copied
                extracted += not copied
            cache[key] = facts
            items.append(facts)
            prev_end = node.end_byte
        self._cache = cache
        self._starts = Offsets([node.start_byte for node in nodes])
        self._ends = Offsets([node.end_byte for node in nodes])
        self.last_window = n
        return self._finish(items, keys, prev, p, s, reused, extracted)

    def _read(
        self,
        root: Node,
        source: bytes,
        node: Node,
        key: bytes,
        prev_end: int,
        above: list[Node] | None = None,
    ) -> tuple[ItemFacts, bool]:
        """The facts of a new or changed item, and whether they are a copy of an item with the same
        key (then resolved afresh) rather than read from the tree. `above`: see `_doc_map`."""
        hit = self._cache.get(key)
        if hit is not None:  # the same text elsewhere before: a copy
            return hit.copied(node.start_point.row - hit.start_row), True
        docs = _doc_map(root, source, prev_end, node.end_byte, above, node.start_byte)
        return extract_item(node, source, docs), False

    def _build_window(self, tree: Tree, source: bytes, changes: tuple[int, int, int]) -> SemanticModel | None:
        prev = self._model
        assert prev is not None
        root = tree.root_node
        a, o, new_end = changes
        delta = new_end - o
        old, starts, ends, old_keys = prev.items, self._starts, self._ends, self._keys
        count = len(old)
        if len(starts) != count or len(old_keys) != count:
            return None
        i0 = max(0, ends.bisect_right(a) - 1)  # the item before the first one the edit reaches
        if i0 == 0 and a < starts[0]:
            return None  # the edit reaches above the first item (new items may stand there)
        while i0 > 0 and source.find(b"\n", ends[i0 - 1], starts[i0]) == -1:
            i0 -= 1  # items sharing a line share their keys' text
        cursor = root.walk()
        if cursor.goto_first_child_for_byte(starts[i0]) is None:
            return None
        prev_end = ends[i0 - 1] if i0 else 0
        nodes: list[Node] = []
        keys: list[bytes] = []
        m = count  # the first old item that lines up with a new one after the edit
        while True:
            node = cursor.node
            if node is not None and node.is_named and node.type not in NOT_ITEMS:
                if not nodes and node.start_byte != starts[i0]:
                    return None  # the items before the edit are not where they were
                key = item_key(source, node, prev_end)
                at = node.start_byte - delta
                if node.start_byte >= new_end and at >= o:
                    j = bisect_left(starts, at)
                    if (
                        j < count
                        and starts[j] == at
                        and ends[j] + delta == node.end_byte
                        and old_keys[j] == key
                    ):
                        m = j
                        break
                nodes.append(node)
                keys.append(key)
                prev_end = node.end_byte
            if not cursor.goto_next_sibling():
                break
        if m < i0:
            return None
        # within the window, the items at either end that are the same are kept as they are
        pp, ss = common_ends(old_keys[i0:m], keys)
        p, s = i0 + pp, count - m + ss
        width = len(nodes)
        items: list[ItemFacts] = list(old[:p])
        reused, extracted = p, 0
        cache = self._cache
        for w in range(pp, width - ss):
            node, key = nodes[w], keys[w]
            above = nodes[w - 1].end_byte if w else (ends[i0 - 1] if i0 else 0)
            facts, copied = self._read(root, source, node, key, above)
            reused += copied
            extracted += not copied
            items.append(facts)
        for facts, key in zip(old[p : count - s], old_keys[p : count - s], strict=True):
            if cache.get(key) is facts:
                del cache[key]  # (the cache holds this version's items only)
        for facts, key in zip(items[p:], keys[pp : width - ss], strict=True):
            cache[key] = facts
        tail = old[count - s :]
        if tail:
            follower = nodes[width - ss] if ss else cursor.node  # the new node of tail[0]
            assert follower is not None
            rows = follower.start_point.row - tail[0].start_row
            if rows:
                for facts in tail:  # (`ItemFacts.shift`, inlined: this runs for every item below)
                    facts.anchor.rows += rows
            items += tail
            reused += len(tail)
        keys_all = old_keys[:i0] + keys + old_keys[m:]
        self._starts = starts.replaced(i0, m, [nd.start_byte for nd in nodes], delta)
        self._ends = ends.replaced(i0, m, [nd.end_byte for nd in nodes], delta)
        self.last_window = width
        return self._finish(items, keys_all, prev, p, s, reused, extracted)

    def _finish(
        self,
        items: list[ItemFacts],
        keys: list[bytes],
        prev: SemanticModel | None,
        p: int,
        s: int,
        reused: int,
        extracted: int,
    ) -> SemanticModel:
        reuse = None
        n = len(items)
        if prev is not None:
            moved: dict[int, Symbol] = {}
            paired: set[str] = set()
            old_mid, new_mid = prev.items[p : len(prev.items) - s], items[p : n - s]
            changed = changed_declarations(old_mid, new_mid, moved, paired)
            reuse = Reuse(changed, moved, paired, prev, p, s)
        self._keys = keys
        self.last_reused, self.last_extracted = reused, extracted
        model = SemanticModel(items, reuse)
        model.item_keys = keys
        self.last_resolved = model.resolved_items
        self._model = model
        return model


__all__ = [
    "LOCAL",
    "item_key",
    "ModelBuilder",
    "changed_declarations",
    "export_key",
    "gc_paused",
    "item_keys",
]
