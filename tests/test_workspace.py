"""The workspace as one program: a folder of documents indexed safely, contracts between a
`detached`/`child` declaration and the workflow it names, navigation and symbols across documents."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from lsprotocol import types as lsp

from awl_lsp.features import workspace_nav as nav
from awl_lsp.features.documents import analyse_text
from awl_lsp.syntax import Encoding
from awl_lsp.workspace import WorkspaceIndex, contract_problems

DATA = Path(__file__).parent / "data" / "workspace"


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(DATA, root)
    return root


def indexed(root: Path) -> WorkspaceIndex:
    index = WorkspaceIndex([root])
    index.scan()
    return index


def problems(index: WorkspaceIndex, path: Path) -> list[tuple[str, int, str]]:
    entry = index.entry(path)
    assert entry is not None
    return [
        (p.problem.code, p.problem.range[0] + 1, p.problem.message)
        for p in contract_problems(path, entry.summary, index)
    ]


def test_scan_finds_every_document_and_only_them(folder: Path) -> None:
    (folder / "notes.txt").write_text("not awl")
    (folder / ".hidden").mkdir()
    (folder / ".hidden" / "x.awl").write_text("workflow hidden\n")
    index = indexed(folder)
    names = sorted(e.summary.flow_name or "" for e in index.entries.values())
    assert names == ["archive_object", "bucket_watch", "checksum"]


def test_a_consistent_workspace_has_no_contract_problems(folder: Path) -> None:
    index = indexed(folder)
    for path in folder.rglob("*.awl"):
        assert problems(index, path) == []


def test_detached_parameter_type_must_match_the_workflow_input(folder: Path) -> None:
    flow = folder / "flows" / "archive_object.awl"
    flow.write_text(flow.read_text().replace("input size: Int", "input size: String"))
    index = indexed(folder)
    found = problems(index, folder / "bucket_watch.awl")
    assert [(c, line) for c, line, _ in found] == [("contract-input-type", 13)]
    assert "`size` is `Int` here, but workflow `archive_object` takes `input size: String`" in found[0][2]


def test_unknown_and_missing_inputs(folder: Path) -> None:
    watch = folder / "bucket_watch.awl"
    watch.write_text(
        watch.read_text().replace(
            "detached archive_object(key: String, size: Int)", "detached archive_object(kee: String)"
        )
    )
    found = problems(indexed(folder), watch)
    assert [c for c, _, _ in found] == ["contract-unknown-input", "contract-missing-input"]
    assert "did you mean `key`?" in found[0][2]
    # the optional `note: String?` is not demanded
    assert "`key: String`, `size: Int`" in found[1][2] and "note" not in found[1][2]


def test_child_result_must_be_what_the_workflow_succeeds_with(folder: Path) -> None:
    flow = folder / "flows" / "archive_object.awl"
    flow.write_text(
        flow.read_text().replace(
            "child checksum(data: String) -> Sum", "child checksum(data: String) -> Receipt"
        )
    )
    found = problems(indexed(folder), flow)
    assert [c for c, _, _ in found] == ["contract-result-type"]
    assert "succeeds with `outcome done: type Sum`" in found[0][2]


def test_records_match_by_their_fields_not_their_document(folder: Path) -> None:
    other = folder / "flows" / "checksum.awl"
    other.write_text(other.read_text().replace("type Sum { value: String }", "type Sum { value: Int }"))
    found = problems(indexed(folder), folder / "flows" / "archive_object.awl")
    assert [c for c, _, _ in found] == ["contract-result-type"]


def test_two_workflows_of_one_name_are_no_problem_by_themselves(folder: Path) -> None:
    """A copy of a workflow (`flow copy.awl`, an example kept in two folders) is not an error: the
    engine binds a name when deploying, the folder layout does not."""
    (folder / "checksum copy.awl").write_text((folder / "flows" / "checksum.awl").read_text())
    (folder / "old").mkdir()
    old = (folder / "flows" / "checksum.awl").read_text().replace("input data: String", "input bytes: Int")
    (folder / "old" / "checksum.awl").write_text(old)  # another version, of another shape
    index = indexed(folder)
    for path in folder.rglob("*.awl"):
        assert problems(index, path) == [], path


def test_a_contract_with_no_workflow_is_a_hint(folder: Path) -> None:
    (folder / "flows" / "archive_object.awl").unlink()
    index = indexed(folder)
    entry = index.entry(folder / "bucket_watch.awl")
    found = contract_problems(folder / "bucket_watch.awl", entry.summary, index)
    assert [p.problem.code for p in found] == ["contract-unresolved"]
    assert found[0].problem.severity == 4  # a hint: it may be deployed from elsewhere


def test_open_text_counts_before_it_is_saved(folder: Path) -> None:
    index = indexed(folder)
    flow = folder / "flows" / "archive_object.awl"
    text = flow.read_text().replace("input size: Int", "input size: Float")
    index.update_open(flow, text, analyse_text(text).model)
    assert [c for c, _, _ in problems(index, folder / "bucket_watch.awl")] == ["contract-input-type"]
    index.close(flow)  # closing without saving: the file on disk counts again
    assert problems(index, folder / "bucket_watch.awl") == []


def test_nothing_outside_the_workspace_is_read(folder: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    canary = "workflow canary_secret\n  outcome done: type String, route success\n"
    (outside / "secret.awl").write_text(canary)
    os.symlink(outside / "secret.awl", folder / "link.awl")
    os.symlink(outside, folder / "linked_dir")
    index = indexed(folder)
    assert not index.flows_named("canary_secret")
    assert all("canary_secret" not in e.text for e in index.entries.values())


def test_large_and_binary_files_are_skipped_with_a_reason(folder: Path) -> None:
    (folder / "big.awl").write_text("// x\n" * 600_000)
    (folder / "bin.awl").write_bytes(b"workflow w\0\n")
    index = indexed(folder)
    assert "larger than" in index.skipped[(folder / "big.awl").resolve()]
    assert "binary" in index.skipped[(folder / "bin.awl").resolve()]


def pos(text: str, needle: str, offset: int = 0) -> lsp.Position:
    i = text.index(needle) + offset
    return lsp.Position(text.count("\n", 0, i), i - (text.rfind("\n", 0, i) + 1))


def test_definition_from_a_hatch_and_a_declaration_reaches_the_workflow(folder: Path) -> None:
    index = indexed(folder)
    watch = folder / "bucket_watch.awl"
    text = watch.read_text()
    snap = analyse_text(text, watch)
    for needle in ("hatch archive_object", "detached archive_object"):
        at = pos(text, needle, len(needle) - 3)
        locs = nav.workflow_definitions(snap, at, watch.as_uri(), index, Encoding.UTF16)
        target = folder / "flows" / "archive_object.awl"
        assert [(loc.uri, loc.range.start.line) for loc in locs] == [(target.resolve().as_uri(), 1)]


def test_references_and_rename_of_a_workflow_cross_documents(folder: Path) -> None:
    index = indexed(folder)
    flow = folder / "flows" / "archive_object.awl"
    text = flow.read_text()
    snap = analyse_text(text, flow)
    at = pos(text, "workflow archive_object", 10)
    refs = nav.workflow_references(snap, at, flow.resolve().as_uri(), index, Encoding.UTF16, True)
    watch_uri = (folder / "bucket_watch.awl").resolve().as_uri()
    assert sorted((r.uri == watch_uri, r.range.start.line) for r in refs) == [(True, 12), (True, 17)]
    uri = flow.resolve().as_uri()
    edits = nav.workflow_rename_edits(snap, at, uri, index, Encoding.UTF16, "stash_object")
    assert sorted(e.range.start.line for e in edits[watch_uri]) == [12, 17]


def test_workspace_symbols_are_fuzzy_and_reach_unopened_documents(folder: Path) -> None:
    index = indexed(folder)
    found = nav.indexed_symbols(index, "arcobj", Encoding.UTF16)
    assert found and found[0].name == "archive_object"
    assert {s.location.uri for s in found if s.name == "archive_object"} == {
        (folder / "bucket_watch.awl").resolve().as_uri(),
        (folder / "flows" / "archive_object.awl").resolve().as_uri(),
    }
    assert nav.fuzzy_score("sum", "checksum") is not None and nav.fuzzy_score("xyz", "checksum") is None


def test_awl_check_applies_the_contracts_across_a_folder(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from awl_lsp.cli.main import main

    assert main(["check", str(folder)]) == 0
    flow = folder / "flows" / "archive_object.awl"
    flow.write_text(flow.read_text().replace("input size: Int", "input size: String"))
    capsys.readouterr()
    assert main(["check", "-q", str(folder)]) == 1
    out = capsys.readouterr().out
    assert "bucket_watch.awl:13:38: error: `size` is `Int` here, but workflow `archive_object`" in out


def test_moving_lines_is_not_a_change_others_depend_on(folder: Path) -> None:
    index = indexed(folder)
    watch = folder / "bucket_watch.awl"
    text = watch.read_text()
    before = index.generation
    moved = text.replace("\nstep scan", "\n\n\nstep scan")  # Enter above a step: positions move
    index.update_open(watch, moved, analyse_text(moved).model)
    assert index.generation == before
    retyped = moved.replace("size: Int)", "size: Float)")  # the contract itself changed
    index.update_open(watch, retyped, analyse_text(retyped).model)
    assert index.generation == before + 1
