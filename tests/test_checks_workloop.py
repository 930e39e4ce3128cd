"""Workloop rules (rules_workloop, rules_workloop_statements): each rule on a small document, both ways."""

from __future__ import annotations

import pytest
from helpers import assert_checker_error, checker_errors, checker_problems

BASE = """\
//! Sweep a folder on cadence and hatch one run per file.
workloop folder_watch
  every 10m
  input folder: String
  signal poke: Board
  carry seen: [String] = []
  report board: type Board
  invariant healthy: type Board
    tolerance 2 windows
    confirms start
  retention 7d

type Board { swept: Int }
type Sweep { files: [String], swept: Int }

worker sweepers
  action sweep(folder: String, seen: [String]) -> Sweep

detached handle_file(path: String)

step scan
  sweep(folder: folder, seen: seen) -> found
  answer board(swept: found.swept)

step dispatch
  fork file in found.files
    hatch handle_file(path: file) key file
  join
  route start(seen: found.files)

retire
  sweep(folder: folder, seen: seen)
"""


problems = checker_problems
errors = checker_errors


def edit(old: str, new: str, text: str = BASE) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


assert_error = assert_checker_error


def test_base_document_is_clean() -> None:
    assert errors(BASE) == []


# ---------------------------------------------------------------- arming
def test_unarmed_loop_is_reported_on_its_name() -> None:
    assert_error(edit("  every 10m\n", ""), 2, "folder_watch", "every", "on")


def test_signal_arming_alone_is_enough() -> None:
    text = edit("  every 10m\n", "  on poke\n")
    text = edit("    tolerance 2 windows\n", "    tolerance unconfirmed for 1h\n", text)
    assert errors(text) == []


def test_on_names_a_declared_signal() -> None:
    assert_error(edit("  every 10m\n", "  every 10m\n  on nudge\n"), 4, "nudge", "signal")


def test_every_takes_a_duration() -> None:
    assert_error(edit("every 10m", "every 10"), 3, "duration")


# ---------------------------------------------------------------- workflow / workloop words
def test_workloop_words_are_refused_in_a_workflow() -> None:
    text = """\
//! A workflow that borrows workloop words.
workflow one_shot
  input folder: String
  every 10m
  outcome done: type Board, route success

type Board { swept: Int }

worker w
  action count(folder: String) -> Board

detached later(path: String)

step run
  count(folder: folder) -> board
  hatch later(path: folder) key folder
  route start

retire
  count(folder: folder)
"""
    assert_error(text, 4, "`every`", "workloop")
    assert_error(text, 12, "detached", "workloop")
    assert_error(text, 16, "hatch", "workloop")
    assert_error(text, 17, "route start", "workflow")
    assert_error(text, 19, "retire", "workloop")


def test_workflow_clauses_are_refused_in_a_workloop() -> None:
    text = edit(
        "  input folder: String\n",
        "  input folder: String\n  timeout 1h\n  outcome done: type Board, route success\n",
    )
    assert_error(text, 5, "timeout", "workflow")
    assert_error(text, 6, "no outcomes")


# ---------------------------------------------------------------- carries and route start
@pytest.mark.parametrize(
    ("line", "words"),
    [("  carry seen = []\n", ("seen", "type")), ("  carry seen: [String]\n", ("seen", "default"))],
)
def test_carry_needs_type_and_default(line: str, words: tuple[str, ...]) -> None:
    assert_error(edit("  carry seen: [String] = []\n", line), 6, *words)


def test_route_start_rebinds_only_declared_carries() -> None:
    assert_error(
        edit("route start(seen: found.files)", "route start(cursor: found.files)"), 29, "cursor", "carry"
    )


# ---------------------------------------------------------------- invariants
def test_invariant_needs_tolerance_and_confirms() -> None:
    assert_error(edit("    tolerance 2 windows\n", ""), 8, "healthy", "tolerance")
    assert_error(edit("    confirms start\n", ""), 8, "healthy", "confirms")


