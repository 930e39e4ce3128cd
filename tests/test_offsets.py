"""`Offsets` (line and item starts shared between versions, moved by an edit without one Python
int per entry) answers what the plain list it stands for answers, in every version, old ones too."""

from __future__ import annotations

import bisect
import random

import pytest

from awl_lsp.syntax import offsets
from awl_lsp.syntax.offsets import Offsets
from awl_lsp.syntax.positions import LineIndex


@pytest.mark.parametrize("limit", [4, offsets.LIMIT])
def test_every_version_after_random_replacements_is_the_list_it_stands_for(
    monkeypatch: pytest.MonkeyPatch, limit: int
) -> None:
    monkeypatch.setattr(offsets, "LIMIT", limit)  # (4: windows written out as plain lists often)
    rng = random.Random(1)
    for _ in range(200):
        plain = sorted(rng.randrange(0, 1000) for _ in range(rng.randrange(0, 40)))
        value = Offsets(list(plain))
        versions = [(value, list(plain))]
        for _ in range(30):
            n = len(plain)
            first = rng.randint(0, n)
            last = rng.randint(first, min(n, first + rng.randint(0, 4)))
            delta = rng.randint(-5, 20)
            low = plain[first - 1] if first else 0
            high = plain[last] + delta if last < n else low + 50
            middle = sorted(rng.randint(low, max(low, high)) for _ in range(rng.randint(0, 3)))
            plain = plain[:first] + middle + [x + delta for x in plain[last:]]
            value = value.replaced(first, last, middle, delta)
            versions.append((value, list(plain)))
            assert len(value) == len(plain)
            assert [value[i] for i in range(len(plain))] == plain
            assert [value[i] for i in range(-len(plain), 0)] == plain
            if any(a > b for a, b in zip(plain, plain[1:], strict=False)):
                continue  # (a negative move below an entry before it: no longer ascending)
            for x in range(-2, 1100, 37):
                assert value.bisect_right(x) == bisect.bisect_right(plain, x)
                assert bisect.bisect_left(value, x) == bisect.bisect_left(plain, x)  # (as a sequence)
        for old, expected in versions:  # a version stays what it was after newer ones are made
            assert old.to_list() == expected


def test_typing_in_one_place_keeps_the_window_small() -> None:
    value = Offsets(list(range(0, 100_000, 10)))
    for k in range(200):  # a character typed, again and again, on line 5,000
        value = value.replaced(5001, 5001, [], 1)
        assert value[5001] == 50_010 + k + 1
    assert len(value._window) <= 1 and value._flat is None  # (nothing written out)
    assert value[-1] == 99_990 + 200


def test_a_line_index_edited_all_over_a_long_text_is_a_fresh_index() -> None:
    rng = random.Random(6)
    text = "".join(rng.choice(["step a\n", "  x = é\n", "\r\n", "  y\r", "😀\n"]) for _ in range(3000))
    index = LineIndex(text)
    assert index.byte_starts  # (measured before the edits: then kept up to date with them)
    for _ in range(150):
        start = rng.choice([rng.randrange(len(text)), len(text) // 2])  # far apart, and in one place
        end = min(len(text), start + rng.randint(0, 3))
        inserted = rng.choice(["", "a", "\n", "é\n", "\r", "  z\n"])
        text = text[:start] + inserted + text[end:]
        index = index.replaced(start, end, inserted, text)
        fresh = LineIndex(text)
        assert index.char_starts == fresh.char_starts
        assert index.byte_starts == fresh.byte_starts
        row = rng.randrange(fresh.line_count)
        assert index.byte_start(row) == fresh.byte_starts[row]
        assert index.line_text(row) == fresh.line_text(row)
        assert index.position(start) == fresh.position(start)
