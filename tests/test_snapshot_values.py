"""A snapshot is a value: a version held while newer edits are analysed still answers for its own text.

A request may keep a snapshot across an `await` (go-to-definition waiting for the workspace index,
a workspace diagnostics pull yielding between documents) while the editor's next edits arrive and
newer models are built. Whatever the held version is then asked — its model's symbols and
positions, diagnostics, hover and definition, semantic tokens, folding — must be what a fresh open
of that version's text answers. Random edit sequences (Enter above items, edits inside them,
pasted items, deleted lines; fixed seeds, `AWL_DIFF_EXAMPLES=300` for a longer run) hold every
version and compare each one at the end.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from helpers import example
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from lsprotocol import types as lsp

from awl_lsp.features.definition import definition
from awl_lsp.features.diagnostics import diagnostics
from awl_lsp.features.documents import OpenDocument
from awl_lsp.features.folding import folding_ranges
from awl_lsp.features.hover import hover
from awl_lsp.features.semantic_tokens import decode, semantic_tokens_full
from awl_lsp.features.snapshot import Snapshot
from awl_lsp.model.facts import plain_scope
from awl_lsp.syntax import TextEdit

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from generate import document  # noqa: E402

EXAMPLES = int(os.environ.get("AWL_DIFF_EXAMPLES", "25"))
BASES = [document(120), example("inbox_sweep.awl"), example("release_notes.awl")]
URI = "file:///held.awl"
# typed inside items: words, names, arrows, broken strings, indentation
TYPED = ["x", " ", "\n  ", "(", ")", '"', "-> y", "-> item_1", "region", "step extra\n", "\t", "retire\n"]


def model_view(snap: Snapshot) -> tuple:
    """The model as features read it: symbols, and what every reference resolves to, by position."""
    symbols = [
        (s.kind, s.name, plain_scope(s.scope), s.type, s.container, s.range, s.selection)
        for s in snap.model.all_symbols
    ]
    refs = [
        (r.kind, r.name, r.range, None if r.target is None else (r.target.kind, r.target.selection))
        for r in snap.model.references
    ]
    top = [(s.name, s.range) for s in snap.model.symbols]
    return sorted(symbols, key=repr), refs, top


def sample_points(snap: Snapshot) -> list[lsp.Position]:
    """Some names declared and referenced in the document (read from a fresh snapshot)."""
    ranges = [s.selection for s in snap.model.all_symbols[::5]] + [
        r.range for r in snap.model.references[::7]
    ]
    return [lsp.Position(*snap.doc.to_position((r[0], r[1]))) for r in ranges]


def answers(snap: Snapshot, points: list[lsp.Position]) -> dict[str, object]:
    """What an editor would be told about this version."""

    def shown(h: lsp.Hover | None) -> object:
        return None if h is None else (h.contents, h.range)

    return {
        "model": model_view(snap),
        "text": snap.doc.text,
        "diagnostics": [(d.range, d.message, d.code, d.severity) for d in diagnostics(snap)],
        "tokens": decode(semantic_tokens_full(snap).data),
        "folding": [(f.start_line, f.end_line) for f in folding_ranges(snap)],
        "hover": [shown(hover(snap, p)) for p in points],
        "definition": [definition(snap, p, URI) for p in points],
    }


def fresh(text: str, version: int | None) -> Snapshot:
    return OpenDocument(text, version, None, None).snapshot


def position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset)
    return line, offset - (text.rfind("\n", 0, offset) + 1)


def replace(doc: OpenDocument, a: int, b: int, text: str) -> None:
    """Replace characters [a, b) of the document's text (clamped) by `text`, as the next version."""
    current = doc.syntax.text
    a, b = min(a, len(current)), min(b, len(current))
    (sl, sc), (el, ec) = position(current, a), position(current, min(max(a, b), len(current)))
    doc.edit([TextEdit(sl, sc, el, ec, text)], (doc.version or 0) + 1)


def line_start(text: str, where: float) -> int:
    """The offset of the line a fraction `where` into the text."""
    at = int(where * len(text))
    return text.rfind("\n", 0, at) + 1


def make_edit(doc: OpenDocument, kind: str, where: float, size: int, typed: str) -> None:
    text = doc.syntax.text
    start = line_start(text, where)
    if kind == "enter":  # lines added above an item
        replace(doc, start, start, "\n" * (1 + size % 3))
    elif kind == "type":  # inside an item
        at = min(len(text), start + size % 12)
        replace(doc, at, at, typed)
    elif kind == "paste":  # a copy of some lines of the document (a whole item, often)
        src = line_start(text, (where * 7.3) % 1)
        end = src
        for _ in range(2 + size % 9):
            nl = text.find("\n", end)
            end = len(text) if nl == -1 else nl + 1
        replace(doc, start, start, text[src:end])
    else:  # deleted lines
        end = start
        for _ in range(1 + size % 4):
            nl = text.find("\n", end)
            end = len(text) if nl == -1 else nl + 1
        replace(doc, start, end, "")


