"""Documents whose first error the engine names on a line we used to miss (issue 8, first line).

Each document under `tests/data/first_line/` is invalid and ends with `// expect: error on line N`.
We check it as `awl check` does (syntax problems, checker, cascades): the first error is on line N.
The engine's reference front end (`$AWL_REFERENCE`, default `<repo>/../shared/bin/awl-reference`)
must name the same line; without the binary that test skips and says so, unless
`AWL_REQUIRE_REFERENCE=1` makes its absence a failure.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from awl_lsp.checks import Severity
from awl_lsp.features.diagnostics import findings
from awl_lsp.features.documents import analyse_text
from awl_lsp.syntax.problems import Problem

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data" / "first_line"
REFERENCE = Path(os.environ.get("AWL_REFERENCE") or REPO.parent / "shared" / "bin" / "awl-reference")
_EXPECT = re.compile(r"^// expect: error on line (\d+)$", re.MULTILINE)

DOCS = sorted(DATA.glob("*.awl"))


def _expected(path: Path) -> int:
    m = _EXPECT.search(path.read_text(encoding="utf-8"))
    assert m is not None, f"{path.name} does not say where its error is"
    return int(m.group(1))


def _findings(path: Path) -> list[Problem]:
    return findings(analyse_text(path.read_text(encoding="utf-8"), path, path.parent))


def test_there_are_documents() -> None:
    assert len(DOCS) >= 7, DOCS


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_our_first_error_is_on_the_expected_line(path: Path) -> None:
    errors = [p for p in _findings(path) if p.severity is Severity.ERROR]
    assert errors, f"{path.name}: no error"
    assert errors[0].range[0] + 1 == _expected(path), (path.name, errors[0])


def test_a_broken_type_line_makes_the_unknown_type_a_lesser_problem_pointing_at_it() -> None:
    """The engine stops at the broken `type` line; what the checker finds from it is not an error of
    its own but follows from that line (here a hint: `Tally` is written on the unreadable line)."""
    problems = _findings(DATA / "type_without_open_brace.awl")
    errors = [p for p in problems if p.severity is Severity.ERROR]
    assert len(errors) == 1 and errors[0].range[0] == 5 and "`type Tally words: Int }`" in errors[0].message
    unknown = [p for p in problems if p.code == "unknown-type"]
    assert len(unknown) == 1 and unknown[0].severity in (Severity.WARNING, Severity.HINT)
    assert "line 6 could not be read" in unknown[0].message
    assert [r.range[0] for r in unknown[0].related] == [5]


def test_a_route_that_fell_out_of_the_last_step_is_the_error_not_the_missing_route() -> None:
    problems = _findings(DATA / "route_out_of_last_step.awl")
    errors = [p for p in problems if p.severity is Severity.ERROR]
    assert [p.range[0] for p in errors] == [12], errors
    falls = [p for p in problems if p.code == "falls-off-end"]
    assert falls and all(p.severity in (Severity.WARNING, Severity.HINT) for p in falls)


def test_without_a_syntax_error_the_checker_errors_stay_errors() -> None:
    text = (DATA / "type_without_open_brace.awl").read_text(encoding="utf-8")
    fixed = text.replace("type Tally words: Int }", "type Tallies { words: Int }")
    problems = findings(analyse_text(fixed, DATA / "x.awl", DATA))
    unknown = [p for p in problems if p.code == "unknown-type"]
    assert len(unknown) == 1 and unknown[0].severity is Severity.ERROR
    assert "provisional" not in unknown[0].message


def test_narration_under_the_header_is_not_an_indentation_error() -> None:
    """`//!` below the header line: the narration rule names it; the clauses below are fine."""
    problems = _findings(DATA / "narration_below_header.awl")
    assert not [p for p in problems if p.code in ("unexpected-indent", "header-indent")], problems
    assert [p.code for p in problems if p.severity is Severity.ERROR] == ["narration", "narration"]


def _reference() -> Path:
    if not (REFERENCE.is_file() and os.access(REFERENCE, os.X_OK)):
        reason = f"the engine's reference front end is not at {REFERENCE} (set AWL_REFERENCE)"
        if os.environ.get("AWL_REQUIRE_REFERENCE") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    return REFERENCE


def test_the_engine_names_the_same_lines() -> None:
    run = subprocess.run(
        [str(_reference()), "check", *map(str, DOCS)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    first: dict[str, tuple[str, int]] = {}
    for row in run.stdout.splitlines():
        cols = row.split("\t")
        if len(cols) >= 3 and cols[0] not in first:
            first[cols[0]] = (cols[1], int(cols[2]) if cols[2].isdigit() else 0)
    disagree = [
        f"{p.name}: engine {first.get(str(p))}, expected line {_expected(p)}"
        for p in DOCS
        if first.get(str(p), ("missing", 0))[0] in ("OK", "missing") or first[str(p)][1] != _expected(p)
    ]
    assert not disagree, "\n".join(disagree)


def test_an_unclosed_type_body_is_named_on_the_next_line_and_the_fix_closes_it_in_place() -> None:
    from helpers import snap_of
    from lsp_edits import apply_workspace_edit

    from awl_lsp.features.code_actions import code_actions
    from awl_lsp.features.diagnostics import diagnostics

    uri = "file:///work/doc.awl"
    text = (DATA / "type_body_never_closed.awl").read_text(encoding="utf-8")
    snap = snap_of(text)
    errors = [d for d in diagnostics(snap) if d.severity == 1]
    assert [d.range.start.line for d in errors] == [10] and "type `Tally`" in errors[0].message
    assert any(d.range.start.line == 7 and "never closed" in d.message for d in diagnostics(snap))
    actions = code_actions(snap, uri, errors[0].range, errors)
    fixed = apply_workspace_edit(text, actions[0].edit, uri)
    assert fixed.splitlines()[7:9] == ["  note: String,", "}"]
    assert not snap_of(fixed).doc.root.has_error


def test_a_document_ending_inside_an_argument_list_is_named_at_its_end_and_fixed_in_place() -> None:
    from helpers import snap_of
    from lsp_edits import apply_workspace_edit

    from awl_lsp.features.code_actions import code_actions
    from awl_lsp.features.diagnostics import diagnostics

    uri = "file:///work/doc.awl"
    text = (DATA / "route_arguments_open_at_end.awl").read_text(encoding="utf-8")
    snap = snap_of(text)
    errors = [d for d in diagnostics(snap) if d.severity == 1]
    assert [d.range.start.line for d in errors] == [17] and "`failed(`" in errors[0].message
    assert (
        errors[0].related_information is None
        or errors[0].related_information[0].location.range.start.line == 16
    )
    actions = code_actions(snap, uri, errors[0].range, errors)
    fixed = apply_workspace_edit(text, actions[0].edit, uri)
    assert fixed.splitlines()[-1] == "    route failed(score: grade.score)"
    assert [p for p in findings(snap_of(fixed)) if p.severity is Severity.ERROR] == []


def test_a_statement_at_the_margin_under_a_bodiless_step_says_to_indent_it() -> None:
    errors = [p for p in _findings(DATA / "pipe_at_margin_under_step.awl") if p.severity is Severity.ERROR]
    assert len(errors) == 1 and errors[0].code == "unknown-declaration"
    assert "under `step send`" in errors[0].message and "indent this line" in errors[0].message
    assert "did you mean" not in errors[0].message


def test_a_pipe_chain_into_an_action_must_end_in_a_binding_or_a_route() -> None:
    errors = [p for p in _findings(DATA / "pipe_chain_without_end.awl") if p.severity is Severity.ERROR]
    assert [(p.range[0], p.code) for p in errors] == [(11, "pipe-unterminated")]
