"""The fix layer itself: the `Fix` value and its snippet text, the registry's rules (one preferred fix,
none for a consequence), the snippet edits a client that takes them gets, and that the layer never
loads the protocol libraries (the command line must not)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from helpers import example, snap_of
from lsprotocol import types as lsp

import awl_lsp.features.fixes as fixes_package
from awl_lsp.features.code_actions import code_actions
from awl_lsp.features.diagnostics import diagnostics, findings
from awl_lsp.features.fixes import Edit, Fix, apply_edits, fixes_for, plain_text, tabstop
from awl_lsp.features.fixes.values import escape
from awl_lsp.syntax.problems import Problem

URI = "file:///work/doc.awl"
WORKLOOP = example("inbox_sweep.awl")


def test_snippet_text_and_its_plain_form() -> None:
    assert tabstop(1, '""') == '${1:""}' and tabstop(0) == "$0"
    assert tabstop(2, "a}b$c") == "${2:a\\}b\\$c}"
    assert plain_text("x: ${1:0}, y: ${2:Point(x: ${3:0})}$0") == "x: 0, y: Point(x: 0)"
    assert plain_text(f"cost: {escape('$5 {}')}${{1}}") == "cost: $5 {}"
    fix = Fix("t", (Edit((0, 0, 0, 0), "a: ${1:1}"),), safe=False, snippet=True)
    assert fix.plain_edits() == (Edit((0, 0, 0, 0), "a: 1"),)


def test_edits_apply_in_byte_columns_and_keep_crlf() -> None:
    text = "é = 1\r\nb = 2\r\n"
    new = apply_edits(text, [Edit((0, 3, 0, 6), "= 3\nc = 4"), Edit((1, 4, 1, 5), "5")])
    assert new == "é = 3\r\nc = 4\r\nb = 5\r\n"


def _problem(text: str, code: str) -> tuple[object, Problem]:
    snap = snap_of(text)
    return snap, next(p for p in findings(snap) if p.code == code)


def test_safety_is_said_per_fix() -> None:
    snap, p = _problem(WORKLOOP.replace("tolerance unconfirmed for 1h", "tolerance 3"), "tolerance")
    (windows,) = fixes_for(snap, p)  # type: ignore[arg-type]
    assert windows.safe and windows.preferred
    snap, p = _problem(WORKLOOP.replace("  list_new(inbox", "  list_nwe(inbox", 1), "unknown-call")
    (change,) = fixes_for(snap, p)  # type: ignore[arg-type]
    assert change.title == "Change to `list_new`" and change.preferred and not change.safe


def test_at_most_one_preferred_fix_and_none_for_a_consequence() -> None:
    snap, p = _problem(WORKLOOP.replace("  list_new(inbox", "  list_nwe(inbox", 1), "unknown-call")
    data = {"name": "list_nwe", "candidates": ["list_new", "list_new"], "rewrite": "list_new"}
    both = fixes_for(snap, Problem(p.range, "", p.code, data=data))  # type: ignore[arg-type]
    assert [f.preferred for f in both] == [True, False, False]
    consequence = Problem(p.range, "", p.code, data={**data, "because": "route-target"})
    assert fixes_for(snap, consequence) == []  # type: ignore[arg-type]


def test_a_client_that_takes_snippets_gets_tab_stops() -> None:
    text = WORKLOOP.replace("  archive(inbox: inbox, upto: last_seen)", "  archive(inbox: inbox)")
    snap = snap_of(text)
    diags = [d for d in diagnostics(snap, URI) if d.code == "arguments"]
    (action,) = code_actions(snap, URI, diags[0].range, diags, snippets=True)
    assert action.edit is not None and action.edit.changes is None
    (change,) = action.edit.document_changes or []
    assert isinstance(change, lsp.TextDocumentEdit)
    (edit,) = change.edits
    assert isinstance(edit, lsp.SnippetTextEdit) and edit.snippet.value == ', upto: ${1:""}'
    (plain,) = code_actions(snap, URI, diags[0].range, diags, snippets=False)
    assert plain.edit is not None and plain.edit.changes is not None
    assert [e.new_text for e in plain.edit.changes[URI]] == [', upto: ""']
    # a fix without placeholders stays a plain edit even for such a client
    typo = snap_of(WORKLOOP.replace("tolerance unconfirmed for 1h", "tolerance 3"))
    diags = [d for d in diagnostics(typo, URI) if d.code == "tolerance"]
    (windows,) = code_actions(typo, URI, diags[0].range, diags, snippets=True)
    assert windows.edit is not None and windows.edit.changes is not None


def test_the_fix_layer_imports_no_protocol_library() -> None:
    folder = Path(fixes_package.__file__).parent
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            assert not [n for n in names if n.split(".")[0] in ("lsprotocol", "pygls")], path.name
    probe = (
        "import sys, awl_lsp.features.fixes, awl_lsp.cli.file_writes, awl_lsp.cli.check_report\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'lsprotocol', 'pygls'}))"
    )
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert loaded.stdout.strip() == "[]"
