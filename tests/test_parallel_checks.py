"""A long document's first check on two processes (`awl_lsp.checks.parallel`) finds what one process
finds: the same problems, and the same memory of every item for the edits that follow.

The split is forced onto every document of ours and of the corpus (the thresholds lowered), and
tried at its real thresholds on the bench's document shapes, then edited; it is also made to go
wrong on the child's side — a child that fails, leaves before sending anything, or hangs — where
the parent must check what the child did not deliver. Each comparison is with the same document
checked in one process. The machine's core count is not asked (the tests say two cores are ours),
so the split runs wherever `fork` does.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from awl_lsp.checks import item_check, parallel
from awl_lsp.features.diagnostics import findings
from awl_lsp.features.documents import OpenDocument
from awl_lsp.syntax import TextEdit

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from breaking import breaking_edits  # noqa: E402
from shapes import SHAPES  # noqa: E402

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform: one process")

DATA = Path(__file__).parent / "data"
PARENT = os.getpid()


class Splits:
    """How many first runs were split, and how many items children delivered."""

    def __init__(self) -> None:
        self.runs = 0
        self.delivered = 0


@pytest.fixture
def split(monkeypatch: pytest.MonkeyPatch) -> Iterator[Splits]:
    """Every first run is split, however short (and two cores are ours)."""
    seen = Splits()
    monkeypatch.setattr(parallel, "_cores", lambda: 2)
    monkeypatch.setattr(parallel, "MIN_LINES", 0)
    monkeypatch.setattr(parallel, "MIN_ITEMS", 2)
    results = parallel.Meeting.results

    def counted(self: parallel.Meeting, timeout: float | None = None) -> dict:
        got = results(self, timeout)
        seen.runs += 1
        seen.delivered += len(got)
        return got

    monkeypatch.setattr(parallel.Meeting, "results", counted)
    yield seen
    parallel.enable(False)


def memory_of(doc: OpenDocument) -> list[tuple]:
    """What the check cache keeps of each item for the next run."""
    return [
        (e.key, e.problems, e.deps, e.row_numbers, e.exports, e.volatile, e.kind, e.gap, e.span)
        for e in doc.checks._entries
    ]


def checked(text: str, apart: bool, path: Path | None = None) -> tuple[OpenDocument, list]:
    parallel.enable(apart)
    doc = OpenDocument(text, 1, path, path.parent if path is not None else None)
    try:
        return doc, findings(doc.snapshot)
    finally:
        parallel.enable(False)


def assert_same(text: str, what: str, path: Path | None = None) -> None:
    one_doc, one = checked(text, False, path)
    two_doc, two = checked(text, True, path)
    assert two == one, what
    assert memory_of(two_doc) == memory_of(one_doc), what


def documents() -> list[Path]:
    found = sorted(DATA.rglob("*.awl"))
    corpus = os.environ.get("AWL_CORPUS")
    if corpus and Path(corpus).is_dir():
        found += sorted(Path(corpus).rglob("*.awl"))
    return found


def test_every_document_split_finds_what_one_process_finds(split: Splits) -> None:
    paths = documents()
    assert len(paths) > 300
    for path in paths:
        text = path.read_text(encoding="utf-8", errors="replace")
        assert_same(text, str(path), path.resolve())  # (its own path: `schema("…")` files are read)
    assert split.runs > 200 and split.delivered > 1000  # the children did check items


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_each_shape_at_the_real_thresholds_and_edited_after(
    shape: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(parallel, "_cores", lambda: 2)
    text = SHAPES[shape](parallel.MIN_LINES + 200)
    delivered: list[dict] = []
    results = parallel.Meeting.results

    def counted(self: parallel.Meeting, timeout: float | None = None) -> dict:
        delivered.append(results(self, timeout))
        return delivered[-1]

    monkeypatch.setattr(parallel.Meeting, "results", counted)
    one_doc, one = checked(text, False)
    two_doc, two = checked(text, True)
    assert delivered and delivered[0], "the first run was split and the child delivered"
    assert two == one
    assert memory_of(two_doc) == memory_of(one_doc)
    # the edits after a split first run: the same as after a first run in one process, and as fresh
    for n, edit in enumerate(_edits(text)):
        for doc in (one_doc, two_doc):
            doc.edit([TextEdit(*edit)], n + 2)
        a, b = findings(one_doc.snapshot), findings(two_doc.snapshot)
        assert b == a, edit
        assert b == findings(OpenDocument(two_doc.syntax.text, 1, None, None).snapshot), edit


def _edits(text: str) -> list[tuple[int, int, int, int, str]]:
    """The bench's syntax-breaking keystrokes and their undoing where the shape has a call line to
    type in; a line added at the top and taken away again in any case."""
    try:
        pairs = list(breaking_edits(text).values())
    except (StopIteration, ValueError, AttributeError, TypeError):
        pairs = []
    edits = [e for pair in pairs for e in pair]
    return [*edits, (0, 0, 0, 0, "// a note\n"), (0, 0, 1, 0, "")]


def _text() -> str:
    return SHAPES["rebound"](600)  # (a document with problems in every step)


def _failing_child(monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    findings_of = item_check.ItemRun.findings

    def in_child(self: item_check.ItemRun, *args: object) -> object:
        if os.getpid() != PARENT:
            if how == "raises":
                raise RuntimeError("a rule failed in the child")
            if how == "leaves":
                os._exit(0)
            time.sleep(30)  # hangs
        return findings_of(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(item_check.ItemRun, "findings", in_child)


@pytest.mark.parametrize("how", ["raises", "leaves", "hangs"])
def test_a_child_that_does_not_deliver_costs_nothing_but_time(
    how: str, split: Splits, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = _text()
    one_doc, one = checked(text, False)
    _failing_child(monkeypatch, how)
    monkeypatch.setattr(parallel, "TIMEOUT", 0.3)
    t0 = time.monotonic()
    two_doc, two = checked(text, True)
    assert time.monotonic() - t0 < 10
    assert split.runs == 1 and split.delivered == 0
    assert two == one
    assert memory_of(two_doc) == memory_of(one_doc)
    # and the child is gone: reaped, not left a zombie (killed when it hung)
    deadline = time.monotonic() + 5
    while parallel._unreaped and time.monotonic() < deadline:
        time.sleep(0.01)
    assert parallel._unreaped == set()


def test_without_fork_or_a_second_core_one_process_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "_cores", lambda: 1)
    parallel.enable(True)
    assert not parallel.enabled()
    monkeypatch.setattr(parallel, "_cores", lambda: 2)
    parallel.enable(True)
    assert parallel.enabled()
    parallel.enable(False)
    assert parallel.meet(lambda i: i, [1, 2, 3]) is None


def test_a_parent_that_fails_stops_its_child(split: Splits, monkeypatch: pytest.MonkeyPatch) -> None:
    entry = item_check.ItemRun.entry

    def failing(self: item_check.ItemRun, index: int, found: dict) -> object:
        if os.getpid() == PARENT and index == 3:  # (the fourth item's entry)
            raise RuntimeError("an entry failed")
        return entry(self, index, found)

    monkeypatch.setattr(item_check.ItemRun, "entry", failing)
    parallel.enable(True)
    with pytest.raises(RuntimeError, match="an entry failed"):
        findings(OpenDocument(_text(), 1, None, None).snapshot)
    deadline = time.monotonic() + 5
    while parallel._unreaped and time.monotonic() < deadline:
        time.sleep(0.01)
    assert parallel._unreaped == set()


def test_awl_check_on_one_long_file_prints_what_one_process_prints(tmp_path: Path) -> None:
    """`awl check FILE` checks a long file's items on two cores unless `--jobs 1`: the same output."""
    import subprocess

    path = tmp_path / "long.awl"
    path.write_text(SHAPES["rebound"](2000))

    def check(*jobs: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "awl_lsp", "check", "--format", "json", *jobs, str(path)],
            capture_output=True,
            text=True,
            timeout=120,
        )

    one, two = check("--jobs", "1"), check()
    assert one.returncode == two.returncode == 1, one.stderr[-2000:]
    assert two.stdout == one.stdout and one.stdout.count('"code"') > 100


