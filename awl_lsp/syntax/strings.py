"""Unterminated strings: a `"` whose string runs to the end of its line without the closing quote.

The engine stops while reading such a text (see `errors.READING_CODES`). Found per top-level item
(`item_strings`), from the tree's string nodes.
"""

from __future__ import annotations

from tree_sitter import Node, Query, QueryCursor

from awl_lsp.syntax.parser import LANGUAGE
from awl_lsp.syntax.problems import Problem

_STRINGS = Query(LANGUAGE, "(string) @s")


def unterminated_strings(root: Node, source: bytes, cache: dict | None) -> list[Problem]:
    """Strings without their closing quote, per top-level item. With a `cache`, keyed by the item's
    bytes from the start of its first line (columns are absolute) and its tree when broken (error
    recovery can read the same text differently); rows relative to the item; the cache keeps only
    the items of this version."""
    out: list[Problem] = []
    kept: dict[tuple[bytes, str], list[tuple[int, int, int, int]]] = {}
    for item in root.children:
        if source.find(b'"', item.start_byte, item.end_byte) == -1:
            continue  # no string starts here
        start = source.rfind(b"\n", 0, item.start_byte) + 1  # from its line's start: columns are absolute
        key = (source[start : item.end_byte], str(item) if item.has_error else "")
        row0 = item.start_point.row
        found = kept.get(key)
        if found is None and cache is not None:
            found = cache.get(key)
        if found is None:
            found = item_strings(item, source, row0)
        kept[key] = found
        out += string_problems(found, row0)
    if cache is not None:
        cache.clear()
        cache.update(kept)
    return out


def item_strings(item: Node, source: bytes, row0: int) -> list[tuple[int, int, int, int]]:
    """The strings of one item left without their closing quote, rows relative to `row0`."""
    found = []
    for _, captures in QueryCursor(_STRINGS).matches(item):
        for node in captures.get("s", []):
            if node.end_byte - node.start_byte < 2 or source[node.end_byte - 1 : node.end_byte] != b'"':
                s, e = node.start_point, node.end_point
                found.append((s.row - row0, s.column, e.row - row0, e.column))
    return found


def string_problems(found: list[tuple[int, int, int, int]], row0: int) -> list[Problem]:
    return [
        Problem((r0 + row0, c0, r1 + row0, c1), 'unterminated string: close it with `"`', "string")
        for r0, c0, r1, c1 in found
    ]


__all__ = ["item_strings", "string_problems", "unterminated_strings"]
