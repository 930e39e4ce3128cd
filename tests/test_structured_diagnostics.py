"""Structured diagnostics: a stable code, `data` for the fixes, related places instead of line numbers."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from helpers import example, snap_of
from lsprotocol import types as lsp

from awl_lsp.checks.suggest import close_names, distance
from awl_lsp.features.diagnostics import diagnostics, findings
from awl_lsp.features.documents import analyse_text
from awl_lsp.syntax.problems import Problem

REPO = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("AWL_CORPUS") or REPO.parent / "shared" / "corpus").resolve()
URI = "file:///work/doc.awl"
WORKLOOP = example("inbox_sweep.awl")
WORKFLOW = example("release_notes.awl")


def test_syntax_and_checker_problems_are_one_type() -> None:
    text = WORKLOOP.replace("every 10m", "every").replace("route hand_off", "route hand_of")
    found = findings(snap_of(text))
    assert {type(p) for p in found} == {Problem}
    assert {"syntax", "route-target"} <= {p.code for p in found} or {"missing", "route-target"} <= {
        p.code for p in found
    }


def test_every_diagnostic_has_a_stable_code_and_source() -> None:
    text = WORKLOOP.replace("route hand_off", "route hand_of").replace("every 10m", "every")
    for d in diagnostics(snap_of(text), URI):
        assert d.code and d.source == "awl"


def test_a_misspelt_route_is_one_error_and_the_unreachable_step_a_hint_pointing_at_it() -> None:
    text = WORKLOOP.replace("route hand_off", "route hand_of")
    diags = diagnostics(snap_of(text), URI)
    errors = [d for d in diags if d.severity == lsp.DiagnosticSeverity.Error]
    assert [d.code for d in errors] == ["route-target"]
    assert "did you mean `hand_off`?" in errors[0].message
    assert errors[0].data == {"name": "hand_of", "candidates": ["hand_off"]}
    (hint,) = [d for d in diags if d.code == "unreachable-step"]
    assert hint.severity == lsp.DiagnosticSeverity.Hint
    assert hint.tags == [lsp.DiagnosticTag.Unnecessary]
    (rel,) = hint.related_information
    assert rel.location.range == errors[0].range


def test_a_duplicate_points_at_the_first_declaration_without_a_line_number() -> None:
    text = WORKLOOP.replace("type Batch ", "type Nudge { reason: String }\ntype Batch ")
    diags = diagnostics(snap_of(text), URI)
    diags = [d for d in diags if d.code == "duplicate" and "type name `Nudge`" in d.message]
    assert len(diags) == 1
    assert not re.search(r"\bline \d", diags[0].message)
    (rel,) = diags[0].related_information
    assert rel.location.uri == URI
    assert rel.location.range.start.line == WORKLOOP.split("\n").index("type Nudge       { reason: String }")
    assert "first declared here" in rel.message


def test_a_duplicate_argument_points_at_the_first_one() -> None:
    text = WORKLOOP.replace("archive(inbox: inbox,", "archive(inbox: inbox, inbox: inbox,")
    (d,) = [d for d in diagnostics(snap_of(text), URI) if d.code == "duplicate"]
    (rel,) = d.related_information
    assert rel.location.range.start.character == d.range.start.character - len("inbox: inbox, ")


def test_missing_arguments_name_them_in_data() -> None:
    text = WORKLOOP.replace("archive(inbox: inbox, upto: last_seen)", "archive()")
    (d,) = [d for d in diagnostics(snap_of(text), URI) if d.code == "arguments"]
    assert d.data == {"missing": ["inbox", "upto"]}


def test_close_names_by_edit_distance() -> None:
    assert distance("domian", "domain") == 1  # an adjacent swap is one edit
    assert close_names("unred", ["unread", "archive", "start"]) == ["unread"]
    assert close_names("fetch_unred", ["fetch_unread", "fetch_all"]) == ["fetch_unread"]
    assert close_names("reviwe", ["review", "refine", "ship"]) == ["review", "refine"]
    assert close_names("zzz", ["review", "refine"]) == []


def test_no_message_names_a_line_number() -> None:
    """Other places are related information; a message never says "on line N" (schema JSON errors
    name a line of the schema file, which is not this document)."""
    if not CORPUS.is_dir():
        reason = f"AWL corpus not found at {CORPUS} (set AWL_CORPUS)"
        if os.environ.get("AWL_REQUIRE_CORPUS") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    paths = sorted(CORPUS.rglob("*.awl")) + sorted((REPO / "tests" / "data" / "invalid").glob("*.awl"))
    for path in paths:
        snap = analyse_text(path.read_text(encoding="utf-8"), path, path.parent)
        for p in findings(snap):
            if not p.code.startswith("schema"):
                assert not re.search(r"\bline \d", p.message), (path.name, p.message)


def test_unknown_payload_fields_are_errors_and_a_misspelt_one_is_one_error() -> None:
    flow = WORKFLOW.replace("tag: tag) |> route published", "tag: tag) -> done\n  done |> route published")
    extra = flow.replace('reason: "not approved")', 'reason: "not approved", extra: 1)')
    (d,) = [d for d in diagnostics(snap_of(extra), URI) if d.severity == lsp.DiagnosticSeverity.Error]
    assert d.code == "route-unknown-field" and "no field `extra`" in d.message
    typo = flow.replace('reason: "not approved")', 'reasn: "not approved")')
    (d,) = [d for d in diagnostics(snap_of(typo), URI) if d.severity == lsp.DiagnosticSeverity.Error]
    assert "did you mean `reason`?" in d.message and d.data == {"name": "reasn", "candidates": ["reason"]}
