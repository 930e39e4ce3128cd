"""The syntax layer's per-edit work is local: the line index and the bounds' scans are updated for
the edited lines only, and give exactly what a fresh computation over the whole text gives."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from awl_lsp.features.diagnostics import diagnostics
from awl_lsp.features.documents import OpenDocument
from awl_lsp.syntax import SyntaxDocument, TextEdit, bounds, problem_cache
from awl_lsp.syntax import document as document_module
from awl_lsp.syntax.bounds import MAX_LINE_BYTES, SourceFacts, might_be_too_deep
from awl_lsp.syntax.errors import syntax_problems
from awl_lsp.syntax.positions import LineIndex
from awl_lsp.syntax.problem_cache import SyntaxProblemCache, document_syntax_problems
from awl_lsp.syntax.recovery import recovered_as_fresh, recovery_window

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from breaking import breaking_edits  # noqa: E402
from generate import STEP_LINE, document  # noqa: E402
from shapes import SHAPES  # noqa: E402

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


def _shape_docs() -> list[str]:
    return [make(160) for make in SHAPES.values()]


# what people type that breaks a line for a moment (and mends it)
BREAKING = ["r", "(", ")", "[", "]", '"', ",", ":", "\n", "\n    ", "->", "  outcome o: else,\n", " fork x"]


def test_syntax_problems_of_broken_texts_kept_between_versions_equal_a_fresh_reading() -> None:
    """Random edits that break and mend the syntax, on every bench shape: the problems kept between
    versions (read again around each edit only) are the whole tree's, and a fresh open's."""
    rng = random.Random(8)
    spliced = reads = 0
    for text in _shape_docs():
        doc = SyntaxDocument(text)
        shared: dict[str, object] = {}
        document_syntax_problems(doc, shared)
        for _ in range(40):
            current = doc.text
            at = rng.randrange(len(current))
            end = min(len(current), at + rng.choice([0, 0, 0, 1, 2, 8]))
            (sl, sc), (el, ec) = _position(current, at), _position(current, end)
            doc.apply([TextEdit(sl, sc, el, ec, rng.choice(BREAKING))])
            got = document_syntax_problems(doc, shared)
            assert got == syntax_problems(doc.tree, doc.source, doc.text)
            fresh = SyntaxDocument(doc.text)
            assert got == syntax_problems(fresh.tree, fresh.source, fresh.text)
            cache = shared["syntax-problems"]
            assert isinstance(cache, SyntaxProblemCache)
            spliced += cache.last_window is not None
            reads += 1
    assert spliced > reads * 3 // 4, (spliced, reads)  # (most were read around the edit only)


def _position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset)
    return line, offset - (text.rfind("\n", 0, offset) + 1)


@pytest.mark.parametrize("name", ["mid-word", "open paren", "open quote", "close deleted", "paste cut short"])
def test_a_keystroke_that_breaks_the_syntax_reads_again_only_what_it_touched(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """At 1,200 lines, a keystroke that breaks a call line (and the one that mends it) re-parses
    incrementally (the re-parse is a fresh parse's tree), reads the syntax problems of a few items
    only and checks few items again; the diagnostics are a fresh open's."""
    text = _doc(1200)
    doc = OpenDocument(text, 1, None, None)
    diagnostics(doc.snapshot)
    read: list[int] = []
    real = problem_cache.item_syntax_problems

    def counting(root: object, item: object, source: bytes) -> object:
        read.append(1)
        return real(root, item, source)  # type: ignore[arg-type]

    monkeypatch.setattr(problem_cache, "item_syntax_problems", counting)
    for edit in breaking_edits(text)[name]:
        revision = doc.syntax.revision
        read.clear()
        doc.checks.last_checked = 0  # (a text the engine cannot read is not checked at all)
        doc.edit([TextEdit(*edit)], (doc.version or 0) + 1)
        assert doc.syntax.changes_since(revision) is not None  # (not parsed afresh)
        assert str(doc.syntax.root) == str(SyntaxDocument(doc.syntax.text).root)
        found = [(d.range, d.message) for d in diagnostics(doc.snapshot)]
        assert len(read) <= 4, len(read)
        assert doc.checks.last_checked <= 4
        fresh = OpenDocument(doc.syntax.text, doc.version, None, None)
        assert found == [(d.range, d.message) for d in diagnostics(fresh.snapshot)]
    assert doc.syntax.text == text


def test_a_re_parse_the_recovery_check_cannot_vouch_for_is_parsed_afresh(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where the items around an error do not parse alone as they did in the document, the whole
    text is parsed afresh (and everything is read again)."""
    monkeypatch.setattr(document_module, "recovered_as_fresh", lambda *args: False)
    text = _doc(300)
    doc = OpenDocument(text, 1, None, None)
    diagnostics(doc.snapshot)
    do, undo = breaking_edits(text)["mid-word"]
    revision = doc.syntax.revision
    doc.edit([TextEdit(*do)], 2)
    assert doc.syntax.root.has_error and doc.syntax.changes_since(revision) is None
    fresh = OpenDocument(doc.syntax.text, 2, None, None)
    assert [d.message for d in diagnostics(doc.snapshot)] == [d.message for d in diagnostics(fresh.snapshot)]
    doc.edit([TextEdit(*undo)], 3)
    assert diagnostics(doc.snapshot) == []


def test_a_recovery_window_ends_at_clean_declarations_on_lines_of_their_own() -> None:
    """The window a broken re-parse is checked in runs from the clean declaration before the edit
    to the one after it, and parsed alone it is the document's tree there."""
    text = _doc(300)
    do, _ = breaking_edits(text)["open paren"]
    doc = SyntaxDocument(text)
    doc.apply([TextEdit(*do)])
    row = do[0]
    at = doc.lines.byte_starts[row]
    window = recovery_window(doc.tree, doc.source, at, at + 1)
    assert window[0].start_point.row < row < window[-1].start_point.row
    assert not window[0].has_error and not window[-1].has_error
    assert any(node.has_error for node in window)
    assert recovered_as_fresh(doc.tree, doc.source, at, at + 1)


def test_the_line_a_problem_is_named_on_is_read_without_splitting_the_document() -> None:
    """The next code line below a place (where a bracket left open at a line's end, an invented
    line token or a deep block is named) is read line by line from that place: the same row and
    text as splitting the whole document into lines, at its end and after blank lines too."""
    from awl_lsp.syntax.repeated_lines import next_code_line

    rng = random.Random(11)
    for _ in range(5000):
        source = bytes(rng.choice(b"ab \t\n\n") for _ in range(rng.randint(0, 24)))
        byte = rng.randint(0, len(source))
        lines = source.split(b"\n")
        row = source.count(b"\n", 0, byte)
        below = [i for i in range(row + 1, len(lines)) if lines[i].strip()]
        expected = below[0] if below else len(lines) - 1 if row + 1 < len(lines) else row
        assert next_code_line(source, byte) == (expected, lines[expected]), (source, byte)
