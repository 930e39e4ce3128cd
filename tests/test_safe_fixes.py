"""Fixes proven safe, on both front ends.

Every invalid document we have — ours (`tests/**/invalid/*.awl`) and the corpus's
(`$AWL_CORPUS/**/invalid/*.awl`, read at run time; skipped visibly when the corpus is absent) — is
checked, and every fix offered for every problem (through `features.fixes`, the one implementation)
is applied on its own and the document re-checked: the problem it fixes is gone, no problem
appears that was not there, and a text that read without syntax errors still does. The editor's
quick fixes for the same diagnostics are the same fixes, edit for edit (`code_actions` is only an
adapter). Then `awl check --fix` (safe fixes, and with `--unsafe-fixes`) runs on a folder of
copies of all those documents, checked together as a repository would be: each file it changed has
fewer errors and none of a new kind, still reads, and a file whose syntax errors no fix mends is
byte for byte what it was.

Problems are compared by code and message; a fix that renames something (`Rename to `Urgent``) may
change the name inside another message, which is then compared under the old name.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from lsprotocol import types as lsp

from awl_lsp.features.code_actions import code_actions
from awl_lsp.features.diagnostics import diagnostics, findings
from awl_lsp.features.documents import analyse_text
from awl_lsp.features.fixes import Fix, apply_edits, fixes_for
from awl_lsp.features.fixes.apply import syntax_broken
from awl_lsp.features.lsp_positions import lsp_range
from awl_lsp.features.snapshot import Snapshot

REPO = Path(__file__).resolve().parents[1]
TESTS = REPO / "tests"
OURS = TESTS / "data" / "invalid"
CORPUS = Path(os.environ.get("AWL_CORPUS") or REPO.parent / "shared" / "corpus").resolve()
URI = "file:///work/doc.awl"


def _invalid(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.awl") if "invalid" in p.relative_to(root).parts)


def _corpus_invalid() -> list[Path]:
    if not CORPUS.is_dir():
        reason = f"AWL corpus not found at {CORPUS} (set AWL_CORPUS)"
        if os.environ.get("AWL_REQUIRE_CORPUS") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    return _invalid(CORPUS)


def _text_at(snap: Snapshot, r: tuple[int, int, int, int]) -> str:
    starts = snap.doc.lines.byte_starts
    return snap.doc.source[starts[r[0]] + r[1] : starts[r[2]] + r[3]].decode("utf-8", "replace")


def _renames(snap: Snapshot, fix: Fix) -> list[tuple[str, str]]:
    """(new, old) for each edit that replaces one name by another: a message that names the new
    spelling after the fix is the same problem as the one that named the old spelling before."""
    out = []
    for e in fix.plain_edits():
        old = _text_at(snap, e.range)
        if e.range[0] == e.range[2] and old.isidentifier() and e.text.isidentifier():
            out.append((e.text, old))
    return out


_PROVISIONAL = re.compile(r" \(provisional: [^)]*\)$")


def _normal(message: str, renames: list[tuple[str, str]]) -> str:
    # a problem held back as provisional behind an earlier error is the same problem once that error
    # is fixed (it was reported before the fix, as a warning)
    message = _PROVISIONAL.sub("", message)
    for new, old in renames:
        message = re.sub(rf"\b{re.escape(new)}\b", old, message)
    return message


def _lsp_view(snap: Snapshot, fix: Fix) -> tuple:
    edits = [(lsp_range(snap, e.range), e.text) for e in fix.plain_edits()]
    return (fix.title, fix.preferred, edits)


def _action_view(action: lsp.CodeAction, uri: str) -> tuple:
    assert action.edit is not None and action.edit.changes is not None
    return (
        action.title,
        bool(action.is_preferred),
        [(e.range, e.new_text) for e in action.edit.changes[uri]],
    )


def _check(path: Path) -> tuple[int, list[str]]:
    """(fixes offered, what went wrong) for one document."""
    text = path.read_text(encoding="utf-8")
    snap = analyse_text(text, path, path.parent)
    problems = findings(snap)
    before = Counter((p.code, _normal(p.message, [])) for p in problems)
    broken = syntax_broken(snap)
    offered, wrong = 0, []
    for problem, diag in zip(problems, diagnostics(snap, URI), strict=True):
        fixes = fixes_for(snap, problem, strict=True)
        # the editor's quick fixes for this diagnostic are these fixes, edit for edit
        actions = code_actions(snap, URI, diag.range, [diag], [lsp.CodeActionKind.QuickFix.value])
        if [_action_view(a, URI) for a in actions] != [_lsp_view(snap, f) for f in fixes]:
            wrong.append(
                f"{path.name}: the editor offers other fixes than `features.fixes` for `{problem.message}`"
            )
        if sum(f.preferred for f in fixes) > 1:
            wrong.append(f"{path.name}: more than one preferred fix for `{problem.message}`")
        for fix in fixes:
            offered += 1
            new = apply_edits(text, fix.plain_edits())
            new_snap = analyse_text(new, path, path.parent)
            renames = _renames(snap, fix)
            after = Counter((p.code, _normal(p.message, renames)) for p in findings(new_snap))
            key = (problem.code, _normal(problem.message, []))
            if after[key] >= before[key]:
                wrong.append(f"{path.name}: `{fix.title}` left `{problem.message}`")
            if after - before:
                wrong.append(f"{path.name}: `{fix.title}` brought {sorted(after - before)}")
            if syntax_broken(new_snap) and not broken:
                wrong.append(f"{path.name}: `{fix.title}` broke the syntax")
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
    paths = _invalid(TESTS)
    assert len(paths) >= 250
    offered = _prove(paths, "tests/**/invalid")
    assert offered >= len(list(OURS.glob("*.awl")))  # each of tests/data/invalid was written to have a fix


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


# ---------------------------------------------------------------------- `awl check --fix` on a folder
def _awl(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "awl_lsp", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=600)


def _problems_by_file(folder: Path) -> dict[str, Counter[tuple[str, str]]]:
    """(severity, code) of what `awl check` reports for each file of the folder, checked together."""
    result = _awl("check", "--format", "json", "-q", str(folder))
    assert result.returncode in (0, 1), result.stderr
    out: dict[str, Counter[tuple[str, str]]] = {}
    for r in json.loads(result.stdout):
        out.setdefault(str(Path(r["file"]).relative_to(folder)), Counter())[(r["severity"], r["code"])] += 1
    return out


def _errors(found: Counter[tuple[str, str]]) -> int:
    return sum(n for (severity, _), n in found.items() if severity == "error")


@pytest.fixture(scope="module")
def copies(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, dict[str, bytes], dict[str, Counter[str]]]:
    """A folder of copies of every invalid document (ours and the corpus's), their bytes, and the
    errors `awl check` reports for each, checked together."""
    folder = tmp_path_factory.mktemp("invalid-copies")
    sources = [(TESTS, "tests")] + ([(CORPUS, "corpus")] if CORPUS.is_dir() else [])
    for root, label in sources:
        for p in _invalid(root):
            target = folder / label / p.relative_to(root)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(p, target)
    original = {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*.awl")}
    return folder, original, _problems_by_file(folder)


@pytest.mark.parametrize("unsafe", [False, True], ids=["safe", "unsafe"])
def test_check_fix_on_a_folder_of_copies_makes_no_file_worse(
    copies: tuple[Path, dict[str, bytes], dict[str, Counter[tuple[str, str]]]], tmp_path: Path, unsafe: bool
) -> None:
    if not CORPUS.is_dir():
        _corpus_invalid()  # skips visibly (or fails when the corpus is required)
    source, original, before = copies
    folder = tmp_path / "copies"
    shutil.copytree(source, folder)
    flags = ["--fix", "--unsafe-fixes"] if unsafe else ["--fix"]
    result = _awl("check", *flags, "-q", str(folder))
    assert result.returncode in (0, 1), result.stderr
    assert "Traceback" not in result.stderr
    after = _problems_by_file(folder)
    changed, wrong = 0, []
    for name, data in original.items():
        new = (folder / name).read_bytes()
        if new == data:
            continue
        changed += 1
        text = new.decode("utf-8")  # still UTF-8
        was, now = before.get(name, Counter()), after.get(name, Counter())
        if now.total() >= was.total():
            wrong.append(f"{name}: {was.total()} problem(s) before --fix, {now.total()} after")
        if now - was:
            wrong.append(f"{name}: --fix brought {sorted(now - was)}")
        if _errors(now) > _errors(was):
            wrong.append(f"{name}: {_errors(was)} error(s) before --fix, {_errors(now)} after")
        if syntax_broken(analyse_text(text)):
            wrong.append(f"{name}: written with a syntax error")
    for name, data in original.items():  # a file whose syntax no fix mends is left as it was
        if syntax_broken(analyse_text(data.decode("utf-8"))) and (folder / name).read_bytes() != data:
            assert not syntax_broken(analyse_text((folder / name).read_text(encoding="utf-8"))), name
    total_before = sum(_errors(c) for c in before.values())
    total_after = sum(_errors(c) for c in after.values())
    print(
        f"\nawl check {' '.join(flags)}: {len(original)} documents, {changed} fixed, "
        f"errors {total_before} → {total_after}"
    )
    assert not wrong, "\n".join(wrong)
    assert changed >= (60 if unsafe else 10)
    assert total_after < total_before
