"""Conformance over the shared AWL corpus: valid documents are clean, invalid ones are caught on their line.

The corpus lives outside the project (`$AWL_CORPUS`, default `<repo>/../shared/corpus`); it is read,
never copied. Without it the tests skip with the reason shown, unless `AWL_REQUIRE_CORPUS=1`.
Each invalid `X.awl` has an `X.expected` sidecar: stage, a word the message should contain, 1-based line.
"""

from __future__ import annotations

import os
from collections import defaultdict
from pathlib import Path

import pytest

from awl_lsp.checks import run_checks
from awl_lsp.checks.base import Severity
from awl_lsp.model import ModelBuilder
from awl_lsp.syntax import SyntaxDocument
from awl_lsp.syntax.errors import syntax_problems

REPO = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("AWL_CORPUS") or REPO.parent / "shared" / "corpus").resolve()
LINE_RATE_FLOOR = 0.90


def _corpus() -> Path:
    if not CORPUS.is_dir():
        reason = f"AWL corpus not found at {CORPUS} (set AWL_CORPUS)"
        if os.environ.get("AWL_REQUIRE_CORPUS") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    return CORPUS


def error_diagnostics(path: Path, workspace: Path) -> list[tuple[int, str]]:
    """(1-based line, message) of every syntax error and semantic error of one file."""
    text = path.read_text(encoding="utf-8")
    doc = SyntaxDocument(text)
    out = [(p.range[0] + 1, p.message) for p in syntax_problems(doc.tree, doc.source, text)]
    model = ModelBuilder().build(doc.tree, doc.source)
    out += [
        (p.range[0] + 1, p.message)
        for p in run_checks(model, doc.tree, doc.source, path, workspace)
        if p.severity is Severity.ERROR
    ]
    return out


def _category(path: Path, root: Path) -> str:
    return str(path.parent.parent.relative_to(root))


def test_valid_documents_have_no_errors(capsys: pytest.CaptureFixture[str]) -> None:
    root = _corpus()
    files = sorted(root.glob("**/valid/*.awl"))
    assert files, f"no valid documents under {root}"
    failures = {str(f.relative_to(root)): d for f in files if (d := error_diagnostics(f, root))}
    with capsys.disabled():
        print(f"\n[conformance] valid: {len(files) - len(failures)}/{len(files)} without errors")
        for name, diags in failures.items():
            print(f"  {name}: " + " | ".join(f"L{line} {msg}" for line, msg in diags))
    assert not failures, f"{len(failures)} valid documents have errors: {sorted(failures)}"


def test_invalid_documents_are_caught_on_their_line(capsys: pytest.CaptureFixture[str]) -> None:
    root = _corpus()
    files = sorted(root.glob("**/invalid/*.awl"))
    assert files, f"no invalid documents under {root}"
    line_hits = word_hits = 0
    missed: dict[str, list[str]] = defaultdict(list)
    for f in files:
        sidecar = f.with_suffix(".expected").read_text(encoding="utf-8").splitlines()
        word, line = sidecar[1], int(sidecar[2])
        on_line = [msg for row, msg in error_diagnostics(f, root) if row == line]
        if on_line:
            line_hits += 1
        if any(word in msg for msg in on_line):
            word_hits += 1
        else:
            why = "no error on the line" if not on_line else f"word missing: {on_line[0]}"
            missed[_category(f, root)].append(f"{f.name} (L{line} '{word}'): {why}")
    line_rate, word_rate = line_hits / len(files), word_hits / len(files)
    with capsys.disabled():
        print(
            f"\n[conformance] invalid: {len(files)} files; line rate {line_rate:.1%}; word rate "
            f"{word_rate:.1%}"
        )
        for category in sorted(missed):
            print(f"  {category}:")
            for item in missed[category]:
                print(f"    {item}")
    assert line_rate >= LINE_RATE_FLOOR, f"line rate {line_rate:.1%} < {LINE_RATE_FLOOR:.0%}"
