"""Quick fixes for the type, value, constant, schema and call-setting problems, where a user sees them.

Each of our one-mistake documents for these fixes (`tests/data/invalid/<name>.awl`) gets the fix the
editor marks preferred — the one `awl check --fix` (`--unsafe-fixes` for a guess) applies: its
title, whether it is safe, and exactly the lines it changes. The fixed text has no problem left,
and the engine's own front end (`awl-reference check`, `$AWL_REFERENCE`) accepts every fixed
document (skipped visibly without it, a failure under `AWL_REQUIRE_REFERENCE=1`). Then what the
fixes must not do: change a declaration another line depends on, follow a value that is wrong for
a reason of its own, edit a schema file, or spend more than their budget of re-checks.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from awl_lsp.checks import Severity
from awl_lsp.features.documents import analyse_text
from awl_lsp.features.findings import findings
from awl_lsp.features.fixes import Fix, apply_edits, fixes_for, trial
from awl_lsp.features.fixes.json_repair import repairs
from awl_lsp.syntax.problems import Problem

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data" / "invalid"
REFERENCE = Path(os.environ.get("AWL_REFERENCE") or REPO.parent / "shared" / "bin" / "awl-reference")

# (document, code, the preferred fix's title, safe, the text it changes: (before, after) in order,
# each `before` found once in the document)
CASES: list[tuple[str, str, str, bool, list[tuple[str, str]]]] = [
    (
        "action_without_return_type",
        "return-type",
        "Add `-> Filed`",
        False,
        [("priority: Priority)\n", "priority: Priority) -> Filed\n")],
    ),
    (
        "argument_of_another_type",
        "type-mismatch",
        "Change the type of parameter `summary` of `file` to `Int`",
        False,
        [("(summary: String", "(summary: Int")],
    ),
    (
        "bare_field_accessor",
        "relative-field",
        "Pipe `assessment` into it: `assessment |> .summary`",
        False,
        [(".summary", "assessment |> .summary")],
    ),
    (
        "binding_named_like_a_const",
        "const-shadow",
        "Rename the binding to `banner_value`",
        False,
        [
            ("-> banner\n", "-> banner_value\n"),
            ("banner.queue", "banner_value.queue"),
            ("banner.priority", "banner_value.priority"),
        ],
    ),
    (
        "const_comparison_of_literals",
        "const-compile-time",
        'Write `false` (the value of `"a" == "b"`)',
        True,
        [('"a" == "b"', "false")],
    ),
    (
        "const_holds_workflow_id",
        "const-compile-time",
        "Inline `run`: write `workflow.id` where it is read",
        False,
        [("const run = workflow.id\n", ""), ("reason: run)", "reason: workflow.id)")],
    ),
    (
        "const_named_like_an_input",
        "const-collision",
        "Rename the const to `banner_value`",
        False,
        [("const banner =", "const banner_value =")],
    ),
    (
        "const_reads_an_undeclared_name",
        "const",
        'Declare `const prefix = ""`',
        False,
        [("const banner = prefix", 'const prefix = ""\nconst banner = prefix')],
    ),
    ("duration_in_whole_milliseconds", "duration-unit", "Write `2s`", True, [("2000ms", "2s")]),
    (
        "input_named_map",
        "combinator-name-read",
        "Rename the input to `map_value`",
        False,
        [("map:", "map_value:"), (": map", ": map_value")],
    ),
    (
        "input_without_type",
        "header-type",
        "Add `: Ticket`",
        False,
        [("input ticket\n", "input ticket: Ticket\n")],
    ),
    (
        "int_as_guard",
        "type-bool",
        "Test `assessment.weight != 0`",
        False,
        [("assessment.weight", "assessment.weight != 0")],
    ),
    (
        "int_field_compared_with_float",
        "compare-mismatch",
        "Change the type of field `weight` of `Assessment` to `Float`",
        False,
        [("weight: Int", "weight: Float")],
    ),
    ("json_missing_bracket", "json-invalid", "Repair the JSON", True, [('"b" }', '"b"] }')]),
    ("list_of_two_types", "list-item-type", 'Write `"2"`', False, [('["a", 2]', '["a", "2"]')]),
    (
        "lists_joined_with_plus",
        "plus-mismatch",
        'Write `["a", "b"]`',
        True,
        [('["a"] + ["b"]', '["a", "b"]')],
    ),
    (
        "null_for_an_optional_field",
        "null-value",
        "Leave out `note: null` (absent is left out)",
        True,
        [("filed.priority, note: null", "filed.priority")],
    ),
    ("number_compared_with_quoted_number", "compare-mismatch", "Write `3`", True, [('"3"', "3")]),
    (
        "open_string",
        "string",
        'Close the string: `"assessment failed"`',
        False,
        [('"assessment failed)', '"assessment failed")')],
    ),
    (
        "optional_compared",
        "compare-optional",
        "Make field `owner` of `Assessment` required (`String`)",
        False,
        [("owner: String?", "owner: String")],
    ),
    (
        "optional_into_plain_parameter",
        "optional-into-plain",
        "Make parameter `summary` of `file` optional (`String?`)",
        False,
        [("(summary: String", "(summary: String?")],
    ),
    ("optional_list_elements", "list-element", "Write `[String]`", False, [("[String?]", "[String]")]),
    (
        "parameter_without_type",
        "parameter-type",
        "Add `: String`",
        False,
        [("file(summary, ", "file(summary: String, ")],
    ),
    (
        "pipe_into_two_parameters",
        "pipe-stage",
        "Call it: `file(summary: assessment.summary, priority: Low)`",
        False,
        [("assessment.summary |> file", "file(summary: assessment.summary, priority: Low)")],
    ),
    (
        "plain_field_tested_present",
        "is-present",
        "Make field `body` of `Ticket` optional (`String?`)",
        False,
        [("body: String,", "body: String?,")],
    ),
    (
        "positional_argument",
        "named-arguments",
        "Name the argument: `summary: assessment.summary`",
        True,
        [("assessment.summary", "summary: assessment.summary")],
    ),
    (
        "record_built_with_an_unknown_field",
        "record-field",
        "Add field `urgency: Int` to type `Ticket`",
        False,
        [("[String]", "[String], urgency: Int")],
    ),
    (
        "record_counted",
        "combinator-list",
        "Use its list: `ticket.tags`",
        False,
        [("ticket |> count", "ticket.tags |> count")],
    ),
    (
        "retry_at_call_site",
        "call-override",
        "Move `retry 2 every 10s` to action `file`",
        False,
        [
            ("node shell, timeout 1m\n", "node shell, timeout 1m, retry 2 every 10s\n"),
            ("  retry 2 every 10s\n  outcome", "outcome"),
        ],
    ),
    (
        "retry_without_schedule",
        "retry",
        "Add a schedule: `retry 2 every 30s`",
        False,
        [("retry 2\n", "retry 2 every 30s\n")],
    ),
    (
        "schema_one_of",
        "schema-unsupported",
        'Keep one shape: `{"type": "string"}`',
        False,
        [('{ "oneOf": [{ "type": "string" }, { "type": "integer" }] }', '{"type": "string"}')],
    ),
    (
        "schema_ref_to_definitions",
        "schema-unsupported",
        'Change to `"#/$defs/Entry"`',
        True,
        [('"#/definitions/Entry"', '"#/$defs/Entry"')],
    ),
    ("schema_type_word", "schema-unsupported", 'Change to `"string"`', False, [('"text"', '"string"')]),
    (
        "setting_given_twice",
        "config-key-twice",
        "Keep the first `timeout` (`timeout 1m`)",
        True,
        [("1m, timeout 1m", "1m")],
    ),
    (
        "setting_under_a_pipe",
        "config-not-call",
        "Call it: `shout(text: assessment.summary)`",
        True,
        [("assessment.summary |> shout", "shout(text: assessment.summary)")],
    ),
    (
        "sleep_reads_a_const",
        "duration",
        "Write `30s` (the value of `pause`)",
        True,
        [("sleep pause", "sleep 30s")],
    ),
    (
        "string_with_backslash",
        "string-escape",
        'Write `"see C:\\\\logs"`',
        False,
        [('C:\\logs"', 'C:\\\\logs"')],
    ),
    (
        "string_with_quote_escape",
        "string-escape",
        "Write `\"the 'model' failed\"`",
        True,
        [("\\'model\\'", "'model'")],
    ),
    (
        "text_tested_empty",
        "is-empty",
        'Test `assessment.summary == ""`',
        False,
        [("summary is empty", 'summary == ""')],
    ),
    (
        "unknown_variant",
        "enum-variant",
        "Add `Critical` to enum `Priority`",
        False,
        [("Normal | Urgent\n", "Normal | Urgent | Critical\n")],
    ),
    ("variant_where_text_goes", "enum-variant", 'Write `"Urgent"`', False, [(": Urgent", ': "Urgent"')]),
    ("whole_number_where_float_goes", "type-mismatch", "Write `1.0`", True, [("score: 1)", "score: 1.0)")]),
    ("workflow_name", "workflow-field", "Change to `workflow.id`", False, [("workflow.name", "workflow.id")]),
    ("zero_workflow_timeout", "timeout-zero", "Write `30m`", False, [("timeout 0s", "timeout 30m")]),
]


def _errors(snap_problems: list[Problem]) -> list[Problem]:
    return [p for p in snap_problems if p.severity is Severity.ERROR]


def _fixed(name: str, code: str) -> tuple[Fix, str, str]:
    """The document's preferred fix for its one `code` error, the text and the fixed text."""
    path = DATA / f"{name}.awl"
    text = path.read_text(encoding="utf-8")
    snap = analyse_text(text, path, path.parent)
    (problem,) = _errors(findings(snap))
    assert problem.code == code, problem
    fix = next(f for f in fixes_for(snap, problem, strict=True) if f.preferred)
    return fix, text, apply_edits(text, fix.plain_edits())


