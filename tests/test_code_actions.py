"""Code actions: every quick fix is applied and the document re-checked — the diagnostic is gone and no
new error appears; the rewrites leave valid text."""

from __future__ import annotations

import pytest
from helpers import example, snap_of
from lsp_edits import apply_workspace_edit
from lsprotocol import types as lsp

from awl_lsp.features.code_actions import code_actions
from awl_lsp.features.diagnostics import diagnostics

URI = "file:///work/doc.awl"
WORKLOOP = example("inbox_sweep.awl")
WORKFLOW = example("release_notes.awl")
BROKEN = example("broken_hatch.awl")
EVERYTHING = lsp.Range(lsp.Position(0, 0), lsp.Position(10_000, 0))


def errors(text: str) -> list[lsp.Diagnostic]:
    return [d for d in diagnostics(snap_of(text)) if d.severity == lsp.DiagnosticSeverity.Error]


def fix(text: str, code: str, title: str | None = None) -> tuple[str, lsp.CodeAction]:
    """Apply the quick fix for the first `code` diagnostic; check it is gone and nothing new broke."""
    snap = snap_of(text)
    diags = diagnostics(snap)
    target = next(d for d in diags if d.code == code)
    actions = code_actions(snap, URI, target.range, diags)
    mine = [a for a in actions if a.diagnostics and target in a.diagnostics]
    assert mine, f"no fix for {code}: {[a.title for a in actions]}"
    action = next(a for a in mine if title is None or a.title == title)
    assert action.kind == lsp.CodeActionKind.QuickFix
    new = apply_workspace_edit(text, action.edit, URI)
    after = diagnostics(snap_of(new))
    assert not [d for d in after if d.code == code and d.message == target.message], "still reported"
    before_codes = {d.code for d in diags if d.severity == lsp.DiagnosticSeverity.Error}
    new_errors = [
        d for d in after if d.severity == lsp.DiagnosticSeverity.Error and d.code not in before_codes
    ]
    assert not new_errors, [d.message for d in new_errors]
    assert not snap_of(new).doc.root.has_error
    return new, action


def test_hatch_without_key_gets_the_id_field_of_an_argument() -> None:
    new, action = fix(BROKEN, "hatch-key")
    assert action.title == "Add `key order.id`"
    assert "    hatch fulfil(order_id: order.id, total: order.total) key order.id\n" in new


def test_hatch_without_key_falls_back_to_the_first_argument() -> None:
    text = BROKEN.replace(
        "order_id: order.id, total: order.total", "order_id: order.total, total: order.total"
    )
    new, action = fix(text, "hatch-key")
    assert action.title == "Add `key order.total`"
    assert "total: order.total) key order.total\n" in new


def test_tolerance_without_windows() -> None:
    text = WORKLOOP.replace("tolerance unconfirmed for 1h", "tolerance 3")
    new, action = fix(text, "tolerance")
    assert action.title == "Add `windows`"
    assert "    tolerance 3 windows\n" in new
    typo = WORKLOOP.replace("tolerance unconfirmed for 1h", "tolerance 3 window")
    new, action = fix(typo, "tolerance")
    assert action.title == "Change to `windows`" and "    tolerance 3 windows\n" in new


def test_missing_narration_is_inserted_at_the_top() -> None:
    text = WORKLOOP.split("\n", 1)[1]
    new, _ = fix(text, "narration")
    assert new.startswith("//! \nworkloop inbox_sweep\n")


@pytest.mark.parametrize(
    ("code", "right", "wrong", "expected"),
    [
        ("unknown-call", "  list_new(inbox", "  list_nwe(inbox", "list_new"),
        ("route-target", "route hand_off", "route hand_of", "hand_off"),
        ("unknown-type", "-> Batch", "-> Btch", "Batch"),
        ("unknown-binding", "  batch.messages |> count", "  bach.messages |> count", "batch"),
        ("unknown-field", "  batch.messages |> count", "  batch.mesages |> count", "messages"),
        ("hatch", "hatch triage_message(", "hatch triage_mesage(", "triage_message"),
        ("answer", "answer status", "answer stats", "status"),
        ("after", "step hand_off after fetch", "step hand_off after fech", "fetch"),
    ],
)
def test_unknown_names_get_the_close_match(code: str, right: str, wrong: str, expected: str) -> None:
    original = WORKLOOP.replace("step hand_off", "step hand_off after fetch") if code == "after" else WORKLOOP
    text = original.replace(right, wrong, 1)
    fixed, action = fix(text, code, f"Change to `{expected}`")
    assert action.is_preferred
    assert fixed == original


def test_unknown_signal_in_a_workflow() -> None:
    text = WORKFLOW.replace("wait approval", "wait aproval")
    fixed, _ = fix(text, "wait", "Change to `approval`")
    assert fixed == WORKFLOW


def test_no_close_match_means_no_action() -> None:
    text = WORKLOOP.replace("  list_new(inbox", "  zzzz(inbox")
    snap = snap_of(text)
    diags = diagnostics(snap)
    target = next(d for d in diags if d.code == "unknown-call")
    assert not [
        a for a in code_actions(snap, URI, target.range, diags) if a.kind == lsp.CodeActionKind.QuickFix
    ]


def test_missing_named_arguments_are_added() -> None:
    text = WORKLOOP.replace("list_new(inbox: inbox, after: last_seen)", "list_new(after: last_seen)")
    new, action = fix(text, "arguments")
    assert action.title == "Add missing argument `inbox`"
    assert "  list_new(after: last_seen, inbox: inbox) -> batch\n" in new
    empty = WORKLOOP.replace("list_new(inbox: inbox, after: last_seen)", "list_new()")
    snap = snap_of(empty)
    diags = diagnostics(snap)
    target = next(d for d in diags if "missing" in d.message and d.code == "arguments")
    (action,) = [a for a in code_actions(snap, URI, target.range, diags) if a.diagnostics]
    # `inbox` is an input in scope; no `after` exists, so it gets a String placeholder, never `after: after`
    fixed = apply_workspace_edit(empty, action.edit, URI)
    assert 'list_new(inbox: inbox, after: "")' in fixed
    assert not errors(fixed)


