"""Layout rules around brackets: only a bracket left open at a line's end makes the next line a
continuation. A bracket inside a string or after `//` opens nothing, a call closed on its own line
leaves the next line to the ordinary indentation rules, and line endings (`\\n` or `\\r\\n`) do not
change what is found. (`layout_problems` skips counting brackets for a declaration whose lines
each close what they open; the last test holds that shortcut to the full count.)"""

from __future__ import annotations

import random

import pytest
from helpers import example

from awl_lsp.syntax import SyntaxDocument, layout
from awl_lsp.syntax.errors import syntax_problems

HEAD = """workloop sorter
  every 5m
  input region: String
  report board: type Board
  invariant steady: type Board
    tolerance 3 windows
    confirms start
  retention 3d

type Board { pending: Int }

worker hands
  action pick(region: String, note: String) -> Board

"""


def _codes(text: str) -> list[tuple[int, str]]:
    doc = SyntaxDocument(text)
    return [(p.range[0], p.code) for p in syntax_problems(doc.tree, doc.source, doc.text)]


def _row(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n")


def test_a_step_whose_lines_close_their_brackets_has_no_layout_problem() -> None:
    text = (
        HEAD
        + "step scan\n  pick(region: region, note: region) -> got\n"
        + "  answer board(pending: got.pending)\n  route start\n"
    )
    assert _codes(text) == []


@pytest.mark.parametrize(
    "opener",
    [
        '  pick(region: region, note: "(") -> got\n',  # a bracket in a string
        "  pick(region: region, note: region) -> got // (see below\n",  # a bracket in a comment
    ],
)
def test_a_bracket_in_a_string_or_comment_opens_no_continuation(opener: str) -> None:
    text = HEAD + "step scan\n" + opener + "    answer board(pending: got.pending)\n  route start\n"
    assert (_row(text, "    answer"), "unexpected-indent") in _codes(text)


def test_a_call_continued_on_a_less_indented_line_is_named() -> None:
    text = HEAD + "step scan\n  pick(region: region,\n note: region) -> got\n  route start\n"
    codes = _codes(text)
    assert (_row(text, " note: region)"), "odd-indent") in codes


def test_a_call_continued_deeper_is_a_continuation_not_an_indent() -> None:
    text = HEAD + "step scan\n  pick(region: region,\n    note: region) -> got\n  route start\n"
    assert _codes(text) == []


def test_crlf_line_endings_find_the_same_layout_problems() -> None:
    text = (
        HEAD
        + "step scan\n  pick(region: region, note: region) -> got\n"
        + "    answer board(pending: 1)\n  route start\n"
    )
    crlf = text.replace("\n", "\r\n")
    assert _codes(crlf) == _codes(text)
    assert (_row(text, "    answer"), "unexpected-indent") in _codes(text)


def _variants(seed: int, count: int) -> list[str]:
    """The examples, and copies with brackets, strings, comments and indentation spliced in."""
    bases = [example(name) for name in ("inbox_sweep.awl", "release_notes.awl", "broken_hatch.awl")]
    pieces = ["(", ")", "[", "]", "{", "}", '"', '"("', "// (", "\n", "\n  ", "\n    ", "\r", ",", "x"]
    rng = random.Random(seed)
    out = list(bases)
    for _ in range(count):
        text = rng.choice(bases)
        for _ in range(rng.randint(1, 4)):
            at = rng.randint(0, len(text))
            text = text[:at] + rng.choice(pieces) + text[at + rng.randint(0, 2) :]
        out.append(text)
    return out


def test_skipping_the_bracket_count_finds_what_counting_finds(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = _variants(5, 300)
    quick = [_codes(text) for text in texts]
    monkeypatch.setattr(layout, "_closed_per_line", lambda text: False)  # count every line's brackets
    assert [_codes(text) for text in texts] == quick
    assert any(quick) and not all(quick)  # (both kinds of document were read)
