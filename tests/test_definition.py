"""Go to definition, references, rename and document symbols."""

from __future__ import annotations

from helpers import example, pos, snap_of

from awl_lsp.features.definition import definition, references, rename
from awl_lsp.features.symbols import document_symbols

URI = "file:///doc.awl"


def line_of(text: str, location) -> str:  # noqa: ANN001
    return text.splitlines()[location.range.start.line]


def test_definitions_across_kinds() -> None:
    text = example("release_notes.awl")
    snap = snap_of(text)
    cases = {
        ("route review", 7): "step review",
        ("publish(draft: draft", 1): "action publish",
        ("wait approval", 6): "signal approval",
        ("type: Published", 7): None,
        ("route shelved(tag", 7): "outcome shelved",
        ("prior: draft", 8): "loop draft",
        ("title in sections", 10): "input sections",
        ("max max_rounds", 5): "input max_rounds",
        ("tag: tag, title", 6): "input tag",
        ("parts: [Section]", 8): "type Section",
    }
    for (needle, offset), expected in cases.items():
        if needle not in text:
            continue
        loc = definition(snap, pos(text, needle, offset), URI)
        if expected is None:
            continue
        assert loc is not None, needle
        assert expected in line_of(text, loc), (needle, line_of(text, loc))


def test_references_and_rename_of_a_step() -> None:
    text = example("release_notes.awl")
    snap = snap_of(text)
    refs = references(snap, pos(text, "step review", 6), URI, include_declaration=True)
    assert len(refs) == 2
    edit = rename(snap, pos(text, "step review", 6), URI, "sign_off")
    assert len(edit.changes[URI]) == 2 and all(e.new_text == "sign_off" for e in edit.changes[URI])


def test_outline_is_hierarchical() -> None:
    text = example("release_notes.awl")
    symbols = document_symbols(snap_of(text))
    names = [s.name for s in symbols]
    assert names[0] == "release_notes"
    assert names.index("gather") < names.index("refine") < names.index("review") < names.index("ship")
    writer = next(s for s in symbols if s.name == "writer")
    assert [c.name for c in writer.children] == ["write_section", "assemble", "polish", "publish"]
    draft = next(s for s in symbols if s.name == "Draft")
    assert [c.name for c in draft.children] == ["body", "ready"]


def test_field_definition_through_inferred_types() -> None:
    text = example("inbox_sweep.awl")
    snap = snap_of(text)
    loc = definition(snap, pos(text, "batch.messages |> count", 8), URI)
    assert loc is not None and line_of(text, loc).startswith("type Batch")
    loc = definition(snap, pos(text, "message.sender", 9), URI)
    assert loc is not None and line_of(text, loc).startswith("type Message")


def test_route_start_leads_to_the_workloop_header() -> None:
    text = example("inbox_sweep.awl")
    snap = snap_of(text)
    for needle in ("route start\n", "route start(last_seen", "confirms start"):
        at = pos(text, needle, needle.index("start") + 1)
        loc = definition(snap, at, URI)
        assert loc is not None, needle
        assert line_of(text, loc) == "workloop inbox_sweep"


def test_prepare_rename_refuses_keywords_and_builtins() -> None:
    from lsprotocol import types as lsp

    from awl_lsp.features.definition import prepare_rename

    text = example("inbox_sweep.awl")
    snap = snap_of(text)
    for needle, offset in (("step fetch", 1), ("route start", 7), ("every 10m", 1), (": String", 3)):
        assert prepare_rename(snap, pos(text, needle, offset)) is None, needle
    ok = prepare_rename(snap, pos(text, "route hand_off", 8))
    assert isinstance(ok, lsp.PrepareRenamePlaceholder) and ok.placeholder == "hand_off"
    row = text.splitlines().index("  outcome busy: else, route hand_off")
    assert ok.range.start == lsp.Position(row, len("  outcome busy: else, route "))


def test_rename_refuses_invalid_names_and_collisions() -> None:
    import pytest

    text = example("inbox_sweep.awl")
    snap = snap_of(text)
    at = pos(text, "route hand_off", 8)
    for bad, why in (
        ("Hand", "snake_case"),
        ("hand off", "snake_case"),
        ("2x", "snake_case"),
        ("route", "keyword"),
        ("fetch", "already declared"),
    ):
        with pytest.raises(ValueError, match=why):
            rename(snap, at, URI, bad)
    with pytest.raises(ValueError, match="TitleCase"):
        rename(snap, pos(text, "type Batch", 6), URI, "batch_t")
    assert rename(snap, at, URI, "dispatch") is not None


def test_outline_details_read_kind_then_type() -> None:
    text = example("inbox_sweep.awl")
    found: dict[str, str | None] = {}

    def walk(symbols) -> None:  # noqa: ANN001
        for s in symbols:
            found[s.name] = s.detail
            walk(s.children or [])

    walk(document_symbols(snap_of(text)))
    assert found["inbox"] == "input: String"
    assert found["nudge"] == "signal: Nudge"
    assert found["last_seen"] == "carry: String"
    assert found["status"] == "report: SweepStatus"
    assert found["draining"] == "invariant: SweepStatus"
    assert found["Batch"] == "type (record)"
    assert found["newest"] == "field: String"
    assert found["list_new"] == "action(inbox: String, after: String) -> Batch"
    assert found["triage_message"] == "detached workflow(message_id: String, sender: String)"
    assert found["fetch"] == "step"
    assert found["quiet"] == "step outcome"
