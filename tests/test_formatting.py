"""The canonical printer without the reference: the form itself, workloops, comments, safety, and
the LSP edits (whole document as small line edits, range formatting by top-level item)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fmt_perturb import PERTURBATIONS
from helpers import example, snap_of
from lsp_edits import apply_edits
from lsprotocol import types as lsp

from awl_lsp.features.formatting import format_document, format_range, format_text
from awl_lsp.features.printer import canonical_text

REPO = Path(__file__).resolve().parents[1]
WORKLOOPS = REPO / "tests" / "data" / "fmt" / "workloops"

MESSY = (
    "//! Orders in, receipts out.   \n"
    "\n"
    "workflow   orders\n"
    "  outcome done: type Receipt, route success\n"
    "  input order :Order\n"
    "  outcome failed_badly: type Receipt,route failure\n"
    "  timeout 1h\n"
    "step take\n"
    "  take( order : order,\n"
    '    note: "a  b" ,) -> receipt   // keep me\n'
    "  receipt|>  .id |> route done\n"
    "worker w\n"
    "  action take(order: Order, note: String) -> Receipt\n"
    "    node  desk,timeout 5m\n"
    "type Receipt {id: String}\n"
    "type Order {\n"
    "  id: String\n"
    "}\n"
    "const   limit=3\n"
)

CANONICAL = (
    "//! Orders in, receipts out.   \n"
    "\n"
    "workflow orders\n"
    "  timeout 1h\n"
    "  input order: Order\n"
    "  outcome done:         type Receipt, route success\n"
    "  outcome failed_badly: type Receipt, route failure\n"
    "const limit = 3\n"
    "type Receipt { id: String }\n"
    "type Order   { id: String }\n"
    "worker w\n"
    "  action take(order: Order, note: String) -> Receipt\n"
    "    node desk, timeout 5m\n"
    "step take\n"
    '  take(order: order, note: "a  b") -> receipt // keep me\n'
    "  receipt |> .id |> route done\n"
)


def test_a_messy_document_gets_the_canonical_form() -> None:
    # header clauses and declarations in canonical order, one space between tokens, aligned
    # outcome and type columns, strings untouched, the trailing comma gone, the comment kept
    assert canonical_text(MESSY) == CANONICAL


def test_the_lsp_edits_reproduce_it_and_touch_only_changed_lines() -> None:
    snap = snap_of(MESSY)
    edits = format_document(snap)
    assert apply_edits(MESSY, edits) == CANONICAL
    assert all(e.range.start.character == 0 for e in edits)
    assert format_text(snap) == CANONICAL
    # an already canonical document gets no edits; one changed line gets one small edit
    assert format_document(snap_of(CANONICAL)) == []
    one_off = CANONICAL.replace("const limit = 3", "const limit=3")
    edits = format_document(snap_of(one_off))
    assert len(edits) == 1 and edits[0].range.start.line == 7 and edits[0].new_text == "const limit = 3\n"


def test_documents_with_syntax_errors_get_no_edits_at_all() -> None:
    broken = MESSY.replace("  receipt|>  .id |> route done\n", "  receipt |> (\n")
    assert canonical_text(broken) is None
    assert format_document(snap_of(broken)) == []
    assert format_range(snap_of(broken), lsp.Range(lsp.Position(0, 0), lsp.Position(20, 0))) == []


def test_a_long_step_outcome_breaks_and_its_payload_wraps() -> None:
    text = (
        "//! n\nworkflow w\n  input a: String\n  outcome done: type R, route success\n"
        "type R { first_field: String, second_field: String, third_field: String }\n"
        "step s\n"
        '  outcome ok: when a == "x", route done(first_field: "a long value for the first field", '
        'second_field: a, third_field: "another quite long value")\n'
        "  outcome no: otherwise, route done\n"
    )
    assert canonical_text(text).split("step s\n")[1] == (
        '  outcome ok: when a == "x",\n'
        '    route done(first_field: "a long value for the first field", second_field: a,\n'
        '      third_field: "another quite long value")\n'
        "  outcome no: otherwise, route done\n"
    )


def test_comments_and_doc_lines_keep_their_words_and_lines() -> None:
    text = (
        "//! n\nworkflow w   // header\n  input a: String\n  outcome done: type R, route success\n\n"
        "/// The result.\ntype R {\n  /// Why.\n  why: String,   // trailing\n}\n\n"
        "step s\n      // over-indented\n  a |> route done\n"
    )
    assert canonical_text(text) == (
        "//! n\nworkflow w // header\n  input a: String\n  outcome done: type R, route success\n\n"
        "/// The result.\ntype R {\n  /// Why.\n  why: String, // trailing\n}\n\n"
        "step s\n  // over-indented\n  a |> route done\n"
    )


def test_if_and_else_keep_their_spelling() -> None:
    text = "//! n\nworkflow w\n  input a: Int\n  outcome done: type Int, route success\nstep s\n"
    text += "  outcome big: if a > 3, route done(a)\n  outcome small: else,   route done(a)\n"
    printed = canonical_text(text)
    assert printed is not None
    assert "outcome big: if a > 3, route done(a)\n  outcome small: else, route done(a)\n" in printed


def _workloop_documents() -> list[tuple[str, str]]:
    """The keyword reference's example documents (the project's copy) and our own workloops."""
    guide = (REPO / "awl_lsp" / "reference" / "keyword-reference.txt").read_text(encoding="utf-8")
    docs: dict[str, str] = {}
    for block in re.split(r"\n(?=[^\n]*\n\n• form)", guide):
        found = re.search(r"//!.*", block, re.S)
        if found:
            doc = found.group(0).rstrip("\n") + "\n"
            docs.setdefault(doc, f"keyword-reference {doc.splitlines()[1]}")
    for path in sorted(WORKLOOPS.glob("*.awl")):
        docs[path.read_text(encoding="utf-8")] = path.name
    return [(name, doc) for doc, name in docs.items()]


@pytest.mark.parametrize(("name", "doc"), _workloop_documents(), ids=lambda v: v if len(v) < 60 else "doc")
def test_workloops_print_in_the_keyword_reference_style(name: str, doc: str) -> None:
    # the examples are written in the canonical style: they print as themselves, and every
    # perturbed copy (alignment collapsed, spaces added, lines joined…) prints back to them
    assert canonical_text(doc) == doc, name
    for variant, perturb in PERTURBATIONS.items():
        assert canonical_text(perturb(doc)) == doc, f"{name}: {variant}"


def test_workloop_clauses_are_reordered_and_aligned_like_workflows() -> None:
    text = (
        "//! n\nworkloop w\n  retention 7d\n  report board: type Board\n  every 5m\n"
        "  invariant ok: type Board\n    confirms start\n    tolerance 3 windows\n"
        "type Board { n: Int }\ntype Sample { n: Int }\nstep s\n  answer board(n: 1)\n  route start\n"
        "retire\n  sleep 1s\n"
    )
    assert canonical_text(text) == (
        "//! n\nworkloop w\n  every 5m\n  report board: type Board\n  invariant ok: type Board\n"
        "    tolerance 3 windows\n    confirms start\n  retention 7d\n"
        "type Board  { n: Int }\ntype Sample { n: Int }\nstep s\n  answer board(n: 1)\n  route start\n"
        "retire\n  sleep 1s\n"
    )


def test_range_formatting_prints_only_the_items_it_touches() -> None:
    snap = snap_of(MESSY)
    # the range covers part of the `step take` lines only
    edits = format_range(snap, lsp.Range(lsp.Position(9, 2), lsp.Position(10, 5)))
    assert len(edits) == 1
    result = apply_edits(MESSY, edits)
    assert result == MESSY.replace(
        "step take\n"
        "  take( order : order,\n"
        '    note: "a  b" ,) -> receipt   // keep me\n'
        "  receipt|>  .id |> route done\n",
        "step take\n"
        '  take(order: order, note: "a  b") -> receipt // keep me\n'
        "  receipt |> .id |> route done\n",
    )
    # once printed, the same range has nothing more to do; a range on the worker prints the worker
    assert format_range(snap_of(result), lsp.Range(lsp.Position(8, 0), lsp.Position(9, 0))) == []
    edits = format_range(snap_of(result), lsp.Range(lsp.Position(11, 0), lsp.Position(11, 3)))
    assert [e.new_text for e in edits] == [
        "worker w\n  action take(order: Order, note: String) -> Receipt\n    node desk, timeout 5m"
    ]


@pytest.mark.parametrize("name", ["inbox_sweep.awl", "release_notes.awl"])
def test_the_examples_are_canonical_or_become_so_in_one_pass(name: str) -> None:
    text = example(name)
    once = canonical_text(text)
    assert once is not None
    assert apply_edits(text, format_document(snap_of(text))) == once
    assert format_document(snap_of(once)) == []


def test_line_breaks_byte_order_mark_and_empty_documents_survive() -> None:
    crlf = MESSY.replace("\n", "\r\n")
    assert canonical_text(crlf) == CANONICAL.replace("\n", "\r\n")
    assert apply_edits(crlf, format_document(snap_of(crlf))) == CANONICAL.replace("\n", "\r\n")
    bom = "\ufeff" + MESSY
    assert canonical_text(bom) == "\ufeff" + CANONICAL
    whole = lsp.Range(lsp.Position(0, 0), lsp.Position(30, 0))
    assert apply_edits(bom, format_range(snap_of(bom), whole)).startswith("\ufeff//! Orders in")
    for nothing in ("", "\n\n", "   "):
        assert canonical_text(nothing) is None and format_document(snap_of(nothing)) == []


def test_comments_are_spelt_as_the_engine_spells_them() -> None:
    head = "//! n\nworkflow w\n  input a: String\n  outcome done: type R, route success\n"
    text = head + "//tight\n//   wide\n// \n//\ntype R { a: String } /// after code\n"
    printed = "// tight\n//   wide\n//\n//\ntype R { a: String } // / after code\n"
    assert canonical_text(text) == head + printed
