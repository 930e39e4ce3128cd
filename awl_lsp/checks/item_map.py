"""Where an item's places go across an edit: `ItemMap` carries points of one version of an item's
text to the next.

The two versions (the items' keys, which start at the beginning of a line) share a prefix and a
suffix; a point before the differing stretch keeps its place, one after it moves with the suffix,
a point inside it has no image (`Unmappable`). A place of the text itself (a fact's, a summary's:
`ItemMap.place`) keeps its place on a line the edit splits; a place a rule made up there may belong
to either part of that line (`ItemMap.range`, for problems). `SAME` is the identity (a new item's
own places). A pure insertion or deletion of whole lines is aligned at the start of its line when
the text allows both alignments.
"""

from __future__ import annotations

from awl_lsp.syntax.alignment import common_ends

Point = tuple[int, int]
Range = tuple[int, int, int, int]


class Unmappable(Exception):
    """A place inside the edited stretch: the item's shape cannot be compared."""


def _point(text: bytes, offset: int) -> Point:
    """The (row, byte column) of `offset` in `text`."""
    return text.count(b"\n", 0, offset), offset - (text.rfind(b"\n", 0, offset) + 1)


class ItemMap:
    """Points of one item's old text -> its new text (rows in document coordinates).

    The two texts (the items' keys, which start at the beginning of a line) share a prefix and a
    suffix; a point before the differing stretch keeps its place, one after it moves with the
    suffix. A range's start at a pure insertion point moves with the insertion, its end does not.
    A pure insertion or deletion of whole lines is placed at the start of its line when the text
    allows both (a line pasted above a copy of itself is that line, not a break in the copy).
    """

    __slots__ = ("_a", "_b0", "_b1", "_old_row", "_new_row", "rows_moved", "_splits")

    def __init__(self, old_key: bytes, old_row: int, new_key: bytes, new_row: int) -> None:
        self._old_row, self._new_row = old_row, new_row
        # an item key's text ends at its first `\0` (what follows describes shared lines or a
        # broken item's tree: no places)
        old_key, new_key = old_key.split(b"\0", 1)[0], new_key.split(b"\0", 1)[0]
        if old_key == new_key:
            end = _point(old_key, len(old_key))
            self._a = self._b0 = self._b1 = end
        else:
            p, s = common_ends(old_key, new_key)
            start = _line_start(old_key, new_key, p, s)
            p, s = start, s + p - start
            self._a = _point(old_key, p)
            self._b0 = _point(old_key, len(old_key) - s)
            self._b1 = _point(new_key, len(new_key) - s)
        self.rows_moved = old_row != new_row or self._b0[0] != self._b1[0]
        # the edit adds or removes line breaks: where it starts, a line's head stays and its tail
        # moves to another line. A place a rule made up on that line (a node's row at column 0)
        # may belong to either part: only the text's own places, elsewhere, are carried.
        self._splits = self._b0[0] != self._b1[0]

    def point(self, row: int, col: int, end: bool = False, made_up: bool = True) -> Point:
        """The new place of an old point; `made_up=False` for a place of the text itself (a
        node's, a symbol's), which keeps its place on a line the edit splits, before the edit."""
        q = (row - self._old_row, col)
        if q < self._a or (end and q == self._a):
            if made_up and self._splits and q[0] == self._a[0]:
                raise Unmappable
            return (q[0] + self._new_row, col)
        if q >= self._b0:
            if q[0] == self._b0[0]:
                return (self._b1[0] + self._new_row, col - self._b0[1] + self._b1[1])
            return (q[0] - self._b0[0] + self._b1[0] + self._new_row, col)
        raise Unmappable

    def range(self, r: Range) -> Range:
        """A problem's range (its places may be made up by a rule)."""
        s = self.point(r[0], r[1])
        e = self.point(r[2], r[3], end=True)
        return (s[0], s[1], e[0], e[1])

    def place(self, r: Range) -> Range:
        """A range of the text itself (a fact's, a summary's: what a shape holds)."""
        s = self.point(r[0], r[1], made_up=False)
        e = self.point(r[2], r[3], end=True, made_up=False)
        return (s[0], s[1], e[0], e[1])


def _line_start(old: bytes, new: bytes, p: int, s: int) -> int:
    """Where a pure insertion or deletion starts, moved back to the start of its line when the text
    before it there repeats the end of the stretch (both alignments give the same texts)."""
    if len(old) - s == p:
        stretch = new[p : len(new) - s]  # inserted
    elif len(new) - s == p:
        stretch = old[p : len(old) - s]  # deleted
    else:
        return p
    start = old.rfind(b"\n", 0, p) + 1
    if not stretch or start == p or p - start > len(stretch) or not stretch.endswith(old[start:p]):
        return p
    return start


class _Same:
    """The identity map (a new item's own places)."""

    rows_moved = False

    def range(self, r: Range) -> Range:
        return r

    place = range


SAME = _Same()


__all__ = ["SAME", "ItemMap", "Point", "Range", "Unmappable"]
