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


def test_keyword_hovers_fit_a_screen_and_show_the_keyword_line() -> None:
    """Each keyword hover: form, sentence, the example block holding the keyword's line, a link."""
    text = example("inbox_sweep.awl")
    snap = snap_of(text)
    for needle, word in (
        ("    tolerance", "tolerance"),
        ("    hatch", "hatch"),
        ("  retention", "retention"),
        ("confirms start", "start"),
        ("  report", "report"),
        ("  every", "every"),
    ):
        at = pos(text, needle, len(needle) - len(word) + 1 if word != "start" else len("confirms s"))
        for markdown in (True, False):
            h = hover(snap, at, markdown=markdown)
            assert h is not None, needle
            value = h.contents.value
            assert len(value.splitlines()) <= 15, (word, value)
            assert f"awl guide {word}" in value
            if markdown:
                example_lines = value.split("```awl\n")[1].split("```")[0]
            else:
                example_lines = value.split("Example:\n")[1].split("Full entry:")[0]
            shown = example_lines.splitlines()[1:]
            assert any(word in line.replace("…", "").split() for line in shown), (word, value)
        assert f"(command:awl.guide?%5B%22{word}%22%5D)" in hover(snap, at).contents.value


def test_step_hover_lists_calls_outcomes_and_routes_in_and_out() -> None:
    text = example("inbox_sweep.awl")
    snap = snap_of(text)
    value = hover(snap, pos(text, "step fetch", 6)).contents.value
    assert "calls `list_new`" in value
    assert "outcomes `quiet`, `busy`" in value
    assert "routes to `hand_off`, `start`" in value
    value = hover(snap, pos(text, "step hand_off", 6)).contents.value
    assert "reached from `fetch`" in value


def test_action_hover_has_signature_config_and_worker_doc() -> None:
    text = example("inbox_sweep.awl")
    value = hover(snap_of(text), pos(text, "  list_new(inbox", 3)).contents.value
    assert "action list_new(inbox: String, after: String) -> Batch" in value
    assert "config: `node mail, timeout 2m, retry 3 every 30s`" in value
    assert "Talks to the mail store" in value


def test_carry_invariant_report_and_binding_hovers() -> None:
    text = example("inbox_sweep.awl")
    snap = snap_of(text)
    value = hover(snap, pos(text, "carry last_seen", 7)).contents.value
    assert 'carry last_seen: String = ""' in value and 'starts as `""`' in value
    value = hover(snap, pos(text, "invariant draining", 11)).contents.value
    assert "type SweepStatus" in value and "`tolerance unconfirmed for 1h`" in value
    value = hover(snap, pos(text, "report status", 8)).contents.value
    assert "type SweepStatus" in value and "answered in 1 place" in value
    value = hover(snap, pos(text, "-> batch", 4)).contents.value
    assert "batch: Batch" in value and "step fetch" in value


def test_every_keyword_hover_fits_in_fifteen_lines() -> None:
    from awl_lsp.reference import BUILTIN_TYPES, KEYWORDS, entry

    for word in KEYWORDS + BUILTIN_TYPES:
        e = entry(word)
        if e is None:
            continue
        for text in (e.hover_markdown(), e.hover_plaintext()):
            assert len(text.splitlines()) <= 15, (word, text)


def test_step_hover_says_what_it_runs_after() -> None:
    text = example("release_notes.awl").replace("step ship\n", "step ship after review\n")
    value = hover(snap_of(text), pos(text, "step ship", 6)).contents.value
    assert "runs after `review`" in value
    assert "calls `publish`" in value and "routes to `published`" in value


def test_binding_hover_says_what_binds_it() -> None:
    text = example("inbox_sweep.awl")
    snap = snap_of(text)
    value = hover(snap, pos(text, "batch.messages |> count", 1)).contents.value
    assert "batch: Batch" in value and "bound by `list_new(inbox: inbox, after: last_seen)`" in value
    value = hover(snap, pos(text, "fork message", 6)).contents.value
    assert "bound by `fork message in batch.messages`" in value
