"""Workloop cadence insight: tolerance and retention explained at the declared `every` cadence."""

from __future__ import annotations

from pathlib import Path

from helpers import snap_of

from awl_lsp.features.cadence import duration_seconds, human_duration
from awl_lsp.features.inlay_hints import inlay_hints

WORKLOOP = (Path(__file__).parent / "data" / "graph" / "shard_watch.awl").read_text()


def cadence_hints(text: str) -> dict[str, str]:
    """Line text -> hint label, for the hints that are not binding types."""
    lines = text.splitlines()
    return {lines[h.position.line].strip(): h.label for h in inlay_hints(snap_of(text)) if h.kind is None}


def test_window_tolerance_is_shown_as_a_duration() -> None:
    hints = cadence_hints(WORKLOOP)
    assert hints["tolerance 3 windows"] == "≈ 1h15m at every 25m"
    assert hints["retention 2d"] == "≈ 115.2 iterations at every 25m"


def test_duration_tolerance_is_shown_in_iterations() -> None:
    text = WORKLOOP.replace("tolerance 3 windows", "tolerance unconfirmed for 2h")
    text = text.replace("every 25m", "every 30m")
    assert cadence_hints(text)["tolerance unconfirmed for 2h"] == "≈ 4 iterations at every 30m"


def test_hint_sits_at_the_end_of_the_clause_line() -> None:
    hint = next(h for h in inlay_hints(snap_of(WORKLOOP)) if h.kind is None)
    line = WORKLOOP.splitlines()[hint.position.line]
    assert hint.position.character == len(line.rstrip())


def test_signal_armed_loop_says_windows_follow_the_signal() -> None:
    text = WORKLOOP.replace("  every 25m\n", "  on poke\n").replace(
        "  input cluster: String\n", "  input cluster: String\n  signal poke: Health\n"
    )
    hints = cadence_hints(text)
    assert hints["tolerance 3 windows"] == "3 windows of `poke` (no `every`: windows follow the signal)"
    assert "retention 2d" not in hints  # no clock, no iteration count to give


def test_workflows_and_unknown_durations_get_no_cadence_hints() -> None:
    assert cadence_hints("workflow w\n  outcome done: type String, route success\n") == {}
    assert duration_seconds("5x") is None and duration_seconds("m") is None
    assert human_duration(4500) == "1h15m" and human_duration(86400 * 2) == "2d"
