"""`awl check` and `awl fmt` on every core print what one process prints, byte for byte — text and
JSON, the cross-document contract problems included (they need every document's summary) — and
`--fix` leaves the same files. The set is a repository the way people keep documents
(`repo_layout`: our documents and the corpus, copies, versions, planted contract mismatches)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from repo_layout import CORPUS, Layout, build

from awl_lsp.cli.file_jobs import run_jobs, workers_for


def awl(*args: str, cwd: Path) -> tuple[int, str, str]:
    run = subprocess.run(
        [sys.executable, "-m", "awl_lsp", *args], capture_output=True, text=True, timeout=600, cwd=cwd
    )
    return run.returncode, run.stdout, run.stderr


def _corpus_or_skip() -> None:
    if not CORPUS.is_dir():
        reason = f"AWL corpus not found at {CORPUS} (set AWL_CORPUS)"
        if os.environ.get("AWL_REQUIRE_CORPUS") == "1":
            pytest.fail(reason)
        pytest.skip(reason)


@pytest.fixture(scope="module")
def repository(tmp_path_factory: pytest.TempPathFactory) -> Layout:
    _corpus_or_skip()
    return build(tmp_path_factory.mktemp("repository"))


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.awl")) if p.is_file()}


def test_check_on_two_cores_prints_what_one_process_prints(repository: Layout) -> None:
    root = repository.root
    for fmt in ("text", "json"):
        one = awl("check", "--format", fmt, "--jobs", "1", ".", cwd=root)
        two = awl("check", "--format", fmt, "--jobs", "2", ".", cwd=root)
        assert one[0] == 1 and one[1], one[2][-2000:]  # the repository has errors (from tests/data/spec)
        assert two == one, fmt
    records = json.loads(one[1])
    codes: dict[Path, set[str]] = {}
    for r in records:
        codes.setdefault((root / r["file"]).resolve(), set()).add(r["code"])
    # the cross-document problems are there, found from the whole set's summaries
    for path, planted in {**repository.planted, **repository.warned}.items():
        assert planted <= codes.get(path.resolve(), set()), path
    assert len(records) > 50 and len(codes) > 20


def test_fmt_check_on_two_cores_prints_what_one_process_prints(repository: Layout) -> None:
    one = awl("fmt", "--check", "--jobs", "1", ".", cwd=repository.root)
    two = awl("fmt", "--check", "--jobs", "2", ".", cwd=repository.root)
    assert one[1], "some document is not in canonical form"
    assert two == one


def test_fix_on_two_cores_writes_and_prints_what_one_process_does(tmp_path: Path) -> None:
    _corpus_or_skip()
    fix = ("check", "--fix", "--unsafe-fixes", ".")
    runs = []
    for jobs in ("1", "2"):  # the same repository at the same place (messages may name paths)
        lay = build(tmp_path / "repository")
        before = _tree(lay.root)
        done = awl(*fix, "--jobs", jobs, cwd=lay.root)
        runs.append((before, done, _tree(lay.root), awl("check", "--format", "json", ".", cwd=lay.root)))
        shutil.rmtree(lay.root)
    (before, done, after, recheck), second = runs
    assert second == runs[0]
    assert sum(after[k] != before[k] for k in before) >= 5, done[2][-2000:]  # fixes were applied
    assert "fixed" in done[2]
    # what --fix reports as remaining is what a plain check of the fixed files reports
    plain = [
        f"{r['file']}:{r['line']}:{r['column']}: {r['severity']}: {r['message']}"
        for r in json.loads(recheck[1])
    ]
    assert done[1].splitlines() == plain


def test_fix_reports_the_set_as_fixed(tmp_path: Path) -> None:
    # `archive.awl` declares `child checksum(data: String)`; `checksum.awl` misspells its input's type.
    # Fixing the workflow mends the contract too: what --fix reports is the fixed files against each
    # other, not the contract as it stood when `archive.awl` (first in order) was checked.
    data = Path(__file__).parent / "data" / "workspace" / "flows"
    (tmp_path / "archive.awl").write_text((data / "archive_object.awl").read_text(encoding="utf-8"))
    workflow = (data / "checksum.awl").read_text(encoding="utf-8")
    (tmp_path / "checksum.awl").write_text(workflow.replace("input data: String", "input data: Strng"))
    before = awl("check", ".", cwd=tmp_path)
    assert before[0] == 1 and "archive.awl:" in before[1] and "`Strng`" in before[1]
    done = awl("check", "--fix", "--unsafe-fixes", ".", cwd=tmp_path)
    assert (tmp_path / "checksum.awl").read_text(encoding="utf-8") == workflow
    assert done[:2] == (0, ""), done[2]
    assert "0 error(s)" in done[2]


def _pid(offset: int, item: int) -> tuple[int, int]:
    time.sleep(0.005)  # (work of a few milliseconds, like a small document's: every worker gets some)
    return item + offset, os.getpid()


def test_jobs_run_in_worker_processes_and_come_back_in_order() -> None:
    items = list(range(100))
    results = run_jobs(_pid, items, 1000, jobs=2)
    assert [r for r, _ in results] == [i + 1000 for i in items]
    pids = {pid for _, pid in results}
    assert len(pids) == 2 and os.getpid() not in pids
    assert {pid for _, pid in run_jobs(_pid, items, 0, jobs=1)} == {os.getpid()}
    assert workers_for(3, 8) == 1  # a few files: no workers to start