@pytest.mark.parametrize(("name", "code", "title", "safe", "swaps"), CASES, ids=[c[0] for c in CASES])
def test_the_preferred_fix_writes_what_was_meant(
    name: str, code: str, title: str, safe: bool, swaps: list[tuple[str, str]]
) -> None:
    fix, text, new = _fixed(name, code)
    assert (fix.title, fix.safe) == (title, safe)
    expected = text
    for before, after in swaps:
        assert expected.count(before) == 1, before
        expected = expected.replace(before, after)
    assert new == expected
    path = DATA / f"{name}.awl"
    assert not findings(analyse_text(new, path, path.parent)), "the fixed text has problems left"


def _reference() -> Path:
    if not (REFERENCE.is_file() and os.access(REFERENCE, os.X_OK)):
        reason = f"the engine's reference front end is not at {REFERENCE} (set AWL_REFERENCE)"
        if os.environ.get("AWL_REQUIRE_REFERENCE") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    return REFERENCE


def test_the_engine_rejects_each_document_and_accepts_it_fixed(tmp_path: Path) -> None:
    binary = _reference()
    before, after = tmp_path / "before", tmp_path / "after"
    before.mkdir()
    after.mkdir()
    for name, code, *_ in CASES:
        _, text, new = _fixed(name, code)
        (before / f"{name}.awl").write_text(text, encoding="utf-8")
        (after / f"{name}.awl").write_text(new, encoding="utf-8")
    for folder, wanted in ((before, False), (after, True)):
        files = sorted(folder.glob("*.awl"))
        run = subprocess.run(
            [str(binary), "check", *map(str, files)], capture_output=True, text=True, timeout=120
        )
        verdicts = {
            Path(line.split("\t")[0]).stem: line.split("\t")[1]
            for line in run.stdout.splitlines()
            if "\t" in line
        }
        wrong = {n: v for n, v in verdicts.items() if (v == "OK") != wanted}
        assert len(verdicts) == len(CASES) and not wrong, (folder.name, wrong)


