"""Inlay hints: inferred binding types after the bound name, only where inference knows the type."""

from __future__ import annotations

from helpers import example, snap_of
from lsprotocol import types as lsp

from awl_lsp.features.documents import OpenDocument
from awl_lsp.features.inlay_hints import inlay_hints
from awl_lsp.syntax import Encoding

WORKLOOP = example("inbox_sweep.awl")
WORKFLOW = example("release_notes.awl")


def hints(text: str, rng: lsp.Range | None = None) -> list[tuple[str, str]]:
    """(text of the line up to the hint, label) for each type hint (cadence hints: test_cadence.py)."""
    lines = text.split("\n")
    out = []
    for h in inlay_hints(snap_of(text), rng):
        if h.kind is None and not h.label.startswith(":"):
            continue  # a workloop's cadence insight, not a type
        assert h.kind == lsp.InlayHintKind.Type
        out.append((lines[h.position.line][: h.position.character].strip(), h.label))
    return out


def test_binding_types_in_a_workflow() -> None:
    assert hints(WORKFLOW) == [
        ("fork title", ": String"),
        ("join -> parts", ": [Section]"),
        ("assemble(parts: parts) -> first_draft", ": Draft"),
        ("loop draft", ": Draft"),
        ("polish(prior: draft) -> draft", ": Draft"),
        ("wait approval timeout 1d -> decision", ": Approval?"),
    ]


def test_binding_types_in_a_workloop() -> None:
    assert hints(WORKLOOP) == [
        ("list_new(inbox: inbox, after: last_seen) -> batch", ": Batch"),
        ("batch.messages |> count -> fetched", ": Int"),
        ("fork message", ": Message"),
    ]


def test_unknown_types_get_no_hint() -> None:
    text = WORKLOOP.replace(
        "  list_new(inbox: inbox, after: last_seen) -> batch", "  mystery(x: inbox) -> batch"
    )
    labels = hints(text)
    assert not any(line.endswith("-> batch") for line, _ in labels)
    assert not any(label == ": unknown" or "unknown" in label for _, label in labels)


def test_range_limits_the_hints() -> None:
    row = WORKFLOW.split("\n").index("step refine")
    rng = lsp.Range(lsp.Position(row, 0), lsp.Position(row + 4, 0))
    assert hints(WORKFLOW, rng) == [("loop draft", ": Draft"), ("polish(prior: draft) -> draft", ": Draft")]


def test_hint_position_in_every_encoding() -> None:
    line = '  write_section(tag: "☕🚀", title: "é") -> extra'
    text = WORKFLOW.replace(
        "  assemble(parts: parts) -> first_draft\n", f"  assemble(parts: parts) -> first_draft\n{line}\n"
    )
    line_no = text.split("\n").index(line)
    expected = {
        Encoding.UTF16: len(line.encode("utf-16-le")) // 2,
        Encoding.UTF8: len(line.encode("utf-8")),
        Encoding.UTF32: len(line),
    }
    assert len(set(expected.values())) == 3
    for encoding, char in expected.items():
        snap = OpenDocument(text, None, None, None, encoding).snapshot
        hint = next(h for h in inlay_hints(snap) if h.position.line == line_no)
        assert hint.label == ": Section"
        assert hint.position.character == char


def test_broken_document_does_not_fail() -> None:
    text = WORKFLOW.replace("  assemble(parts: parts) -> first_draft", "  assemble(parts: ")
    assert isinstance(inlay_hints(snap_of(text)), list)
