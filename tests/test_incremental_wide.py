"""The document-wide rules' problems survive an edit only when a fresh check would find them again.

After an edit inside a step the checker reuses the last problems of the document-wide rules
(duplicates, unreachable steps, single assignment, unused declarations, …), moved with the text,
when nothing those rules read changed (`awl_lsp.checks.replay`). These tests edit documents full
of such problems where people type — inside steps: a character, Enter, deleting a line, pasting
lines — and compare every version with a fresh check of its text.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest

from awl_lsp.checks import Problem
from awl_lsp.checks.replay import ItemMap, Unmappable
from awl_lsp.features.diagnostics import findings
from awl_lsp.features.documents import OpenDocument
from awl_lsp.syntax import TextEdit

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from generate import document  # noqa: E402

DATA = Path(__file__).parent / "data" / "incremental"
EDITS = int(os.environ.get("AWL_DIFF_EXAMPLES", "25")) * 2  # edits per document


def _tangled_loop() -> str:
    """A generated workloop with problems between its steps: a name bound in two steps, a
    duplicate step, an unread binding and a step nothing reaches."""
    text = document(140)
    text = text.replace("  check_2(item: item_2) -> checked_2", "  check_2(item: item_2) -> checked_1")
    text = text.replace("step stage_4\n", "step stage_3\n", 1)
    text = text.replace("  answer board(seen: 5)", "  answer board(seen: 5)\n  weigh(part: part) -> unread")
    return text.replace("route stage_4\n", "route stage_5\n")


def _misspelt_loop() -> str:
    """A generated workloop whose steps read names nothing binds (each gets "did you mean")."""
    return document(140).replace("-> note_", "-> notes_").replace("(part: part)", "(part: prat)")


BASES = {
    "workflow": (DATA / "wide_problems.awl").read_text(),
    "workloop": _tangled_loop(),
    "misspelt": _misspelt_loop(),
}


def fresh(text: str) -> list[Problem]:
    return findings(OpenDocument(text, 1, None, None).snapshot)


def step_lines(text: str) -> list[int]:
    """The rows of the lines inside steps (indented lines below a `step` line)."""
    rows, inside = [], False
    for row, line in enumerate(text.split("\n")):
        if line.startswith("step "):
            inside = True
        elif not line.startswith("  "):
            inside = False
        elif inside:
            rows.append(row)
    return rows


def an_edit(rng: random.Random, text: str) -> TextEdit:
    """A random edit of the kind people make inside a step."""
    lines = text.split("\n")
    rows = step_lines(text)
    if not rows:  # every step line was deleted: a new step at the end
        end = len(lines) - 1
        return TextEdit(end, len(lines[end]), end, len(lines[end]), "\nstep again\n  route first\n")
    row = rng.choice(rows)
    line = lines[row]
    col = rng.randrange(2, len(line) + 1)
    kinds = ["char", "char", "enter", "delete", "paste", "cut", "word"]
    kind = rng.choice(kinds if len(rows) > 12 else ["paste", "char", "enter"])
    if kind == "char":
        return TextEdit(row, col, row, col, rng.choice(["7", "x", " ", "_", ")", "."]))
    if kind == "word":
        return TextEdit(
            row, col, row, min(col + rng.randrange(0, 6), len(line)), rng.choice(["", "part", "12"])
        )
    if kind == "enter":
        return TextEdit(row, len(line), row, len(line), "\n  ")
    if kind == "delete":
        return TextEdit(row, 0, row + 1, 0, "")
    if kind == "cut":  # two lines at once
        return TextEdit(row, 0, min(row + 2, len(lines) - 1), 0, "")
    return TextEdit(
        row, 0, row, 0, rng.choice([line + "\n", "  weigh(part: part) -> extra\n", "  route first\n"])
    )


@pytest.mark.parametrize("base", sorted(BASES))
def test_edits_inside_steps_give_what_a_fresh_check_gives(base: str) -> None:
    rng = random.Random(9)
    doc = OpenDocument(BASES[base], 1, None, None)
    assert findings(doc.snapshot) == fresh(BASES[base])
    replayed = 0
    for version in range(2, EDITS + 2):
        doc.edit([an_edit(rng, doc.syntax.text)], version)
        got = findings(doc.snapshot)
        assert got == fresh(doc.syntax.text), f"after edit {version - 1}:\n{doc.syntax.text}"
        replayed += doc.checks.last_replayed
    # random typing mostly renames what the rules read; still, some edits must reuse their problems
    assert replayed > EDITS // 20, "no edit inside a step reused the document-wide problems"


def test_typing_a_digit_in_a_step_moves_nothing_and_reruns_no_document_wide_rule() -> None:
    text = BASES["workflow"]
    doc = OpenDocument(text, 1, None, None)
    before = findings(doc.snapshot)
    assert any(p.code == "unreachable-step" for p in before) and any(
        p.code == "binding-twice" for p in before
    )
    row = text.split("\n").index("  weigh(part: part) -> again")
    doc.edit([TextEdit(row, 2, row, 2, "7")], 2)  # a broken line: the syntax error is the news
    doc.edit([TextEdit(row, 2, row, 3, "")], 3)
    assert findings(doc.snapshot) == before
    assert doc.checks.last_replayed


def test_enter_inside_a_step_moves_the_problems_below_it() -> None:
    text = BASES["workflow"]
    lines = text.split("\n")
    row = lines.index("step lonely") + 1
    doc = OpenDocument(text, 1, None, None)
    findings(doc.snapshot)
    doc.edit([TextEdit(row, len(lines[row]), row, len(lines[row]), "\n  ")], 2)
    got = findings(doc.snapshot)
    assert got == fresh(doc.syntax.text)
    third = text.split("\n").index("step third") + 1  # 1-based rows, one line further down now
    assert [p.range[0] for p in got if p.message.startswith("step `third` is unreachable")] == [third]


def test_a_message_naming_a_line_is_written_again_when_lines_move() -> None:
    """`already bound in step first (line N)`: Enter above the first binding changes N."""
    text = BASES["workflow"]
    lines = text.split("\n")
    row = lines.index("step first") + 1
    doc = OpenDocument(text, 1, None, None)
    findings(doc.snapshot)
    doc.edit([TextEdit(row, 0, row, 0, "  weigh(part: part) -> early\n")], 2)
    got = [p.message for p in findings(doc.snapshot) if p.code == "binding-twice"]
    assert got == [p.message for p in fresh(doc.syntax.text) if p.code == "binding-twice"]
    assert any(f"(line {row + 2})" in m for m in got), got


def test_an_item_map_carries_points_around_the_edited_stretch() -> None:
    old = b"step a\n  f(x: 1)\n  route b\n"
    grown = ItemMap(old, 10, b"step a\n  f(x: 12)\n  route b\n", 10)
    assert grown.range((10, 0, 10, 6)) == (10, 0, 10, 6)  # before the edit
    assert grown.range((11, 2, 11, 9)) == (11, 2, 11, 10)  # around it: grows with the text
    assert grown.range((12, 2, 12, 9)) == (12, 2, 12, 9)  # on a line below it
    longer = ItemMap(old, 10, b"step a\n  f(x: 1)\n  y\n  route b\n", 14)  # and the item moved down
    assert longer.range((12, 2, 12, 9)) == (17, 2, 17, 9)
    assert longer.range((11, 2, 11, 9)) == (15, 2, 15, 9)
    changed = ItemMap(old, 10, b"step a\n  f(x: 2)\n  route b\n", 10)
    with pytest.raises(Unmappable):  # a place inside the edited stretch has no image
        changed.range((11, 7, 11, 8))


def test_close_names_are_looked_up_again_only_for_the_step_that_changed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every step reads a misspelt name; typing in one step suggests names for that step alone."""
    from awl_lsp.checks import suggest

    text = BASES["misspelt"]
    doc = OpenDocument(text, 1, None, None)
    before = findings(doc.snapshot)
    suggested = [p for p in before if "did you mean" in p.message]
    assert len({p.range[0] for p in suggested}) > 4, "every step has a suggestion"
    asked: list[int] = []
    real = suggest.candidates
    monkeypatch.setattr(
        suggest, "candidates", lambda *a, **k: asked.append(a[4].start_point.row) or real(*a, **k)
    )
    lines = text.split("\n")
    row = lines.index("step stage_2") + 1
    doc.edit([TextEdit(row, 2, row, 2, "\n  ")], 2)  # Enter: every step below moves a line
    got = findings(doc.snapshot)
    step = range(row, lines.index("step stage_3") + 1)
    assert asked and all(r in step for r in asked), asked
    assert got == fresh(doc.syntax.text)
    assert sum("did you mean" in p.message for p in got) == len(suggested)


