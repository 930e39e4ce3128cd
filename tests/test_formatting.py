"""Formatting: white space only, indentation from the tree, idempotent, never changes the tree."""

from __future__ import annotations

import re

import pytest
from helpers import example, snap_of
from lsp_edits import apply_edits

from awl_lsp.features.formatting import format_document, format_text

EXAMPLES = ["inbox_sweep.awl", "release_notes.awl", "broken_hatch.awl"]

MESSY = (
    "//! Demo of every indentation rule.   \n"
    "workflow demo\n"
    "    input tag: String\t\n"
    "    // about the outcome\n"
    "    outcome done: type Out, route success\n"
    "\n"
    "\n"
    "\n"
    "\n"
    "type Out { tag: String, n: Int }\n"
    "type Pick = A\n"
    "     | B\n"
    'const note = """keep   \n'
    "      this   as is\n"
    '"""\n'
    "\n"
    "\n"
    "worker w\n"
    "   action make(tag: String,\n"
    "        n: Int) -> Out\n"
    "        node x, timeout 5m\n"
    "   action other(items: [String]) -> Int\n"
    "\n"
    "step one\n"
    "    // first\n"
    "    make(\n"
    "            tag: tag,\n"
    "            n: 1,\n"
    "    ) -> made\n"
    "    [tag] |> other\n"
    "          |> count -> c\n"
    "    fork t in [tag]\n"
    "        other(items: [t])\n"
    "    join -> counts\n"
    "    outcome ok: if c > 0 and counts is present,\n"
    "            route done(tag: made.tag, n: 2)\n"
    '    outcome no: else, route done(tag: "☕🚀", n: 1)\n'
    "    // a note at the end of the step\n"
    "\n"
    "// about step two\n"
    "step two\n"
    "  route done(tag: tag, n: [1,\n"
    "       2][0])"
)

FORMATTED = (
    "//! Demo of every indentation rule.\n"
    "workflow demo\n"
    "  input tag: String\n"
    "  // about the outcome\n"
    "  outcome done: type Out, route success\n"
    "\n"
    "type Out { tag: String, n: Int }\n"
    "type Pick = A\n"
    "  | B\n"
    'const note = """keep   \n'
    "      this   as is\n"
    '"""\n'
    "\n"
    "\n"
    "worker w\n"
    "  action make(tag: String,\n"
    "    n: Int) -> Out\n"
    "    node x, timeout 5m\n"
    "  action other(items: [String]) -> Int\n"
    "\n"
    "step one\n"
    "  // first\n"
    "  make(\n"
    "    tag: tag,\n"
    "    n: 1,\n"
    "  ) -> made\n"
    "  [tag] |> other\n"
    "    |> count -> c\n"
    "  fork t in [tag]\n"
    "    other(items: [t])\n"
    "  join -> counts\n"
    "  outcome ok: if c > 0 and counts is present,\n"
    "    route done(tag: made.tag, n: 2)\n"
    '  outcome no: else, route done(tag: "☕🚀", n: 1)\n'
    "  // a note at the end of the step\n"
    "\n"
    "// about step two\n"
    "step two\n"
    "  route done(tag: tag, n: [1,\n"
    "    2][0])\n"
)


def tokens_of(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_messy_document_is_normalised() -> None:
    snap = snap_of(MESSY)
    assert not snap.doc.root.has_error
    assert format_text(snap) == FORMATTED


def test_edits_reproduce_the_formatted_text() -> None:
    edits = format_document(snap_of(MESSY))
    assert edits
    assert apply_edits(MESSY, edits) == FORMATTED
    # whole-line edits only, in document order, none overlapping
    assert all(e.range.start.character == 0 for e in edits)


def test_formatting_is_idempotent_and_keeps_the_tree() -> None:
    once = format_text(snap_of(MESSY))
    assert once is not None
    assert format_text(snap_of(once)) == once
    assert format_document(snap_of(once)) == []
    assert str(snap_of(once).doc.root) == str(snap_of(MESSY).doc.root)
    assert tokens_of(once) == tokens_of(MESSY)


@pytest.mark.parametrize("name", EXAMPLES)
def test_examples_are_already_formatted(name: str) -> None:
    text = example(name)
    assert format_document(snap_of(text)) == []


@pytest.mark.parametrize("name", EXAMPLES)
@pytest.mark.parametrize("width", [1, 3, 4])
def test_other_indent_widths_come_back_to_two_spaces(name: str, width: int) -> None:
    text = example(name)
    wide = "\n".join(
        " " * ((len(line) - len(line.lstrip(" "))) // 2 * width) + line.lstrip(" ")
        for line in text.split("\n")
    )
    snap = snap_of(wide)
    assert str(snap.doc.root) == str(snap_of(text).doc.root)
    assert apply_edits(wide, format_document(snap)) == text


def test_document_with_syntax_errors_is_left_alone() -> None:
    text = MESSY.replace("    make(\n", "    make(\n    ->\n", 1)
    snap = snap_of(text)
    assert snap.doc.root.has_error
    assert format_document(snap) == []
    assert format_text(snap) is None


def test_final_newline_trailing_space_and_blank_runs() -> None:
    text = example("broken_hatch.awl").rstrip("\n")
    assert format_text(snap_of(text)) == text + "\n"
    text = example("broken_hatch.awl") + "\n\n\n"
    assert format_text(snap_of(text)) == example("broken_hatch.awl")
    two = example("broken_hatch.awl").replace("\nstep scan\n", "\n\nstep scan\n")
    assert format_text(snap_of(two)) == two  # two blank lines stay
    three = example("broken_hatch.awl").replace("\nstep scan\n", "\n\n\n\nstep scan\n")
    assert format_text(snap_of(three)) == example("broken_hatch.awl")
    spaces = example("broken_hatch.awl").replace("  every 5m\n", "  every 5m   \t\n")
    assert format_text(snap_of(spaces)) == example("broken_hatch.awl")


def test_crlf_line_endings_are_kept() -> None:
    text = MESSY.replace("\n", "\r\n")
    result = format_text(snap_of(text))
    assert result == FORMATTED.replace("\n", "\r\n")
    assert apply_edits(text, format_document(snap_of(text))) == result


def test_raw_string_and_json_bodies_are_untouched() -> None:
    text = (
        "//! Opaque bodies.\n"
        "workflow opaque\n"
        "    outcome done: type String, route success\n"
        "\n"
        "type Shape = schema {\n"
        '      "type": "object",   \n'
        '         "properties": { "a": { "type": "string" } }\n'
        "}\n"
        'const banner = """\n'
        "    indented   \n"
        '        more"""\n'
        "\n"
        "step s\n"
        "    route done(banner)\n"
    )
    result = format_text(snap_of(text))
    assert result is not None
    assert '      "type": "object",   \n         "properties"' in result
    assert '"""\n    indented   \n        more"""\n' in result
    assert "  outcome done: type String, route success\n" in result
    assert "  route done(banner)\n" in result
