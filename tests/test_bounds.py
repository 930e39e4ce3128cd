"""Bounded work: hostile depth and size get diagnostics in bounded time, never a RecursionError."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from lsprotocol import types as lsp

from awl_lsp.features.completion import complete
from awl_lsp.features.diagnostics import diagnostics
from awl_lsp.features.documents import OpenDocument, analyse_text
from awl_lsp.features.folding import folding_ranges
from awl_lsp.features.hover import hover
from awl_lsp.features.selection import selection_ranges
from awl_lsp.features.semantic_tokens import semantic_tokens_full
from awl_lsp.features.symbols import document_symbols
from awl_lsp.model import schema_files
from awl_lsp.syntax import TextEdit
from awl_lsp.syntax.bounds import MAX_ANALYSED_BYTES, MAX_LINE_BYTES

N = 2000
HEAD = "//! deep\nworkflow w\n  input a: Int\n  outcome done: type Out, route s\n\ntype Out { n: Int }\n\n"
DEEP = {
    "brackets": HEAD + "step s\n  x = " + "(" * N + "1" + ")" * N + "\n  route done(n: 1)\n",
    "calls": HEAD + "step s\n  x = " + "f(" * N + "1" + ")" * N + "\n  route done(n: 1)\n",
    "list types": HEAD.replace("input a: Int", "input a: " + "[" * N + "Int" + "]" * N) + "step s\n",
    "const json": HEAD + "const c = " + "[\n" * N + "]\n" * N + "\nstep s\n",
    "schema json": HEAD + "type J = schema {\n" + '"a": {\n' * N + "}\n" * N + "}\n\nstep s\n",
    "indentation": HEAD + "step s\n" + "".join("  " * i + "when a > 1\n" for i in range(1, 400)),
}


def every_feature(snap) -> None:  # noqa: ANN001 — a Snapshot
    diagnostics(snap)
    semantic_tokens_full(snap)
    folding_ranges(snap)
    document_symbols(snap)
    at = lsp.Position(8, 6)
    selection_ranges(snap, [at])
    hover(snap, at, True)
    complete(snap, at)


@pytest.mark.parametrize("name", list(DEEP))
def test_deep_nesting_says_too_deep_and_every_feature_answers(name: str) -> None:
    snap = analyse_text(DEEP[name])
    found = diagnostics(snap)
    assert any("too deeply" in d.message for d in found), [d.message for d in found]
    every_feature(snap)


def test_deep_nesting_fixed_by_an_edit_is_analysed_again() -> None:
    text = DEEP["brackets"]
    doc = OpenDocument(text, 1, None, None)
    line = text.count("\n", 0, text.index("  x = "))
    doc.edit([TextEdit(line, 0, line + 1, 0, "  x = (1)\n")], 2)
    found = diagnostics(doc.snapshot)
    assert not any("too deeply" in d.message for d in found)
    assert [(d.range, d.message) for d in found] == [
        (d.range, d.message) for d in diagnostics(analyse_text(doc.syntax.text))
    ]


def test_one_big_error_still_gets_an_error() -> None:
    found = diagnostics(analyse_text("workflow w\n  input a: [[[[[[\n"))
    assert any(d.severity == lsp.DiagnosticSeverity.Error for d in found)


def test_awl_check_fails_on_one_big_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.awl"
    bad.write_text("workflow w\n  input a: [[[[[[\n")
    run = subprocess.run([sys.executable, "-m", "awl_lsp", "check", str(bad)], capture_output=True, text=True)
    assert run.returncode == 1, run.stdout


def test_a_one_megabyte_line_is_skipped_with_a_diagnostic_and_hovers_answer() -> None:
    text = HEAD + "step s\n  x = " + "x " * 500_000 + "\n  route done(n: 1)\n"
    started = time.process_time()  # CPU time: what the server spends, whatever else the machine runs
    doc = OpenDocument(text, 1, None, None)
    found = diagnostics(doc.snapshot)
    assert time.process_time() - started < 10
    long = [d for d in found if d.code == "line-too-long"]
    assert len(long) == 1 and f"{MAX_LINE_BYTES:,}" in long[0].message and long[0].range.start.line == 8
    assert hover(doc.snapshot, lsp.Position(1, 2), True) is not None  # `workflow` elsewhere still hovers


def test_a_ten_megabyte_document_is_analysed_up_to_the_bound() -> None:
    step = "step s{i}\n  route s{j}\n\n"
    text = HEAD.replace("route s", "route s0") + "".join(step.format(i=i, j=i + 1) for i in range(450_000))
    assert len(text) > 10_000_000
    started = time.process_time()  # CPU time: what the server spends, whatever else the machine runs
    doc = OpenDocument(text, 1, None, None)
    found = diagnostics(doc.snapshot)
    assert time.process_time() - started < 10
    large = [d for d in found if d.code == "too-large"]
    assert len(large) == 1 and f"{MAX_ANALYSED_BYTES:,}" in large[0].message
    assert all(d.range.start.line <= large[0].range.start.line for d in found)
    assert hover(doc.snapshot, lsp.Position(1, 2), True) is not None


def test_schema_files_are_read_once_per_change_and_bounded(tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    schema = tmp_path / "t.json"
    schema.write_text(json.dumps({"type": "object", "properties": {"first": {"type": "string"}}}))
    doc_path = tmp_path / "doc.awl"
    text = '//! s\nworkflow w\n  input x: T\n\ntype T = schema("t.json")\n\nstep s\n  y = x.\n'
    reads: list[Path] = []
    real = schema_files._read
    monkeypatch.setattr(schema_files, "_read", lambda target: reads.append(target) or real(target))
    doc = OpenDocument(text, 1, doc_path, tmp_path)
    for version in range(2, 6):
        doc.edit([TextEdit(0, 3, 0, 3, "x")], version)
        labels = [c.label for c in complete(doc.snapshot, lsp.Position(7, 8))]
        diagnostics(doc.snapshot)
    assert "first" in labels
    assert len(reads) == 1
    schema.write_text(json.dumps({"type": "object", "properties": {"second": {"type": "string"}}}))
    os.utime(schema, ns=(time.time_ns() + 10**9, time.time_ns() + 10**9))
    doc.edit([TextEdit(0, 3, 0, 3, "x")], 9)
    assert "second" in [c.label for c in complete(doc.snapshot, lsp.Position(7, 8))]
    assert len(reads) == 2
    monkeypatch.setattr(schema_files, "MAX_SCHEMA_BYTES", 10)
    doc.edit([TextEdit(0, 3, 0, 3, "x")], 10)
    assert any("not read" in d.message for d in diagnostics(doc.snapshot))


def test_a_deep_schema_file_is_refused_not_a_crash(tmp_path: Path) -> None:
    (tmp_path / "deep.json").write_text("[" * 5000 + "]" * 5000)
    text = '//! s\nworkflow w\n  input x: T\n\ntype T = schema("deep.json")\n\nstep s\n'
    found = diagnostics(analyse_text(text, tmp_path / "doc.awl", tmp_path))
    assert any("nested" in d.message for d in found)


def test_json_nesting_counts_brackets_outside_strings_only() -> None:
    from awl_lsp.syntax.bounds import json_nesting

    text = "type A { x: [Int] }\n" * 600  # a document's text: 1,200 brackets, all in one string
    message = json.dumps({"params": {"textDocument": {"text": text}}})
    assert json_nesting(message, 4) == 0
    deep = "[" * 9 + '"a \\" ] [ {"' + "]" * 9
    assert json_nesting(deep, 4) == 9  # an escaped quote does not end the string
    assert json_nesting('[[[[[["never closed [[[[', 4) == 6  # the rest of an open string is string
    assert json_nesting("[[[[[[]]]]]]", 10) == 0  # no more brackets than the limit
