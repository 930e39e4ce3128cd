"""Shared by the tests of the fixes that generate declarations and complete clauses, outcomes and routes.

A case is a canonical document with one mistake put in (`broken`), the code of the problem, the
title of the quick fix chosen, and lines the fixed text must hold. `apply_fix` applies the fix
the way the editor does (a code action for the diagnostic) and checks what a user would notice:
the problem is gone, no error appears that was not there, the text still parses, and — the
document being in canonical form — `awl fmt` would not change the fixed text (the new text went
where the printer puts it, laid out as it prints). `engine_verdict` asks the engine's own front
end about a workflow document.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from helpers import ROOT, example, snap_of
from lsp_edits import apply_workspace_edit
from lsprotocol import types as lsp

from awl_lsp.features.code_actions import code_actions
from awl_lsp.features.diagnostics import diagnostics
from awl_lsp.features.printer import canonical_text

URI = "file:///work/doc.awl"
REFERENCE = Path(os.environ.get("AWL_REFERENCE") or ROOT.parent / "shared" / "bin" / "awl-reference")

# A workflow in canonical form that the engine accepts: greet a name, shout the greeting back.
WORKFLOW = """\
//! Greet a name, then shout the greeting back.
workflow shout_back
  input name: String
  outcome shouted: type Shouted, route success
  outcome failed:  type Failed,  route failure

type Greeting { text: String }
type Shouted  { text: String, loud: Bool }
type Failed   { reason: String }

worker voice
  action greet(name: String) -> Greeting
  action shout(text: String) -> Shouted

step greet
  greet(name: name) -> greeting

step shout
  shout(text: greeting.text) -> loud
  loud |> route shouted
"""
WORKLOOP = example("inbox_sweep.awl")  # canonical too


@dataclass
class Case:
    id: str
    base: str
    edits: list[tuple[str, str]]
    code: str
    title: str
    expect: list[str] = field(default_factory=list)  # lines of the fixed text (in order, each whole)
    preferred: bool = True  # the fix `awl check --fix --unsafe-fixes` applies

    @property
    def broken(self) -> str:
        text = self.base
        for old, new in self.edits:
            assert text.count(old) == 1, (self.id, old)
            text = text.replace(old, new)
        return text

    @property
    def workflow(self) -> bool:
        return self.base is WORKFLOW


def errors(text: str) -> list[lsp.Diagnostic]:
    return [d for d in diagnostics(snap_of(text)) if d.severity == lsp.DiagnosticSeverity.Error]


def apply_fix(text: str, code: str, title: str) -> tuple[str, lsp.CodeAction]:
    """The text after the quick fix `title` for a `code` diagnostic (see the module doc)."""
    snap = snap_of(text)
    diags = diagnostics(snap)
    offered: list[str] = []
    for target in [d for d in diags if d.code == code]:  # the first of them that offers it
        actions = [
            a
            for a in code_actions(snap, URI, target.range, diags)
            if a.diagnostics and target in a.diagnostics
        ]
        offered += [a.title for a in actions]
        action = next((a for a in actions if a.title == title), None)
        if action is not None:
            break
    else:
        raise AssertionError((code, title, offered, [(d.code, d.message) for d in diags]))
    assert action.kind == lsp.CodeActionKind.QuickFix
    new = apply_workspace_edit(text, action.edit, URI)
    after = diagnostics(snap_of(new))
    assert not [d for d in after if d.code == code and d.message == target.message], "still reported"
    before = {(d.code, d.message) for d in diags}
    brought = [d.message for d in after if (d.code, d.message) not in before]
    assert not brought, brought
    assert not snap_of(new).doc.root.has_error
    return new, action


def assert_lines(text: str, expected: list[str]) -> None:
    """Each expected line is a whole line of `text`, in this order."""
    lines = text.split("\n")
    at = 0
    for want in expected:
        assert want in lines[at:], f"missing line {want!r} in:\n{text}"
        at = lines.index(want, at) + 1


def assert_canonical_kept(before: str, after: str) -> None:
    if canonical_text(before) == before:
        assert canonical_text(after) == after, f"`awl fmt` would change the fixed text:\n{after}"


def engine_verdict(text: str) -> str:
    """What the engine's front end says of a workflow document (`OK` or its first finding)."""
    if not (REFERENCE.is_file() and os.access(REFERENCE, os.X_OK)):
        reason = f"the engine's reference front end is not at {REFERENCE} (set AWL_REFERENCE)"
        if os.environ.get("AWL_REQUIRE_REFERENCE") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "doc.awl"
        path.write_text(text, encoding="utf-8")
        out = subprocess.run([str(REFERENCE), "check", str(path)], capture_output=True, text=True, timeout=60)
    first = (out.stdout.strip().splitlines() or [""])[0].split("\t")
    return first[1] if len(first) > 1 and first[1] == "OK" else "\t".join(first[1:])
