"""The keyword table (`awl_lsp/reference/keywords.py`) is the one list of AWL's words, and it is complete.

- the editor files it generates (`make keywords`) are what the generator writes now, and the
  generator rewrites only its marked regions;
- the grammar and the table know the same words: every word `grammar.json` spells as a literal
  token is a keyword of the table or one of its `NOT_KEYWORDS`, every keyword of the table is one
  the grammar spells, and every other literal token is punctuation the highlight query colours;
- each word is coloured by the highlight query as its class says, in its own hover example —
  through the generated lists or, for the words the table marks with a node, the hand-written
  patterns; each contextual word has a TextMate context pattern;
- a workflow is refused every workloop-only word it could hold (a header clause, a statement, a
  declaration), as the table's document kinds say;
- the keyword catalog (hover, `awl guide`), the completion slots and the other word-keyed maps
  of the server hold no word the table lacks, and completion offers none;
- the printer has a place for every header clause and declaration the grammar has.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest
import tree_sitter_awl
from lsprotocol import types as lsp
from tree_sitter import Language, Node, Parser, Query, QueryCursor

from awl_lsp.model import BUILTIN_TYPES as MODEL_BUILTIN_TYPES
from awl_lsp.reference import SLOTS, entries, entry, parse_keyword_reference, read_reference_text
from awl_lsp.reference.guide import FORM_ORDER
from awl_lsp.reference.keywords import (
    BUILTIN_TYPES,
    BY_WORD,
    KEYWORDS,
    KINDS,
    NOT_KEYWORDS,
    PLACES,
    ROLES,
    TABLE,
    WORKLOOP,
)
from awl_lsp.reference.parser import REFERENCE_KEYWORDS

REPO = Path(__file__).resolve().parents[1]
GRAMMAR_JSON = REPO / "tree-sitter-awl" / "src" / "grammar.json"
HIGHLIGHTS = REPO / "tree-sitter-awl" / "queries" / "highlights.scm"
TEXTMATE = REPO / "vscode-extension" / "syntaxes" / "awl.tmLanguage.json"
LANGUAGE = Language(tree_sitter_awl.language())
WORD = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_keywords", REPO / "tools" / "gen_keywords.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("gen_keywords", module)
    spec.loader.exec_module(module)
    return module


GEN = _generator()


# --- the generated files ---------------------------------------------------------------------


def test_the_generated_keyword_lists_are_current() -> None:
    stale = [str(p.relative_to(REPO)) for p in GEN.stale()]
    assert not stale, f"not what the keyword table generates: {stale}; run `make keywords`"


def _copy_generated(tmp_path: Path) -> Path:
    for region in (*GEN.TEXT_REGIONS, *GEN.JSON_REGIONS):
        target = tmp_path / region.path
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(REPO / region.path, target)
    return tmp_path


def test_the_generator_rewrites_only_its_regions(tmp_path: Path) -> None:
    root = _copy_generated(tmp_path)
    assert GEN.main([], root) == 0  # (current, whatever the clone's files are)
    scm = root / "tree-sitter-awl" / "queries" / "highlights.scm"
    text = scm.read_text(encoding="utf-8")
    # a word lost from a generated list, and a hand-written line changed outside the regions
    broken = text.replace('  "retention"\n', "", 1).replace("(comment) @comment", "(comment) @comment ; mine")
    scm.write_text(broken, encoding="utf-8")
    emacs = root / "editors" / "emacs" / "awl-mode.el"
    emacs.write_text(emacs.read_text(encoding="utf-8").replace('"retention"', "", 1), encoding="utf-8")
    assert sorted(GEN.stale(root)) == sorted([scm, emacs])
    assert GEN.main([], root) == 0
    assert GEN.stale(root) == []
    fixed = scm.read_text(encoding="utf-8")
    assert '  "retention"\n' in fixed
    assert "(comment) @comment ; mine" in fixed  # the hand-written text is kept
    assert fixed == text.replace("(comment) @comment", "(comment) @comment ; mine")


def test_a_file_without_its_markers_is_an_error_not_a_guess(tmp_path: Path) -> None:
    root = _copy_generated(tmp_path)
    lua = root / "editors" / "nvim" / "lua" / "awl" / "indent.lua"
    lua.write_text(lua.read_text(encoding="utf-8").replace("-- END generated block openers\n", ""))
    with pytest.raises(GEN.MarkerError, match="indent.lua: expected one region"):
        GEN.stale(root)


def test_the_check_names_the_command_to_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _copy_generated(tmp_path)
    tm = root / "vscode-extension" / "syntaxes" / "awl.tmLanguage.json"
    data = json.loads(tm.read_text(encoding="utf-8"))
    data["repository"]["keywords"]["patterns"].pop()
    tm.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    assert GEN.main(["--check"], root) == 1
    assert "awl.tmLanguage.json is not what the keyword table generates: run `make keywords`" in (
        capsys.readouterr().out
    )


# --- the table against itself and the grammar -------------------------------------------------


def test_every_row_uses_the_tables_vocabulary() -> None:
    assert len(BY_WORD) == len(TABLE), "a word is in the table twice"
    for k in TABLE:
        assert k.role in ROLES and k.place in PLACES and k.kinds in KINDS, k
        assert k.form in FORM_ORDER, f"{k.word}: form {k.form!r} is not one `awl guide` groups by"
        if k.role in GEN.BY_NODE_ROLES:
            assert k.node, f"{k.word}: a {k.role} is coloured through its node; say which"
        if k.opens_block:
            assert k.place == "line", f"{k.word} opens a block, so it opens a line"
    assert BUILTIN_TYPES == tuple(k.word for k in TABLE if k.role == "builtin-type")
    assert MODEL_BUILTIN_TYPES == BUILTIN_TYPES  # awl_lsp.model keeps its own copy (it sits below)


def _literal_tokens() -> set[str]:
    found: set[str] = set()

    def walk(rule: object) -> None:
        if isinstance(rule, dict):
            if rule.get("type") == "STRING":
                found.add(rule["value"])
            for value in rule.values():
                walk(value)
        elif isinstance(rule, list):
            for value in rule:
                walk(value)

    walk(json.loads(GRAMMAR_JSON.read_text(encoding="utf-8"))["rules"])
    return found


def test_the_grammar_spells_exactly_the_tables_keywords() -> None:
    words = {t for t in _literal_tokens() if WORD.match(t)}
    unknown = sorted(words - set(KEYWORDS) - set(NOT_KEYWORDS))
    assert not unknown, f"grammar.json spells words the keyword table lacks: {unknown} (add them to TABLE)"
    unspelt = sorted(set(KEYWORDS) - words)
    assert not unspelt, f"keywords the grammar does not know: {unspelt}"
    assert set(NOT_KEYWORDS) <= words, "NOT_KEYWORDS lists a word the grammar no longer spells"
    # the builtin types are names to the grammar, coloured by the type_identifier pattern
    fields = ", ".join(f"f{i}: {name}" for i, name in enumerate(BUILTIN_TYPES))
    tree = Parser(LANGUAGE).parse(f"type T {{ {fields} }}\n".encode())
    spelled = [n for n in _leaves(tree.root_node) if n.text.decode() in BUILTIN_TYPES]
    assert [n.type for n in spelled] == ["type_identifier"] * len(BUILTIN_TYPES)


def test_every_other_literal_token_is_punctuation_the_query_colours() -> None:
    others = {t for t in _literal_tokens() if not WORD.match(t)}
    listed = set(re.findall(r'^\s*"([^"\sA-Za-z]+)"$', HIGHLIGHTS.read_text(encoding="utf-8"), re.M))
    string_quotes = {'"', '"""'}  # inside (string) and (raw_string) nodes, coloured with them
    assert others - string_quotes == listed