def test_a_substeps_failure_block_stays_a_warning_while_its_step_moves() -> None:
    text = BASES["workflow"]
    doc = OpenDocument(text, 1, None, None)
    findings(doc.snapshot)
    doc.edit([TextEdit(0, 0, 0, 0, "// a new first comment\n")], 2)
    got = [p for p in findings(doc.snapshot) if "fetsh" in p.message]
    assert got == [p for p in fresh(doc.syntax.text) if "fetsh" in p.message]
    assert len(got) == 1 and "does not check" in got[0].message and got[0].message.endswith("`fetch`?")


def test_a_rule_naming_a_line_elsewhere_need_not_say_so() -> None:
    """An item rule whose message names another item's line is checked again when lines move,
    though it never set `ctx.row_numbers` (the engine reads its messages)."""
    from awl_lsp.checks import CheckCache, CheckContext
    from awl_lsp.model import Kind

    class NamesTheLastStep:
        @staticmethod
        def check_item(ctx) -> None:  # noqa: ANN001 — an `ItemContext`
            last = ctx.model.first(Kind.STEP, "last")
            if ctx.node.type == "step_declaration" and last is not None:
                ctx.warning(ctx.node, f"the last step is on line {last.range[0] + 1}", "test")

    def messages(doc: OpenDocument, cache: CheckCache) -> list[str]:
        ctx = CheckContext(doc.snapshot.model, doc.syntax.tree, doc.syntax.source)
        cache.run(ctx, [NamesTheLastStep])
        return sorted(p.message for p in ctx.problems)

    text = BASES["workflow"]
    doc, cache = OpenDocument(text, 1, None, None), CheckCache()
    messages(doc, cache)
    row = text.split("\n").index("step second") + 1
    doc.edit([TextEdit(row, 0, row, 0, "  weigh(part: part) -> more\n")], 2)
    got = messages(doc, cache)
    assert got == messages(doc, CheckCache())
    last = doc.syntax.text.split("\n").index("step last") + 1
    assert got and all(m == f"the last step is on line {last}" for m in got)


