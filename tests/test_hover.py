"""Hover: keyword entries from the reference, and names with their signatures and docs."""

from __future__ import annotations

from helpers import example, pos, snap_of

from awl_lsp.features.hover import hover


def test_keyword_hover_markdown_and_plaintext() -> None:
    text = example("inbox_sweep.awl")
    snap = snap_of(text)
    h = hover(snap, pos(text, "tolerance", 1))
    assert h is not None and "Declares when an unconfirmed invariant alarms" in h.contents.value
    assert "```awl" in h.contents.value
    plain = hover(snap, pos(text, "tolerance", 1), markdown=False)
    assert "```" not in plain.contents.value and "unconfirmed invariant alarms" in plain.contents.value
    for needle, phrase in (
        ("  retention", "prior-generation window"),
        ("  confirms", "green health sample"),
        ("    hatch", "outlives the iteration"),
        (" key ", "dedupe identity"),
        ("  every", None),
        ("\nretire", "wind-down"),
    ):
        h = hover(snap, pos(text, needle, len(needle) - len(needle.lstrip()) + 1))
        assert h is not None, needle
        if phrase:
            assert phrase in h.contents.value, needle


def test_name_hover_shows_what_it_is() -> None:
    text = example("inbox_sweep.awl")
    snap = snap_of(text)
    h = hover(snap, pos(text, "route hand_off", 7))
    assert "step hand_off" in h.contents.value
    h = hover(snap, pos(text, "last_seen) -> batch", 1))
    assert "carry last_seen: String" in h.contents.value
    h = hover(snap, pos(text, "type Batch", 6))
    assert "messages: [Message]" in h.contents.value
    h = hover(snap, pos(text, "worker mailroom", 8))
    assert "Talks to the mail store" in h.contents.value and "action list_new" in h.contents.value


def test_hover_on_nothing_is_none() -> None:
    text = example("inbox_sweep.awl")
    assert hover(snap_of(text), pos(text, "\n\n", 1)) is None
