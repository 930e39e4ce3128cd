"""Call hierarchy over the flow (`features.call_hierarchy`, `features.call_hierarchy_workspace`):
which steps lead into a step, outcome, subflow or workflow, and where each leads — routes, outcome
arms, `on failure`, `after`, fall-through, `route start`, entries, and hatch/spawn/child calls into
the workflows they start in other documents of the workspace."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import snap_of
from lsprotocol import types as lsp

from awl_lsp.features import call_hierarchy as ch
from awl_lsp.features.call_hierarchy_workspace import (
    Workspace,
    crosses,
    incoming_calls,
    outgoing_calls,
    prepare,
    workflows_for,
)
from awl_lsp.features.documents import analyse_text
from awl_lsp.features.snapshot import Snapshot
from awl_lsp.syntax import Encoding
from awl_lsp.workspace import WorkspaceIndex

DATA = Path(__file__).parent / "data" / "navigation"


def pos(text: str, needle: str, offset: int = 0) -> lsp.Position:
    i = text.index(needle) + offset
    return lsp.Position(text.count("\n", 0, i), i - (text.rfind("\n", 0, i) + 1))


def word_at(text: str, r: lsp.Range) -> str:
    line = text.splitlines()[r.start.line]
    return line[r.start.character : r.end.character]


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(DATA, root)
    return root.resolve()


def open_in(folder: Path, name: str) -> tuple[str, str, Snapshot, Workspace]:
    index = WorkspaceIndex([folder])
    index.scan()
    path = folder / name
    text = path.read_text()
    ws = Workspace(index, Encoding.UTF16, lambda p: None)
    return path.as_uri(), text, analyse_text(text, path, folder), ws


def names_in(calls: list, text: str) -> list[tuple[str, list[str]]]:
    """(the other item's name, the words the call is written at) of each call."""
    out = []
    for c in calls:
        other = c.from_ if isinstance(c, lsp.CallHierarchyIncomingCall) else c.to
        out.append((other.name, [word_at(text, r) for r in c.from_ranges]))
    return out


def the_item(snap: Snapshot, uri: str, text: str, needle: str, offset: int = 0) -> lsp.CallHierarchyItem:
    found = prepare(snap, uri, pos(text, needle, offset), None)
    assert found is not None and len(found) == 1, found
    return found[0]


def test_a_step_is_entered_by_outcome_arms_after_and_routes(folder: Path) -> None:
    uri, text, snap, ws = open_in(folder, "pipeline.awl")
    check = the_item(snap, uri, text, "step check after", 6)
    assert (check.name, check.detail, check.kind) == ("check", "step", lsp.SymbolKind.Function)
    assert check.selection_range.start == pos(text, "check after")
    incoming = incoming_calls(snap, uri, check, ws)
    # `outcome few: otherwise, route check` in scan; `after mend` is written in check itself
    assert names_in(incoming, text) == [("scan", ["check"]), ("mend", ["mend"])]
    assert incoming[1].from_ranges[0].start == pos(text, "mend\n  review(")


def test_what_a_step_leads_to_failure_routes_and_arms_included(folder: Path) -> None:
    uri, text, snap, ws = open_in(folder, "pipeline.awl")
    scan = the_item(snap, uri, text, "step scan", 6)
    out = outgoing_calls(snap, uri, scan, ws)
    assert names_in(out, text) == [("broken", ["broken"]), ("mend", ["mend"]), ("check", ["check"])]
    assert out[0].from_ranges[0].start == pos(text, "route broken", 6)  # the word under `on failure`


def test_falling_through_to_the_next_step_is_a_call(folder: Path) -> None:
    uri, text, snap, ws = open_in(folder, "pipeline.awl")
    ship = the_item(snap, uri, text, "step ship", 6)
    # `check` does not route: it falls into `ship`, written nowhere but at check's name
    assert names_in(incoming_calls(snap, uri, ship, ws), text) == [("check", ["check"])]


def test_a_child_call_leads_into_the_workflow_in_another_document(folder: Path) -> None:
    uri, text, snap, ws = open_in(folder, "pipeline.awl")
    check = the_item(snap, uri, text, "step check after", 6)
    out = outgoing_calls(snap, uri, check, ws)
    review = next(c for c in out if c.to.name == "review")
    assert review.to.uri == (folder / "reviews" / "review.awl").as_uri()
    assert review.to.detail == "workflow" and review.to.kind == lsp.SymbolKind.Module
    assert [word_at(text, r) for r in review.from_ranges] == ["review"]
    assert review.from_ranges[0].start == pos(text, "review(note: config")
    # without the workspace, the call leads to the contract declared here
    alone = next(c for c in outgoing_calls(snap, uri, check, None) if c.to.name == "review")
    assert alone.to.uri == uri and alone.to.detail == "child workflow (declared here)"


def test_prepare_on_a_call_or_contract_gives_the_workflow_elsewhere(folder: Path) -> None:
    uri, text, snap, ws = open_in(folder, "pipeline.awl")
    review_uri = (folder / "reviews" / "review.awl").as_uri()
    for needle, offset in (("review(note: config", 2), ("child review", 7)):
        assert crosses(snap, position=pos(text, needle, offset))
        items = prepare(snap, uri, pos(text, needle, offset), ws)
        assert items is not None and [(i.name, i.uri) for i in items] == [("review", review_uri)]
    assert not crosses(snap, position=pos(text, "step broken", 6))


def test_a_workflows_incoming_calls_are_the_calls_and_hatches_in_other_documents(folder: Path) -> None:
    uri, text, snap, ws = open_in(folder, "reviews/review.awl")
    review = the_item(snap, uri, text, "workflow review", 10)
    incoming = incoming_calls(snap, uri, review, ws)
    found = sorted(
        (c.from_.uri.rsplit("/", 1)[1], c.from_.name, c.from_ranges[0].start.line) for c in incoming
    )
    pipeline = (folder / "pipeline.awl").read_text()
    watch = (folder / "watch.awl").read_text()
    assert found == [
        ("pipeline.awl", "check", pos(pipeline, "review(note: config").line),
        ("watch.awl", "poll", pos(watch, "hatch review", 6).line),
    ]
    hatch = next(c for c in incoming if c.from_.name == "poll")
    assert [word_at(watch, r) for r in hatch.from_ranges] == ["review"]
    # and the workflow leads to its first step
    assert names_in(outgoing_calls(snap, uri, review, ws), text) == [("read", ["review"])]


def test_a_workflow_started_nowhere_has_no_incoming_calls(folder: Path) -> None:
    uri, text, snap, ws = open_in(folder, "pipeline.awl")
    flow = the_item(snap, uri, text, "workflow pipeline", 10)
    assert incoming_calls(snap, uri, flow, ws) == []
    assert names_in(outgoing_calls(snap, uri, flow, ws), text) == [("scan", ["pipeline"])]


def test_a_workloop_is_entered_again_by_route_start(folder: Path) -> None:
    uri, text, snap, ws = open_in(folder, "watch.awl")
    start = the_item(snap, uri, text, "route start", 7)  # `start` is the workloop itself
    assert (start.name, start.detail) == ("watch", "workloop")
    assert names_in(incoming_calls(snap, uri, start, ws), text) == [("poll", ["start"])]
    assert names_in(outgoing_calls(snap, uri, start, ws), text) == [("poll", ["watch"])]
    poll = the_item(snap, uri, text, "step poll", 6)
    out = outgoing_calls(snap, uri, poll, ws)
    assert [(c.to.name, c.to.uri.rsplit("/", 1)[1]) for c in out] == [
        ("review", "review.awl"),
        ("watch", "watch.awl"),
    ]


def test_subflows_substeps_and_outcomes_are_items(folder: Path) -> None:
    uri, text, snap, ws = open_in(folder, "pipeline.awl")
    sub = the_item(snap, uri, text, "subflow mend_all", 9)
    assert sub.detail == "subflow"
    assert names_in(incoming_calls(snap, uri, sub, ws), text) == [("mend", ["mend_all"])]
    assert names_in(outgoing_calls(snap, uri, sub, ws), text) == [("try_fix", ["try_fix"])]
    inner = the_item(snap, uri, text, "step try_fix", 6)
    assert inner.detail == "step of subflow mend_all"
    mended = the_item(snap, uri, text, "route mended", 7)
    assert (mended.name, mended.detail) == ("mended", "outcome of subflow mend_all")
    assert names_in(incoming_calls(snap, uri, mended, ws), text) == [("try_fix", ["mended"])]
    attempt = the_item(snap, uri, text, "step attempt", 6)
    assert attempt.detail == "substep of ship"
    assert names_in(incoming_calls(snap, uri, attempt, ws), text) == [("ship", ["attempt"])]
    done = the_item(snap, uri, text, "outcome done", 9)
    assert done.detail == "outcome of the flow, route success"
    assert names_in(incoming_calls(snap, uri, done, ws), text) == [("ship", ["done"])]


def test_the_cursor_inside_a_step_body_names_the_step() -> None:
    text = (DATA / "pipeline.awl").read_text()
    snap = snap_of(text)
    assert ch.item_id_at(snap, pos(text, "fix(dir: dir)", 1)) == "try_fix"
    assert ch.item_id_at(snap, pos(text, "cleanup(dir: dir)", 2)) == "attempt"
    assert ch.item_id_at(snap, pos(text, "input dir", 3)) == ch.FLOW
    assert ch.item_id_at(snap, pos(text, "type Report {", 6)) is None  # no part of the flow


def test_an_item_from_an_older_version_is_found_again_by_its_name() -> None:
    text = (DATA / "pipeline.awl").read_text()
    old = snap_of(text)
    item = ch.item(old, "file:///p.awl", "broken")
    assert item is not None
    moved = snap_of("\n\n" + text)  # two lines above: the item's range is stale, its name is not
    assert ch.item_id_of(moved, item) == "broken"
    renamed = snap_of(text.replace("broken", "failed"))
    assert ch.item_id_of(renamed, item) is None


def test_the_workspace_lookup_is_the_index_s() -> None:
    index = WorkspaceIndex([DATA])
    index.scan()
    assert [e.path.name for e in workflows_for(index, "review", DATA / "pipeline.awl")] == ["review.awl"]
    assert workflows_for(index, "nobody", DATA / "pipeline.awl") == []


def test_copies_of_a_workflow_are_called_from_the_documents_that_bind_to_them(folder: Path) -> None:
    """A second `review` deeper in the tree, beside an older pipeline: each call leads to the
    nearest copy, and each copy's incoming calls are only the calls that bind to it."""
    old = folder / "archive" / "old"
    old.mkdir(parents=True)
    shutil.copy(folder / "reviews" / "review.awl", old / "review.awl")
    text = (folder / "pipeline.awl").read_text().replace("workflow pipeline", "workflow pipeline_v1")
    (old / "pipeline_v1.awl").write_text(text)
    uri, text, snap, ws = open_in(folder, "pipeline.awl")
    check = the_item(snap, uri, text, "step check after", 6)
    called = [c.to.uri for c in outgoing_calls(snap, uri, check, ws) if c.to.name == "review"]
    assert called == [(folder / "reviews" / "review.awl").as_uri()]
    for where, callers in (
        (folder / "reviews" / "review.awl", [("pipeline.awl", "check"), ("watch.awl", "poll")]),
        (old / "review.awl", [("pipeline_v1.awl", "check")]),
    ):
        review_text = where.read_text()
        review_snap = analyse_text(review_text, where, folder)
        review = the_item(review_snap, where.as_uri(), review_text, "workflow review", 10)
        incoming = incoming_calls(review_snap, where.as_uri(), review, ws)
        assert sorted((c.from_.uri.rsplit("/", 1)[1], c.from_.name) for c in incoming) == callers
