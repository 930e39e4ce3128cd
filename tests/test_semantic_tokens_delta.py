"""`full/delta` on a large document: a client applying the edits ends with the tokens of a fresh
open, edit after edit (the comparison of old and new tokens works a block at a time)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from lsprotocol import types as lsp

from awl_lsp.features.documents import OpenDocument
from awl_lsp.features.semantic_tokens import semantic_tokens_delta, semantic_tokens_full
from awl_lsp.syntax import TextEdit

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from generate import document  # noqa: E402

PIECES = [
    "7",
    "\n  ",
    "x_1 ",
    "  outcome extra: else, route start\n",
    "",
    "step more\n  answer board(seen: 1)\n",
]


def test_deltas_over_many_edits_rebuild_what_a_fresh_open_sends() -> None:
    rng = random.Random(11)
    doc = OpenDocument(document(700), 1, None, None)
    first = semantic_tokens_full(doc.snapshot)
    held, result_id = list(first.data), first.result_id or ""
    for version in range(2, 30):
        lines = doc.syntax.text.split("\n")
        row = rng.randrange(len(lines))
        col = rng.randrange(len(lines[row]) + 1)
        if rng.random() < 0.25 and row + 1 < len(lines):
            edit = TextEdit(row, 0, row + 1, 0, "")
        else:
            edit = TextEdit(row, col, row, col, rng.choice(PIECES))
        doc.edit([edit], version)
        answer = semantic_tokens_delta(doc.snapshot, result_id)
        if isinstance(answer, lsp.SemanticTokensDelta):
            for e in sorted(answer.edits, key=lambda e: e.start, reverse=True):
                held[e.start : e.start + e.delete_count] = list(e.data or [])
        else:
            held = list(answer.data)
        result_id = answer.result_id or ""
        fresh = semantic_tokens_full(OpenDocument(doc.syntax.text, version, None, None).snapshot)
        assert held == fresh.data, f"after edit {version}: {edit}"
