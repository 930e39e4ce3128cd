"""Semantic tokens sent as ready-made JSON text: exactly the integers `semantic_tokens_full` gives,
edit after edit (only each item's first token is re-encoded), and over stdio the same answer a
client would get from the feature in-process."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from lsprotocol import types as lsp

from awl_lsp.features.documents import OpenDocument
from awl_lsp.features.semantic_tokens import (
    semantic_tokens_delta,
    semantic_tokens_full,
    semantic_tokens_full_json,
)
from awl_lsp.syntax import TextEdit

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from generate import document  # noqa: E402
from raw_lsp import RawServer  # noqa: E402

PIECES = ["7", "\n  ", "x_1 ", '"☕🚀 é" ', "  outcome extra: else, route start\n", "", "step more\n"]


def _same_answer(doc: OpenDocument) -> None:
    expected = semantic_tokens_full(doc.snapshot).data
    encoded = json.loads(semantic_tokens_full_json(doc.snapshot))
    assert set(encoded) == {"resultId", "data"}
    assert encoded["data"] == expected
    # the id names what was sent: a delta against it from the same version changes nothing
    unchanged = semantic_tokens_delta(doc.snapshot, encoded["resultId"])
    assert isinstance(unchanged, lsp.SemanticTokensDelta) and unchanged.edits == []


def test_the_json_text_is_the_full_answer_edit_after_edit() -> None:
    rng = random.Random(5)
    doc = OpenDocument(document(400), 1, None, None)
    _same_answer(doc)
    for version in range(2, 40):
        lines = doc.syntax.text.split("\n")
        row = rng.randrange(len(lines))
        col = rng.randrange(len(lines[row]) + 1)
        if rng.random() < 0.2 and row + 1 < len(lines):
            edit = TextEdit(row, 0, row + 1, 0, "")
        else:
            edit = TextEdit(row, col, row, col, rng.choice(PIECES))
        doc.edit([edit], version)
        if version % 3:  # (some versions are never asked for)
            _same_answer(doc)


def test_an_empty_document_and_one_of_comments_only() -> None:
    for text in ["", "\n\n", "// only a comment\n"]:
        _same_answer(OpenDocument(text, 1, None, None))


def test_over_stdio_the_answer_is_the_features_tokens() -> None:
    text = document(300) + 'workflow other\n  input x: String = "☕🚀 é"\n'
    server = RawServer()
    try:
        server.initialize()
        uri = "file:///tokens.awl"
        server.open(uri, text)
        answer = server.request("textDocument/semanticTokens/full", {"textDocument": {"uri": uri}})
        expected = semantic_tokens_full(OpenDocument(text, 1, None, None).snapshot)
        assert answer["result"]["data"] == expected.data
        again = server.request(
            "textDocument/semanticTokens/full/delta",
            {"textDocument": {"uri": uri}, "previousResultId": answer["result"]["resultId"]},
        )
        assert again["result"]["edits"] == []  # the id the JSON text carried is the one remembered
    finally:
        server.close()


COMMENTS = ["// a note\n", "/// documented\n", "//! narration\n", "  // indented\n", "\n", " // after\n", "x"]


def test_comments_between_items_and_after_the_last_one_stay_exact() -> None:
    """Tokens are kept per item with the comments above it: comments added, removed or edited
    between items, and after the last item, give what a fresh open gives (full, JSON and delta)."""
    rng = random.Random(11)
    text = document(120) + "// the end\n//! and narration\n"
    doc = OpenDocument(text, 1, None, None)
    sent = semantic_tokens_full(doc.snapshot)
    for version in range(2, 70):
        lines = doc.syntax.text.split("\n")
        row = rng.randrange(len(lines))
        if rng.random() < 0.25 and row + 1 < len(lines):
            edit = TextEdit(row, 0, row + 1, 0, "")
        elif rng.random() < 0.5:
            edit = TextEdit(row, 0, row, 0, rng.choice(COMMENTS))  # at a line start: between items, often
        else:
            col = len(lines[row])
            edit = TextEdit(row, col, row, col, rng.choice(COMMENTS).rstrip("\n"))  # a comment at a line end
        doc.edit([edit], version)
        fresh = semantic_tokens_full(OpenDocument(doc.syntax.text, 1, None, None).snapshot).data
        delta = semantic_tokens_delta(doc.snapshot, sent.result_id or "")
        assert isinstance(delta, lsp.SemanticTokensDelta)
        have = list(sent.data)
        for e in reversed(delta.edits):
            have[e.start : e.start + e.delete_count] = e.data or []
        assert have == fresh, f"after edit {version}: {edit}"
        assert json.loads(semantic_tokens_full_json(doc.snapshot))["data"] == fresh
        sent = lsp.SemanticTokens(
            data=fresh, result_id=json.loads(semantic_tokens_full_json(doc.snapshot))["resultId"]
        )


def test_many_items_changed_at_once_are_found_in_one_pass() -> None:
    """An edit that changes more items than the cursor walks for (a declaration every step reads
    renamed: the action every step calls) still gives a fresh open's tokens."""
    text = document(1000)
    doc = OpenDocument(text, 1, None, None)
    semantic_tokens_full(doc.snapshot)
    row = text.split("\n").index("worker common") + 1
    assert text.split("\n")[row].startswith("  action split(")
    doc.edit([TextEdit(row, 9, row, 14, "chop")], 2)
    fresh = semantic_tokens_full(OpenDocument(doc.syntax.text, 1, None, None).snapshot).data
    assert semantic_tokens_full(doc.snapshot).data == fresh
    assert json.loads(semantic_tokens_full_json(doc.snapshot))["data"] == fresh


def test_a_range_gives_the_whole_documents_tokens_on_its_rows() -> None:
    """A range request finds its first item by bisection: the tokens on the range's rows are the
    whole document's tokens on those rows, wherever the range starts (comments, items sharing a
    line, the end of the document)."""
    from awl_lsp.features.semantic_tokens import tokens

    text = document(200) + "// the end\nstep a\n  outcome x: else, route a\n"
    text = text.replace("type Board { seen: Int }\n", "type Board { seen: Int }\n// between\n/// doc\n")
    doc = OpenDocument(text, 1, None, None)
    doc.edit([TextEdit(3, 0, 3, 0, "// typed\n")], 2)
    everything = tokens(doc.snapshot)
    rows = len(doc.syntax.text.split("\n"))
    rng = random.Random(3)
    for first in [0, 1, 5, 11, 12, 13, rows - 3, rows - 1, *rng.sample(range(rows), 25)]:
        last = min(rows, first + rng.choice([0, 1, 7, 60]))
        assert tokens(doc.snapshot, first, last) == [t for t in everything if first <= t[0] <= last], first
