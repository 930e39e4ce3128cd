"""The model after edits typed where people type (a character, Enter, deleting a line, pasting a
step, at random places) equals a model built afresh, and is built from the items around the edit."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from helpers import example

from awl_lsp.features.diagnostics import diagnostics
from awl_lsp.features.documents import OpenDocument
from awl_lsp.model import Kind, ModelBuilder, SemanticModel
from awl_lsp.model.facts import plain_scope
from awl_lsp.syntax import TextEdit

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from generate import document, step  # noqa: E402

PASTE = "\n".join(step(9999, "finish")) + "\n"


def view(model: SemanticModel) -> tuple:
    """The model as features read it: symbols, what each reference resolves to, what each item's
    resolution read, and every name's declarations."""
    symbols = [
        (s.kind, s.name, plain_scope(s.scope), s.type, s.range, s.selection) for s in model.all_symbols
    ]
    refs = [
        (r.kind, r.name, r.range, None if r.target is None else (r.target.kind, r.target.selection))
        for r in model.references
    ]
    names = {
        (kind, name): [s.selection for s in model.lookup(kind, name)]
        for kind in Kind
        for name in model.names(kind)
    }
    values = sorted(
        (name, plain_scope(scope), [s.selection for s in found])
        for name, scopes in model._values.items()
        for scope, found in scopes.items()
    )
    scoped = sorted(
        (plain_scope(scope), name, [s.selection for s in found])
        for scope, by_name in model._scoped.items()
        for name, found in by_name.items()
    )
    # what completion offers: the values in scope of each scope, several kinds at once
    visible = sorted(
        (plain_scope(scope), [(s.name, s.selection) for s in model.visible_values(0, scope)])
        for scope in {s.scope for s in model.all_symbols} | {""}
    )
    callables = [s.selection for s in model.of_kind(Kind.ACTION, Kind.CHILD, Kind.SUBFLOW)]
    items = [(f.start_row, f.end_row, f.start_col) for f in model.items]
    assert model.item_starts == [f.start_row for f in model.items]  # (kept moved, not re-read)
    return symbols, refs, names, values, scoped, visible, callables, items, model.item_deps, model.item_keys


def random_edit(rng: random.Random, text: str) -> tuple[TextEdit, str]:
    lines = text.split("\n")
    row = rng.randrange(len(lines))
    line = lines[row]
    kind = rng.choice(["char", "enter", "delete", "paste", "undo-like"])
    if kind == "char":
        col = rng.randint(0, len(line))
        return TextEdit(row, col, row, col, rng.choice(["7", "x", " ", "_"])), kind
    if kind == "enter":
        indent = len(line) - len(line.lstrip(" "))
        return TextEdit(row, len(line), row, len(line), "\n" + " " * indent), kind
    if kind == "delete" and row + 1 < len(lines):
        return TextEdit(row, 0, row + 1, 0, ""), kind
    if kind == "paste":
        starts = [i for i, x in enumerate(lines) if x.startswith("step ")]
        at = rng.choice(starts) if starts else row
        return TextEdit(at, 0, at, 0, PASTE), kind
    # a whole line typed again where it was (the text returns to an earlier version)
    return TextEdit(row, 0, row, len(line), line), kind


def test_edits_at_random_places_give_the_model_of_a_fresh_build() -> None:
    rng = random.Random(11)
    doc = OpenDocument(document(250), 1, None, None)
    assert doc.snapshot.model.items  # the first version analysed
    for version in range(2, 82):
        edit, kind = random_edit(rng, doc.syntax.text)
        doc.edit([edit], version)
        if rng.random() < 0.3:
            continue  # a burst: the next build covers both edits
        model = doc.snapshot.model
        fresh = ModelBuilder().build(doc.syntax.tree, doc.syntax.source)
        assert view(model) == view(fresh), (version, kind, edit)
    assert len(doc.snapshot.model.items) > 40


def valid_edit(rng: random.Random, text: str) -> TextEdit:
    """An edit that keeps a generated workloop valid, somewhere in it."""
    lines = text.split("\n")
    answers = [i for i, x in enumerate(lines) if x.startswith("  answer board(seen: ")]
    row = rng.choice(answers)
    line = lines[row]
    kind = rng.randrange(4)
    if kind == 0:
        return TextEdit(row, len("  answer board(seen: "), row, len("  answer board(seen: "), "7")
    if kind == 1:
        return TextEdit(row, len(line), row, len(line), "\n  ")
    if kind == 2:
        return TextEdit(row, 0, row + 1, 0, "")
    starts = [i for i, x in enumerate(lines) if x.startswith("step stage_")]
    at = rng.choice(starts)
    return TextEdit(at, 0, at, 0, PASTE)


def test_edits_that_keep_the_text_valid_look_at_the_items_around_them() -> None:
    rng = random.Random(12)
    doc = OpenDocument(document(300), 1, None, None)
    assert doc.snapshot.model.items  # the first version analysed
    burst = 0
    for version in range(2, 62):
        doc.edit([valid_edit(rng, doc.syntax.text)], version)
        assert not doc.syntax.root.has_error
        burst += 1
        if rng.random() < 0.3:
            continue  # a burst: the next build covers the span of its edits
        model = doc.snapshot.model
        if burst == 1:
            assert doc.builder.last_window <= 6  # of some 40 items
        burst = 0
        assert view(model) == view(ModelBuilder().build(doc.syntax.tree, doc.syntax.source)), version


def test_a_keystroke_in_a_long_document_reads_and_resolves_one_item() -> None:
    text = document(3000)
    doc = OpenDocument(text, 1, None, None)
    assert doc.snapshot.model.items  # the first version analysed
    rows = text.split("\n")
    row = [i for i, line in enumerate(rows) if line.startswith("  answer board(seen: ")][100]
    for version, edit in enumerate(
        [TextEdit(row, 21, row, 21, "7"), TextEdit(row, len(rows[row]) + 1, row, len(rows[row]) + 1, "\n  ")],
        2,
    ):
        doc.edit([edit], version)
        model = doc.snapshot.model
        assert doc.builder.last_extracted == 1
        assert doc.builder.last_resolved == 1
        assert doc.builder.last_window <= 3
        assert view(model) == view(ModelBuilder().build(doc.syntax.tree, doc.syntax.source))


def test_a_text_cut_inside_a_parameter_list_is_analysed_not_a_crash() -> None:
    """Found by the text-sync property test: half of a document, cut inside an action's parameters,
    leaves a `parameters` node at the top level, which the item reader mistook for one of its own."""
    text = example("release_notes.awl")
    cut = text[: int(len(text) * 0.5464715471507261)]
    doc = OpenDocument(text, 1, None, None)
    assert doc.snapshot.model.items
    doc.replace(cut, 2)
    assert view(doc.snapshot.model) == view(ModelBuilder().build(doc.syntax.tree, doc.syntax.source))
    assert diagnostics(doc.snapshot)
