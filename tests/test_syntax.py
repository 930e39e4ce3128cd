"""The syntax layer: positions in every encoding, incremental edits, syntax errors in words."""

from __future__ import annotations

import random

from helpers import example

from awl_lsp.syntax import Encoding, LineIndex, SyntaxDocument, TextEdit
from awl_lsp.syntax.errors import syntax_problems


def test_positions_round_trip_in_all_encodings() -> None:
    text = 'step a\n  route done(msg: "café ☕ 🚀 x")\n'
    index = LineIndex(text)
    col_x = text.splitlines()[1].index("x")
    # UTF-16 counts the rocket as two units, UTF-32 as one, UTF-8 as four bytes
    assert index.point_to_position(1, len(text.splitlines()[1][:col_x].encode()), Encoding.UTF16) == (
        1,
        col_x + 1,
    )
    assert index.point_to_position(1, len(text.splitlines()[1][:col_x].encode()), Encoding.UTF32) == (
        1,
        col_x,
    )
    byte_x = len(text.splitlines()[1][:col_x].encode())
    for enc in Encoding:
        line, char = index.point_to_position(1, byte_x, enc)
        assert index.position_to_point(line, char, enc) == (1, byte_x)


def test_incremental_edits_equal_a_full_parse() -> None:
    text = example("inbox_sweep.awl")
    doc = SyntaxDocument(text)
    rng = random.Random(7)
    for _ in range(60):
        lines = doc.text.split("\n")
        line = rng.randrange(len(lines))
        col = rng.randrange(len(lines[line]) + 1)
        choice = rng.random()
        if choice < 0.4 and col < len(lines[line]):
            edit = TextEdit(line, col, line, col + 1, "")
        elif choice < 0.8:
            edit = TextEdit(line, col, line, col, rng.choice(["x", " ", "é", "\n  ", "(", "🚀", "route "]))
        else:
            edit = TextEdit(line, 0, min(line + 1, len(lines) - 1), 0, "")
        doc.apply([edit])
        assert str(doc.root) == str(SyntaxDocument(doc.text).root)
    assert doc.changed_rows is not None


def test_one_character_edit_reuses_the_tree() -> None:
    text = example("release_notes.awl")
    doc = SyntaxDocument(text)
    old = doc.tree
    line = text.splitlines().index("  timeout 6h")
    doc.apply([TextEdit(line, 10, line, 11, "7")])
    assert len(old.changed_ranges(doc.tree)) <= 1
    assert doc.changed_rows and all(a <= line + 1 and b >= line - 1 for a, b in doc.changed_rows[:1])


def test_syntax_errors_are_described_not_just_flagged() -> None:
    text = example("inbox_sweep.awl").replace(
        "  route start(last_seen: batch.newest)", "  route start(last_seen: batch.newest"
    )
    doc = SyntaxDocument(text)
    problems = syntax_problems(doc.tree, doc.source, doc.text)
    assert problems
    assert any("`)`" in p.message for p in problems), [p.message for p in problems]
    assert all(p.message != "syntax error" for p in problems)


def test_tabs_in_indentation_are_reported_not_fatal() -> None:
    text = example("inbox_sweep.awl").replace("\n  every 10m", "\n\tevery 10m")
    doc = SyntaxDocument(text)
    problems = syntax_problems(doc.tree, doc.source, doc.text)
    assert any(p.code == "tab-indent" and p.range[0] == 2 for p in problems)


def test_unterminated_string_stays_on_its_line() -> None:
    text = example("release_notes.awl").replace('reason: "not approved")', 'reason: "not approved)')
    doc = SyntaxDocument(text)
    problems = syntax_problems(doc.tree, doc.source, doc.text)
    line = next(i for i, row in enumerate(text.splitlines()) if '"not approved)' in row)
    assert any("unterminated string" in p.message and p.range[0] == line for p in problems)
    steps = [n for n in doc.root.named_children if n.type == "step_declaration"]
    assert len(steps) == 4


def test_error_is_reported_on_the_broken_line_not_where_recovery_began() -> None:
    text = example("release_notes.awl")
    # a route cut short inside its payload: the error sits on that line, the next step survives
    broken = text.replace('route shelved(tag: tag, reason: "not approved")', "route shelved(tag: ta, reason")
    doc = SyntaxDocument(broken)
    problems = [p for p in syntax_problems(doc.tree, doc.source, doc.text) if p.code in ("syntax", "missing")]
    line = next(i for i, row in enumerate(broken.splitlines()) if "route shelved(tag: ta, reason" in row)
    assert problems and problems[0].range[0] == line
    assert [n.type for n in doc.root.named_children][-1] == "step_declaration"
