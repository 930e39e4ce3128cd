"""Quick fixes proven safe: every fix offered on every invalid document we have is applied and the
document re-checked — the diagnostic it fixes is gone and no diagnostic appears that was not there.

The documents are our own (`tests/data/invalid/*.awl`) plus every invalid document of the corpus
(`$AWL_CORPUS/**/invalid/*.awl`, read at run time; skipped visibly when the corpus is absent).
The count of fixes offered and proven safe is printed (`pytest -s`) and must match. Diagnostics
are compared by code and message; a fix that renames something (`Rename to `Urgent``) may change
the name inside another message, which is then compared under the old name.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from pathlib import Path

import pytest
from lsp_edits import apply_workspace_edit
from lsprotocol import types as lsp

from awl_lsp.documents import analyse_text
from awl_lsp.features.code_actions import code_actions
from awl_lsp.features.diagnostics import diagnostics

REPO = Path(__file__).resolve().parents[1]
OURS = REPO / "tests" / "data" / "invalid"
CORPUS = Path(os.environ.get("AWL_CORPUS") or REPO.parent / "shared" / "corpus").resolve()
URI = "file:///work/doc.awl"


def _corpus_invalid() -> list[Path]:
    if not CORPUS.is_dir():
        reason = f"AWL corpus not found at {CORPUS} (set AWL_CORPUS)"
        if os.environ.get("AWL_REQUIRE_CORPUS") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    return sorted(p for p in CORPUS.rglob("*.awl") if "invalid" in p.parts)


def _key(d: lsp.Diagnostic) -> tuple[str, str]:
    return (str(d.code), d.message)


def _renames(text: str, action: lsp.CodeAction) -> list[tuple[str, str]]:
    """(new, old) for each edit that replaces one name by another: a message that names the new
    spelling after the fix is the same problem as the one that named the old spelling before."""
    out = []
    lines = text.split("\n")
    for edits in (action.edit.changes or {}).values():
        for e in edits:
            r = e.range
            if r.start.line != r.end.line:
                continue
            old = lines[r.start.line][r.start.character : r.end.character]
            if old.isidentifier() and e.new_text.isidentifier():
                out.append((e.new_text, old))
    return out


def _normal(message: str, renames: list[tuple[str, str]]) -> str:
    for new, old in renames:
        message = re.sub(rf"\b{re.escape(new)}\b", old, message)
    return message


def _check(path: Path) -> tuple[int, list[str]]:
    """(fixes offered, what went wrong) for one document."""
    text = path.read_text(encoding="utf-8")
    snap = analyse_text(text, path, path.parent)
    diags = diagnostics(snap, URI)
    offered, wrong = 0, []
    for diag in diags:
        actions = code_actions(snap, URI, diag.range, [diag], [lsp.CodeActionKind.QuickFix.value])
        for action in actions:
            offered += 1
            new = apply_workspace_edit(text, action.edit, URI)
            renames = _renames(text, action)
            after = Counter(
                (code, _normal(message, renames))
                for code, message in map(_key, diagnostics(analyse_text(new, path, path.parent), URI))
            )
            before = Counter(_key(d) for d in diags)
            if after[_key(diag)] >= before[_key(diag)]:
                wrong.append(f"{path.name}: `{action.title}` left `{diag.message}`")
            new_ones = after - before
            if new_ones:
                wrong.append(f"{path.name}: `{action.title}` brought {sorted(new_ones)}")
    return offered, wrong


def _prove(paths: list[Path], label: str) -> int:
    offered, wrong = 0, []
    for path in paths:
        n, w = _check(path)
        offered += n
        wrong += w
    safe = offered - len(wrong)
    print(f"\n{label}: {len(paths)} invalid documents, {offered} fixes offered, {safe} proven safe")
    assert not wrong, "\n".join(wrong)
    return offered


def test_every_fix_on_our_invalid_documents_is_safe() -> None:
    paths = sorted(OURS.glob("*.awl"))
    assert len(paths) >= 15
    offered = _prove(paths, "tests/data/invalid")
    assert offered >= len(paths)  # each of these documents was written to have a fix


def test_every_fix_on_the_corpus_invalid_documents_is_safe() -> None:
    _prove(_corpus_invalid(), "corpus invalid")


def test_each_of_our_invalid_documents_has_exactly_one_error() -> None:
    """One mistake, one error: consequences are hints, not more errors."""
    for path in sorted(OURS.glob("*.awl")):
        text = path.read_text(encoding="utf-8")
        errors = [
            d.message
            for d in diagnostics(analyse_text(text, path, path.parent))
            if d.severity == lsp.DiagnosticSeverity.Error
        ]
        expected = 2 if "_and_" in path.name else 1  # `…_and_…` documents hold two mistakes
        assert len(errors) == expected, (path.name, errors)