# ---------------------------------------------------------------------- what the fixes must not do
BASE = (DATA / "argument_of_another_type.awl").read_text(encoding="utf-8")  # one Int where a String goes


def _fixes(text: str, code: str, path: Path | None = None) -> list[Fix]:
    snap = analyse_text(text, path, path.parent if path is not None else None)
    (problem,) = [p for p in _errors(findings(snap)) if p.code == code]
    return fixes_for(snap, problem, strict=True)


def test_a_type_is_not_changed_where_another_line_needs_it() -> None:
    assert [f.title for f in _fixes(BASE, "type-mismatch")] == [
        "Change the type of parameter `summary` of `file` to `Int`"
    ]
    both = BASE.replace(
        "  file(summary: assessment.weight,",
        "  file(summary: assessment.summary, priority: Low) -> first\n  file(summary: assessment.weight,",
    )
    assert _fixes(both, "type-mismatch") == []  # the String passed on the line above would break


def test_a_value_wrong_for_a_reason_of_its_own_gets_no_type_change() -> None:
    """A loop counter read inside its loop is an Int because of that read: the parameter it is
    passed to is not to follow it."""
    text = BASE.replace(
        "  assess(ticket: ticket) -> assessment\n",
        "  assess(ticket: ticket) -> assessment\n"
        "  loop t = ticket counting t\n    assess(ticket: t) -> t\n    until true\n    max 3\n",
    )
    snap = analyse_text(text)
    inside = [p for p in _errors(findings(snap)) if p.code == "loop-counter-inside"]
    mismatch = [
        p for p in _errors(findings(snap)) if p.code == "type-mismatch" and p.range == inside[0].range
    ]
    assert len(mismatch) == 1
    assert fixes_for(snap, mismatch[0], strict=True) == []


