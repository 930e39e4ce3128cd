"""Every construct the engine parses parses here; indentation is as strict as the engine's.

`tests/data/grammar/conformance/*.awl` are small workflows written from LANGUAGE.md, one per
construct or layout variant; the engine's own front end (`awl-reference check`) accepts every one
of them, and here they must parse with no ERROR or MISSING node and get no error diagnostic.
`newer/` holds workloops and `if`/`else` guards, which the reference does not know.
`layout/*.awl` each break one rule the engine's parser enforces and the grammar does not
(indentation, enum variants on lines of their own, parentheses); the first error here must be on
the line the engine names (`LAYOUT_LINES`, checked against the reference where it is present).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from helpers import snap_of

from awl_lsp.checks import Severity
from awl_lsp.features.diagnostics import findings
from awl_lsp.syntax import SyntaxDocument

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "grammar" / "conformance"
VALID = sorted(DATA.glob("*.awl"))
NEWER = sorted((DATA / "newer").glob("*.awl"))
LAYOUT = sorted((DATA / "layout").glob("*.awl"))

# The line (1-based) the engine rejects each layout document on, and a word of our message.
LAYOUT_LINES = {
    "binding_deep": (14, "indented"),
    "br_odd": (16, "two spaces"),
    "bracket_shallower": (15, "less indented"),
    "bracket_too_deep": (15, "levels deeper"),
    "config_too_deep": (13, "levels deeper"),
    "deep_statement": (14, "opens no block"),
    "field_deeper": (14, "field"),
    "field_shallower": (14, "field"),
    "fields_both_deep": (13, "levels deeper"),
    "header_deep": (4, "opens no block"),
    "odd_one_line": (14, "two spaces"),
    "odd_one_space": (14, "two spaces"),
    "odd_three": (13, "two spaces"),
    "outcome_route_too_deep": (15, "levels deeper"),
    "pipe_deep": (14, "levels deeper"),
    "enum_cont": (10, "enum variants"),
    "paren_condition": (10, "parentheses"),
    "paren_const": (9, "parentheses"),
    "fork_without_body": (12, "branches"),
    "header_word_indented": (2, "opens no block"),
    "action_under_action": (10, "opens no block"),
    "subflow_under_action": (12, "opens no block"),
}


def errors(path: Path) -> list[tuple[int, str]]:
    """(1-based line, message) of every error a user sees (`awl check`, the editor)."""
    found = findings(snap_of(path.read_text(encoding="utf-8")))
    return sorted((f.range[0] + 1, f.message) for f in found if f.severity is Severity.ERROR)


def error_nodes(path: Path) -> list[str]:
    tree = SyntaxDocument(path.read_text(encoding="utf-8")).tree
    bad, stack = [], [tree.root_node]
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            bad.append(f"{node.type} at {node.start_point.row + 1}:{node.start_point.column + 1}")
        stack.extend(node.children)
    return bad


def reference() -> Path | None:
    path = Path(os.environ.get("AWL_REFERENCE", ROOT.parent / "shared" / "bin" / "awl-reference"))
    if path.exists():
        return path
    if os.environ.get("AWL_REQUIRE_REFERENCE") == "1":
        pytest.fail(f"AWL_REQUIRE_REFERENCE=1 but the reference front end is not at {path}")
    pytest.skip(f"no reference front end at {path} ($AWL_REFERENCE): the engine's verdicts are not compared")
    return None


def engine_verdict(path: Path) -> tuple[str, int]:
    ref = reference()
    assert ref is not None
    command = [str(ref), "check", str(path)]
    out = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    first = out.stdout.strip().splitlines()[0].split("\t")
    return first[1], int(first[2])


def test_there_are_documents_for_every_part() -> None:
    assert len(VALID) >= 30 and NEWER and len(LAYOUT) == len(LAYOUT_LINES)


@pytest.mark.parametrize("path", VALID + NEWER, ids=lambda p: p.stem)
def test_valid_document_parses_and_checks_clean(path: Path) -> None:
    assert error_nodes(path) == []
    assert errors(path) == []


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_the_engine_accepts_the_valid_document(path: Path) -> None:
    assert engine_verdict(path) == ("OK", 0)


@pytest.mark.parametrize("path", LAYOUT, ids=lambda p: p.stem)
def test_the_engine_rejects_the_layout_document_on_its_line(path: Path) -> None:
    line, _ = LAYOUT_LINES[path.stem]
    assert engine_verdict(path) == ("PARSE", line)


@pytest.mark.parametrize("path", LAYOUT, ids=lambda p: p.stem)
def test_layout_error_is_reported_on_the_engines_line(path: Path) -> None:
    line, word = LAYOUT_LINES[path.stem]
    found = errors(path)
    assert any(row == line and word in message for row, message in found), found


@pytest.mark.parametrize("path", LAYOUT, ids=lambda p: p.stem)
def test_no_error_above_the_engines_line(path: Path) -> None:
    line, _ = LAYOUT_LINES[path.stem]
    assert min(row for row, _ in errors(path)) == line
