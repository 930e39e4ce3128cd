"""Semantic tokens: classification by what names resolve to, and the wire encoding (deltas, UTF-16)."""

from __future__ import annotations

from helpers import example, snap_of
from lsprotocol import types as lsp

from awl_lsp.features.documents import OpenDocument
from awl_lsp.features.semantic_tokens import (
    TOKEN_MODIFIERS,
    TOKEN_TYPES,
    decode,
    encode,
    semantic_tokens_full,
    semantic_tokens_range,
    tokens,
)
from awl_lsp.syntax import Encoding

WORKLOOP = example("inbox_sweep.awl")
WORKFLOW = example("release_notes.awl")


def classified(text: str, encoding: Encoding = Encoding.UTF16) -> list[tuple[int, int, int, str, set[str]]]:
    snap = OpenDocument(text, None, None, None, encoding).snapshot
    return decode(semantic_tokens_full(snap).data)


def token_at(text: str, needle: str, offset: int = 0, nth: int = 0) -> tuple[str, set[str]]:
    """The (type, modifiers) of the token starting at `needle` (+offset), in a UTF-16 reading."""
    index = -1
    for _ in range(nth + 1):
        index = text.index(needle, index + 1)
    index += offset
    line = text.count("\n", 0, index)
    col_text = text[text.rfind("\n", 0, index) + 1 : index]
    char = len(col_text.encode("utf-16-le")) // 2
    for tline, tchar, _, ttype, mods in classified(text):
        if (tline, tchar) == (line, char):
            return ttype, mods
    raise AssertionError(f"no token at {needle!r}")


def test_legend_is_consistent() -> None:
    assert len(set(TOKEN_TYPES)) == len(TOKEN_TYPES)
    assert {"function", "type", "property", "variable", "event", "enumMember", "parameter", "keyword"} <= set(
        TOKEN_TYPES
    )
    assert {"number", "string", "comment"} <= set(TOKEN_TYPES)
    assert {"readonly", "documentation", "declaration"} <= set(TOKEN_MODIFIERS)


def test_names_are_classified_by_what_they_resolve_to() -> None:
    t = WORKLOOP
    assert token_at(t, "list_new(inbox: inbox") == ("function", set())
    assert token_at(t, "action list_new", 7) == ("function", {"declaration"})
    assert token_at(t, "inbox: inbox, after", 0)[0] == "parameter"  # the argument name
    assert token_at(t, "inbox: inbox, after", 7) == ("variable", {"readonly"})  # the input it reads
    assert token_at(t, "after: last_seen", 7) == ("variable", set())  # a carry
    assert token_at(t, "-> batch", 3) == ("variable", {"declaration"})
    assert token_at(t, "batch.messages |>", 0) == ("variable", set())
    assert token_at(t, "batch.messages |>", 6) == ("property", set())
    assert token_at(t, "on nudge", 3) == ("event", set())
    assert token_at(t, "signal nudge", 7) == ("event", {"declaration"})
    assert token_at(t, "route start", 6) == ("enumMember", set())
    assert token_at(t, "route hand_off", 6) == ("function", set())
    assert token_at(t, "step hand_off", 5) == ("function", {"declaration"})
    assert token_at(t, "outcome quiet", 8) == ("enumMember", {"declaration"})
    assert token_at(t, "hatch triage_message", 6) == ("function", set())
    assert token_at(t, "answer status", 7)[0] == "property"
    assert token_at(t, "type Batch", 5) == ("type", {"declaration"})
    assert token_at(t, "-> Batch", 3) == ("type", set())
    assert token_at(t, "inbox: String", 7) == ("type", {"defaultLibrary"})
    assert token_at(t, "fork message", 5) == ("variable", {"declaration"})


def test_keywords_literals_and_comments() -> None:
    t = WORKLOOP
    assert token_at(t, "workloop inbox_sweep") == ("keyword", set())
    assert token_at(t, "every 10m") == ("keyword", set())
    assert token_at(t, "every 10m", 6) == ("number", set())
    assert token_at(t, '""') == ("string", set())
    assert token_at(t, "|> count", 3) == ("function", {"defaultLibrary"})  # a builtin combinator
    assert token_at(t, "tolerance unconfirmed") == ("keyword", set())
    assert token_at(t, "//! Sweep") == ("comment", {"documentation"})
    assert token_at(t, "/// Why somebody") == ("comment", {"documentation"})
    assert token_at(t, "-> batch") == ("operator", set())
    w = WORKFLOW
    assert token_at(w, "when draft.ready") == ("keyword", set())
    assert token_at(w, "decision is present", 9) == ("keyword", set())
    assert token_at(w, '"the draft never settled"') == ("string", set())
    # `success` names where the outcome goes, like `start`: an enum member on both sides
    assert token_at(w, "outcome published: type Published, route success", 41) == ("enumMember", set())


