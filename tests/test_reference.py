"""Keyword reference data layer: parsing the user's reference, own entries, slots, guide text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from awl_lsp.reference import (
    BUILTIN_TYPES,
    KEYWORDS,
    REFERENCE_KEYWORDS,
    SLOTS,
    SOURCE_OWN,
    SOURCE_REFERENCE,
    ReferenceFormatError,
    UnknownKeywordError,
    entries,
    entry,
    keywords_for_slot,
    parse_keyword_reference,
    read_reference_text,
    render_guide,
)
from awl_lsp.reference.guide import FORM_ORDER

SHARED = Path("/work/shared/awl")

# KEYWORDS.md: keyword, form and positions of each reference entry, in file order.
EXPECTED_REFERENCE = [
    ("workloop", "declaration", ("top-level",)),
    ("carry", "header-clause", ("workloop-header",)),
    ("invariant", "header-clause", ("workloop-header",)),
    ("tolerance", "header-clause", ("workloop-header",)),
    ("retention", "header-clause", ("workloop-header",)),
    ("hatch", "statement", ("step-body",)),
    ("retire", "declaration", ("top-level",)),
    ("detached", "declaration", ("top-level",)),
    ("windows", "header-clause", ("workloop-header",)),
    ("report", "header-clause", ("workloop-header",)),
    ("confirms", "header-clause", ("workloop-header",)),
    ("start", "target-word", ("route-target",)),
    ("unconfirmed", "header-clause", ("workloop-header",)),
    ("for", "header-clause", ("workloop-header",)),
    ("key", "statement", ("step-body",)),
]

TOLERANCE_SENTENCE = (
    "Declares when an unconfirmed invariant alarms — `N windows` of unhealthy samples or "
    "`unconfirmed for <duration>` — and has no default."
)

# The completion-slot vocabulary the server relies on.
EXPECTED_SLOTS = {
    "top-level": "workflow workloop const type worker child detached subflow step retire",
    "workflow-header": "timeout input signal outcome",
    "workloop-header": "every on input signal carry report invariant retention",
    "invariant-body": "tolerance confirms",
    "tolerance": "unconfirmed",
    "tolerance-count": "windows",
    "tolerance-unconfirmed": "for",
    "worker-body": "action",
    "action-config": "node timeout retry",
    "retry-schedule": "every backoff",
    "step-header": "after",
    "step-body": (
        "spawn hatch answer wait sleep fork loop distribute sequence collect step on route outcome max"
    ),
    "on-step": "failure",
    "loop-body": "spawn hatch answer wait sleep fork loop until max",
    "fork-body": "spawn hatch",
    "fork-header": "in sequential",
    "loop-header": "counting",
    "join": "join",
    "wait-tail": "timeout",
    "visits-tail": "visits",
    "hatch-tail": "key",
    "route-target": "start",
    "outcome-guard": "if else when otherwise",
    "header-outcome-route": "success failure",
    "header-outcome-type": "type",
    "expression": "not true false workflow json schema",
    "after-expression": "and or is",
    "is-test": "empty present absent",
    "pipe-stage": "filter map sort count any all route",
    "schema-door": "of",
    "type": "Bool Int Float String Nil Dir",
}

TOP_LEVEL_OPENERS = set(EXPECTED_SLOTS["top-level"].split())


# --- parsing the user's reference ---------------------------------------------------------


def test_reference_parses_into_fifteen_keyword_entries() -> None:
    parsed = parse_keyword_reference(read_reference_text())
    assert len(parsed) == 15
    assert [(kw, raw.form, raw.positions) for kw, raw in parsed] == EXPECTED_REFERENCE
    assert [kw for kw, _ in parsed] == list(REFERENCE_KEYWORDS)


def test_reference_descriptions_are_the_users_paragraphs() -> None:
    parsed = dict(parse_keyword_reference(read_reference_text()))
    assert parsed["workloop"].description.startswith("Declares perpetual work: a flow whose completion")
    assert parsed["tolerance"].description == TOLERANCE_SENTENCE
    assert parsed["key"].description.startswith("Carries a hatch's mandatory dedupe identity")
    for raw in parsed.values():
        assert "\n" not in raw.description
        assert "•" not in raw.description


def test_reference_examples_are_the_watch_documents() -> None:
    parsed = parse_keyword_reference(read_reference_text())
    for number, (keyword, raw) in enumerate(parsed, start=1):
        lines = raw.example.splitlines()
        expected = "mail_watch" if number in (13, 14) else "queue_watch"
        assert lines[0].startswith("//! "), keyword
        assert lines[1] == f"workloop {expected}", keyword
        assert lines[-1].startswith("  "), keyword  # ends inside the retire block
        assert "retire" in lines
        assert not any("•" in line for line in lines)
    examples = {raw.example for _, raw in parsed}
    assert len(examples) == 2


@pytest.mark.skipif(not (SHARED / "keyword-reference.txt").exists(), reason="shared reference absent")
def test_packaged_reference_is_verbatim() -> None:
    assert read_reference_text() == (SHARED / "keyword-reference.txt").read_text(encoding="utf-8")


def _reshape(text: str) -> str:
    """The reference with CRLF endings, a wrapped description, extra blank lines and no title."""
    text = text.replace("AWL workloops\n", "", 1)
    text = text.replace(TOLERANCE_SENTENCE, TOLERANCE_SENTENCE.replace(" — and", "\n— and"))
    text = text.replace("\n• positions", "\n\n• positions")
    return text.replace("\n", "\r\n")


def test_parser_tolerates_layout_variations() -> None:
    original = parse_keyword_reference(read_reference_text())
    reshaped = parse_keyword_reference(_reshape(read_reference_text()))
    assert [(kw, raw.description, raw.form, raw.positions) for kw, raw in reshaped] == [
        (kw, raw.description, raw.form, raw.positions) for kw, raw in original
    ]
    assert [raw.example for _, raw in reshaped] == [raw.example for _, raw in original]


def test_parser_rejects_a_wrong_entry_count() -> None:
    text = read_reference_text()
    truncated = text[: text.index("Carries a hatch's mandatory")]
    with pytest.raises(ReferenceFormatError, match="14 entries"):
        parse_keyword_reference(truncated)


def test_parser_rejects_an_entry_without_positions() -> None:
    text = read_reference_text().replace("• positions route-target\n", "", 1)
    with pytest.raises(ReferenceFormatError, match="positions"):
        parse_keyword_reference(text)


# --- the catalog --------------------------------------------------------------------------


def _language_keywords() -> tuple[list[str], list[str]]:
    text = (SHARED / "LANGUAGE.md").read_text(encoding="utf-8")
    section = text.split("## Keywords", 1)[1].split("\n", 1)[1]
    words, builtins = section.split("Builtin types:", 1)
    return words.replace(".", " ").split(), builtins.split(".", 1)[0].split()


def test_every_language_keyword_has_an_entry() -> None:
    assert len(KEYWORDS) == len(set(KEYWORDS))
    for word in (*KEYWORDS, *BUILTIN_TYPES):
        found = entry(word)
        assert found is not None, word
        assert found.keyword == word
    assert [item.keyword for item in entries()] == [*KEYWORDS, *BUILTIN_TYPES]


@pytest.mark.skipif(not (SHARED / "LANGUAGE.md").exists(), reason="shared LANGUAGE.md absent")
def test_keyword_list_matches_language_md() -> None:
    words, builtins = _language_keywords()
    assert words == list(KEYWORDS)
    assert builtins == list(BUILTIN_TYPES)


def test_reference_entries_keep_the_users_text() -> None:
    parsed = dict(parse_keyword_reference(read_reference_text()))
    for keyword in REFERENCE_KEYWORDS:
        item = entry(keyword)
        assert item is not None
        assert item.source == SOURCE_REFERENCE
        assert item.description == parsed[keyword].description
        assert item.example == parsed[keyword].example
    assert entry("tolerance").workloop_only
    assert not entry("workloop").workloop_only


def test_lookup_is_exact_and_cached() -> None:
    assert entry("fork") is entry("fork")
    assert entry("Fork") is None
    assert entry("bool") is None
    assert entry("nonsense") is None


def _own() -> list:
    return [item for item in entries() if item.source == SOURCE_OWN]


def test_own_entries_cover_every_non_reference_word() -> None:
    own = {item.keyword for item in _own()}
    assert own == set(KEYWORDS) - set(REFERENCE_KEYWORDS) | set(BUILTIN_TYPES)
    assert len(own) == 65


def test_own_entries_are_one_sentence_with_an_example() -> None:
    for item in _own():
        assert item.description.endswith("."), item.keyword
        prose = re.sub(r"`[^`]*`", "CODE", item.description)
        assert not re.search(r"[.!?]\s+[A-Z]", prose), item.keyword
        assert item.form and item.positions, item.keyword
        assert item.example and item.example.strip(), item.keyword
    for item in entries():
        if item.form in ("declaration", "statement"):
            assert item.example, item.keyword


def _check_top_level_shape(keyword: str, example: str) -> None:
    """Examples are whole top-level constructs: openers at column 0, two-space indentation."""
    depth = 0
    in_raw = False
    for line in example.splitlines():
        if not line.strip():
            continue
        if depth == 0 and not in_raw:
            indent = len(line) - len(line.lstrip(" "))
            assert indent % 2 == 0, (keyword, line)
            assert "\t" not in line, (keyword, line)
            if indent == 0:
                first = line.split()[0]
                assert first.startswith("//") or first in TOP_LEVEL_OPENERS, (keyword, line)
        if line.count('"""') % 2:
            in_raw = not in_raw
        if not in_raw:
            code = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line.split("//", 1)[0])
            depth += sum(code.count(c) for c in "([{") - sum(code.count(c) for c in ")]}")
        assert depth >= 0, (keyword, line)
    assert depth == 0 and not in_raw, keyword


