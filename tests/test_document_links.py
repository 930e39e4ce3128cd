"""Document links (`features.document_links`): the path of each `schema("…")` import links to the JSON
file it names, resolved from the document's folder — and only when that file is there to open."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types as lsp

from awl_lsp.features.document_links import document_links
from awl_lsp.features.documents import analyse_text

HEAD = "//! x\nworkflow w\n  input s: S\n  outcome done: type Bool, route success\n\n"
TAIL = "\nstep one\n  true |> route done\n"


def links(folder: Path, types: str, roots: list[Path] | None = None) -> list[lsp.DocumentLink]:
    path = folder / "flows" / "w.awl"
    path.parent.mkdir(exist_ok=True)
    text = HEAD + types + TAIL
    path.write_text(text)
    return document_links(analyse_text(text, path, folder), roots if roots is not None else [folder])


def test_a_schema_path_links_to_its_file_relative_to_the_document(tmp_path: Path) -> None:
    (tmp_path / "schemas").mkdir()
    (tmp_path / "schemas" / "s.json").write_text('{"type": "object"}')
    (tmp_path / "flows").mkdir()
    (tmp_path / "flows" / "t.json").write_text('{"type": "object"}')
    found = links(tmp_path, 'type S = schema("../schemas/s.json")\ntype T = schema("t.json")\n')
    assert [link.target for link in found] == [
        (tmp_path / "schemas" / "s.json").resolve().as_uri(),
        (tmp_path / "flows" / "t.json").resolve().as_uri(),
    ]
    line = HEAD.count("\n")
    start = len('type S = schema("')
    assert found[0].range == lsp.Range(
        lsp.Position(line, start), lsp.Position(line, start + len("../schemas/s.json"))
    )  # between the quotes
    assert found[0].tooltip == "Open ../schemas/s.json"


def test_no_link_to_a_missing_file_a_folder_or_a_file_outside_the_workspace(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    (tmp_path / "outside.json").write_text("{}")
    (root / "flows").mkdir()
    (root / "flows" / "dir.json").mkdir()
    types = (
        'type S = schema("gone.json")\ntype T = schema("../../outside.json")\ntype U = schema("dir.json")\n'
    )
    assert links(root, types) == []


def test_inline_schemas_and_records_have_no_links(tmp_path: Path) -> None:
    types = 'type S = schema { "type": "object" }\ntype R { a: Int }\n'
    assert links(tmp_path, types) == []
