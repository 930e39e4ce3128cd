"""The syntax layer's per-edit work is local: the line index and the bounds' scans are updated for
the edited lines only, and give exactly what a fresh computation over the whole text gives."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from awl_lsp.documents import OpenDocument
from awl_lsp.features.diagnostics import diagnostics
from awl_lsp.syntax import SyntaxDocument, TextEdit, bounds
from awl_lsp.syntax.bounds import MAX_LINE_BYTES, SourceFacts, might_be_too_deep
from awl_lsp.syntax.errors import syntax_problems
from awl_lsp.syntax.positions import LineIndex
from awl_lsp.syntax.problem_cache import SyntaxProblemCache, document_syntax_problems

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from generate import STEP_LINE, document  # noqa: E402

PIECES = ["a", "b", " ", "\n", "\r", "\r\n", "é", "😀", "(", ")", "[", "]", "{", "}", "  " * 12]


def test_line_index_after_random_edits_equals_a_fresh_index() -> None:
    rng = random.Random(3)
    for _ in range(3000):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 30)))
        index = LineIndex(text)
        if rng.random() < 0.5:
            assert index.byte_starts  # computed before the edits: updated with them
        for _ in range(4):
            start = rng.randint(0, len(text))
            end = rng.randint(start, len(text))
            inserted = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 4)))
            text = text[:start] + inserted + text[end:]
            index = index.replaced(start, end, inserted, text)
            fresh = LineIndex(text)
            assert index.char_starts == fresh.char_starts, (text, start, end, inserted)
            assert index.byte_starts == fresh.byte_starts
            assert [index.line_text(i) for i in range(index.line_count)] == [
                fresh.line_text(i) for i in range(fresh.line_count)
            ]


def test_bounds_scans_after_random_edits_equal_a_fresh_scan(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bounds, "_BLOCK_BYTES", 16)  # many small blocks: edits cross their edges
    rng = random.Random(5)
    pieces = [b"(", b")", b"[", b"]", b"{", b"}", b"\n", b"x", b" " * 41, b"(" * 20, b")" * 20]
    triggered = 0
    for _ in range(400):
        source = b"".join(rng.choice(pieces) for _ in range(rng.randint(0, 60)))
        facts = SourceFacts(source)
        for _ in range(6):
            start = rng.randint(0, len(source))
            end = rng.randint(start, min(len(source), start + 12))
            inserted = b"".join(rng.choice(pieces) for _ in range(rng.randint(0, 4)))
            source = source[:start] + inserted + source[end:]
            facts.edited(source, start, end, start + len(inserted))
            assert facts.might_be_too_deep() == might_be_too_deep(source), source
            assert sum(b.size for b in facts.blocks) == len(source)
            triggered += facts.might_be_too_deep()
    assert triggered > 100  # both answers were exercised


def test_a_long_line_typed_by_an_edit_is_found_by_the_updated_scan(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bounds, "_BLOCK_BYTES", 64)
    source = b"step s\n  x = 1\n" * 50
    facts = SourceFacts(source)
    at = source.index(b"x = 1", 300)
    long = b"9" * (MAX_LINE_BYTES + 1)
    source = source[:at] + long + source[at:]
    facts.edited(source, at, at, at + len(long))
    assert facts.long_lines()


def _doc(lines: int) -> str:
    return document(lines)  # a valid generated workloop


def _answer_row(text: str, nth: int = 10) -> int:
    """The row of the `answer board(seen: N)` line of the nth step."""
    rows = text.split("\n")
    return [i for i, line in enumerate(rows) if line.startswith("step stage_")][nth] + STEP_LINE


def test_nesting_made_too_deep_by_an_edit_is_reported_and_undone_by_the_next() -> None:
    text = _doc(400)
    doc = OpenDocument(text, 1, None, None)
    assert not any("too deeply" in d.message for d in diagnostics(doc.snapshot))
    row = _answer_row(text)
    line = text.split("\n")[row]
    deep = "  answer board(seen: " + "(" * 400 + "1" + ")" * 400 + ")"
    doc.edit([TextEdit(row, 0, row, len(line), deep)], 2)
    found = diagnostics(doc.snapshot)
    assert any("too deeply" in d.message and d.range.start.line == row for d in found)
    assert [(d.range, d.message) for d in found] == [
        (d.range, d.message) for d in diagnostics(OpenDocument(doc.syntax.text, 2, None, None).snapshot)
    ]
    doc.edit([TextEdit(row, 0, row, len(deep), line)], 3)
    assert not any("too deeply" in d.message for d in diagnostics(doc.snapshot))


def test_a_keystroke_does_not_rescan_the_whole_text(monkeypatch: pytest.MonkeyPatch) -> None:
    doc = SyntaxDocument(_doc(1200))
    scanned: list[int] = []
    real = bounds._bracket_facts

    def counting(source: bytes, *args: int) -> tuple[int, int, int, int]:
        scanned.append(len(source))
        return real(source, *args)

    def whole_scan(source: bytes) -> bool:
        raise AssertionError("the whole text was scanned for depth")

    monkeypatch.setattr(bounds, "_bracket_facts", counting)
    monkeypatch.setattr(bounds, "might_be_too_deep", whole_scan)
    row = _answer_row(doc.text, 40)
    col = len("  answer board(seen: ")
    doc.apply([TextEdit(row, col, row, col, "7")])
    doc.apply([TextEdit(row, 0, row, 0, "  answer board(seen: 1)\n")])
    assert scanned and sum(scanned) <= 4 * bounds._BLOCK_BYTES < len(doc.source) / 2
    assert str(doc.root) == str(SyntaxDocument(doc.text).root)


def test_changes_since_a_revision_cover_every_edit_after_it() -> None:
    doc = SyntaxDocument(_doc(300))
    assert doc.changes_since(None) is None  # nothing known: everything is new
    first = doc.revision
    assert doc.changes_since(first) == (0, 0, 0)
    before = doc.source
    row = _answer_row(doc.text)
    col = len("  answer board(seen: ")
    doc.apply([TextEdit(row, col, row, col, "7")])
    doc.apply([TextEdit(row - 4, 0, row - 4, 0, "  // note\n")])
    doc.apply([TextEdit(row + 40, 0, row + 41, 0, "")])
    for since, old in ((first, before), (first + 1, None)):
        changes = doc.changes_since(since)
        assert changes is not None
        start, old_end, new_end = changes
        if old is not None:
            assert old[:start] == doc.source[:start]
            assert old[old_end:] == doc.source[new_end:]
        assert new_end - start < 2000
    # broken: the re-parse stands where it is a fresh parse's tree, and the changes still say where
    doc.apply([TextEdit(row, 0, row, 0, "  )\n")])
    assert doc.root.has_error and str(doc.root) == str(SyntaxDocument(doc.text).root)
    changes = doc.changes_since(first)
    assert changes is not None
    start, old_end, new_end = changes
    assert before[:start] == doc.source[:start] and before[old_end:] == doc.source[new_end:]
    assert new_end - start < 2000
    assert doc.changes_since(doc.revision) == (0, 0, 0)


# lines people type inside a step: some break the layout rules (odd indentation, a jump of two
# levels, an unterminated string), most do not
STEP_LINES = [
    "  answer board(seen: 3)\n",
    '  note = "open\n',
    '  answer board(seen: 4) // "quoted"\n',
    "   answer board(seen: 5)\n",
    "      answer board(seen: 6)\n",
    "  outcome late: if seen is empty,\n",
    "\n",
    "  // a comment\n",
]


def test_syntax_problems_kept_between_versions_equal_a_fresh_reading() -> None:
    rng = random.Random(21)
    doc = SyntaxDocument(_doc(400))
    shared: dict[str, object] = {}
    spliced = 0
    for _ in range(150):
        rows = doc.text.split("\n")
        answers = [i for i, line in enumerate(rows) if line.startswith("  answer board(seen: ")]
        row = rng.choice(answers)
        end = len(rows[row])
        choice = rng.random()
        if choice < 0.45:
            doc.apply([TextEdit(row, 0, row, 0, rng.choice(STEP_LINES))])
        elif choice < 0.7:
            target = rng.randrange(len(rows) - 1)
            doc.apply([TextEdit(target, 0, target + 1, 0, "")])
        elif choice < 0.85:
            doc.apply([TextEdit(row, end, row, end, rng.choice(["\n  ", "\n", " ", "7"]))])
        elif rng.random() < 0.3:
            doc.replace(_doc(400))
        got = document_syntax_problems(doc, shared)
        assert got == syntax_problems(doc.tree, doc.source, doc.text)
        cache = shared["syntax-problems"]
        assert isinstance(cache, SyntaxProblemCache)
        spliced += cache.last_window is not None
    assert spliced > 25, spliced  # (a text that stops the reading or is broken is read whole)


def test_a_syntax_error_fixed_by_an_edit_is_not_kept() -> None:
    text = "//! a small workflow\nworkflow w\n  input"  # an incomplete header: an error on line 2
    doc = SyntaxDocument(text)
    shared: dict[str, object] = {}
    assert document_syntax_problems(doc, shared)
    doc.apply([TextEdit(0, 10, 2, 7, "\n\n")])  # the header deleted: a comment line is left
    assert document_syntax_problems(doc, shared) == syntax_problems(doc.tree, doc.source, doc.text)