def test_invariant_takes_one_tolerance_and_one_confirms() -> None:
    assert_error(
        edit("    confirms start\n", "    confirms start\n    tolerance 3 windows\n"),
        11,
        "second",
        "tolerance",
    )
    assert_error(
        edit("    confirms start\n", "    confirms start\n    confirms start\n"), 11, "second", "confirms"
    )


def test_tolerance_count_is_at_least_one() -> None:
    assert_error(edit("tolerance 2 windows", "tolerance 0 windows"), 9, "at least 1")


@pytest.mark.parametrize("tail", ["", " windos"])
def test_tolerance_needs_windows(tail: str) -> None:
    assert_error(
        edit("tolerance 2 windows", f"tolerance 2{tail}"), 9, "expected `windows` or `unconfirmed for …`"
    )


def test_tolerance_unconfirmed_needs_for_duration() -> None:
    assert_error(edit("tolerance 2 windows", "tolerance unconfirmed"), 9, "unconfirmed for")
    assert errors(edit("tolerance 2 windows", "tolerance unconfirmed for 30m")) == []


def test_signal_only_loop_cannot_count_windows() -> None:
    text = edit("  every 10m\n", "  on poke\n")
    assert_error(text, 9, "poke", "unconfirmed")


def test_confirms_a_step_some_route_reaches() -> None:
    assert_error(edit("confirms start", "confirms scan"), 10, "scan", "no `route`")
    assert_error(edit("confirms start", "confirms nowhere"), 10, "nowhere")
    text = edit("confirms start", "confirms dispatch")
    text = edit(
        "  answer board(swept: found.swept)\n", "  answer board(swept: found.swept)\n  route dispatch\n", text
    )
    assert errors(text) == []


def test_retention_once_and_a_duration() -> None:
    assert_error(edit("  retention 7d\n", "  retention 7d\n  retention 8d\n"), 12, "once")
    assert_error(edit("retention 7d", "retention 7"), 11, "duration")


# ---------------------------------------------------------------- reports, detached, hatch
def test_answer_names_a_declared_report() -> None:
    assert_error(edit("answer board(", "answer status("), 23, "status", "report")


def test_answer_supplies_exactly_the_fields() -> None:
    assert_error(edit("answer board(swept: found.swept)", "answer board()"), 23, "missing", "swept")
    assert_error(
        edit("answer board(swept: found.swept)", "answer board(swept: found.swept, extra: 1)"), 23, "extra"
    )


def test_report_type_must_be_declared() -> None:
    assert_error(edit("report board: type Board", "report board: type Tally"), 7, "unknown type `Tally`")


def test_detached_is_input_only() -> None:
    assert_error(
        edit("detached handle_file(path: String)", "detached handle_file(path: String) -> Board"),
        19,
        "input only",
    )


def test_hatch_names_a_declared_detached() -> None:
    assert_error(edit("hatch handle_file(", "hatch process_job("), 27, "process_job", "detached")


def test_hatch_arguments_match_parameters() -> None:
    assert_error(edit("hatch handle_file(path: file)", "hatch handle_file(file: file)"), 27, "file")
    assert_error(
        edit("hatch handle_file(path: file)", "hatch handle_file(file: file)"), 27, "missing", "path"
    )


def test_hatch_needs_a_key() -> None:
    assert_error(edit(" key file", ""), 27, "`hatch handle_file` has no `key`", "key <expr>")


# ---------------------------------------------------------------- retire and completion
def test_retire_is_required_and_single() -> None:
    assert_error(edit("retire\n  sweep(folder: folder, seen: seen)\n", ""), 2, "folder_watch", "retire")
    text = BASE + "\nretire\n  sweep(folder: folder, seen: seen)\n"
    assert_error(text, 34, "exactly one `retire`")


def test_last_step_must_route() -> None:
    assert_error(edit("  route start(seen: found.files)\n", ""), 25, "dispatch", "falls off", "route start")


def test_outcomes_that_route_end_the_last_step() -> None:
    text = edit(
        "  route start(seen: found.files)\n",
        "  outcome again: if found.swept > 0, route start(seen: found.files)\n"
        "  outcome idle: else, route start\n",
    )
    assert errors(text) == []
