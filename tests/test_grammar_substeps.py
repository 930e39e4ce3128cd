"""Substeps in every statement block: a loop body, both fork forms, `on failure`, another substep.

The engine accepts a `step` nested in any statement block of a step, with `after` naming its
siblings. These tests check what a user sees: no syntax error, the nested steps in the outline,
and go-to-definition / find-references / the checker's flow rules seeing them.
"""

from __future__ import annotations

from pathlib import Path

from helpers import checker_errors, pos, snap_of

from awl_lsp.features.definition import definition, references
from awl_lsp.features.symbols import document_symbols
from awl_lsp.syntax import SyntaxDocument

DOC = Path(__file__).parent / "data" / "grammar" / "conformance" / "substeps_everywhere.awl"
URI = "file:///substeps_everywhere.awl"


def _no_error_nodes(text: str) -> list[str]:
    tree = SyntaxDocument(text).tree
    bad: list[str] = []
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            bad.append(f"{node.type} at {node.start_point.row + 1}:{node.start_point.column + 1}")
        stack.extend(node.children)
    return bad


def test_substeps_in_every_block_parse_and_check_clean() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert _no_error_nodes(text) == []
    assert checker_errors(text) == []


def _outline(symbols, depth: int = 0) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    for s in symbols:
        out.append((depth, s.name))
        out.extend(_outline(s.children or [], depth + 1))
    return out


def test_nested_steps_appear_in_the_outline_under_their_step() -> None:
    outline = _outline(document_symbols(snap_of(DOC.read_text(encoding="utf-8"))))
    begin = outline.index((0, "begin"))
    nested = {name for depth, name in outline[begin + 1 :] if depth == 1}
    assert {"tick", "tock", "first", "second", "left", "right", "cleanup", "outer"} <= nested
    assert (2, "innermost") in outline


def test_after_in_a_fork_branch_goes_to_the_sibling_step() -> None:
    text = DOC.read_text(encoding="utf-8")
    snap = snap_of(text)
    loc = definition(snap, pos(text, "after first", len("after ")), URI)
    assert loc is not None
    assert loc.range.start == pos(text, "step first", len("step "))
    refs = references(snap, pos(text, "step first", len("step ")), URI, include_declaration=False)
    assert [r.range.start for r in refs] == [pos(text, "after first", len("after "))]


def test_after_naming_an_unknown_step_inside_a_loop_is_still_reported() -> None:
    text = DOC.read_text(encoding="utf-8").replace("step tock after tick", "step tock after tack")
    assert any("tack" in msg for _, msg in checker_errors(text))
