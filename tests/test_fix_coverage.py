"""`bench/fix_coverage.py` — the measure the next fixes are written against — counts what it says."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("fix_coverage", REPO / "bench" / "fix_coverage.py")
assert spec is not None and spec.loader is not None
fix_coverage = importlib.util.module_from_spec(spec)
sys.modules["fix_coverage"] = fix_coverage
spec.loader.exec_module(fix_coverage)


def test_coverage_counts_errors_with_a_fix_per_code(capsys: pytest.CaptureFixture[str]) -> None:
    folder = REPO / "tests" / "data"
    found = fix_coverage.coverage(fix_coverage.invalid_documents(folder))
    assert found.documents >= 250 and sum(found.errors.values()) >= found.documents
    # the hand-written documents of tests/data/invalid each hold a mistake with a fix
    ours = fix_coverage.coverage(sorted((folder / "invalid").glob("*.awl")))
    assert sum(ours.fixed.values()) == sum(ours.errors.values()) >= ours.documents
    assert ours.fixed["missing"] == ours.errors["missing"] >= 1  # a missing `]` always gets its fix
    assert ours.safe["missing"] == ours.errors["missing"]
    assert ours.safe["unknown-call"] == 0 < ours.fixed["unknown-call"]  # a guess is never safe
    for code, n in found.errors.items():
        assert found.safe[code] <= found.fixed[code] <= n
    assert fix_coverage.main([str(folder / "invalid"), "--codes", "--fail-under", "100"]) == 0  # all covered
    assert fix_coverage.main([str(folder / "spec"), "--fail-under", "100"]) == 1
    out = capsys.readouterr().out
    assert "errors with a fix" in out and "\nmissing " in out
