"""Go to type definition (`features.type_definition`) and where a JSON Schema defines a key path
(`model.schema_locations`): from a binding, parameter, input, field access, carry or report to the
declaration of its type — a `type` item, or the place in the schema a type was read from."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from helpers import snap_of
from lsprotocol import types as lsp

from awl_lsp.features.documents import analyse_text
from awl_lsp.features.type_definition import type_definition
from awl_lsp.model.schema_locations import json_key_offset, point_of

DATA = Path(__file__).parent / "data" / "navigation"
URI = "file:///doc.awl"


def pos(text: str, needle: str, offset: int = 0) -> lsp.Position:
    i = text.index(needle) + offset
    return lsp.Position(text.count("\n", 0, i), i - (text.rfind("\n", 0, i) + 1))


@pytest.fixture()
def pipeline(tmp_path: Path) -> tuple[Path, str]:
    root = tmp_path / "project"
    shutil.copytree(DATA, root)
    path = root.resolve() / "pipeline.awl"
    return path, path.read_text()


def where(loc: lsp.Location | None, text: str) -> tuple[str, str] | None:
    """(the file's name, the line the location starts on, from its column) of a location."""
    if loc is None:
        return None
    line = text.splitlines()[loc.range.start.line]
    return loc.uri.rsplit("/", 1)[1], line[loc.range.start.character :]


def test_bindings_fields_and_arguments_lead_to_their_record(pipeline: tuple[Path, str]) -> None:
    path, text = pipeline
    snap = analyse_text(text, path, path.parent)
    uri = path.as_uri()
    cases = {
        ("-> found", 4): "Sweep { items: [Item], count: Int }",  # a binding (inferred from the call)
        ("found.items -> items", 1): "Sweep { items: [Item], count: Int }",  # a read of it
        ("found.items -> items", 7): "Item { name: String }",  # a field access: [Item] is its element's
        ("-> items", 4): "Item { name: String }",  # a list binding: the element type
        ("route done(note", 7): "Report { note: String }",  # a route to an outcome: what it carries
        ("outcome broke: type", 9): "Report { note: String }",  # the outcome's declaration
        ("review(note: config", 2): "Report { note: String }",  # a child call: its result
        ("type Report", 5): "Report { note: String }",  # a type is its own
    }
    for (needle, offset), expected in cases.items():
        assert where(type_definition(snap, pos(text, needle, offset), uri), text) == (
            "pipeline.awl",
            expected,
        ), needle


def test_builtins_and_plain_text_have_no_type_definition(pipeline: tuple[Path, str]) -> None:
    path, text = pipeline
    snap = analyse_text(text, path, path.parent)
    for needle, offset in (("input dir", 7), ("fix(dir: dir)", 5), ("-> ok", 4), ("//! Sweep", 5)):
        assert type_definition(snap, pos(text, needle, offset), path.as_uri()) is None, needle


def test_a_schema_type_leads_into_its_json_file(pipeline: tuple[Path, str]) -> None:
    path, text = pipeline
    snap = analyse_text(text, path, path.parent)
    schema = (path.parent / "settings.json").read_text()
    # the imported type itself: the schema's root
    loc = type_definition(snap, pos(text, "-> config", 4), path.as_uri())
    assert loc is not None and loc.uri == (path.parent / "settings.json").as_uri()
    assert loc.range.start == lsp.Position(0, 0)
    # a nested object (`Settings.server`): its key in the file
    loc = type_definition(snap, pos(text, "config.server.host", 8), path.as_uri())
    assert where(loc, schema) == ("settings.json", '"server": {')


def test_a_defs_entry_behind_a_ref_leads_to_its_definition(tmp_path: Path) -> None:
    (tmp_path / "s.json").write_text((DATA / "settings.json").read_text())
    text = (
        "//! x\nworkflow w\n  input s: S\n  outcome done: type Bool, route success\n\n"
        'type S = schema("s.json")\n\nstep one\n  s.labels -> labels\n  true |> route done\n'
    )
    path = tmp_path / "w.awl"
    snap = analyse_text(text, path, tmp_path)
    loc = type_definition(snap, pos(text, "-> labels", 4), path.as_uri())
    assert where(loc, (tmp_path / "s.json").read_text()) == (
        "s.json",
        '"Label": { "type": "object", "properties": { "text": { "type": "string" } } }',
    )
    # the input typed with the schema: its root
    loc = type_definition(snap, pos(text, "input s", 6), path.as_uri())
    assert loc is not None and loc.uri.endswith("s.json") and loc.range.start == lsp.Position(0, 0)


def test_a_missing_schema_file_leads_to_the_declaration_here(tmp_path: Path) -> None:
    text = (
        "//! x\nworkflow w\n  input s: S\n  outcome done: type Bool, route success\n\n"
        'type S = schema("gone.json")\n\nstep one\n  true |> route done\n'
    )
    snap = analyse_text(text, tmp_path / "w.awl", tmp_path)
    loc = type_definition(snap, pos(text, "input s", 6), URI)
    assert loc is not None and loc.uri == URI and loc.range.start == pos(text, "S = schema")


def test_an_inline_schema_leads_to_its_place_in_the_document() -> None:
    text = (
        "//! x\nworkflow w\n  input s: S\n  outcome done: type Bool, route success\n\n"
        'type S = schema { "type": "object", "required": ["inner"],\n'
        '  "properties": { "inner": { "type": "object",\n'
        '    "properties": { "n": { "type": "integer" } } } } }\n\n'
        "step one\n  s.inner -> inner\n  true |> route done\n"
    )
    snap = snap_of(text)
    loc = type_definition(snap, pos(text, "-> inner", 4), URI)
    assert loc is not None and loc.uri == URI and loc.range.start == pos(text, '"inner": {')


def test_carries_reports_parameters_and_signals_lead_to_their_types() -> None:
    text = (
        '//! x\nworkloop w\n  every 5m\n  signal poke: Note\n  carry last: Note = Note(text: "")\n'
        "  report seen: type Note\n\ntype Note { text: String }\n\n"
        "worker k\n  action keep(n: Note) -> Bool\n\n"
        "step one\n  keep(n: last) -> ok\n  answer seen(text: last.text)\n  route start\n\n"
        "retire\n  keep(n: last)\n"
    )
    snap = snap_of(text)
    note = pos(text, "Note { text")
    for needle, offset in (
        ("carry last", 6),
        ("report seen", 7),
        ("signal poke", 7),
        ("keep(n: last)", 5),
        ("(n: Note)", 1),
        ("answer seen", 7),
    ):
        loc = type_definition(snap, pos(text, needle, offset), URI)
        assert loc is not None and loc.range.start == note, needle


def test_json_key_offsets_follow_the_keys_and_the_last_duplicate_counts() -> None:
    text = json.dumps({"a": 1, "b": [1, {"c": 2}], "d": {"e": {"f": True}}}, indent=2)
    for keys, found in (((), "{"), (("b",), '"b"'), (("d", "e", "f"), '"f"')):
        at = json_key_offset(text, keys)
        assert at is not None and text[at:].startswith(found)
    assert json_key_offset(text, ("d", "nope")) is None
    assert json_key_offset(text, ("a", "x")) is None  # a number has no keys
    twice = '{"k": 1, "k": {"x": 2}}'
    assert json_key_offset(twice, ("k", "x")) == twice.index('"x"')
    assert json_key_offset('{"k\\"q": {"z": 0}}', ('k"q', "z")) is not None  # escaped keys
    assert json_key_offset("", ()) is None
    assert point_of('{\n  "é": {"x": 1}}', 11) == (1, 10)  # (a byte column: é is two bytes)
