"""`$/cancelRequest` stops a request while it runs (-32800), and the server goes on serving.

Over stdio against the real `awl lsp`: the semantic tokens of a 20,000-line document (hundreds of
milliseconds of work) are cancelled a moment after they started; the answer is RequestCancelled,
the server says in its log that the request stopped while running, and a hover sent after the
cancel is answered. In-process: a cancelled computation leaves the per-document token cache as it
was, so the next request gives exactly the tokens of a fresh analysis.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
from raw_lsp import RawServer

from awl_lsp.features.cancel import Cancelled, cancellable, checkpoint
from awl_lsp.features.documents import OpenDocument
from awl_lsp.features.semantic_tokens import semantic_tokens_full, semantic_tokens_range
from awl_lsp.syntax import TextEdit

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from generate import STEP_LINE, document  # noqa: E402
from lsprotocol import types as lsp  # noqa: E402


def test_a_running_request_is_cancelled_and_the_next_one_is_answered() -> None:
    server = RawServer()
    try:
        server.initialize()
        uri = "file:///huge.awl"
        text = document(20_000)
        server.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "awl", "version": 1, "text": text}},
        )
        server.diagnostics(uri, timeout=120)  # the open is done: the loop is idle
        slow_id, data = server.request_bytes(
            "textDocument/semanticTokens/full", {"textDocument": {"uri": uri}}
        )
        server.raw(data)
        time.sleep(0.1)  # the request is running now (nothing else is queued)
        server.notify("$/cancelRequest", {"id": slow_id})
        hover = server.request(
            "textDocument/hover",
            {"textDocument": {"uri": uri}, "position": {"line": 1, "character": 2}},
            timeout=60,
        )
        # (answered before the hover: the hover waited for the loop the cancelled request held)
        reply = next((m for m in server.seen if m.get("id") == slow_id and "method" not in m), None)
        reply = reply or server.response(slow_id, timeout=60)
        assert reply.get("error", {}).get("code") == -32800, reply
        assert any("cancelled while it ran" in line for line in server.logs()), server.logs()
        assert hover.get("result") is not None, hover  # `workloop` still hovers
        assert not server.popups()
        # the document was not harmed: its tokens come in full when asked again
        again = server.request("textDocument/semanticTokens/full", {"textDocument": {"uri": uri}}, timeout=60)
        assert again["result"]["data"]
    finally:
        server.close()


def _doc() -> tuple[OpenDocument, int, int]:
    text = document(600)
    rows = text.split("\n")
    step = rows.index("step stage_20")
    return OpenDocument(text, 1, None, None), step + STEP_LINE, len("  answer board(seen: ")


def test_a_cancelled_computation_leaves_the_token_cache_as_it_was() -> None:
    doc, row, col = _doc()
    semantic_tokens_full(doc.snapshot)
    doc.edit([TextEdit(row, col, row, col, "renamed_")], 2)
    doc.edit([TextEdit(3, 2, 3, 7, "signal")], 3)  # an edit that re-classifies far-away items
    calls = 0

    def cancelled_soon() -> bool:
        nonlocal calls
        calls += 1
        return calls > 3

    with cancellable(cancelled_soon), pytest.raises(Cancelled):
        semantic_tokens_full(doc.snapshot)
    with cancellable(lambda: True), pytest.raises(Cancelled):
        semantic_tokens_range(doc.snapshot, lsp.Range(lsp.Position(0, 0), lsp.Position(400, 0)))
    fresh = OpenDocument(doc.syntax.text, 3, None, None)
    assert semantic_tokens_full(doc.snapshot).data == semantic_tokens_full(fresh.snapshot).data


def test_outside_a_request_checkpoints_do_nothing() -> None:
    checkpoint()
    with cancellable(lambda: False):
        checkpoint()


def test_a_burst_of_changes_arriving_together_is_applied_in_order() -> None:
    """Keys sent in one write reach the server together and are applied as one change; the text
    is exactly what applying them one by one gives, a stale version among them is still ignored,
    and a full-text change in the middle still counts."""
    server = RawServer()
    try:
        server.initialize()
        uri = "file:///burst.awl"
        text = document(400)
        server.open(uri, text)
        lines = text.split("\n")
        row = lines.index("step stage_3") + STEP_LINE
        col = len("  answer board(seen: ")
        expected = text
        batch = b""
        version = 1

        def change(edits: list[tuple[int, int, int, int, str]], v: int) -> bytes:
            changes = [
                {
                    "range": {"start": {"line": a, "character": b}, "end": {"line": c, "character": d}},
                    "text": t,
                }
                for a, b, c, d, t in edits
            ]
            body = {
                "jsonrpc": "2.0",
                "method": "textDocument/didChange",
                "params": {"textDocument": {"uri": uri, "version": v}, "contentChanges": changes},
            }
            from raw_lsp import frame

            return frame(body)

        def applied(source: str, a: int, b: int, c: int, d: int, t: str) -> str:
            rows = source.split("\n")
            start = sum(len(r) + 1 for r in rows[:a]) + b
            end = sum(len(r) + 1 for r in rows[:c]) + d
            return source[:start] + t + source[end:]

        for k in range(20):
            version += 1
            edit = (row, col + k, row, col + k, "9")
            batch += change([edit], version)
            expected = applied(expected, *edit)
        batch += change([(row, 0, row, 0, "stale")], 3)  # an old version: ignored
        version += 1
        edit = (row + 1, 2, row + 1, 9, "")  # `outcome` deleted on the next line
        batch += change([edit, (row - 1, 0, row - 1, 0, "  // note\n")], version)
        expected = applied(applied(expected, *edit), row - 1, 0, row - 1, 0, "  // note\n")
        server.raw(batch)
        tree = server.request("awl/syntaxTree", {"textDocument": {"uri": uri}}, timeout=60)
        assert tree["result"]["text"] == expected
        published = server.diagnostics(uri, timeout=60)
        while published.get("version") != version:
            published = server.diagnostics(uri, timeout=60)
        assert any("version 3 is not newer" in line for line in server.logs()), server.logs()
    finally:
        server.close()