# --- colours -----------------------------------------------------------------------------------

# the capture each class gets in highlights.scm
CAPTURE = {
    "declaration": "keyword",
    "clause": "keyword",
    "control": "keyword",
    "repeat": "keyword.repeat",
    "conditional": "keyword.conditional",
    "logical": "keyword.operator",
    "operator-word": "keyword.operator",
    "literal": "boolean",
    "target": "constant.builtin",
    "combinator": "function.builtin",
    "builtin-type": "type.builtin",
}
# where the same word is something else, by its parent node: (word, parent) -> capture
ELSEWHERE = {
    ("workflow", "workflow_builtin"): "variable.builtin",  # `workflow.id`
    ("failure", "on_failure"): "keyword",  # the `on failure` block
}


def _leaves(node: Node) -> list[Node]:
    if node.child_count == 0:
        return [node]
    return [leaf for child in node.children for leaf in _leaves(child)]


def test_each_word_is_coloured_as_its_class_says_in_its_own_example() -> None:
    highlights = Query(LANGUAGE, HIGHLIGHTS.read_text(encoding="utf-8"))
    wrong = []
    for k in TABLE:
        item = entry(k.word)
        assert item is not None and item.example, k.word
        source = item.example.encode() + b"\n"
        tree = Parser(LANGUAGE).parse(source)
        names: dict[tuple[int, int], list[str]] = {}
        for name, nodes in QueryCursor(highlights).captures(tree.root_node).items():
            for n in nodes:
                names.setdefault((n.start_byte, n.end_byte), []).append(name)
        spelled = [
            leaf
            for leaf in _leaves(tree.root_node)
            if leaf.text.decode() == k.word and leaf.type not in ("identifier", "comment", "narration")
        ]
        spelled = [leaf for leaf in spelled if not leaf.type.endswith("comment")]
        assert spelled, f"the example of {k.word!r} does not use it as a keyword"
        for leaf in spelled:
            parent = leaf.parent.type if leaf.parent is not None else ""
            want = ELSEWHERE.get((k.word, parent), CAPTURE[k.role])
            got = names.get((leaf.start_byte, leaf.end_byte)) or (
                names.get((leaf.parent.start_byte, leaf.parent.end_byte)) if leaf.parent else None
            )
            if got != [want]:
                wrong.append(f"{k.word} (row {leaf.start_point.row + 1}, in {parent}): {got}, want {want}")
    assert not wrong, "\n".join(wrong)


