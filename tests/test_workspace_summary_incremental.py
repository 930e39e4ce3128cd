"""A document's workspace summary, kept per item between versions, equals a fresh one after every edit."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from awl_lsp.features.documents import OpenDocument
from awl_lsp.features.workspace_diagnostics import document_summary
from awl_lsp.syntax import TextEdit
from awl_lsp.workspace.summary import summarize

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from generate import STEP_LINE, document  # noqa: E402

EXTRA = [
    "detached audit(item_id: String)\n",
    "child review(item_id: String) -> Board\n",
    "  hatch audit(item_id: region)\n",
    "type Extra { a: Int, b: String? }\n",
    "\n",
    "x",
]


def random_edit(doc: OpenDocument, rng: random.Random, inserts: list[str]) -> TextEdit:
    """A line deleted (three times in ten), else one of `inserts` typed at a random place."""
    lines = doc.syntax.text.split("\n")
    row = rng.randrange(len(lines))
    if rng.random() < 0.3 and len(lines) > 2:
        return TextEdit(row, 0, min(row + 1, len(lines) - 1), 0, "")
    col = rng.randrange(len(lines[row]) + 1)
    return TextEdit(row, col, row, col, rng.choice(inserts))


def test_the_summary_after_each_edit_equals_a_fresh_one() -> None:
    rng = random.Random(7)
    text = document(400)
    doc = OpenDocument(text, 1, None, None)
    document_summary(doc.snapshot)
    for version in range(2, 60):
        edit = random_edit(doc, rng, EXTRA)
        doc.edit([edit], version)
        snap = doc.snapshot
        assert document_summary(snap) == summarize(snap.model), f"after edit {version}: {edit}"


def test_a_contract_added_and_used_shows_in_the_summary() -> None:
    text = document(300)
    rows = text.split("\n")
    step = rows.index("step stage_2")
    doc = OpenDocument(text, 1, None, None)
    assert document_summary(doc.snapshot).contract("audit") is None
    doc.edit([TextEdit(step + STEP_LINE, 0, step + STEP_LINE, 0, "  hatch audit(item_id: region)\n")], 2)
    doc.edit([TextEdit(14, 0, 14, 0, "detached audit(item_id: String)\n")], 3)
    summary = document_summary(doc.snapshot)
    assert summary.contract("audit") is not None
    assert [r[0] for r in summary.uses["audit"]] == [step + STEP_LINE + 1]
    assert summary == summarize(doc.snapshot.model)


def test_typing_lines_up_the_items_with_the_last_summary_and_equals_a_fresh_one() -> None:
    """As the server types: no older snapshot held (the model moves its items in place), some
    versions summarised and some skipped (a burst), edits above, inside and below items, lines
    added and removed: each summary is a fresh one, and read only the items that changed."""
    from awl_lsp.workspace import summary as summary_module

    rng = random.Random(11)
    text = document(600)
    doc = OpenDocument(text, 1, None, None)
    document_summary(doc.snapshot)
    seen = set(map(id, doc.snapshot.model.items))  # the items the last summary read or kept
    read: list[object] = []
    few = 0
    real = summary_module._item_part
    summary_module._item_part = lambda facts: read.append(facts) or real(facts)  # type: ignore[assignment]
    try:
        for version in range(2, 120):
            edit = random_edit(doc, rng, [*EXTRA, "7", "\n  "])
            doc.edit([edit], version)
            if rng.random() < 0.3:
                continue  # (a version nobody summarised)
            read.clear()
            got = document_summary(doc.snapshot)
            items = doc.snapshot.model.items
            new = [it for it in items if id(it) not in seen]  # (the model made them since)
            assert len(read) <= len(new), (version, len(read), len(new))
            few += len(read) <= 2
            assert got == summarize(doc.snapshot.model), f"after edit {version}: {edit}"
            seen = set(map(id, items))
    finally:
        summary_module._item_part = real  # type: ignore[assignment]
    assert few > 40, few  # (most keystrokes read an item or two)