def test_a_schema_file_is_not_edited(tmp_path: Path) -> None:
    (tmp_path / "thing.schema.json").write_text(
        '{"type": "object", "properties": {"id": {"type": "text"}}, "required": ["id"]}', encoding="utf-8"
    )
    text = BASE.replace(
        "type Dropped { reason: String }",
        'type Dropped { reason: String }\ntype Thing = schema("thing.schema.json")',
    )
    path = tmp_path / "doc.awl"
    assert (
        _fixes(
            text.replace("  input ticket: Ticket\n", "  input ticket: Ticket\n  input thing: Thing\n"),
            "schema-unsupported",
            path,
        )
        == []
    )


def test_a_const_nobody_reads_is_not_inlined_away() -> None:
    text = BASE.replace('const banner = "ticket"', 'const banner = "ticket"\nconst run = workflow.id')
    assert _fixes(text, "const-compile-time") == []  # (inlining it nowhere would only delete it)


def test_alternatives_are_offered_but_not_preferred() -> None:
    variants = _fixes((DATA / "unknown_variant.awl").read_text(encoding="utf-8"), "enum-variant")
    assert [(f.title, f.preferred, f.safe) for f in variants] == [
        ("Add `Critical` to enum `Priority`", True, False),
        ("Change to `Low`", False, False),
        ("Change to `Normal`", False, False),
        ("Change to `Urgent`", False, False),
    ]
    twice = BASE.replace("node shell, timeout 1m", "node shell, timeout 1m, timeout 2m")
    assert [(f.title, f.preferred, f.safe) for f in _fixes(twice, "config-key-twice")] == [
        ("Keep the first `timeout` (`timeout 1m`)", True, False),  # which one was meant is a guess
        ("Keep the last `timeout` (`timeout 2m`)", False, False),
    ]


def test_escapes_are_safe_only_when_each_has_one_reading() -> None:
    def fixed(literal: str) -> tuple[str, bool]:
        text = BASE.replace('"assessment failed"', literal)
        (fix,) = _fixes(text, "string-escape")
        return fix.edits[0].text, fix.safe

    assert fixed('"tab\\x09 and \\u0041"') == ('"tab\\t and A"', True)
    assert fixed('"C:\\logs and \\x41"') == (
        '"C:\\\\logs and A"',
        False,
    )  # `\l` may have meant another escape


def test_json_is_repaired_only_where_the_repair_has_one_reading() -> None:
    assert repairs("{ 'a': [1, 2,], }") == [(2, 3, '"'), (4, 5, '"'), (12, 13, ""), (14, 15, "")]
    assert repairs('{ "a": nope }') is None  # what the value should be is the author's
    assert repairs('{ "a": {"b": 1 ]') is None


def test_trials_are_tried_once_and_within_their_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """A type change that would fix many problems is tried once; past the snapshot's budget of
    trials, the fixes that need a trial offer nothing (so `awl check` on a long document with many
    such problems stays within a bounded amount of checking)."""
    many = BASE.replace(
        "  file(summary: assessment.weight, priority: assessment.priority) -> filed\n",
        "".join(f"  file(summary: assessment.weight, priority: Low) -> f{i}\n" for i in range(5))
        + "  file(summary: assessment.weight, priority: assessment.priority) -> filed\n",
    )
    runs: list[int] = []
    real = trial._recheck
    monkeypatch.setattr(trial, "_recheck", lambda snap, edits: runs.append(1) or real(snap, edits))
    snap = analyse_text(many)
    mismatches = [p for p in _errors(findings(snap)) if p.code == "type-mismatch"]
    assert len(mismatches) == 6
    assert all(fixes_for(snap, p) for p in mismatches) and len(runs) == 1  # one trial for the six
    monkeypatch.setattr(trial, "MIN_TRIALS", 1)
    monkeypatch.setattr(trial, "MAX_TRIALS", 1)  # one trial per snapshot
    fresh = analyse_text(many)
    offered = [bool(fixes_for(fresh, p)) for p in _errors(findings(fresh)) if p.code == "type-mismatch"]
    assert offered == [True] * 6  # (the one trial fits the budget; the others reuse it)
    unknown = BASE.replace("Urgent, route file_it", "Critical, route file_it").replace(
        "assessment.weight", "assessment.summary"
    )
    tight = analyse_text(unknown)
    monkeypatch.setattr(trial, "MIN_TRIALS", 0)
    monkeypatch.setattr(trial, "MAX_TRIALS", 0)
    (problem,) = _errors(findings(tight))
    assert fixes_for(tight, problem) == []  # its trial does not fit the budget