def test_contextual_keywords_used_as_names_are_names() -> None:
    text = (
        "//! Contextual words as names.\n"
        "workloop tally\n"
        "  every 5m\n"
        "  input report: String\n"
        '  carry key: String = ""\n'
        "  retention 1d\n"
        "\n"
        "const limit = 3\n"
        "type Totals { count: Int, retry: Bool }\n"
        "\n"
        "worker w\n"
        "  action total(report: String) -> Totals\n"
        "\n"
        "step tally_up\n"
        "  total(report: report) -> totals\n"
        "  outcome many: if totals.count > limit, route start(key: report)\n"
        "  outcome few: else, route start\n"
    )
    assert token_at(text, "input report", 6) == ("variable", {"declaration", "readonly"})
    assert token_at(text, "count: Int") == ("property", {"declaration"})
    assert token_at(text, "retry: Bool") == ("property", {"declaration"})
    assert token_at(text, "totals.count", 7) == ("property", set())
    assert token_at(text, "report: report)", 8) == ("variable", {"readonly"})
    assert token_at(text, "const limit", 6) == ("variable", {"declaration", "readonly"})
    assert token_at(text, "> limit", 2) == ("variable", {"readonly"})
    assert token_at(text, "key: report)") == ("parameter", set())  # an argument name, whatever it fills
    assert token_at(text, "carry key", 6) == ("variable", {"declaration"})


def _units(s: str, encoding: Encoding) -> int:
    if encoding is Encoding.UTF8:
        return len(s.encode("utf-8"))
    if encoding is Encoding.UTF16:
        return len(s.encode("utf-16-le")) // 2
    return len(s)


MULTIBYTE = (
    "//! Multibyte: ☕ and 🚀 before names.\n"
    "workflow brew\n"
    "  input cups: Int\n"
    "  outcome done: type Note, route success\n"
    "\n"
    "type Note { text: String, cups: Int }\n"
    "\n"
    "step pour\n"
    '  route done(text: "☕🚀 é", cups: cups)\n'
)


def test_multibyte_lines_have_correct_positions_in_every_encoding() -> None:
    line_no = MULTIBYTE.count("\n", 0, MULTIBYTE.index("  route done"))
    line = MULTIBYTE.split("\n")[line_no]
    for encoding in (Encoding.UTF16, Encoding.UTF8, Encoding.UTF32):
        toks = [t for t in classified(MULTIBYTE, encoding) if t[0] == line_no]
        starts = {t[1]: (t[2], t[3]) for t in toks}
        string_at = _units(line[: line.index('"')], encoding)
        assert starts[string_at] == (_units('"☕🚀 é"', encoding), "string")
        cups_arg = line.index("cups: cups")
        assert starts[_units(line[:cups_arg], encoding)] == (4, "parameter")  # the argument name
        cups_value = cups_arg + len("cups: ")
        assert starts[_units(line[:cups_value], encoding)] == (4, "variable")
        # the narration's length counts the emoji as two UTF-16 units
        first = classified(MULTIBYTE, encoding)[0]
        assert first[:3] == (0, 0, _units(MULTIBYTE.split("\n")[0], encoding))


def test_multiline_raw_string_is_split_per_line() -> None:
    text = (
        "//! Raw strings.\n"
        "workflow notes\n"
        "  outcome done: type String, route success\n"
        "\n"
        'const banner = """first ☕\n'
        "second line\n"
        '"""\n'
        "\n"
        "step s\n"
        "  route done(banner)\n"
    )
    row = text.count("\n", 0, text.index('"""'))
    toks = [t for t in classified(text) if t[3] == "string"]
    assert [(t[0], t[1], t[2]) for t in toks] == [
        (row, 15, len('"""first ☕')),
        (row + 1, 0, len("second line")),
        (row + 2, 0, 3),
    ]


def test_encoding_is_relative_and_sorted() -> None:
    snap = snap_of(WORKFLOW)
    absolute = tokens(snap)
    assert absolute == sorted(absolute)
    for (l1, c1, n1, *_), (l2, c2, *_) in zip(absolute, absolute[1:], strict=False):
        assert (l1, c1 + n1) <= (l2, c2), "tokens overlap"
    data = encode(absolute)
    assert len(data) == 5 * len(absolute)
    assert [(a, b, c) for a, b, c, *_ in decode(data)] == [(a, b, c) for a, b, c, *_ in absolute]
    assert data[:5] == [0, 0, len(WORKFLOW.split("\n")[0]), TOKEN_TYPES.index("comment"), 1 << 2]


def test_range_request_returns_the_tokens_of_those_lines() -> None:
    snap = snap_of(WORKLOOP)
    full = decode(semantic_tokens_full(snap).data)
    rng = lsp.Range(lsp.Position(30, 0), lsp.Position(34, 0))
    part = decode(semantic_tokens_range(snap, rng).data)
    assert part and all(30 <= t[0] <= 34 for t in part)
    assert [t[:4] for t in part] == [t[:4] for t in full if 30 <= t[0] <= 34]


def test_broken_document_still_gets_tokens() -> None:
    text = WORKLOOP.replace(
        "  list_new(inbox: inbox, after: last_seen) -> batch", "  list_new(inbox: inbox, after: "
    )
    toks = decode(semantic_tokens_full(snap_of(text)).data)
    assert any(t[3] == "keyword" for t in toks)
    assert any(t[3] == "function" for t in toks)


def test_full_tokens_reuse_items_and_match_a_fresh_classification() -> None:
    from awl_lsp.features.semantic_tokens import full_tokens, tokens
    from awl_lsp.syntax import TextEdit

    for name in ("inbox_sweep.awl", "release_notes.awl"):
        doc = OpenDocument(example(name), 1, None, None)
        assert full_tokens(doc.snapshot) == tokens(doc.snapshot)
        # an edit in one step, a line inserted above, a renamed declaration: still the same answer
        for edit in (TextEdit(3, 2, 3, 2, " "), TextEdit(1, 0, 1, 0, "\n"), TextEdit(20, 0, 20, 0, "x")):
            doc.edit([edit], 2)
            assert full_tokens(doc.snapshot) == tokens(doc.snapshot)
