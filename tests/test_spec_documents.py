"""Fresh documents written from LANGUAGE.md, judged by us and by the engine's own front end.

`tests/data/spec/<family>/{valid,invalid}/*.awl` cover every construct and rule family of
`../shared/awl/LANGUAGE.md` in combinations the other tests do not have (substeps in loops, forks
and `on failure`, subflows, regions, visits, pipes, records and enums, consts, comments in odd
places, wrapped lines, …). Each invalid document holds one fault and has a 3-line `.expected`
sidecar, in the corpus's layout: the stage (PARSE or CHECK), a word our first error message
contains, and the 1-based line of the first error.

- Every document is judged as `awl check` judges it: a valid one has no error; an invalid one has
  its first error on the sidecar's line, with the sidecar's word in the message.
- Every workflow document the engine knows (not the `workloops` family, not `if`/`else` outcome
  arms) also goes to `awl-reference check` (`$AWL_REFERENCE`, default
  `<repo>/../shared/bin/awl-reference`): it must accept the valid ones and reject the invalid ones
  at the sidecar's stage and line. Without the binary that test skips and says so, unless
  `AWL_REQUIRE_REFERENCE=1` makes it a failure. Workloops and `if`/`else` are judged by LANGUAGE.md
  and the keyword reference only: their sidecars are ours.
"""

from __future__ import annotations

import os
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from differential.harness import our_verdict
from differential.mutate import in_reference_language

REPO = Path(__file__).resolve().parents[1]
SPEC = REPO / "tests" / "data" / "spec"
REFERENCE = Path(os.environ.get("AWL_REFERENCE") or REPO.parent / "shared" / "bin" / "awl-reference")

DOCS = sorted(SPEC.glob("*/*/*.awl"))


def _name(path: Path) -> str:
    return str(path.relative_to(SPEC))


def expected(path: Path) -> tuple[str, str, int] | None:
    """(stage, word, line) of an invalid document's first error; None for a valid one."""
    sidecar = path.with_suffix(".expected")
    if path.parent.name == "valid":
        assert not sidecar.exists(), f"{_name(path)} is valid but has a sidecar"
        return None
    assert sidecar.is_file(), f"{_name(path)} has no .expected sidecar"
    stage, word, line = sidecar.read_text(encoding="utf-8").splitlines()[:3]
    assert stage in ("PARSE", "CHECK"), f"{sidecar.name}: stage {stage!r}"
    return stage, word, int(line)


def engine_knows(path: Path) -> bool:
    return path.parts[-3] != "workloops" and in_reference_language(path.read_text(encoding="utf-8"))


def test_the_spec_documents_cover_every_family() -> None:
    families = Counter((p.parts[-3], p.parent.name) for p in DOCS)
    wanted = (
        "constructs",
        "subflows",
        "regions",
        "loops",
        "forks",
        "flow",
        "lines",
        "types",
        "names",
        "workloops",
    )
    for family in wanted:
        assert families[(family, "valid")] >= 1, f"no valid {family} documents"
        assert families[(family, "invalid")] >= 5, f"fewer than 5 invalid {family} documents"
    assert len(DOCS) >= 60


@pytest.mark.parametrize("path", DOCS, ids=_name)
def test_our_verdict_and_first_line(path: Path) -> None:
    want = expected(path)
    got = our_verdict(path.read_text(encoding="utf-8"), path, path.parent)
    if want is None:
        assert got.ok, f"{_name(path)} is valid, but line {got.line}: {got.message}"
        return
    _, word, line = want
    assert not got.ok, f"{_name(path)}: no error, expected one on line {line}"
    assert got.line == line, f"{_name(path)}: first error on line {got.line} ({got.message}), expected {line}"
    assert word.lower() in got.message.lower(), f"{_name(path)}: `{word}` not in {got.message!r}"


def _reference() -> Path:
    if not (REFERENCE.is_file() and os.access(REFERENCE, os.X_OK)):
        reason = f"the engine's reference front end is not at {REFERENCE} (set AWL_REFERENCE)"
        if os.environ.get("AWL_REQUIRE_REFERENCE") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    return REFERENCE


def test_the_engine_agrees_on_every_workflow_document(capsys: pytest.CaptureFixture[str]) -> None:
    binary = _reference()
    docs = [p for p in DOCS if engine_knows(p)]
    run = subprocess.run(
        [str(binary), "check", *map(str, docs)], capture_output=True, text=True, timeout=120, check=False
    )
    first: dict[str, tuple[str, int]] = {}
    for row in run.stdout.splitlines():
        cols = row.split("\t")
        if len(cols) < 3 or not cols[2].isdigit():
            continue
        seen = first.get(cols[0])
        if seen is None or (cols[1] != "OK" and int(cols[2]) < seen[1]):
            first[cols[0]] = (cols[1], int(cols[2]))
    disagree = []
    for path in docs:
        want = expected(path)
        stage, line = first.get(str(path), ("missing", 0))
        wanted = ("OK", 0) if want is None else (want[0], want[2])
        if (stage, 0 if stage == "OK" else line) != wanted:
            disagree.append(f"{_name(path)}: expected {wanted}, the engine says {stage} on line {line}")
    with capsys.disabled():
        valid = sum(p.parent.name == "valid" for p in docs)
        print(
            f"\n[spec documents] the engine agrees on {len(docs) - len(disagree)}/{len(docs)} workflow "
            f"documents ({valid} valid, {len(docs) - valid} invalid); "
            f"{len(DOCS) - len(docs)} judged by LANGUAGE.md only"
        )
    assert not disagree, "\n".join(disagree)