def test_words_coloured_through_a_node_have_a_pattern_for_it() -> None:
    text = HIGHLIGHTS.read_text(encoding="utf-8")
    patterns = re.sub(r"(?ms)^; BEGIN generated keywords.*?^; END generated keywords\n", "", text)
    for k in TABLE:
        if k.node:
            assert f"({k.node}" in patterns, f"{k.word}: no highlight pattern for ({k.node} …)"


def test_every_contextual_word_has_a_textmate_context_pattern() -> None:
    grammar = json.loads(TEXTMATE.read_text(encoding="utf-8"))
    contexts = [p["match"] for p in grammar["repository"]["contextual"]["patterns"]]
    for k in TABLE:
        if k.place == "context":
            assert any(re.search(rf"(?<![A-Za-z_]){k.word}(?![A-Za-z_])", m) for m in contexts), (
                f"{k.word!r} is a keyword only in context, and no TextMate `contextual` pattern names it"
            )


# --- the server's word sets --------------------------------------------------------------------


def test_the_catalog_is_the_table() -> None:
    assert [e.keyword for e in entries()] == [k.word for k in TABLE]
    for e in entries():
        k = BY_WORD[e.keyword]
        assert e.form == k.form
        assert e.workloop_only == (k.kinds == WORKLOOP)
        assert e.workflow_only == (k.kinds == "workflow")


def test_the_table_keeps_the_forms_the_users_reference_prints() -> None:
    for word, raw in parse_keyword_reference(read_reference_text()):
        assert BY_WORD[word].form == raw.form, word
        if word != "workloop":  # the reference documents workloop words
            assert BY_WORD[word].kinds == WORKLOOP, word
    assert set(REFERENCE_KEYWORDS) <= set(BY_WORD)


def test_every_word_is_offered_by_some_completion_slot_and_slots_offer_only_table_words() -> None:
    offered = {word for slot in SLOTS.values() for word in slot.keywords}
    assert offered <= set(BY_WORD), sorted(offered - set(BY_WORD))
    assert set(BY_WORD) <= offered, f"words no completion slot offers: {sorted(set(BY_WORD) - offered)}"


def test_the_servers_word_keyed_maps_name_only_table_words() -> None:
    from awl_lsp.checks import rules_workloop
    from awl_lsp.features import completion_context, completion_snippets, completion_tokens, signature_help
    from awl_lsp.syntax import expected

    maps = {
        "syntax/expected.py LINE_HINTS": set(expected.LINE_HINTS),
        "syntax/expected.py AFTER_WORDS": set(expected.AFTER_WORDS),
        "features/completion_snippets.py _FORMS": set(completion_snippets._FORMS),
        "features/completion_tokens.py _TOP_WORDS": set(completion_tokens._TOP_WORDS),
        "features/completion_context.py _CONFIG_WORDS": set(completion_context._CONFIG_WORDS),
        "features/completion_context.py _UNIQUE_CLAUSES": set(completion_context._UNIQUE_CLAUSES.values()),
        "features/signature_help.py _LEADS": set(signature_help._LEADS),
        "checks/rules_workloop.py _LOOP_CLAUSES": set(rules_workloop._LOOP_CLAUSES.values()),
    }
    for where, words in maps.items():
        assert words <= set(BY_WORD), (
            f"{where} names words the keyword table lacks: {sorted(words - set(BY_WORD))}"
        )
    assert completion_tokens._TOP_WORDS == set(SLOTS["top-level"].keywords)


