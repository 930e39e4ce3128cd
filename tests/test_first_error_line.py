"""The first error lands on the line the engine names: it reads the whole text before parsing it."""

from __future__ import annotations

from helpers import snap_of
from lsp_edits import apply_workspace_edit

from awl_lsp.checks import Severity
from awl_lsp.features.code_actions import code_actions
from awl_lsp.features.diagnostics import diagnostics, findings

URI = "file:///work/doc.awl"

DOC = """\
//! Fetches one page.
workflow fetch_page
  input url: String
  outcome fetched: type Page, route success

type Page { url: String, status: Int }

worker web
  action fetch(url: String) -> Page
    timeout 1m

step attempt
  fetch(url: url) -> page
  outcome ok: otherwise, route fetched(page)
"""


def _errors(text: str) -> list:
    return [p for p in findings(snap_of(text)) if p.severity is Severity.ERROR]


def test_an_odd_indentation_below_a_parse_error_is_the_first_error() -> None:
    text = DOC.replace("  input url: String", "  input url: String String").replace(
        "  outcome ok:", "   outcome ok:"
    )
    errors = _errors(text)
    assert errors and errors[0].range[0] == 13 and errors[0].code == "odd-indent"
    assert "two spaces" in errors[0].message
    assert all(p.code in ("odd-indent", "indent-jump", "tab-indent", "string") for p in errors)


def test_an_indentation_jump_below_a_checker_error_is_the_first_error() -> None:
    text = DOC.replace("type Page, route success", "type Pag, route success").replace(
        "    timeout 1m", "        timeout 1m"
    )
    errors = _errors(text)
    assert errors and errors[0].range[0] == 9 and errors[0].code == "indent-jump"


def test_without_reading_problems_parse_and_checker_errors_still_show() -> None:
    text = DOC.replace("type Page, route success", "type Pag, route success")
    errors = _errors(text)
    assert errors and errors[0].range[0] == 3 and "Pag" in errors[0].message


def test_a_missing_header_is_reported_where_the_header_belongs() -> None:
    text = DOC.replace("workflow fetch_page\n", "")
    errors = _errors(text)
    assert errors and errors[0].range[0] == 1
    assert "header" in errors[0].message or "`input`" in errors[0].message


def test_a_second_settings_line_under_an_action_is_the_line_named() -> None:
    text = DOC.replace("    timeout 1m\n", "    timeout 1m\n    timeout 2m\n")
    errors = _errors(text)
    assert errors and errors[0].range[0] == 10 and "one settings line" in errors[0].message


def test_a_second_route_in_an_outcome_arm_is_the_line_named() -> None:
    text = DOC.replace(
        "  outcome ok: otherwise, route fetched(page)",
        "  outcome ok: when page.status == 200,\n    route fetched(page)\n    route fetched(page)\n"
        "  outcome other: otherwise, route fetched(page)",
    )
    errors = _errors(text)
    assert errors and errors[0].range[0] == 15 and "one `route`" in errors[0].message


def test_a_second_route_in_the_last_outcome_arm_is_the_line_named() -> None:
    text = DOC.replace(
        "  outcome ok: otherwise, route fetched(page)",
        "  outcome ok: otherwise,\n    route fetched(page)\n    route fetched(page)",
    )
    errors = _errors(text)
    assert errors and errors[0].range[0] == 15 and "one `route`" in errors[0].message


def test_an_outcome_line_without_its_route_line_is_named() -> None:
    text = DOC.replace(
        "  outcome ok: otherwise, route fetched(page)",
        "  outcome ok: when page.status == 200,\n  outcome other: otherwise, route fetched(page)",
    )
    errors = _errors(text)
    assert errors and errors[0].range[0] == 13 and "no `route` follows" in errors[0].message


def test_an_unclosed_payload_is_named_on_the_next_line_and_the_fix_closes_it_in_place() -> None:
    text = DOC.replace("route fetched(page)", "route fetched(page") + "\nstep later\n  route fetched(page)\n"
    snap = snap_of(text)
    diags = [d for d in diagnostics(snap) if d.code == "missing" and d.severity == 1]
    assert diags and diags[0].range.start.line == 15 and "`(` is still open" in diags[0].message
    actions = code_actions(snap, URI, diags[0].range, diags)
    fixed = apply_workspace_edit(text, actions[0].edit, URI)
    assert fixed.splitlines()[13].endswith("route fetched(page)")
    # the line left open still shows where the bracket belongs
    assert any(d.range.start.line == 13 and "never closed" in d.message for d in diagnostics(snap))
    assert not snap_of(fixed).doc.root.has_error


SUBSTEP = """\
//! Publishes, cleaning up when the publish fails.
workflow publish_once
  input target: String
  outcome done: type String, route success

worker shell
  action publish(target: String) -> String
  action cleanup(target: String) -> String

step publish_it
  step attempt
    publish(target: target) -> receipt
    route finish

    on failure
      cleanup(target: target)
      route finish

  outcome finish: otherwise, route done(target)
"""


def test_a_substeps_failure_block_is_not_held_to_checks_the_engine_skips() -> None:
    text = SUBSTEP.replace("      cleanup(target: target)", "      tidy(target: target)")
    assert _errors(text) == []
    warned = [p for p in findings(snap_of(text)) if p.range[0] == 15]
    assert warned and "`tidy`" in warned[0].message and "does not check" in warned[0].message
    # the same call in the step's own body stays an error
    text = SUBSTEP.replace("    publish(target: target) -> receipt", "    tidy(target: target) -> receipt")
    assert [p.range[0] for p in _errors(text)] == [11]
