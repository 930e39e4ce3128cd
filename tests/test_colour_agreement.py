"""One colour language: tree-sitter captures (highlights.scm) and semantic tokens agree token by token.

Before the server answers, editors colour with `tree-sitter-awl/queries/highlights.scm`; afterwards
semantic tokens take over. Each token must keep its colour family across that switch, so this test
walks every document we have (the corpus's, ours, the examples), classifies each token both ways,
and checks the pair against one mapping table. A capture maps to one semantic type, except where
only name resolution (which a query cannot do) tells the kinds apart — those rows say why.
"""

from __future__ import annotations

import os
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from tree_sitter import Query, QueryCursor

from awl_lsp.features.documents import analyse_text
from awl_lsp.features.token_classes import _Classifier, _leaves
from awl_lsp.syntax.errors import syntax_problems
from awl_lsp.syntax.parser import LANGUAGE

REPO = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("AWL_CORPUS") or REPO.parent / "shared" / "corpus").resolve()
HIGHLIGHTS = REPO / "tree-sitter-awl" / "queries" / "highlights.scm"

# capture -> the semantic tokens it may meet ("type" or "type+modifier"; None: no semantic token)
TABLE: dict[str | None, set[str | None]] = {
    "comment": {"comment"},
    "comment.documentation": {"comment+documentation"},
    "keyword": {"keyword"},
    "keyword.repeat": {"keyword"},
    "keyword.conditional": {"keyword"},
    "keyword.operator": {"keyword"},
    "boolean": {"keyword"},  # LSP has no boolean type; `true`/`false` are keywords there
    "module": {"namespace"},
    "type": {"type"},
    "type.definition": {"type+declaration"},
    "type.builtin": {"type+defaultLibrary"},
    "function": {"function"},
    "function.builtin": {"function+defaultLibrary"},
    # `answer report(…)` reads like a call; the name is the report (a property) it answers
    "function.call": {"function", "property"},
    "property": {"property"},
    "variable.parameter": {"parameter"},
    # a value name: a binding, a carry, a const or input (readonly), a subflow parameter, or a
    # signal (`event`) — only resolution tells them apart
    "variable": {"variable", "parameter", "event"},
    "variable.builtin": {"variable+defaultLibrary"},
    # a const (a readonly variable) or an enum variant; a TitleCase name nothing declares (an
    # unknown variant, which the checker reports) resolves to nothing and stays a plain variable
    "constant": {"variable+readonly", "enumMember", "variable"},
    "constant.builtin": {"enumMember"},  # `start`, `success`, `failure`
    # an outcome name; a route target is a step (function) or an outcome — resolution decides
    "label": {"enumMember", "function"},
    "string": {"string"},
    "string.special": {"string"},
    "number": {"number"},
    "operator": {"operator"},
    "punctuation.delimiter": {None},
    "punctuation.bracket": {None},
    None: {None},
}


def _documents() -> list[Path]:
    ours = sorted((REPO / "examples").glob("*.awl")) + sorted((REPO / "tests" / "data").rglob("*.awl"))
    if not CORPUS.is_dir():
        reason = f"AWL corpus not found at {CORPUS} (set AWL_CORPUS)"
        if os.environ.get("AWL_REQUIRE_CORPUS") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    return ours + sorted(CORPUS.rglob("*.awl"))


def _semantic(kind: tuple[str, tuple[str, ...]] | None, allowed: set[str | None]) -> str | None:
    """The table's spelling of a semantic token: its type, plus a modifier the table asks for."""
    if kind is None:
        return None
    token, mods = kind
    for entry in allowed:
        if entry is not None and "+" in entry:
            t, m = entry.split("+")
            if t == token and m in mods:
                return entry
    return token


def test_highlight_captures_and_semantic_tokens_agree_token_by_token() -> None:
    query = Query(LANGUAGE, HIGHLIGHTS.read_text(encoding="utf-8"))
    seen: Counter[tuple[str | None, str | None]] = Counter()
    wrong: list[str] = []
    docs = _documents()
    for path in docs:
        text = path.read_text(encoding="utf-8")
        snap = analyse_text(text, path, path.parent)
        captures: dict[tuple[int, int], list[str]] = defaultdict(list)
        for name, nodes in QueryCursor(query).captures(snap.doc.root).items():
            for node in nodes:
                captures[(node.start_byte, node.end_byte)].append(name)
        classifier = _Classifier(snap, snap.model.items)
        # lines with a syntax problem (a parse error, or a layout the engine refuses) are broken text:
        # neither side claims to know what their tokens are
        broken = {
            row
            for p in syntax_problems(snap.doc.tree, snap.doc.source, text)
            for row in range(p.range[0], p.range[2] + 1)
        }
        for leaf in _leaves(snap.doc.root, 0, snap.doc.lines.line_count):
            if leaf.start_byte == leaf.end_byte or leaf.has_error or (leaf.parent and leaf.parent.is_error):
                continue  # inside a syntax error neither side claims to know what a token is
            if leaf.start_point.row in broken:
                continue
            names = captures.get((leaf.start_byte, leaf.end_byte))
            if names is None and leaf.parent is not None and leaf.parent.child_count == 1:
                names = captures.get((leaf.parent.start_byte, leaf.parent.end_byte))
            assert names is None or len(set(names)) == 1, (path.name, leaf.start_point, names)
            capture = names[0] if names else None
            allowed = TABLE.get(capture)
            assert allowed is not None, f"capture @{capture} has no row in the table"
            semantic = _semantic(classifier.classify(leaf), allowed)
            seen[(capture, semantic)] += 1
            if semantic not in allowed:
                where = f"{path.name}:{leaf.start_point.row + 1}:{leaf.start_point.column + 1}"
                wrong.append(f"{where} `{snap.text(leaf)[:30]}`: @{capture} vs {semantic}")
    print(f"\n{sum(seen.values())} tokens in {len(docs)} documents; pairs: {dict(seen.most_common())}")
    assert not wrong, f"{len(wrong)} disagreements, e.g.\n" + "\n".join(wrong[:25])


def test_the_issue_examples_agree() -> None:
    """A route target to a step and `filter` were coloured differently by the two sides."""
    text = (REPO / "examples" / "inbox_sweep.awl").read_text(encoding="utf-8")
    snap = analyse_text(text.replace("|> count", "|> filter(.id is present) |> count"))
    query = Query(LANGUAGE, HIGHLIGHTS.read_text(encoding="utf-8"))
    caps = {
        (n.start_byte, n.end_byte): name
        for name, nodes in QueryCursor(query).captures(snap.doc.root).items()
        for n in nodes
    }
    classifier = _Classifier(snap, snap.model.items)
    source = snap.doc.source
    for word, capture, semantic in (("filter", "function.builtin", ("function", ("defaultLibrary",))),):
        start = source.index(word.encode())
        leaf = snap.doc.root.descendant_for_byte_range(start, start + len(word))
        assert caps[(leaf.start_byte, leaf.end_byte)] == capture
        assert classifier.classify(leaf) == semantic