COMPLETION_DOCUMENTS = [
    REPO / "examples" / "inbox_sweep.awl",
    REPO / "examples" / "release_notes.awl",
    REPO / "tests" / "data" / "grammar" / "release_train.awl",
]


@pytest.mark.parametrize("path", COMPLETION_DOCUMENTS, ids=lambda p: p.stem)
def test_completion_offers_no_keyword_the_table_lacks(path: Path) -> None:
    from awl_lsp.features.completion import complete
    from awl_lsp.features.snapshot import Snapshot
    from awl_lsp.model import ModelBuilder
    from awl_lsp.syntax import SyntaxDocument

    text = path.read_text(encoding="utf-8")
    doc = SyntaxDocument(text)
    snap = Snapshot(doc, ModelBuilder().build(doc.tree, doc.source))
    offered: set[str] = set()
    for row, line in enumerate(text.split("\n")):
        # the cursor after the indentation and after every word of the line
        stops = {len(line) - len(line.lstrip())} | {m.end() for m in re.finditer(r"\w+ ?", line)}
        for col in sorted(stops):
            for item in complete(snap, lsp.Position(row, col), snippet_ok=False):
                if item.kind == lsp.CompletionItemKind.Keyword:
                    offered.add(item.label)
    assert offered, "no keyword offered anywhere"
    assert offered <= set(BY_WORD), sorted(offered - set(BY_WORD))


PROBE = "//! Probe.\nworkflow probe\n  outcome done: type Int, route success\n\nstep s\n  route done(1)\n"


def _probe_with(word: str, slots: tuple[str, ...], example: str) -> tuple[str, int] | None:
    """A workflow using `word` as its example does, and the 0-based row it is used on."""
    lines = example.split("\n")
    for i, line in enumerate(lines):
        if line.strip().split(" ", 1)[0] != word:
            continue
        if "workloop-header" in slots and line.startswith("  ") and not line.startswith("   "):
            return PROBE.replace("route success\n", f"route success\n{line}\n", 1), 3
        if "top-level" in slots and not line.startswith(" "):
            block = [line] + [rest for rest in lines[i + 1 :] if rest.startswith(" ")]
            return PROBE + "\n" + "\n".join(block) + "\n", PROBE.count("\n") + 1
        if "step-body" in slots and line.startswith(" "):
            return PROBE.replace("step s\n", f"step s\n  {line.strip()}\n", 1), 5
    return None


def test_a_workflow_refuses_every_workloop_only_word_it_could_hold() -> None:
    from helpers import checker_problems

    probed = []
    for k in TABLE:
        item = entry(k.word)
        if k.kinds != WORKLOOP or item is None or item.example is None:
            continue
        made = _probe_with(k.word, item.slots, item.example)
        if made is None:
            continue  # (a word inside another workloop-only construct: refused with it)
        text, row = made
        codes = {p.code for p in checker_problems(text) if p.range[0] == row}
        assert "workloop-only" in codes, f"a workflow holding `{k.word}` is not refused:\n{text}"
        probed.append(k.word)
    assert {"carry", "report", "invariant", "retention", "hatch", "answer", "detached", "retire"} <= set(
        probed
    )


def _choice(rule: str) -> list[str]:
    rules = json.loads(GRAMMAR_JSON.read_text(encoding="utf-8"))["rules"]
    return [m["name"] for m in rules[rule]["members"] if m.get("type") == "SYMBOL"]


def test_the_printer_has_a_place_for_every_header_clause_and_declaration() -> None:
    from awl_lsp.features.printer.blocks import HEADER_ORDER, TOP_ORDER

    unplaced = sorted(set(_choice("_header_clause")) - set(HEADER_ORDER))
    assert not unplaced, f"header clauses without a place in printer/blocks.py HEADER_ORDER: {unplaced}"
    flows = {"workflow_declaration", "workloop_declaration", "unknown_declaration"}
    unplaced = sorted(set(_choice("_item")) - flows - set(TOP_ORDER))
    assert not unplaced, f"declarations without a place in printer/blocks.py TOP_ORDER: {unplaced}"
