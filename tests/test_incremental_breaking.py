"""Keystrokes that break a line and mend it reuse the document-wide problems — only where a fresh
check finds the same.

While someone types, a line inside a step is broken for a moment (a `(` or `"` just opened, a
`)` deleted, a name half typed). The document-wide rules (duplicates, reachability, unused names
…) need not run again for that: whether a step holds a syntax error is read only for a flow's last
step, the names a broken line no longer reads count only through the gatherings (`across`), and
a line split or pasted keeps the places of the text around it (`awl_lsp.checks.replay`). These
tests type the benchmark's breaking keystrokes into documents full of such problems and compare
every version with a fresh check; they also type where the reuse must not hold.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from awl_lsp.checks import Problem
from awl_lsp.checks.replay import ItemMap, Unmappable
from awl_lsp.features.diagnostics import findings
from awl_lsp.features.documents import OpenDocument
from awl_lsp.syntax import TextEdit

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from breaking import breaking_edits, typing_on  # noqa: E402
from generate import document  # noqa: E402
from shapes import SHAPES  # noqa: E402

DATA = Path(__file__).parent / "data" / "incremental"


def fresh(text: str) -> list[Problem]:
    return findings(OpenDocument(text, 1, None, None).snapshot)


def _tangled(text: str) -> str:
    """A generated document with problems between its steps: a name bound in two steps, an unread
    binding and a step nothing reaches."""
    text = text.replace("  check_2(item: item_2) -> checked_2", "  check_2(item: item_2) -> checked_1")
    text = text.replace("  answer board(seen: 5)", "  answer board(seen: 5)\n  weigh(part: part) -> unread")
    return text.replace("route stage_4\n", "route stage_5\n")


BASES = {
    "bench": document(400),
    "tangled": _tangled(document(400)),
    "workflow": (DATA / "wide_problems.awl").read_text(),
}


def _type(doc: OpenDocument, edit: tuple[int, int, int, int, str]) -> list[Problem]:
    doc.edit([TextEdit(*edit)], (doc.version or 0) + 1)
    got = findings(doc.snapshot)
    assert got == fresh(doc.syntax.text), edit
    return got


# where the document-wide rules must run again, and why:
RUN_AGAIN = {
    "bench": set(),
    # a name bound twice names the line of the first binding: a keystroke adding or removing a line
    "tangled": {f"{n} {side}" for n in ("paste cut short", "enter in brackets") for side in ("do", "undo")},
    # a step reading a binding of another step has its references read by the rules one by one
    # (where the binding lies decides a problem): a pasted line reads names of its own, and the
    # open string that stopped the checks left steps resolved again by the time it is undone
    "workflow": {"paste cut short do", "paste cut short undo", "open quote undo"},
}


@pytest.mark.parametrize("base", sorted(BASES))
def test_breaking_and_mending_a_call_line_reuses_the_document_wide_problems(base: str) -> None:
    """Every breaking keystroke of the benchmark and its undo: a fresh check's problems, and the
    document-wide rules not run again (a text the engine cannot read at all is not checked) but
    where they read what changed (`RUN_AGAIN`)."""
    text = BASES[base]
    doc = OpenDocument(text, 1, None, None)
    findings(doc.snapshot)
    ran: list[str] = []
    for name, (do, undo) in breaking_edits(text).items():
        for side, edit in (("do", do), ("undo", undo)):
            doc.checks.last_replayed = False
            before = doc.checks.last_checked
            doc.checks.last_checked = -1  # (stays so when the checker does not run)
            _type(doc, edit)
            if doc.checks.last_checked == -1:
                doc.checks.last_checked = before
                continue
            if not doc.checks.last_replayed:
                ran.append(f"{name} {side}")
        assert doc.syntax.text == text
    first, on, back = typing_on(text)
    for edit in (first, on, back, breaking_edits(text)["mid-word"][1]):
        _type(doc, edit)
        assert doc.checks.last_replayed, edit
    assert set(ran) == RUN_AGAIN[base], ran


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_breaking_keystrokes_in_every_shape_give_a_fresh_checks_problems(shape: str) -> None:
    """In every bench shape, most breaking keystrokes reuse the document-wide problems — not in
    `tiny`, whose call line is in the workloop's last step, which the workloop rules read by its
    text."""
    text = SHAPES[shape](200)
    doc = OpenDocument(text, 1, None, None)
    findings(doc.snapshot)
    replayed = 0
    for do, undo in breaking_edits(text).values():
        for edit in (do, undo):
            _type(doc, edit)
            replayed += doc.checks.last_replayed
    assert replayed >= (0 if shape == "tiny" else 6), replayed


def test_breaking_the_last_step_of_a_flow_is_seen_by_the_rule_that_asks() -> None:
    """The last step of a workflow that falls off its end is an error, unless the step holds a
    syntax error (its route may be what is being typed): breaking a line there changes the
    document-wide problems, and mending it brings the error back."""
    text = (DATA / "wide_problems.awl").read_text()
    lines = text.split("\n")
    row = lines.index("step last") + 1
    doc = OpenDocument(text, 1, None, None)
    assert any(p.code == "falls-off-end" for p in findings(doc.snapshot))
    col = lines[row].index("(") + 1
    broken = _type(doc, (row, col, row, col, "("))
    assert not any(p.code == "falls-off-end" for p in broken)
    mended = _type(doc, (row, col, row, col + 1, ""))
    assert any(p.code == "falls-off-end" for p in mended)


def test_a_broken_line_that_hid_the_only_read_of_a_binding_is_checked_again() -> None:
    """A name read only on the line being broken is read nowhere while it is broken: what the
    gatherings count changed their answer, so the rules run (and report the binding unread)."""
    text = document(300)
    lines = text.split("\n")
    row = next(r for r, line in enumerate(lines) if line.startswith("  answer board(seen: 7)"))
    doc = OpenDocument(text, 1, None, None)
    findings(doc.snapshot)
    reader = next(r for r in range(row, 0, -1) if lines[r].startswith("  hatch follow_up("))
    at = lines[reader].index("note: ") + len("note: ")
    _type(doc, (reader, at, reader, at, "("))
    assert not doc.checks.last_replayed  # (`note_N` is read nowhere now)
    _type(doc, (reader, at, reader, at + 1, ""))


def test_a_line_pasted_above_a_copy_of_itself_is_that_line() -> None:
    """The text of a line pasted above its copy could be aligned inside the copy; the places of a
    pasted line are carried as the pasted line, so the copy's places move down with it."""
    old = b"step a\n  f(x: 1)\n  route b\n"
    pasted = ItemMap(old, 10, b"step a\n  f(x: 1\n  f(x: 1)\n  route b\n", 10)
    assert pasted.range((11, 2, 11, 9)) == (12, 2, 12, 9)  # the copy, a line further down
    assert pasted.range((10, 0, 10, 6)) == (10, 0, 10, 6)
    undone = ItemMap(b"step a\n  f(x: 1\n  f(x: 1)\n  route b\n", 10, old, 10)
    assert undone.range((12, 2, 12, 9)) == (11, 2, 11, 9)


def test_a_place_of_the_text_on_a_split_line_keeps_its_place_and_a_made_up_one_does_not() -> None:
    split = ItemMap(b"step a\n  f(x: 1, y: 2)\n", 10, b"step a\n  f(x: 1,\n    y: 2)\n", 10)
    assert split.place((11, 2, 11, 3)) == (11, 2, 11, 3)  # `f`, before the line break typed
    assert split.place((11, 10, 11, 11)) == (12, 4, 12, 5)  # `y`, after it
    with pytest.raises(Unmappable):  # a rule's place on that line may belong to either part
        split.range((11, 0, 11, 0))
