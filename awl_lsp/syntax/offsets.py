"""`Offsets`: an ascending list of positions (line starts, item starts) that an edit moves in O(1).

After an edit every position below it moves by the same amount. A plain list would be rebuilt
whole for that (one Python int made per line, on every keystroke of a long document). An
`Offsets` is a value that shares its storage with the version it was made from:
`base[:cut] + window + [x + shift for x in base[resume:]]`, where `base` is a list no version
changes. An edit replaces the entries it touched and adds its growth to the pending shift; the
window grows only by the entries between the edits, so typing in one place costs what the edit
touched. When the window would grow too long (edits far apart), the next version is written out
as a plain list again (`LIMIT`). Reading an entry costs a comparison or two; `to_list()` writes the
whole version out once (and keeps it) for a reader that wants a plain list.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from itertools import repeat
from operator import add

LIMIT = 512  # entries a window may hold before the next version is written out as a plain list


class Offsets:
    """An ascending sequence of ints, immutable (see the module's docstring)."""

    __slots__ = ("_base", "_cut", "_window", "_resume", "_shift", "_len", "_flat")

    def __init__(self, values: list[int]) -> None:
        """`values` is taken over: nobody may change it afterwards."""
        self._base = values
        self._cut = self._resume = len(values)
        self._window: list[int] = []
        self._shift = 0
        self._len = len(values)
        self._flat: list[int] | None = values

    def __len__(self) -> int:
        return self._len

    def __getitem__(self, i: int) -> int:
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError("offset index out of range")
        cut = self._cut
        if i < cut:
            return self._base[i]
        j = i - cut
        window = self._window
        if j < len(window):
            return window[j]
        return self._base[j - len(window) + self._resume] + self._shift

    def __iter__(self) -> Iterator[int]:
        return iter(self.to_list())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Offsets):
            return self.to_list() == other.to_list()
        return isinstance(other, list) and self.to_list() == other

    __hash__ = None  # type: ignore[assignment]  # (compared by value, never hashed)

    def __repr__(self) -> str:
        return f"Offsets({self.to_list()!r})"

    def to_list(self) -> list[int]:
        """The whole sequence as a plain list (made once per version; read it, never change it)."""
        flat = self._flat
        if flat is None:
            base, cut, resume = self._base, self._cut, self._resume
            tail = base[resume:]
            if self._shift:
                tail = list(map(add, tail, repeat(self._shift)))
            flat = self._flat = base[:cut] + self._window + tail
        return flat

    def bisect_right(self, x: int) -> int:
        """How many entries are at most `x`."""
        flat = self._flat
        if flat is not None:
            return bisect_right(flat, x)
        base, cut, window = self._base, self._cut, self._window
        if cut and x < base[cut - 1]:
            return bisect_right(base, x, 0, cut)
        if window and x < window[-1]:
            return cut + bisect_right(window, x)
        return cut + len(window) + bisect_right(base, x - self._shift, self._resume) - self._resume

    def replaced(self, first: int, last: int, middle: list[int], delta: int) -> Offsets:
        """A new version: entries [first, last) replaced by `middle`, the entries from `last` on
        moved by `delta`."""
        n = self._len
        if not 0 <= first <= last <= n:
            raise IndexError("offset range out of range")
        cut, window, resume, shift = self._cut, self._window, self._resume, self._shift
        wend = cut + len(window)
        if not window and not shift and cut == resume:  # (this version is its base: a window may
            lo, hi, resume = first, last, last  # start anywhere)
        else:
            lo, hi = min(first, cut), max(last, wend)
            resume = hi - wend + resume
        if hi - lo > LIMIT + len(middle):  # edits far apart: written out as a plain list again
            flat = self.to_list()
            tail = flat[last:]
            if delta:
                tail = list(map(add, tail, repeat(delta)))
            return Offsets(flat[:first] + middle + tail)
        get = self.__getitem__
        new = Offsets.__new__(Offsets)
        new._base = self._base
        new._cut = lo
        after = [get(k) for k in range(last, hi)]
        if delta:
            after = list(map(add, after, repeat(delta)))
        new._window = [get(k) for k in range(lo, first)] + middle + after
        new._resume = resume
        new._shift = shift + delta
        new._len = n - (last - first) + len(middle)
        new._flat = None
        return new


__all__ = ["LIMIT", "Offsets"]