def test_own_examples_are_top_level_awl_that_uses_the_word() -> None:
    for item in _own():
        assert item.example is not None
        _check_top_level_shape(item.keyword, item.example)
        assert re.search(rf"(?<![\w.]){re.escape(item.keyword)}\b", item.example), item.keyword
    assert "workflow.id" in entry("workflow").description
    assert "workflow.id" in entry("workflow").example


# --- hover text ---------------------------------------------------------------------------


def test_tolerance_markdown_has_the_reference_sentence_and_example() -> None:
    item = entry("tolerance")
    markdown = item.markdown()
    assert markdown.startswith("**tolerance** — header-clause · workloop-header")
    assert TOLERANCE_SENTENCE in markdown
    block = re.search(r"```awl\n(.*?)\n```", markdown, re.DOTALL)
    assert block is not None
    assert block.group(1) == item.example
    assert "    tolerance 3 windows" in block.group(1)


def test_plaintext_hover_has_no_markdown() -> None:
    text = entry("fork").plaintext()
    assert text.startswith("fork — statement · step-body")
    assert entry("fork").description in text
    assert "```" not in text and "**" not in text
    assert "\n      fork item in items" in text


# --- completion slots ---------------------------------------------------------------------


def test_slot_vocabulary() -> None:
    assert {name: " ".join(slot.keywords) for name, slot in SLOTS.items()} == EXPECTED_SLOTS


