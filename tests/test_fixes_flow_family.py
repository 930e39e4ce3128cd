"""Quick fixes for syntax, layout, duplicates, the flow graph, loops, regions and subflows.

Each case is a document written for one diagnostic (none is a corpus document) and the text its
fix makes of it, as the editor applies it (`code_actions`, the same `Fix` `awl check --fix` uses):
the diagnostic is gone, no problem appears that was not there (of any severity), the text still
parses, and the fix says whether it may be applied unasked (`safe`). Where the document is a
workflow, the engine's own front end (`awl-reference check`) refuses the document as written and
accepts the fixed one — a fix that makes the engine happy is what counts as fixed. The command
line applies the same fixes (`fix_text`, unsafe ones only when allowed).
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from differential.harness import REFERENCE, reference_verdicts
from differential.mutate import in_reference_language
from helpers import snap_of
from lsp_edits import apply_workspace_edit
from lsprotocol import types as lsp

from awl_lsp.features.code_actions import code_actions, problem_of
from awl_lsp.features.diagnostics import diagnostics
from awl_lsp.features.documents import analyse_text
from awl_lsp.features.findings import findings
from awl_lsp.features.fixes import fix_text, fixes_for
from awl_lsp.features.fixes.apply import syntax_broken

URI = "file:///work/doc.awl"

DOCUMENTS = Path(__file__).resolve().parent / "data" / "fixes"


@dataclass(frozen=True)
class Case:
    """`<id>.awl`, written for one diagnostic, and `<id>.fixed`, the text its fix makes of it. The
    first line says which: `//! fix CODE (safe|unsafe)`, with `[words]` from the fix's title when
    the problem has several fixes; `//! no fix CODE` for a document whose diagnostic gets none
    (a fix there would guess wrong or leave a new problem behind)."""

    id: str
    code: str
    before: str
    after: str | None
    safe: bool
    title: str = ""


def _case(path: Path) -> Case:
    before = path.read_text(encoding="utf-8")
    words = before.split("\n", 1)[0].split()
    fixed = path.with_suffix(".fixed")
    if words[1:3] == ["no", "fix"]:
        return Case(path.stem, words[3], before, None, False)
    title = " ".join(words[4:]).strip("[]")
    after = fixed.read_text(encoding="utf-8")
    return Case(path.stem, words[2], before, after, words[3] == "(safe)", title)


ALL = [_case(p) for p in sorted(DOCUMENTS.glob("*.awl"))]
CASES = [c for c in ALL if c.after is not None]
LEFT = [c for c in ALL if c.after is None]


def _problems(text: str) -> Counter[tuple[str, str]]:
    return Counter((p.code, p.message) for p in findings(snap_of(text)))


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_the_fix_writes_what_was_meant(case: Case) -> None:
    snap = snap_of(case.before)
    diags = diagnostics(snap)
    target = next((d for d in diags if d.code == case.code), None)
    assert target is not None, [(d.code, d.message) for d in diags]
    actions = [
        a for a in code_actions(snap, URI, target.range, diags) if a.diagnostics and target in a.diagnostics
    ]
    action = next((a for a in actions if case.title in a.title), None)
    assert action is not None, f"no fix for {case.code}: {[a.title for a in actions]}"
    assert action.kind == lsp.CodeActionKind.QuickFix
    fixed = apply_workspace_edit(case.before, action.edit, URI)
    assert fixed == case.after
    before, after = _problems(case.before), _problems(fixed)
    assert after[(str(target.code), target.message)] < before[(str(target.code), target.message)]
    assert not after - before, sorted(after - before)
    assert not syntax_broken(snap_of(fixed))
    # the fix's own word on trust
    fix = next(f for f in fixes_for(snap, problem_of(snap, target), strict=True) if f.title == action.title)
    assert fix.safe is case.safe


@pytest.mark.parametrize("case", [c for c in CASES if not c.title], ids=[c.id for c in CASES if not c.title])
def test_check_fix_applies_it(case: Case) -> None:
    """`awl check --fix` applies the same fix: unasked when it is safe, with `--unsafe-fixes` otherwise."""
    asked = fix_text(case.before, _analyse, unsafe=False)
    assert (asked.text == case.after) is case.safe
    assert fix_text(case.before, _analyse, unsafe=True).text == case.after


def _analyse(text: str) -> tuple:
    snap = analyse_text(text)
    return snap, findings(snap)


def test_the_engine_refuses_each_document_and_accepts_its_fix(tmp_path: Path) -> None:
    if not REFERENCE.is_file():
        reason = f"awl-reference not found at {REFERENCE} (set AWL_REFERENCE)"
        if os.environ.get("AWL_REQUIRE_REFERENCE") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    judged = [c for c in CASES if in_reference_language(c.before)]
    files: dict[str, tuple[Path, Path]] = {}
    for case in judged:
        assert case.after is not None
        folder = tmp_path / case.id
        (folder / "before").mkdir(parents=True)
        (folder / "after").mkdir()
        files[case.id] = (folder / "before" / "t.awl", folder / "after" / "t.awl")
        files[case.id][0].write_text(case.before, encoding="utf-8")
        files[case.id][1].write_text(case.after, encoding="utf-8")
    verdicts = reference_verdicts([p for pair in files.values() for p in pair])
    wrong = []
    for case in judged:
        before, after = (verdicts[p] for p in files[case.id])
        if before.ok:
            wrong.append(f"{case.id}: the engine accepts the document as written")
        if not after.ok:
            wrong.append(
                f"{case.id}: the engine refuses the fixed document: line {after.line}: {after.message}"
            )
    assert len(judged) >= len(CASES) - 2
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("left", LEFT, ids=[c.id for c in LEFT])
def test_no_fix_where_it_would_guess_wrong(left: Case) -> None:
    snap = snap_of(left.before)
    found = [p for p in findings(snap) if p.code == left.code]
    assert found, [(p.code, p.message) for p in findings(snap)]
    assert not [f for p in found for f in fixes_for(snap, p, strict=True)]
