"""Selection ranges (expand by tree ancestors) and workspace symbols (across open documents)."""

from __future__ import annotations

from helpers import example, pos, snap_of
from lsprotocol import types as lsp

from awl_lsp.features.selection import selection_range, selection_ranges
from awl_lsp.features.workspace_symbols import workspace_symbols
from awl_lsp.syntax.positions import LineIndex

WORKLOOP = example("inbox_sweep.awl")
WORKFLOW = example("release_notes.awl")


def texts(text: str, sel: lsp.SelectionRange | None) -> list[str]:
    """The text of each range of the chain, innermost first (positions are UTF-16)."""
    index = LineIndex(text)
    out = []
    while sel is not None:
        r = sel.range
        start = index.offset(r.start.line, r.start.character)
        out.append(text[start : index.offset(r.end.line, r.end.character)])
        sel = sel.parent
    return out


def contains(outer: lsp.Range, inner: lsp.Range) -> bool:
    start = (outer.start.line, outer.start.character) <= (inner.start.line, inner.start.character)
    return start and (inner.end.line, inner.end.character) <= (outer.end.line, outer.end.character)


def test_selection_grows_from_the_word_to_the_document() -> None:
    sel = selection_range(snap_of(WORKLOOP), pos(WORKLOOP, "last_seen) -> batch", 3))
    chain = texts(WORKLOOP, sel)
    assert chain[0] == "last_seen"
    assert chain[1] == "after: last_seen"
    assert chain[2] == "(inbox: inbox, after: last_seen)"
    assert chain[3] == "list_new(inbox: inbox, after: last_seen)"
    assert chain[4] == "list_new(inbox: inbox, after: last_seen) -> batch"
    assert chain[5].startswith("list_new(inbox: inbox") and chain[5].endswith("route hand_off")
    assert chain[6].startswith("step fetch\n") and chain[6].endswith("route hand_off")
    assert chain[-1] == WORKLOOP.strip()
    assert len(chain) == len(set(chain)), "no range is repeated"


def test_each_range_contains_the_previous() -> None:
    snap = snap_of(WORKFLOW)
    for needle in ("draft.ready, route review", "title in sections", "reviewer: String", "6h"):
        sel: lsp.SelectionRange | None = selection_range(snap, pos(WORKFLOW, needle, 1))
        while sel is not None and sel.parent is not None:
            assert contains(sel.parent.range, sel.range) and sel.parent.range != sel.range
            sel = sel.parent


def test_several_positions_and_multibyte_lines() -> None:
    text = WORKFLOW.replace('reason: "not approved"', 'reason: "☕🚀 no"')
    snap = snap_of(text)
    results = selection_ranges(snap, [pos(text, '"☕🚀 no"', 1), pos(text, "tag: tag, reason", 0)])
    assert len(results) == 2
    assert texts(text, results[0])[:2] == ['"☕🚀 no"', 'reason: "☕🚀 no"']
    first = results[0].range
    line = text.split("\n")[first.start.line]
    assert first.end.character - first.start.character == len('"☕🚀 no"'.encode("utf-16-le")) // 2
    assert line[: line.index('"☕')].endswith("reason: ")
    assert texts(text, results[1])[0] == "tag"


def test_workspace_symbols_search_every_open_document() -> None:
    docs = [
        ("file:///a/inbox_sweep.awl", snap_of(WORKLOOP)),
        ("file:///a/release_notes.awl", snap_of(WORKFLOW)),
    ]
    found = workspace_symbols(docs, "")
    names = {s.name for s in found}
    assert {"inbox_sweep", "release_notes", "fetch", "refine", "list_new", "Batch", "Draft"} <= names
    assert "batch" not in names  # bindings are local, not workspace symbols
    hits = workspace_symbols(docs, "DRAFT")
    assert [s.name for s in hits][:1] == ["Draft"]  # the exact match first
    assert all("draft" in s.name.lower() for s in hits)
    section = next(s for s in workspace_symbols(docs, "write_sec"))
    assert section.name == "write_section" and section.kind == lsp.SymbolKind.Method
    assert section.location.uri == "file:///a/release_notes.awl"
    assert section.container_name == "writer"
    line = WORKFLOW.split("\n")[section.location.range.start.line]
    assert "action write_section" in line
    assert workspace_symbols(docs, "no_such_name") == []


def test_position_in_white_space_gets_a_valid_chain() -> None:
    text = WORKLOOP + "\n\n"
    snap = snap_of(text)
    end = lsp.Position(len(text.split("\n")) - 1, 0)
    sel = selection_range(snap, end)
    assert sel.range == lsp.Range(end, end) and sel.parent is None
    inside = pos(text, "  list_new(inbox", 1)  # in the indentation of a step line
    sel = selection_range(snap, inside)
    while sel is not None:
        r = sel.range
        assert (
            (r.start.line, r.start.character)
            <= (inside.line, inside.character)
            <= (r.end.line, r.end.character)
        )
        sel = sel.parent