def test_a_line_at_the_margin_is_described_by_the_step_above_it_after_edits_above() -> None:
    """A stray line at the left margin is named by what is above it (a step with no body asks for
    it to be indented); making or removing that bodiless step re-describes the line, as a fresh
    check does, though the line's own text did not change."""
    doc = OpenDocument("workflow w\n  input x: Int\n\nstep a\n  route done\n\nroute done\n", 1, None, None)

    def same_as_fresh() -> list[Problem]:
        found = findings(doc.snapshot)
        assert [(p.range, p.message) for p in found] == [(p.range, p.message) for p in fresh(doc.syntax.text)]
        return [p for p in found if p.code == "unknown-declaration"]

    assert "does not start a declaration" in same_as_fresh()[0].message
    doc.edit([TextEdit(6, 0, 6, 0, "step s\n")], 2)  # a step with no body right above it
    assert "sits at the left margin under `step s`" in same_as_fresh()[0].message
    doc.edit([TextEdit(6, 0, 7, 0, "")], 3)  # and gone again
    assert "does not start a declaration" in same_as_fresh()[0].message


# ---------------------------------------------------------------- whole items pasted, cut, split, joined
def item_blocks(text: str) -> list[tuple[int, int]]:
    """(first row, row after it) of each top-level block that starts at the margin below the header
    (a step, type, worker, detached declaration, with its indented lines and the blank line after)."""
    lines = text.split("\n")
    starts = [
        r
        for r, line in enumerate(lines)
        if line[:1].isalpha() and not line.startswith(("workflow", "workloop")) and r > 0
    ]
    return [(a, b) for a, b in zip(starts, [*starts[1:], len(lines)], strict=True)]


