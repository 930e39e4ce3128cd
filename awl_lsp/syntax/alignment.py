"""Lining up two versions of a document's sequence of items: how many entries at the start and at
the end are the same, so that only the run between them is looked at again.

Every layer that keeps something per item between versions asks this one question — the model's
item keys, the checker's items and gatherings, the workspace summary's parts, and the replay's two
texts of one edited item (`checks.item_map`) — of sequences whose entries compare in C (bytes by
value, most objects by identity).
"""

from __future__ import annotations

from collections.abc import Sequence


def common_ends(old: Sequence[object], new: Sequence[object]) -> tuple[int, int]:
    """(prefix, suffix): how many entries at the start, and then at the end of what is left, are
    equal in both sequences. Halving slices: the comparisons run in C, not one Python step per entry."""
    n = min(len(old), len(new))
    lo, hi = 0, n
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if old[lo:mid] == new[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    p, lo, hi = lo, 0, n - lo
    a, b = len(old), len(new)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if old[a - mid : a - lo] == new[b - mid : b - lo]:
            lo = mid
        else:
            hi = mid - 1
    return p, lo