def test_workloop_header_slot() -> None:
    words = [item.keyword for item in keywords_for_slot("workloop-header")]
    assert words == ["every", "on", "input", "signal", "carry", "report", "invariant", "retention"]


def test_route_target_is_workloop_only() -> None:
    assert keywords_for_slot("route-target", workloop=False) == []
    assert [item.keyword for item in keywords_for_slot("route-target", workloop=True)] == ["start"]
    assert [item.keyword for item in keywords_for_slot("route-target")] == ["start"]


def test_flow_kind_filters() -> None:
    in_workflow = {item.keyword for item in keywords_for_slot("step-body", workloop=False)}
    assert "hatch" not in in_workflow and "answer" not in in_workflow and "spawn" in in_workflow
    routes = [item.keyword for item in keywords_for_slot("header-outcome-route", workloop=True)]
    assert routes == ["failure"]
    top = {item.keyword for item in keywords_for_slot("top-level", workloop=False)}
    assert "retire" not in top and "workflow" in top


def test_entry_slots_agree_with_the_vocabulary() -> None:
    for item in entries():
        assert item.slots, item.keyword
        for name in item.slots:
            assert item.keyword in SLOTS[name].keywords
    assert entry("timeout").slots == ("workflow-header", "action-config", "wait-tail")
    assert entry("route").slots == ("step-body", "pipe-stage")


def test_unknown_slot_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown completion slot"):
        keywords_for_slot("step_body")


# --- awl guide ----------------------------------------------------------------------------


def test_guide_index_groups_every_keyword_by_form() -> None:
    text = render_guide()
    lines = text.splitlines()
    headings = [line for line in lines if line and not line.startswith(" ") and not line.startswith("AWL")]
    assert headings == [form for form in FORM_ORDER if any(item.form == form for item in entries())]
    listed = [line.split()[0] for line in lines if line.startswith("  ")]
    assert sorted(listed) == sorted(item.keyword for item in entries())
    assert all(len(line) <= 88 for line in lines)
    assert all(len(line) <= 60 for line in render_guide(width=60).splitlines())


def test_guide_word_shows_the_full_entry() -> None:
    text = render_guide("tolerance", width=72)
    assert text.startswith("tolerance — header-clause · workloop-header · workloop only")
    assert " ".join(TOLERANCE_SENTENCE.split()) in " ".join(text.split())
    assert "\n        tolerance 3 windows\n" in text
    assert "Typed next in: invariant-body." in text
    assert "Source: the user's keyword reference." in text
    assert render_guide("bool").startswith("Bool — type")
    assert "Source: awl-lsp." in render_guide("fork")


def test_guide_unknown_word_suggests_close_matches() -> None:
    with pytest.raises(KeyError) as caught:
        render_guide("forc")
    error = caught.value
    assert isinstance(error, UnknownKeywordError)
    assert "fork" in error.suggestions and "for" in error.suggestions
    assert "'forc' is not an AWL keyword" in str(error)
    with pytest.raises(UnknownKeywordError) as nothing:
        render_guide("zzzzqq")
    assert nothing.value.suggestions == []


# --- examples against the grammar (when the tree-sitter binding is built) -----------------

_PROBE_HEADER = "//! probe\nworkflow probe\n  outcome done: type String, route success\n\n"


def test_every_example_parses_with_the_awl_grammar() -> None:
    tree_sitter = pytest.importorskip("tree_sitter")
    binding = pytest.importorskip("tree_sitter_awl")
    try:
        parser = tree_sitter.Parser(tree_sitter.Language(binding.language()))
    except Exception as error:  # binding present but not built for this interpreter
        pytest.skip(f"tree-sitter-awl not usable: {error}")
    failing = []
    for item in entries():
        assert item.example is not None
        opener = item.example.split()[0]
        source = item.example if opener in ("//!", "workflow", "workloop") else _PROBE_HEADER + item.example
        if parser.parse(f"{source}\n".encode()).root_node.has_error:
            failing.append(item.keyword)
    assert failing == []
