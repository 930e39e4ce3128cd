"""`ModelBuilder`: semantic models for successive versions of one document, re-reading only what changed.

Each top-level item's facts are cached by the item's text (and the doc lines above it). On every
update only items whose text changed are re-read from the tree; items that merely moved are shifted.
The items are then lined up with the previous version (common prefix and suffix): the changed run
in the middle decides which declarations changed, and the resolutions of the other items are kept
unless they consulted one of those names.
"""

from __future__ import annotations

from tree_sitter import Node, Query, QueryCursor, Tree

from awl_lsp.model.extract import ItemFacts, extract_item
from awl_lsp.model.index import Reuse, SemanticModel
from awl_lsp.model.symbols import Symbol
from awl_lsp.syntax.parser import LANGUAGE

_DOC_QUERY = Query(LANGUAGE, "(doc_comment) @doc")
NOT_ITEMS = frozenset({"comment", "doc_comment", "narration"})


def _doc_map(root: Node, source: bytes, start: int, end: int) -> dict[int, str]:
    """Map a declaration's row to the `///` lines right above it, for docs in [start, end)."""
    cursor = QueryCursor(_DOC_QUERY)
    cursor.set_byte_range(start, end)
    lines: dict[int, str] = {}
    for _, captures in cursor.matches(root):
        for node in captures.get("doc", []):
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


def common_ends(old: list[bytes], new: list[bytes]) -> tuple[int, int]:
    """(prefix, suffix): how many items at the start and at the end are the same text in both lists."""
    n = min(len(old), len(new))
    p = 0
    while p < n and old[p] == new[p]:
        p += 1
    s = 0
    while s < n - p and old[len(old) - 1 - s] == new[len(new) - 1 - s]:
        s += 1
    return p, s


def _digest(sym: Symbol) -> tuple:
    """What resolution can see of a declaration (its place among same-named ones aside)."""
    return (
        sym.kind,
        sym.scope,
        sym.container,
        sym.type,
        tuple((c.kind, c.name, c.type) for c in sym.children),
    )


def _by_name(items: list[ItemFacts]) -> dict[str, list[Symbol]]:
    out: dict[str, list[Symbol]] = {}
    for facts in items:
        for s in facts.flat:
            out.setdefault(s.name, []).append(s)
    return out


def changed_declarations(
    old: list[ItemFacts], new: list[ItemFacts], moved: dict[int, Symbol]
) -> set[str]:
    """Names declared differently in `new` than in `old` (the changed run of items).

    Same-named declarations that stayed the same are paired in order in `moved`, so references
    to the old symbols can be re-pointed at the new ones.
    """
    before, after = _by_name(old), _by_name(new)
    changed: set[str] = set()
    for name in before.keys() | after.keys():
        a, b = before.get(name, []), after.get(name, [])
        if len(a) != len(b) or any(_digest(x) != _digest(y) for x, y in zip(a, b, strict=True)):
            changed.add(name)
            continue
        for x, y in zip(a, b, strict=True):
            if x is not y:
                moved[id(x)] = y
    return changed


class ModelBuilder:
    """Builds `SemanticModel`s for successive versions of one document, re-reading only changed items."""

    def __init__(self) -> None:
        self._cache: dict[bytes, ItemFacts] = {}
        self._keys: list[bytes] = []
        self._model: SemanticModel | None = None
        self.last_reused = 0
        self.last_extracted = 0
        self.last_resolved = 0  # items whose references were resolved afresh

    def build(self, tree: Tree, source: bytes) -> SemanticModel:
        root = tree.root_node
        nodes = [n for n in root.named_children if n.type not in NOT_ITEMS]
        keys: list[bytes] = []
        prev_end = 0
        for node in nodes:
            keys.append(source[prev_end : node.end_byte])
            prev_end = node.end_byte
        prev = self._model
        n = len(nodes)
        p, s = common_ends(self._keys, keys) if prev is not None else (0, 0)
        offset = len(self._keys) - n
        items: list[ItemFacts] = []
        cache: dict[bytes, ItemFacts] = {}
        moved: dict[int, Symbol] = {}
        reused = extracted = 0
        prev_end = 0
        for i, node in enumerate(nodes):
            key = keys[i]
            row = node.start_point.row
            if prev is not None and (i < p or i >= n - s):
                old = prev.items[i if i < p else i + offset]  # the same item, maybe moved
                facts = old.shifted(row - old.start_row, moved)
                reused += 1
            else:
                hit = self._cache.get(key)
                if hit is not None:
                    facts = hit.shifted(row - hit.start_row, moved)
                    reused += 1
                else:
                    facts = extract_item(node, source, _doc_map(root, source, prev_end, node.end_byte))
                    extracted += 1
            cache[key] = facts
            items.append(facts)
            prev_end = node.end_byte
        reuse = None
        if prev is not None:
            changed = changed_declarations(prev.items[p : len(prev.items) - s], items[p : n - s], moved)
            keep = [i < p or i >= n - s for i in range(n)]
            deps = [
                prev.item_deps[i] if i < p else prev.item_deps[i + offset] if i >= n - s else frozenset()
                for i in range(n)
            ]
            reuse = Reuse(keep, deps, changed, moved)
        self._cache, self._keys = cache, keys
        self.last_reused, self.last_extracted = reused, extracted
        model = SemanticModel(items, reuse)
        self.last_resolved = model.resolved_items
        self._model = model
        return model


__all__ = ["ModelBuilder", "changed_declarations", "common_ends"]
