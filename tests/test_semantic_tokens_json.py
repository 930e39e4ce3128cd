"""Semantic tokens sent as ready-made JSON text: exactly the integers `semantic_tokens_full` gives,
edit after edit (only each item's first token is re-encoded), and over stdio the same answer a
client would get from the feature in-process."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from lsprotocol import types as lsp

from awl_lsp.documents import OpenDocument
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
