"""Everything derived incrementally (model, diagnostics, semantic tokens, folding) equals a fresh analysis.

A document edited in place keeps caches between versions — the model builder's facts, the
checker's item results, semantic tokens and string scans per item. Random edit sequences (fixed
seeds; `AWL_DIFF_EXAMPLES=500` for a longer run) must end where a from-scratch analysis of the
same tree ends, and where a fresh open of the final text ends (broken text included: an edit that
leaves the text broken is parsed afresh, since tree-sitter's error recovery depends on history).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from helpers import example
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from awl_lsp.features.diagnostics import diagnostics
from awl_lsp.features.documents import OpenDocument
from awl_lsp.features.folding import folding_ranges
from awl_lsp.features.semantic_tokens import decode, semantic_tokens_delta, semantic_tokens_full, tokens
from awl_lsp.features.snapshot import Snapshot
from awl_lsp.model import ModelBuilder
from awl_lsp.model.facts import plain_scope
from awl_lsp.syntax import TextEdit

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from breaking import breaking_edits, typing_on  # noqa: E402
from generate import document  # noqa: E402
from shapes import SHAPES  # noqa: E402

EXAMPLES = int(os.environ.get("AWL_DIFF_EXAMPLES", "25"))
BASES = [document(120), example("inbox_sweep.awl"), example("release_notes.awl")]
# what people type: words, names of the document, arrows, block openers, broken strings, indentation
FRAGMENTS = [
    "x",
    "7",
    " ",
    "\n",
    "\n  ",
    "  ",
    "(",
    ")",
    ",",
    ".",
    '"',
    "-> y",
    "-> item_1",
    "region",
    "checked_1",
    "step extra\n",
    "  fetch_0(region: region, cursor: cursor) -> z\n",
    "  fork p in parts_1\n    weigh(part: p)\n  join -> w\n",
    "  outcome o: else, route finish\n",
    "type Item1 { id: Int }\n",
    "  hatch follow_up(item_id: z, note: z) key z\n",
    "retire\n",
    "\t",
]


def model_view(snap: Snapshot) -> tuple:
    """The model as features read it: symbols and what every reference resolves to, by position
    (a fork's scope without the serial number of the facts that read it)."""
    symbols = [
        (s.kind, s.name, plain_scope(s.scope), s.type, s.range, s.selection) for s in snap.model.all_symbols
    ]
    refs = [
        (r.kind, r.name, r.range, None if r.target is None else (r.target.kind, r.target.selection))
        for r in snap.model.references
    ]
    return sorted(symbols, key=repr), refs


def derived(snap: Snapshot) -> dict[str, object]:
    return {
        "model": model_view(snap),
        "diagnostics": [(d.range, d.message, d.code, d.severity) for d in diagnostics(snap)],
        "tokens": decode(semantic_tokens_full(snap).data),
        "folding": [(f.start_line, f.end_line) for f in folding_ranges(snap)],
    }


def scratch(doc: OpenDocument) -> dict[str, object]:
    """A from-scratch analysis (no caches) of the tree the document has now."""
    return derived(Snapshot(doc.syntax, ModelBuilder().build(doc.syntax.tree, doc.syntax.source)))


def apply(doc: OpenDocument, start: int, length: int, text: str) -> None:
    """Replace `length` characters at offset `start` (clamped to the text) with `text`."""
    current = doc.syntax.text
    a = min(start, len(current))
    b = min(a + length, len(current))

    def position(offset: int) -> tuple[int, int]:
        line = current.count("\n", 0, offset)
        return line, offset - (current.rfind("\n", 0, offset) + 1)

    (sl, sc), (el, ec) = position(a), position(b)
    doc.edit([TextEdit(sl, sc, el, ec, text)], (doc.version or 0) + 1)


edit = st.tuples(
    st.floats(min_value=0, max_value=1),
    st.integers(min_value=0, max_value=40),
    st.sampled_from(FRAGMENTS) | st.text(alphabet='abc_ \n()->:.,"0123', max_size=6),
)


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    phases=(Phase.explicit, Phase.reuse, Phase.generate),  # no shrinking: the failing case is printed
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(base=st.sampled_from(range(len(BASES))), edits=st.lists(edit, min_size=1, max_size=12))
def test_random_edit_sequences_end_where_a_fresh_open_ends(base: int, edits: list) -> None:
    doc = OpenDocument(BASES[base], 1, None, None)
    derived(doc.snapshot)  # fill every cache with the first version
    for i, (where, length, text) in enumerate(edits):
        apply(doc, int(where * len(doc.syntax.text)), length, text)
        if i % 3 == 2:  # some versions are analysed, others skipped (as in a burst of keys)
            derived(doc.snapshot)
    got = derived(doc.snapshot)
    assert got == scratch(doc)
    assert got == derived(OpenDocument(doc.syntax.text, doc.version, None, None).snapshot)


def fresh_open(doc: OpenDocument) -> dict[str, object]:
    return derived(OpenDocument(doc.syntax.text, doc.version, None, None).snapshot)


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_keystrokes_that_break_and_mend_the_syntax_end_where_a_fresh_open_ends(shape: str) -> None:
    """In every bench shape, the states a line is in while someone types — a character mid-word, a
    `(`, `[` or `"` left open, the closing `)` deleted, Enter inside the brackets, a line pasted cut
    short — and each undone again: after every keystroke the diagnostics, model, tokens and folding
    are a fresh open's (and the undone text is the document it was)."""
    text = SHAPES[shape](150)
    doc = OpenDocument(text, 1, None, None)
    derived(doc.snapshot)
    broke = 0
    for name, (do, undo) in breaking_edits(text).items():
        for edit in (do, undo):
            doc.edit([TextEdit(*edit)], (doc.version or 0) + 1)
            broke += doc.syntax.root.has_error
            assert derived(doc.snapshot) == fresh_open(doc), (shape, name, edit)
        assert doc.syntax.text == text, name
    first, on, back = typing_on(text)
    for edit in (first, on, back, breaking_edits(text)["mid-word"][1]):  # typed on while broken
        doc.edit([TextEdit(*edit)], (doc.version or 0) + 1)
        assert derived(doc.snapshot) == fresh_open(doc), (shape, edit)
    assert doc.syntax.text == text
    assert broke >= 5, broke  # (the edits really broke the syntax)


def test_breaking_keystrokes_analysed_only_every_few_keys_end_where_a_fresh_open_ends() -> None:
    """Breaking and mending edits in a burst (the versions between not analysed), then analysed."""
    text = SHAPES["dense"](300)
    doc = OpenDocument(text, 1, None, None)
    derived(doc.snapshot)
    edits = breaking_edits(text)
    for burst in (["mid-word", "open paren"], ["open quote", "close deleted", "paste cut short"]):
        # (the last place first, so each edit's place is the one it has in the text; undone in turn)
        burst.sort(key=lambda name: edits[name][0][:2], reverse=True)
        for name in burst:
            doc.edit([TextEdit(*edits[name][0])], (doc.version or 0) + 1)
        assert derived(doc.snapshot) == fresh_open(doc)
        for name in reversed(burst):
            doc.edit([TextEdit(*edits[name][1])], (doc.version or 0) + 1)
        assert derived(doc.snapshot) == fresh_open(doc)
    assert doc.syntax.text == text


def test_an_item_moved_along_its_line_keeps_no_stale_token_columns() -> None:
    """A broken item that shares a line with the one before it moves when that one changes: its
    cached semantic tokens must not keep the old columns (found by the sequence test above)."""
    doc = OpenDocument(BASES[1], 1, None, None)
    derived(doc.snapshot)
    steps = [(0.0, 12, "\t"), (0.0, 7, ",-\n.,"), (0.6, 10, FRAGMENTS[16]), (0.0, 7, FRAGMENTS[18])]
    for i, (where, length, text) in enumerate(steps):
        apply(doc, int(where * len(doc.syntax.text)), length, text)
        if i == 2:
            derived(doc.snapshot)
    assert derived(doc.snapshot) == derived(OpenDocument(doc.syntax.text, doc.version, None, None).snapshot)


def test_a_binding_added_in_one_step_reclassifies_its_reader_in_another() -> None:
    """`fetch(...) -> region` in one step makes `region` read in a later step a variable, not the input."""
    text = document(120)
    lines = text.split("\n")
    reader = lines.index("step stage_1") + 1
    col = lines[reader].index("region: region") + len("region: ")
    doc = OpenDocument(text, 1, None, None)

    def at(snap: Snapshot, row: int) -> tuple[str, set[str]]:
        found = [t for t in decode(semantic_tokens_full(snap).data) if t[:2] == (row, col)]
        assert found, f"no token at {row}:{col}"
        return found[0][3], found[0][4]

    assert at(doc.snapshot, reader) == ("variable", {"readonly"})  # the loop's input
    writer = lines.index("step stage_0") + 1
    doc.edit([TextEdit(writer, 0, writer, 0, "  fetch_0(region: region, cursor: cursor) -> region\n")], 2)
    assert at(doc.snapshot, reader + 1) == ("variable", set())
    # the same as classifying the new version without any cache
    uncached = decode(semantic_tokens_full(OpenDocument(doc.syntax.text, 2, None, None).snapshot).data)
    assert decode(semantic_tokens_full(doc.snapshot).data) == uncached
    from awl_lsp.features.semantic_tokens import encode

    assert decode(encode(tokens(doc.snapshot))) == uncached


def test_semantic_tokens_delta_rebuilds_the_new_tokens_from_the_old() -> None:
    """A client applying `full/delta` edits to what it had ends with the full tokens of the new version."""
    text = document(120)
    doc = OpenDocument(text, 1, None, None)
    first = semantic_tokens_full(doc.snapshot)
    row = text.split("\n").index("step stage_2") + 2
    doc.edit([TextEdit(row, 2, row, 2, "check_1(item: item_1) -> again\n  ")], 2)
    delta = semantic_tokens_delta(doc.snapshot, first.result_id or "")
    assert hasattr(delta, "edits") and delta.edits, "an edit that adds tokens gives a non-empty delta"
    have = list(first.data)
    for e in sorted(delta.edits, key=lambda e: e.start, reverse=True):
        have[e.start : e.start + e.delete_count] = e.data or []
    assert have == semantic_tokens_full(OpenDocument(doc.syntax.text, 2, None, None).snapshot).data
    # an unknown previous id gets every token again
    again = semantic_tokens_delta(doc.snapshot, "no such id")
    assert getattr(again, "data", None) == have


def test_a_consts_new_value_rechecks_the_steps_that_read_it() -> None:
    """`const limit = 3` passed where a String is expected; made a string, the step's error goes."""
    board = "type Board { seen: Int }\n"
    text = document(120).replace(board, board + "\nconst limit = 3\n")
    text = text.replace("  split(item_id: checked_2.id)", "  split(item_id: limit)")
    doc = OpenDocument(text, 1, None, None)
    before = [d.message for d in diagnostics(doc.snapshot)]
    row = text.split("\n").index("const limit = 3")
    doc.edit([TextEdit(row, len("const limit = "), row, len("const limit = 3"), '"three"')], 2)
    after = [d.message for d in diagnostics(doc.snapshot)]
    fresh = [d.message for d in diagnostics(OpenDocument(doc.syntax.text, 2, None, None).snapshot)]
    assert after == fresh
    assert any("limit" in m for m in before), before
    assert not any("limit" in m for m in after), after


def test_spaces_typed_at_the_end_of_a_document_after_its_last_declaration_end_where_a_fresh_open_ends() -> (
    None
):
    """Found by the sequence test above: text typed at the very end, after the last top-level
    child, reads again a window that runs past the children the last version had."""
    doc = OpenDocument(BASES[1], 1, None, None)
    derived(doc.snapshot)
    edits = [(0.3765329747301681, 27, "  "), (0.6, 28, "_1bb3 "), (1.0, 22, "  "), (1.0, 22, "  ")]
    for i, (where, length, text) in enumerate(edits):
        apply(doc, int(where * len(doc.syntax.text)), length, text)
        if i == 2:  # (as the sequence test analyses every third version)
            derived(doc.snapshot)
    assert derived(doc.snapshot) == derived(OpenDocument(doc.syntax.text, doc.version, None, None).snapshot)