edit = st.tuples(
    st.sampled_from(["enter", "type", "paste", "delete"]),
    st.floats(min_value=0, max_value=1),
    st.integers(min_value=0, max_value=40),
    st.sampled_from(TYPED),
    st.booleans(),  # asked about (diagnostics, tokens) while it was the newest version
)


def held_versions_answer_as_fresh(base: str, edits: list) -> None:
    doc = OpenDocument(base, 1, None, None)
    held: list[tuple[str, int | None, Snapshot]] = []
    snap = doc.snapshot
    diagnostics(snap)
    semantic_tokens_full(snap)
    held.append((doc.syntax.text, doc.version, snap))
    for kind, where, size, typed, asked in edits:
        make_edit(doc, kind, where, size, typed)
        snap = doc.snapshot  # (a request reads this version and holds it)
        if asked:
            diagnostics(snap)
            semantic_tokens_full(snap)
        held.append((doc.syntax.text, doc.version, snap))
    for text, version, snap in held:
        expected_snap = fresh(text, version)
        points = sample_points(expected_snap)
        assert answers(snap, points) == answers(expected_snap, points), f"version {version}"


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    phases=(Phase.explicit, Phase.reuse, Phase.generate),  # no shrinking: the failing case is printed
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(base=st.sampled_from(range(len(BASES))), edits=st.lists(edit, min_size=1, max_size=6))
def test_held_snapshots_answer_for_their_own_version(base: int, edits: list) -> None:
    held_versions_answer_as_fresh(BASES[base], edits)


def test_a_version_held_across_an_enter_above_it_keeps_its_positions() -> None:
    """Go-to-definition computed on version 1 after version 2 (a line added at the top) was analysed."""
    text = document(120)
    doc = OpenDocument(text, 1, None, None)
    old = doc.snapshot
    k = [i for i, r in enumerate(old.model.references) if r.target is not None][-1]
    target = old.model.references[k]
    where = lsp.Position(*old.doc.to_position((target.range[0], target.range[1])))
    expected = definition(fresh(text, 1), where, URI)
    assert expected is not None
    doc.edit([TextEdit(0, 0, 0, 0, "\n\n")], 2)
    new = doc.snapshot
    assert new.model.references[k].range[0] == target.range[0] + 2
    assert definition(old, where, URI) == expected
    assert old.doc.text == text
    assert model_view(old) == model_view(fresh(text, 1))


def test_a_version_held_across_edits_inside_and_pastes_keeps_its_diagnostics() -> None:
    """Diagnostics and tokens asked of an old version after newer ones were checked are the old text's."""
    held_versions_answer_as_fresh(
        BASES[0],
        [
            ("type", 0.5, 3, "-> y", True),
            ("paste", 0.3, 5, "", True),
            ("enter", 0.1, 1, "", False),
            ("delete", 0.6, 2, "", True),
            ("enter", 0.9, 0, "", True),
        ],
    )


def test_a_version_nobody_holds_any_more_is_moved_not_copied() -> None:
    """Answering every feature leaves nothing that keeps the snapshot alive (no cycle, no cache
    holding it), so the next version takes the last one's facts over — an edit costs what it
    touches. Only a snapshot still held makes the next model a copy."""
    from awl_lsp.features.completion import completion_list
    from awl_lsp.features.inlay_hints import inlay_hints
    from awl_lsp.features.semantic_tokens import semantic_tokens_delta
    from awl_lsp.features.symbols import document_symbols

    text = document(400)
    doc = OpenDocument(text, 1, None, None)
    row = text.split("\n").index("step stage_2") + 2
    sent = semantic_tokens_full(doc.snapshot).result_id or ""
    for version in range(2, 6):
        doc.edit([TextEdit(row, 2, row, 2, "x")], version)
        snap = doc.snapshot
        points = sample_points(snap)[:20]
        answers(snap, points)
        sent = getattr(semantic_tokens_delta(snap, sent), "result_id", None) or ""
        completion_list(snap, lsp.Position(row, 3), True, True)
        inlay_hints(snap)
        document_symbols(snap)
        del snap
    assert doc.held_builds == 0
    assert doc.builder.last_window <= 3  # (the items around the edit were looked at, not the document)
    held, before = doc.snapshot, doc.syntax.text
    doc.edit([TextEdit(0, 0, 0, 0, "\n")], 6)
    assert doc.snapshot is not held and doc.held_builds == 1
    assert model_view(held) == model_view(fresh(before, 5))
    assert model_view(doc.snapshot) == model_view(fresh(doc.syntax.text, 6))
