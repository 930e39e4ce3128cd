"""Diagnostics as a whole: syntax and semantic problems together, on broken documents too."""

from __future__ import annotations

from helpers import example, snap_of

from awl_lsp.checks import Severity
from awl_lsp.features.diagnostics import findings


def test_semantic_problems_survive_a_syntax_error_elsewhere() -> None:
    text = example("broken_hatch.awl").replace("  sweep(region: region) -> found", "  sweep(region: ")
    problems = findings(snap_of(text))
    lines = text.splitlines()
    broken = lines.index("  sweep(region: ")
    hatch = next(i for i, line in enumerate(lines) if "hatch fulfil" in line)
    assert any(p.range[0] == broken and p.code in ("syntax", "missing") for p in problems)
    hits = [p for p in problems if p.range[0] == hatch and p.severity is Severity.ERROR]
    assert hits and "key" in hits[0].message


def test_valid_examples_have_no_errors_and_the_broken_one_exactly_one() -> None:
    for name in ("inbox_sweep.awl", "release_notes.awl"):
        assert [p for p in findings(snap_of(example(name))) if p.severity is Severity.ERROR] == []
    errors = [p for p in findings(snap_of(example("broken_hatch.awl"))) if p.severity is Severity.ERROR]
    assert len(errors) == 1 and errors[0].code == "hatch-key"


def test_half_typed_outcome_is_named_on_its_own_line() -> None:
    text = example("release_notes.awl").replace(
        "  outcome approved: when decision is present and decision.approve, route ship", "  outcome appr"
    )
    line = text.splitlines().index("  outcome appr")
    problems = [p for p in findings(snap_of(text)) if p.severity is Severity.ERROR]
    on_line = [p.message for p in problems if p.range[0] == line]
    assert any("needs a guard" in m for m in on_line) and any("has no route" in m for m in on_line)
    # no syntax error anywhere: the step's other outcome and the next step parse untouched
    assert not [p for p in problems if p.code in ("syntax", "missing")]