def test_every_problem_of_every_document_crosses_to_another_process() -> None:
    """What a child sends back is pickled: a rule whose problem's `data` could not be would make
    every split check its items twice (the parent redoing what the child could not send)."""
    import pickle

    for path in documents():
        doc = OpenDocument(path.read_text(encoding="utf-8", errors="replace"), 1, None, None)
        findings(doc.snapshot)
        for e in doc.checks._entries:
            sent = (e.problems, set(e.deps), e.row_numbers, e.exports)
            assert pickle.loads(pickle.dumps(sent, pickle.HIGHEST_PROTOCOL)) == sent, path


def test_two_threads_splitting_at_once_find_what_one_process_finds(split: Splits) -> None:
    """The server may split two first checks at once (a worker thread's, and a fix trial's replica on
    the event loop): each child closes every file but its own pipe's end, so neither parent waits on
    the other's child, and both find what one process finds."""
    import threading

    texts = [SHAPES["rebound"](900), SHAPES["dense"](900), SHAPES["subflows"](900)]
    expected = [checked(t, False)[1] for t in texts]
    parallel.enable(True)
    got: list[list | None] = [None] * len(texts)

    def check(n: int) -> None:
        got[n] = findings(OpenDocument(texts[n], 1, None, None).snapshot)

    t0 = time.monotonic()
    for _ in range(3):
        threads = [threading.Thread(target=check, args=(n,)) for n in range(len(texts))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert got == expected
    assert time.monotonic() - t0 < 30
    assert split.runs >= 9
