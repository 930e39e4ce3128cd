"""Checking incrementally (an `OpenDocument` edited in place, its model and check caches reused) finds
exactly the problems a fresh check of the final text finds — whatever the edits were."""

from __future__ import annotations

import pytest
from helpers import example

from awl_lsp.checks import CheckCache, Problem, run_checks
from awl_lsp.features.documents import OpenDocument
from awl_lsp.model import ModelBuilder, SemanticModel
from awl_lsp.syntax import SyntaxDocument, TextEdit


def fresh_problems(text: str) -> list[Problem]:
    doc = SyntaxDocument(text)
    model = ModelBuilder().build(doc.tree, doc.source)
    return run_checks(model, doc.tree, doc.source, cache=CheckCache())


def resolutions(model: SemanticModel) -> list[tuple]:
    """Every reference with what it resolved to, by position (comparable across models)."""
    return [
        (r.kind, r.name, r.range, None if r.target is None else (r.target.kind, r.target.selection))
        for r in model.references
    ]


def replace(text: str, old: str, new: str, nth: int = 0) -> TextEdit:
    """The edit replacing the `nth` occurrence of `old` in `text` by `new` (LSP positions; ASCII text)."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(old, at + 1)
    row, col = text.count("\n", 0, at), at - (text.rfind("\n", 0, at) + 1)
    end = at + len(old)
    erow, ecol = text.count("\n", 0, end), end - (text.rfind("\n", 0, end) + 1)
    return TextEdit(row, col, erow, ecol, new)


def swap(old: str, new: str, nth: int = 0):  # noqa: ANN201 — an edit step for `check_in_steps`
    return lambda text: replace(text, old, new, nth)


def insert_line(row: int, line: str) -> TextEdit:
    return TextEdit(row, 0, row, 0, line + "\n")


def check_in_steps(text: str, steps: list) -> OpenDocument:
    """Apply each step (a function of the current text returning an edit) and compare after each."""
    doc = OpenDocument(text, 1, None, None)
    first = run_checks(doc.snapshot.model, doc.syntax.tree, doc.syntax.source, cache=doc.checks)
    assert first == fresh_problems(text)
    for version, step in enumerate(steps, start=2):
        doc.edit([step(doc.syntax.text)], version)
        snap = doc.snapshot
        got = run_checks(snap.model, doc.syntax.tree, doc.syntax.source, cache=snap.checks)
        assert got == fresh_problems(doc.syntax.text), f"after edit {version - 1}"
        fresh = SyntaxDocument(doc.syntax.text)
        assert resolutions(snap.model) == resolutions(ModelBuilder().build(fresh.tree, fresh.source))
    return doc


def test_edits_inside_a_step() -> None:
    text = example("release_notes.awl")
    doc = check_in_steps(
        text,
        [
            swap("title: title", "title: tag"),
            swap("polish(prior: draft)", "polish(prior: draf)"),  # an unknown binding
            swap("polish(prior: draf)", "polish(prior: draft, extra: 1)"),  # an unknown argument
            swap("until draft.ready", "until draft.body"),  # not a Bool
            swap("until draft.body", "until draft.ready"),
        ],
    )
    assert doc.checks.last_checked < 4 < doc.checks.last_reused  # only the edited step was re-checked


def test_adding_and_removing_a_declaration_others_depend_on() -> None:
    text = example("release_notes.awl")
    polish = "  action polish(prior: Draft) -> Draft\n"
    check_in_steps(
        text,
        [
            swap(polish, ""),  # `polish(…)` is now unknown
            swap("  action assemble", polish + "  action assemble"),
            swap("type Draft     { body: String, ready: Bool }", "type Draft { body: String }"),
            swap("type Draft { body: String }", "type Draft { body: String, ready: Bool }"),
            swap("  input max_rounds: Int\n", ""),  # `max max_rounds` is now unbound
            swap("  signal approval: Approval", "  signal approval: Approval\n  input max_rounds: Int"),
            swap("type Shelved   { tag: String, reason: String }", "type Shelved { tag: String }"),
        ],
    )


def test_renaming_a_step() -> None:
    text = example("release_notes.awl")
    check_in_steps(
        text,
        [
            swap("step review", "step revie"),  # `route review` is now unknown
            swap("step revie", "step reviewing"),
            swap("route review", "route reviewing"),
            swap("step ship", "step review"),  # `route ship` dangles; `review` is back
            swap("step review", "step ship"),
        ],
    )


def test_inserting_lines_above_moves_every_problem() -> None:
    text = example("broken_hatch.awl")  # one error: a hatch without its key
    doc = check_in_steps(
        text,
        [
            lambda t: insert_line(1, "// a comment above everything"),
            lambda t: insert_line(12, "type Extra { note: String }"),
            lambda t: insert_line(12, ""),
            lambda t: TextEdit(12, 0, 14, 0, ""),
            swap("detached fulfil", "\n\ndetached fulfil"),
            swap("step scan\n", "step scan\n  sweep(region: region) -> again\n"),
        ],
    )
    problems = run_checks(doc.snapshot.model, doc.syntax.tree, doc.syntax.source, cache=doc.checks)
    assert any(p.code == "hatch-key" for p in problems)


def test_bindings_read_across_steps_and_workloop_words() -> None:
    text = example("inbox_sweep.awl")
    last_step = max(i for i, line in enumerate(text.splitlines()) if line.startswith("step "))
    check_in_steps(
        text,
        [
            lambda t: insert_line(last_step, "step early\n  sleep 1m\n"),  # a step that binds nothing
            swap("workloop", "workflow"),  # every workloop-only word is now refused
            swap("workflow", "workloop"),
            swap("every", "evry"),
        ],
    )


@pytest.mark.parametrize("size", [120, 300])
def test_a_long_generated_document(size: int) -> None:
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    from generate import document

    check_in_steps(
        document(size),
        [
            swap("every 5m", "every 6m"),
            swap("check_1(item: item_1) -> checked_1", "check_1(item: item_2) -> checked_1"),
            swap("action check_2(item: Item2) -> Item2", "action check_2(item: Item2) -> Item1"),
            swap("type Item3 { id: String,", "type Item3 { ident: String,"),
            lambda t: insert_line(3, "  input extra: String"),
            swap("step stage_1\n", "step stage_one\n"),
            swap("detached follow_up(item_id: String, note: String)", "detached follow_up(item_id: String)"),
        ],
    )
