"""Every syntax message says what was expected where the line stopped, in words a user can act on.

The lines below are the shapes users type and leave half done (from LANGUAGE.md and the keyword
reference); the sweep cuts every line of the corpus and of our own workflows after each token and
asserts that no message of the syntax fallback stays generic (`tests/message_sweep.py`).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from awl_lsp.checks import Severity
from awl_lsp.features.diagnostics import findings
from awl_lsp.features.documents import analyse_text

REPO = Path(__file__).resolve().parents[1]

LOOP = """//! probe
workloop queue_watch
  every 25m
  input queue_dir: String
  report board: type Board
  invariant serving: type Board
    tolerance 3 windows
    confirms start
  retention 14d

type Board { swept: Int }
type Task  { id: String }
type Sweep { tasks: [Task], swept: Int }

worker sweepers
  action sweep(queue_dir: String) -> Sweep

detached process_task(id: String)

step sweep_queue
  sweep(queue_dir: queue_dir) -> found
  answer board(swept: found.swept)
  outcome idle: if found.tasks is empty, route start
  outcome busy: else, route dispatch

step dispatch
  fork task in found.tasks
    hatch process_task(id: task.id) key task.id
  join
  route start

retire
  sweep(queue_dir: queue_dir)
"""


def _first_error(text: str) -> tuple[int, str]:
    path = REPO / "probe.awl"
    errors = [f for f in findings(analyse_text(text, path, REPO)) if f.severity is Severity.ERROR]
    assert errors, "no error"
    first = min(errors, key=lambda f: f.range)
    return first.range[0] + 1, first.message


def test_the_reference_workloop_is_clean() -> None:
    path = REPO / "probe.awl"
    errors = [f.message for f in findings(analyse_text(LOOP, path, REPO)) if f.severity is Severity.ERROR]
    assert not errors


@pytest.mark.parametrize(
    ("old", "new", "line", "words"),
    [
        ("  retention 14d", "  retention", 9, ["a duration", "`retention`"]),
        ("  every 25m", "  every", 3, ["a duration", "`every`"]),
        (
            "    tolerance 3 windows",
            "    tolerance unconfirmed for 3 windows",
            7,
            ["`windows`", "a duration"],
        ),
        ("key task.id", "key", 28, ["dedupe key", "hatch DETACHED"]),
        (
            "  answer board(swept: found.swept)",
            "  answer board(swept: found.swept)\n  max 3",
            23,
            ["max N visits"],
        ),
        ("  retention 14d", '  retention 14d\n\nconst c = json { "a": 1', 11, ["never closed", "`{`"]),
        (
            "  sweep(queue_dir: queue_dir) -> found",
            "  sweep(queue_dir: queue_dir) key x",
            21,
            ["only a `hatch`"],
        ),
        ("    hatch process_task(", "    hatch sweep(", 28, ["is an action"]),
        ("  report board: type Board", "  report board: Board", 5, ["`type`", "report NAME: type T"]),
        (
            "  invariant serving: type Board",
            "  invariant serving: Board",
            6,
            ["`type`", "invariant NAME: type T"],
        ),
    ],
    ids=[
        "retention",
        "every",
        "unconfirmed-windows",
        "key",
        "max-without-visits",
        "json",
        "key-on-a-call",
        "article",
        "report-type",
        "invariant-type",
    ],
)
def test_the_message_names_what_was_expected(old: str, new: str, line: int, words: list[str]) -> None:
    assert old in LOOP
    at, message = _first_error(LOOP.replace(old, new, 1))
    assert at == line, message
    for w in words:
        assert w in message, message


def test_the_missing_type_word_carries_its_insertion() -> None:
    text = LOOP.replace("  report board: type Board", "  report board: Board", 1)
    path = REPO / "probe.awl"
    [found] = [f for f in findings(analyse_text(text, path, REPO)) if f.code == "header-type-word"]
    assert found.data == {"insert": "type ", "at": [4, 16]}


def test_no_syntax_message_of_the_sweep_is_generic() -> None:
    from message_sweep import CORPUS, is_generic, sweep

    paths = sorted((REPO / "tests" / "data" / "conformance").glob("*.awl"))
    if CORPUS.is_dir():
        paths += sorted(CORPUS.rglob("*.awl"))
    elif os.environ.get("AWL_REQUIRE_CORPUS") == "1":
        pytest.fail(f"AWL corpus not found at {CORPUS} (set AWL_CORPUS)")
    made, shapes, examples = sweep(paths)
    assert made > 1000
    generic = [examples[s] for s in shapes if is_generic(examples[s].split(": ", 1)[1])]
    assert not generic, generic
