"""The indentation scanner under incremental re-parsing: an edited tree re-parsed equals a fresh parse.

tree-sitter reuses a token when the scanner state before it is unchanged, and treats a token as
depending on its column only when the scanner produced it. So the scanner may decide nothing on a
column's value except "line start or not"; whether a line is long enough to stop asking for columns
is read from the line's text by the token before it. These edits move tokens across that bound (and
back), on the first line, on ordinary lines and on lines that continue a bracket, and the time of
the lines that have no token of their own before them stays linear.
"""

from __future__ import annotations

import time

import pytest
import tree_sitter_awl
from tree_sitter import Language, Parser, Point

LANGUAGE = Language(tree_sitter_awl.language())

BASE = (
    "workflow w\n"
    "  input a: Int\n"
    "  outcome done: type Out, route finish\n"
    "\n"
    "type Out { n: Int }\n"
    "\n"
    "step finish\n"
    "  f(\n"
    "    a, b)\n"
    "  route done(n: a)\n"
)


def _point(text: bytes, offset: int) -> Point:
    before = text[:offset]
    return Point(before.count(b"\n"), offset - (before.rfind(b"\n") + 1))


def _edited(text: bytes, edits: list[tuple[bytes, bytes]]) -> None:
    """Apply each (anchor, inserted) edit right before the first `anchor`; after each, the re-parse of
    the edited tree must print as a fresh parse of the same text."""
    parser = Parser(LANGUAGE)
    tree = parser.parse(text)
    for anchor, inserted in edits:
        at = text.index(anchor)
        new = text[:at] + inserted + text[at:]
        tree.edit(
            start_byte=at,
            old_end_byte=at,
            new_end_byte=at + len(inserted),
            start_point=_point(text, at),
            old_end_point=_point(text, at),
            new_end_point=_point(new, at + len(inserted)),
        )
        text = new
        tree = parser.parse(text, tree)
        assert str(tree.root_node) == str(Parser(LANGUAGE).parse(text).root_node), text.decode()


WIDE = b"type T { x: Int } " * 3  # pushes what follows on its line past the long-line bound


@pytest.mark.parametrize(
    "edits",
    [
        [(b"outcome done", WIDE)],  # a header line grows long before its reused tokens
        [(b"route done(n: a)", b"x "), (b"route done(n: a)", WIDE)],
        [(b"workflow w", WIDE)],  # the first line
        [(b"a, b)", WIDE)],  # a line that continues a bracket
    ],
    ids=["header-line", "step-line", "first-line", "bracket-line"],
)
def test_tokens_pushed_past_the_long_line_bound_parse_as_fresh(edits: list[tuple[bytes, bytes]]) -> None:
    _edited(BASE.encode(), edits)


FUZZED = (
    b"//! a small workflow for edit fuzzing\n"
    + BASE.split("step finish")[0].encode()
    + (b"step finish\n  route done(n: a)\n")
)

# Edit sequences (start, end, inserted; byte offsets in the text of the moment) from a differential
# fuzz over FUZZED that the scanner with column-valued "long line" decisions parsed differently
# incrementally than afresh: broken text, where a missing state change alters error recovery.
SEQUENCES = [
    [(65, 65, b"type T { x: Int }"), (72, 72, b"step stype T { x: Int }")],
    [
        (7, 50, b""),
        (25, 92, b"step s| Bxx"),
        (28, 28, b"  route done(n: 1)   route done(n: 1)"),
        (51, 51, b"input b: Inttype T { x: Int }"),
    ],
    [
        (72, 72, b"json {"),
        (30, 30, b"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaworkflow {"),
        (76, 76, b"| B]]aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"),
        (38, 91, b"-> ystep sstep s"),
        (31, 31, b"\n)type T { x: Int }"),
    ],
    [
        (123, 150, b",,"),
        (102, 102, b"\toutcome  "),
        (1, 81, b"\t["),
        (9, 9, b"\t| Baaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"),
        (15, 15, b"x\t  route done(n: 1)-> y"),
    ],
    [
        (66, 66, b"]workflowaworkflow"),
        (23, 23, b"| B]\n"),
        (53, 53, b"  -> y\xf0\x9f\x98\x80"),
        (131, 131, b"(\xc3\xa9| B "),
        (88, 88, b"type T { x: Int }workflow"),
    ],
]


@pytest.mark.parametrize("edits", SEQUENCES, ids=[f"sequence-{i}" for i in range(len(SEQUENCES))])
def test_fuzzed_edit_sequences_parse_as_fresh(edits: list[tuple[int, int, bytes]]) -> None:
    parser = Parser(LANGUAGE)
    text = FUZZED
    tree = parser.parse(text)
    for start, end, inserted in edits:
        new = text[:start] + inserted + text[end:]
        tree.edit(
            start_byte=start,
            old_end_byte=end,
            new_end_byte=start + len(inserted),
            start_point=_point(text, start),
            old_end_point=_point(text, end),
            new_end_point=_point(new, start + len(inserted)),
        )
        text = new
        tree = parser.parse(text, tree)
        assert str(tree.root_node) == str(Parser(LANGUAGE).parse(text).root_node), text


def test_a_long_line_made_short_parses_as_fresh() -> None:
    long = BASE.replace("  input a: Int\n", "  input a: Int " + "// " + "x" * 80 + "\n").encode()
    parser = Parser(LANGUAGE)
    tree = parser.parse(long)
    start = long.index(b"// ")
    end = long.index(b"\n", start)
    text = long[:start] + long[end:]
    tree.edit(
        start_byte=start,
        old_end_byte=end,
        new_end_byte=start,
        start_point=_point(long, start),
        old_end_point=_point(long, end),
        new_end_point=_point(long, start),
    )
    assert str(parser.parse(text, tree).root_node) == str(Parser(LANGUAGE).parse(text).root_node)


def _seconds(text: str) -> float:
    """The parser's CPU time for `text`, the least of three runs (a loaded machine only adds)."""
    parser = Parser(LANGUAGE)
    source = text.encode()
    spent = []
    for _ in range(3):
        start = time.process_time()
        parser.parse(source)
        spent.append(time.process_time() - start)
    return min(spent)


@pytest.mark.parametrize(
    "make",
    [
        lambda n: "x " * (7 * n) + "\n",  # a long first line: no token of the scanner before it
        lambda n: "workflow w\n\nstep a\n  f(\n    " + "a, " * (4 * n) + "b)\n",  # continues a bracket
    ],
    ids=["first-line", "bracket-line"],
)
def test_lines_without_a_line_token_before_them_scale_linearly(make) -> None:  # noqa: ANN001
    small = _seconds(make(2_000))
    large = _seconds(make(16_000))
    # eight times the text; asking for the column at every token took ~64 times as long (minutes)
    assert large < 20 * max(small, 0.005), (small, large)
