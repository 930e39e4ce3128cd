"""The flow and structure rule families on documents written from the spec, one rule per document.

Each document under `tests/data/conformance/rules/<family>/` opens with a narration line that says
what the engine makes of it: `//! valid: …` (accepted) or `//! expect error on line N` (its first
error is on line N). Our checker must agree: no error on a valid document, and the first error on
line N for an invalid one. Where the engine's front end is available (`$AWL_REFERENCE`), the
expectations themselves are checked against it, so they cannot drift from the engine (workloop
documents, which the engine's rev-2 front end does not know, follow LANGUAGE.md and the keyword
reference: the same rules apply inside workloops).
"""

from __future__ import annotations

import os
import re
from collections import Counter
from pathlib import Path

import pytest
from differential.harness import REFERENCE, our_verdict, reference_verdicts
from differential.mutate import in_reference_language

RULES = Path(__file__).resolve().parent / "data" / "conformance" / "rules"
DOCUMENTS = sorted(RULES.glob("*/*.awl"))
_EXPECT = re.compile(r"^//! (?:valid\b|expect error on line (\d+))")


def expectation(path: Path) -> int | None:
    """The expected first error line (None: the document is valid)."""
    first = path.read_text(encoding="utf-8").split("\n", 1)[0]
    m = _EXPECT.match(first)
    assert m, f"{path.name}: the first line must be `//! valid: …` or `//! expect error on line N`"
    return int(m.group(1)) if m.group(1) else None


def _id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


@pytest.mark.parametrize("path", DOCUMENTS, ids=_id)
def test_checker_agrees_with_the_expectation(path: Path) -> None:
    expected = expectation(path)
    verdict = our_verdict(path.read_text(encoding="utf-8"), path, path.parent)
    if expected is None:
        assert verdict.ok, f"error on a valid document: line {verdict.line}: {verdict.message}"
    else:
        assert not verdict.ok, f"no error; expected one on line {expected}"
        assert verdict.line == expected, f"first error on line {verdict.line} ({verdict.message})"


def test_expectations_are_the_engines(capsys: pytest.CaptureFixture[str]) -> None:
    if not REFERENCE.is_file():
        reason = f"awl-reference not found at {REFERENCE} (set AWL_REFERENCE)"
        if os.environ.get("AWL_REQUIRE_REFERENCE") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    documents = [p for p in DOCUMENTS if in_reference_language(p.read_text(encoding="utf-8"))]
    verdicts = reference_verdicts(documents, REFERENCE)
    wrong = {
        _id(p): (expectation(p), verdicts[p].line, verdicts[p].message)
        for p in documents
        if (None if verdicts[p].ok else verdicts[p].line) != expectation(p)
    }
    counts = Counter((p.parent.name, expectation(p) is None) for p in DOCUMENTS)
    with capsys.disabled():
        families = sorted({p.parent.name for p in DOCUMENTS})
        shown = ", ".join(f"{f}: {counts[f, True]} valid / {counts[f, False]} invalid" for f in families)
        print(f"\n[rule families] {shown}")
    assert not wrong, wrong


@pytest.mark.parametrize("path", [p for p in DOCUMENTS if expectation(p) is not None], ids=_id)
def test_the_rule_holds_when_its_line_is_typed_in_and_out(path: Path) -> None:
    """Editing the faulty line in and out of an open document finds what a fresh check finds."""
    from awl_lsp.checks import CheckCache, run_checks
    from awl_lsp.features.documents import OpenDocument
    from awl_lsp.model import ModelBuilder
    from awl_lsp.syntax import SyntaxDocument, TextEdit

    def fresh(text: str) -> list:
        doc = SyntaxDocument(text)
        model = ModelBuilder().build(doc.tree, doc.source)
        return run_checks(model, doc.tree, doc.source, cache=CheckCache())

    text = path.read_text(encoding="utf-8")
    row = expectation(path) - 1  # type: ignore[operator]
    lines = text.split("\n")
    without = "\n".join(lines[:row] + lines[row + 1 :])
    doc = OpenDocument(without, 1, None, None)
    assert run_checks(doc.snapshot.model, doc.syntax.tree, doc.syntax.source, cache=doc.checks) == fresh(
        without
    )
    doc.edit([TextEdit(row, 0, row, 0, lines[row] + "\n")], 2)
    assert doc.syntax.text == text
    assert run_checks(doc.snapshot.model, doc.syntax.tree, doc.syntax.source, cache=doc.checks) == fresh(text)
    doc.edit([TextEdit(row, 0, row + 1, 0, "")], 3)
    assert run_checks(doc.snapshot.model, doc.syntax.tree, doc.syntax.source, cache=doc.checks) == fresh(
        without
    )
