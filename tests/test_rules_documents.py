"""Line, type and workloop rules on our own valid/invalid document pairs, and the engine's verdict on them.

`tests/data/rules/<family>/{valid,invalid}/*.awl` are written for these tests from LANGUAGE.md
(one rule per pair; an invalid document says where its error is with a narration line
`//! expect: error on line N`). Each valid document must be free of errors; each invalid one
must have its first error on that line.

Workflow documents are also given to the engine's own front end (`awl-reference check`, path in
`$AWL_REFERENCE`, default `<repo>/../shared/bin/awl-reference`): it must agree on the verdict
and the line. Without the binary that test skips and says so, unless `AWL_REQUIRE_REFERENCE=1`.
The reference knows no workloops and no `if`/`else`; the workloop pairs follow LANGUAGE.md and
the keyword reference only.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from awl_lsp.checks import run_checks
from awl_lsp.checks.base import Severity
from awl_lsp.model import ModelBuilder
from awl_lsp.syntax import SyntaxDocument
from awl_lsp.syntax.errors import syntax_problems

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data" / "rules"
REFERENCE = Path(os.environ.get("AWL_REFERENCE") or REPO.parent / "shared" / "bin" / "awl-reference")
_EXPECT = re.compile(r"^//! expect: error on line (\d+)$", re.MULTILINE)

DOCS = sorted(DATA.glob("*/*/*.awl"))


def expected_line(path: Path) -> int | None:
    """None for a valid document, else the 1-based line of its first error."""
    m = _EXPECT.search(path.read_text(encoding="utf-8"))
    if path.parent.name == "valid":
        assert m is None, f"{path} is valid but says where its error is"
        return None
    assert m is not None, f"{path} does not say where its error is"
    return int(m.group(1))


def our_errors(path: Path) -> list[tuple[int, str]]:
    """(1-based line, message) of every syntax and semantic error, by line."""
    text = path.read_text(encoding="utf-8")
    doc = SyntaxDocument(text)
    out = [(p.range[0] + 1, p.message) for p in syntax_problems(doc.tree, doc.source, text)]
    model = ModelBuilder().build(doc.tree, doc.source)
    out += [
        (p.range[0] + 1, p.message)
        for p in run_checks(model, doc.tree, doc.source, path, path.parent)
        if p.severity is Severity.ERROR
    ]
    return sorted(out)


def _name(path: Path) -> str:
    return str(path.relative_to(DATA))


def test_every_family_has_pairs() -> None:
    for family in ("lines", "types", "workloop"):
        valid = {p.name for p in DATA.glob(f"{family}/valid/*.awl")}
        invalid = {p.name for p in DATA.glob(f"{family}/invalid/*.awl")}
        assert invalid, f"no invalid documents for {family}"
        assert invalid <= valid, f"{family}: invalid documents without a valid partner: {invalid - valid}"


@pytest.mark.parametrize("path", DOCS, ids=_name)
def test_our_verdict_and_line(path: Path) -> None:
    line = expected_line(path)
    errors = our_errors(path)
    if line is None:
        assert errors == [], f"{_name(path)} is valid, but: {errors}"
    else:
        assert errors, f"{_name(path)}: no error, expected one on line {line}"
        assert errors[0][0] == line, f"{_name(path)}: first error {errors[0]}, expected line {line}"


def _reference() -> Path:
    if not (REFERENCE.is_file() and os.access(REFERENCE, os.X_OK)):
        reason = f"the engine's reference front end is not at {REFERENCE} (set AWL_REFERENCE)"
        if os.environ.get("AWL_REQUIRE_REFERENCE") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    return REFERENCE


def test_reference_agrees_on_workflow_pairs(capsys: pytest.CaptureFixture[str]) -> None:
    binary = _reference()
    docs = [p for p in DOCS if p.parts[-3] != "workloop"]
    run = subprocess.run(
        [str(binary), "check", *map(str, docs)], capture_output=True, text=True, timeout=120, check=False
    )
    verdicts: dict[str, tuple[str, int]] = {}
    for row in run.stdout.splitlines():
        cols = row.split("\t")
        if len(cols) >= 3 and cols[0] not in verdicts:
            verdicts[cols[0]] = (cols[1], int(cols[2]))
    disagree = []
    for path in docs:
        line = expected_line(path)
        stage, ref_line = verdicts.get(str(path), ("missing", 0))
        want = ("OK", 0) if line is None else ("error", line)
        got = ("OK", 0) if stage == "OK" else ("error", ref_line)
        if want != got:
            disagree.append(f"{_name(path)}: expected {want}, reference {stage} on line {ref_line}")
    with capsys.disabled():
        agreed = len(docs) - len(disagree)
        print(f"\n[rules documents] reference agrees on {agreed}/{len(docs)} workflow documents")
    assert not disagree, "\n".join(disagree)
