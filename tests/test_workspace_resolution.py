"""Which document a workflow name binds to (`WorkspaceIndex.resolve_flow`), and every consumer
following it: contracts (what they were checked against, warnings where the binding is uncertain),
definition, references and rename (a copy elsewhere is another workflow)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from lsprotocol import types as lsp
from repo_layout import program

from awl_lsp.checks import Severity
from awl_lsp.features import workspace_nav as nav
from awl_lsp.features.documents import analyse_text
from awl_lsp.syntax import Encoding
from awl_lsp.workspace import WorkspaceIndex, contract_problems
from awl_lsp.workspace.resolution import distance

V1, V2 = program(1), program(2)
FLOW, CHILD = V1["flows/archive_object.awl"], V1["flows/checksum.awl"]


def make(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root.resolve()


def indexed(root: Path, order: list[str] | None = None) -> WorkspaceIndex:
    index = WorkspaceIndex([root])
    if order is None:
        index.scan()
    for rel in order or []:
        index.load(root / rel)
    return index


def found(index: WorkspaceIndex, path: Path) -> list[tuple[str, Severity, str]]:
    entry = index.entry(path)
    assert entry is not None
    return [
        (p.problem.code, p.problem.severity, p.problem.message)
        for p in contract_problems(path, entry.summary, index)
    ]


def pos(text: str, needle: str, offset: int = 0) -> lsp.Position:
    i = text.index(needle) + offset
    return lsp.Position(text.count("\n", 0, i), i - (text.rfind("\n", 0, i) + 1))


def test_nearness_counts_folders_up_then_down() -> None:
    here = Path("/r/a/b")
    assert distance(here, Path("/r/a/b")) == (0, 0)  # the same folder
    assert distance(here, Path("/r/a/b/c/d")) == (0, 2)  # below it
    assert distance(here, Path("/r/a")) == (1, 0)  # its parent
    assert distance(here, Path("/r/a/x")) == (1, 1)  # a sibling
    assert distance(here, Path("/r/y/z")) == (2, 2)  # a cousin


def test_the_same_folder_wins_whatever_the_order_documents_were_read_in(tmp_path: Path) -> None:
    files = {
        "a/archive_object.awl": FLOW,
        "a/checksum.awl": CHILD,
        "a/sub/checksum.awl": V2["flows/checksum.awl"],
        "checksum.awl": V2["flows/checksum.awl"],
        "b/checksum.awl": V2["flows/checksum.awl"],
    }
    root = make(tmp_path, files)
    caller = root / "a" / "archive_object.awl"
    seen = set()
    for order in itertools.permutations(files):
        index = indexed(root, list(order))
        res = index.resolve_flow("checksum", caller)
        ranked = [c.entry.path.relative_to(root).as_posix() for c in res.candidates]
        seen.add(tuple(ranked))
        assert found(index, caller) == []
    assert seen == {("a/checksum.awl", "a/sub/checksum.awl", "checksum.awl", "b/checksum.awl")}


def test_a_workflow_naming_itself_binds_to_itself_before_a_copy_beside_it(tmp_path: Path) -> None:
    root = make(tmp_path, {"checksum.awl": CHILD, "checksum copy.awl": CHILD})
    res = indexed(root).resolve_flow("checksum", root / "checksum.awl")
    assert [e.path.name for e in res.tied] == ["checksum.awl"]


def test_a_mismatch_beside_the_contract_is_an_error_naming_the_document_and_the_others(
    tmp_path: Path,
) -> None:
    salted = CHILD.replace("input data: String", "input data: String\n  input salt: String")
    root = make(tmp_path, {"p/archive_object.awl": FLOW, "p/checksum.awl": salted, "checksum.awl": CHILD})
    index = indexed(root)
    caller = root / "p" / "archive_object.awl"
    [(code, severity, message)] = found(index, caller)
    assert (code, severity) == ("contract-missing-input", Severity.ERROR)
    assert "checked against `p/checksum.awl`, the nearest of the 2 documents declaring `checksum`" in message
    entry = index.entry(caller)
    assert entry is not None
    [problem] = contract_problems(caller, entry.summary, index)
    related = [(p.relative_to(root).as_posix(), why) for p, _, why in problem.related]
    assert ("checksum.awl", "also declares `checksum`, farther from this document") in related
    assert any(p == "p/checksum.awl" for p, _ in related)


def test_found_only_outside_the_folder_a_mismatch_is_a_warning(tmp_path: Path) -> None:
    root = make(
        tmp_path, {"apps/main/archive_object.awl": FLOW, "lib/checksum.awl": V2["flows/checksum.awl"]}
    )
    got = found(indexed(root), root / "apps" / "main" / "archive_object.awl")
    assert {(c, s) for c, s, _ in got} == {
        ("contract-unknown-input", Severity.WARNING),
        ("contract-missing-input", Severity.WARNING),
    }
    assert all(
        "checked against `lib/checksum.awl`" in m and "outside this document's folder" in m for *_, m in got
    )


def test_equally_near_copies_that_disagree_are_one_warning(tmp_path: Path) -> None:
    other = V2["flows/checksum.awl"]
    root = make(
        tmp_path, {"t/archive_object.awl": FLOW, "t/a/checksum.awl": CHILD, "t/b/checksum.awl": other}
    )
    [(code, severity, message)] = found(indexed(root), root / "t" / "archive_object.awl")
    assert (code, severity) == ("contract-ambiguous", Severity.WARNING)
    assert "2 equally near workflows `checksum`" in message and "it fits `t/a/checksum.awl` only" in message
    # copies that agree are no ambiguity
    (root / "t" / "b" / "checksum.awl").write_text(CHILD)
    assert found(indexed(root), root / "t" / "archive_object.awl") == []


def test_a_copy_and_its_original_are_both_clean(tmp_path: Path) -> None:
    files = {f"{where}/{name}": text for where in ("examples", "docs/examples") for name, text in V1.items()}
    root = make(tmp_path, {**files, "examples/flows/checksum copy.awl": CHILD})
    index = indexed(root)
    for path in root.rglob("*.awl"):
        assert found(index, path) == [], path


@pytest.fixture()
def copies(tmp_path: Path) -> Path:
    """Our program, and a copy of it two folders further down (its own callers beside it)."""
    files = dict(V1)
    files.update({f"other/deep/{name}": text for name, text in V1.items()})
    return make(tmp_path, files)


def test_definition_goes_to_the_workflow_the_name_binds_to(copies: Path) -> None:
    index = indexed(copies)
    for caller, target in [
        ("bucket_watch.awl", "flows/archive_object.awl"),
        ("other/deep/bucket_watch.awl", "other/deep/flows/archive_object.awl"),
    ]:
        text = (copies / caller).read_text()
        snap = analyse_text(text, copies / caller)
        at = pos(text, "hatch archive_object", 8)
        locs = nav.workflow_definitions(snap, at, (copies / caller).as_uri(), index, Encoding.UTF16)
        assert [loc.uri for loc in locs] == [(copies / target).as_uri()]


def test_references_and_rename_leave_another_copy_and_its_callers_alone(copies: Path) -> None:
    index = indexed(copies)
    flow = copies / "flows" / "archive_object.awl"
    text = flow.read_text()
    snap = analyse_text(text, flow)
    at = pos(text, "workflow archive_object", 10)
    refs = nav.workflow_references(snap, at, flow.as_uri(), index, Encoding.UTF16, True)
    assert {r.uri for r in refs} == {(copies / "bucket_watch.awl").as_uri()}
    edits = nav.workflow_rename_edits(snap, at, flow.as_uri(), index, Encoding.UTF16, "stash_object")
    assert set(edits) == {(copies / "bucket_watch.awl").as_uri()}
    # from the copy's caller: the copy, not the original
    watch = copies / "other" / "deep" / "bucket_watch.awl"
    text = watch.read_text()
    snap = analyse_text(text, watch)
    at = pos(text, "hatch archive_object", 8)
    edits = nav.workflow_rename_edits(snap, at, watch.as_uri(), index, Encoding.UTF16, "stash_object")
    assert set(edits) == {(copies / "other" / "deep" / "flows" / "archive_object.awl").as_uri()}
    refs = nav.workflow_references(snap, at, watch.as_uri(), index, Encoding.UTF16, True)
    assert {r.uri for r in refs} == {(copies / "other" / "deep" / "flows" / "archive_object.awl").as_uri()}


def test_callers_of_a_workflow_are_the_contracts_binding_to_it(copies: Path) -> None:
    index = indexed(copies)
    callers = index.callers_of("archive_object", copies / "other" / "deep" / "flows" / "archive_object.awl")
    assert [e.path for e in callers] == [copies / "other" / "deep" / "bucket_watch.awl"]