def an_item_edit(rng: random.Random, text: str) -> tuple[str, TextEdit]:
    """A random edit that adds or removes whole items: a copy of an item pasted elsewhere (a
    duplicate), a new step that collides with the names around it, an item cut, a step split in
    two by Enter and a line that names a step, or two items joined by deleting the line between."""
    lines = text.split("\n")
    blocks = item_blocks(text)
    if not blocks:
        end = len(lines) - 1
        return "new", TextEdit(end, len(lines[end]), end, len(lines[end]), "\nstep again\n  route first\n")
    where = rng.choice([0, len(blocks) - 1, rng.randrange(len(blocks))])  # first, last, any
    a, b = blocks[where]
    kind = rng.choice(["copy", "copy", "new", "cut", "split", "join"])
    if kind == "copy":  # an existing item pasted at the start of another (first and last included)
        s, e = blocks[rng.randrange(len(blocks))]
        body = "\n".join(lines[s:e])
        return kind, TextEdit(a, 0, a, 0, body if body.endswith("\n") else body + "\n")
    if kind == "new":
        name = rng.choice(["first", "pasted", "third", "last", "part"])
        bound = rng.choice(["part", "weight", "fresh", "region", "spare"])
        step = (
            f"step {name}\n  fetch(region: region) -> {bound}\n  route {rng.choice(['second', 'done'])}\n\n"
        )
        return kind, TextEdit(a, 0, a, 0, step)
    if kind == "cut":
        return kind, _lines(lines, a, b, "")
    body = [r for r in range(a + 1, b) if lines[r].startswith("  ")]
    if kind == "split" and body:  # Enter inside a step, and the new line starts a step of its own
        r = rng.choice(body)
        return kind, TextEdit(
            r, len(lines[r]), r, len(lines[r]), rng.choice(["\nstep split", "\n\nstep second"])
        )
    if where + 1 < len(blocks):  # join: delete the lines between this item's body and the next item
        nxt = blocks[where + 1][0]
        last = max([a, *body])
        return "join", _lines(
            lines, last + 1, nxt + 1, lines[nxt].replace("step ", "  weigh(part: part) -> ", 1)
        )
    return "cut", _lines(lines, a, b, "")


def _lines(lines: list[str], a: int, b: int, text: str) -> TextEdit:
    """Lines `a` up to `b` replaced by `text` (a line of its own unless empty), `b` past the end
    meaning to the end of the text."""
    if b < len(lines):
        return TextEdit(a, 0, b, 0, text + "\n" if text else "")
    end = len(lines) - 1
    return TextEdit(a, 0, end, len(lines[end]), text)


@pytest.mark.parametrize("base", sorted(BASES))
def test_items_pasted_cut_split_and_joined_give_what_a_fresh_check_gives(base: str) -> None:
    """Adding or removing whole items changes what every document-wide rule gathers (the names
    bound, declared twice, hatched, read …), brought up to date from the items that came and went:
    each version is checked as a fresh open would."""
    rng = random.Random(11)
    doc = OpenDocument(BASES[base], 1, None, None)
    assert findings(doc.snapshot) == fresh(BASES[base])
    kinds: set[str] = set()
    for version in range(2, EDITS + 2):
        kind, edit = an_item_edit(rng, doc.syntax.text)
        kinds.add(kind)
        doc.edit([edit], version)
        got = findings(doc.snapshot)
        assert got == fresh(doc.syntax.text), f"after {kind} (edit {version - 1}):\n{doc.syntax.text}"
    assert kinds >= {"copy", "new", "cut", "split", "join"}


def test_pasting_a_step_and_undoing_it_at_5000_lines_counts_only_that_step() -> None:
    """The benchmark's paste: the document-wide gatherings count the pasted step (and drop it on
    undo), and the problems are those of a fresh open each time."""
    from awl_lsp.checks import across

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    from generate import typing

    text = document(5000)
    doc = OpenDocument(text, 1, None, None)
    findings(doc.snapshot)
    paste, undo = typing(text).edits["paste"]
    counted: list[int] = []
    real = across._tally
    across_tally = lambda c, items, *a, **k: counted.append(len(items)) or real(c, items, *a, **k)  # noqa: E731
    for version, edit in ((2, paste), (3, undo), (4, paste)):
        doc.edit([TextEdit(*edit)], version)
        counted.clear()
        across._tally = across_tally  # type: ignore[assignment]
        try:
            got = findings(doc.snapshot)
        finally:
            across._tally = real  # type: ignore[assignment]
        assert counted and max(counted) == 1, counted
        assert got == fresh(doc.syntax.text)


def test_a_place_made_up_on_a_line_the_edit_splits_is_found_again() -> None:
    """`no workflow header` is reported at column 0 of the first code line (a broken item's row,
    not a place in its text), and not shown on a line with a syntax error. A line break typed
    above, where the text already has one, moves the item down a line: the problem moves with it
    (still hidden behind the syntax error), as a fresh check finds it."""
    text = "\r\n  : type Out, route finish\n\ntype Out { n: Int }\n\nstep finish\n  route done(n: a)\n"
    doc = OpenDocument(text, 1, None, None)
    findings(doc.snapshot)
    doc.edit([TextEdit(0, 0, 0, 0, "\r\n  ")], 2)
    got = findings(doc.snapshot)
    assert got == fresh(doc.syntax.text)
    assert not [p.range for p in got if p.code == "header"]