def test_misspelt_argument_is_one_error_with_a_change_to_fix() -> None:
    text = WORKLOOP.replace("after: last_seen)", "aftr: last_seen)")
    found = [d for d in errors(text) if d.code == "arguments"]
    assert len(found) == 1, [d.message for d in found]  # not also "missing argument `after`"
    assert "did you mean `after`?" in found[0].message
    assert found[0].data == {"name": "aftr", "candidates": ["after"]}
    new, action = fix(text, "arguments")
    assert action.title == "Change to `after`"
    assert "list_new(inbox: inbox, after: last_seen)" in new


def test_missing_payload_field_of_a_route() -> None:
    text = WORKFLOW.replace('route shelved(tag: tag, reason: "not approved")', 'route shelved(reason: "no")')
    new, action = fix(text, "route-missing-field")
    assert action.title == "Add missing argument `tag`"
    assert 'route shelved(reason: "no", tag: tag)' in new


def test_unused_binding_is_removed() -> None:
    text = WORKLOOP.replace(
        "  archive(inbox: inbox, upto: last_seen)", "  archive(inbox: inbox, upto: last_seen) -> archived"
    )
    new, action = fix(text, "unused-binding")
    assert action.title == "Remove unused binding `-> archived`"
    assert new == WORKLOOP


def test_unused_wait_binding_is_not_removed() -> None:
    text = WORKFLOW.replace("decision is present and decision.approve", "true")
    snap = snap_of(text)
    diags = diagnostics(snap)
    unused = [d for d in diags if d.code == "unused-binding"]
    assert unused
    assert not [a for a in code_actions(snap, URI, unused[0].range, diags) if a.diagnostics]


def test_stale_or_foreign_diagnostics_yield_nothing() -> None:
    snap = snap_of(WORKLOOP)
    stale = lsp.Diagnostic(
        range=lsp.Range(lsp.Position(2, 2), lsp.Position(2, 7)), message="old", code="hatch-key", source="awl"
    )
    assert code_actions(snap, URI, stale.range, [stale]) == []
    other = lsp.Diagnostic(range=stale.range, message="lint", code="E1", source="awl")
    assert code_actions(snap, URI, stale.range, [other]) == []


def test_only_filters_by_kind() -> None:
    snap = snap_of(BROKEN)
    diags = diagnostics(snap)
    assert code_actions(snap, URI, EVERYTHING, diags, only=["refactor"]) == []
    assert code_actions(snap, URI, EVERYTHING, diags, only=["quickfix"])


def _rewrite(text: str, needle: str, title: str) -> str:
    snap = snap_of(text)
    index = text.index(needle)
    line = text.count("\n", 0, index)
    where = lsp.Position(line, index - (text.rfind("\n", 0, index) + 1))
    actions = code_actions(snap, URI, lsp.Range(where, where), [])
    action = next(a for a in actions if a.title == title)
    assert action.kind == lsp.CodeActionKind.RefactorRewrite
    new = apply_workspace_edit(text, action.edit, URI)
    assert not snap_of(new).doc.root.has_error
    assert not errors(new)
    return new


def test_rewrite_old_guard_spellings() -> None:
    new = _rewrite(WORKFLOW, "when draft.ready", "Use `if` instead of `when`")
    assert "  outcome settled: if draft.ready, route review\n" in new
    new = _rewrite(
        WORKFLOW, 'otherwise,\n    route shelved(tag: tag, reason: "the', "Use `else` instead of `otherwise`"
    )
    assert "  outcome stuck: else,\n" in new


def test_rewrite_record_type_layout_round_trip() -> None:
    expanded = _rewrite(WORKFLOW, "type Approval  {", "Put each field on its own line")
    assert "type Approval  {\n  approve: Bool,\n  reviewer: String,\n}\n" in expanded
    joined = _rewrite(expanded, "type Approval  {", "Join the fields on one line")
    assert "type Approval  { approve: Bool, reviewer: String }\n" in joined
    assert str(snap_of(joined).doc.root) == str(snap_of(WORKFLOW).doc.root)


def test_unused_pipe_binding_is_not_removed() -> None:
    text = WORKLOOP.replace("  archive(inbox: inbox, upto: last_seen)", "  inbox |> archive_one -> archived")
    text = text.replace("  action archive(", "  action archive_one(inbox: String) -> Int\n  action archive(")
    snap = snap_of(text)
    diags = diagnostics(snap)
    unused = [d for d in diags if d.code == "unused-binding"]
    assert unused
    assert not [a for a in code_actions(snap, URI, unused[0].range, diags) if a.diagnostics]


def test_fixes_read_data_not_message_text() -> None:
    text = WORKLOOP.replace("route hand_off", "route hand_of")
    snap = snap_of(text)
    (diag,) = [d for d in diagnostics(snap) if d.code == "route-target"]
    reworded = lsp.Diagnostic(diag.range, "reworded", code=diag.code, source="awl", data=diag.data)
    titles = [a.title for a in code_actions(snap, URI, diag.range, [reworded]) if a.diagnostics]
    assert titles == ["Change to `hand_off`"]
    no_data = lsp.Diagnostic(diag.range, diag.message, code=diag.code, source="awl")
    assert not [a for a in code_actions(snap, URI, diag.range, [no_data]) if a.diagnostics]
