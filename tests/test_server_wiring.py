"""The server module's wiring, in-process: what `server.language_server` registers and the knobs it exposes.

The server is assembled from modules (`document_table`, `publishing`, `document_sync`,
`workspace_sync`, `pull`, `custom_requests`); these tests hold the module's promises to the code
that drives it: a reload gives a fresh server that answers every feature an editor asks for, and
the publishing timings set on `awl_lsp.server.language_server` (as tests and benches do) are the ones it uses.
"""

from __future__ import annotations

import asyncio
import importlib
import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from pygls.io_ import StdoutWriter

import awl_lsp.server.language_server
from awl_lsp.server.dispatch import Dispatcher

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from generate import document  # noqa: E402

URI = "file:///wiring/flow.awl"


class Client:
    """A fresh server (the module reloaded) behind a `Dispatcher`, answering into a buffer."""

    def __init__(self) -> None:
        self.server: Any = importlib.reload(awl_lsp.server.language_server).server
        self.out = io.BytesIO()
        self.server.protocol.set_writer(StdoutWriter(self.out))
        self.dispatcher = Dispatcher(self.server)
        self.serial = 0

    def send(self, method: str, params: Any, request: bool = True) -> int | None:
        body: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self.serial += 1
            body["id"] = self.serial
        self.dispatcher.handle(json.dumps(body).encode())
        return self.serial if request else None

    def messages(self) -> list[dict[str, Any]]:
        out = []
        for chunk in self.out.getvalue().split(b"Content-Length: ")[1:]:
            out.append(json.loads(chunk.split(b"\r\n\r\n", 1)[1]))
        return out

    def answer(self, msg_id: int | None) -> Any:
        found = [m for m in self.messages() if m.get("id") == msg_id and "method" not in m]
        assert len(found) == 1, found
        assert "error" not in found[0], found[0]
        return found[0]["result"]

    def published(self) -> list[dict[str, Any]]:
        return [m["params"] for m in self.messages() if m.get("method") == "textDocument/publishDiagnostics"]

    def open(self, text: str) -> None:
        item = {"uri": URI, "languageId": "awl", "version": 1, "text": text}
        self.send("textDocument/didOpen", {"textDocument": item}, request=False)


def test_a_reloaded_module_gives_a_fresh_server_that_answers_every_feature() -> None:
    async def main() -> None:  # (on a running loop, as when serving: async handlers run as tasks)
        before = awl_lsp.server.language_server.server
        client = Client()
        assert client.server is not before and client.server is awl_lsp.server.language_server.server
        assert list(client.server.protocol.fm.features) == list(before.protocol.fm.features)
        caps = client.answer(
            client.send("initialize", {"processId": None, "capabilities": {}, "rootUri": None})
        )
        caps = caps["capabilities"]
        for provider in (
            "hoverProvider",
            "completionProvider",
            "definitionProvider",
            "referencesProvider",
            "documentHighlightProvider",
            "renameProvider",
            "documentSymbolProvider",
            "foldingRangeProvider",
            "semanticTokensProvider",
            "signatureHelpProvider",
            "codeActionProvider",
            "inlayHintProvider",
            "selectionRangeProvider",
            "workspaceSymbolProvider",
            "documentFormattingProvider",
            "documentRangeFormattingProvider",
        ):
            assert caps.get(provider), provider
        assert caps["executeCommandProvider"]["commands"] == ["awl.guide"]
        assert caps["textDocumentSync"]["change"] == 2  # incremental
        client.send("initialized", {}, request=False)
        client.open(document(40))
        [published] = client.published()  # (a short document: published during the open)
        assert published["uri"] == URI and published["version"] == 1
        symbols = client.answer(client.send("textDocument/documentSymbol", {"textDocument": {"uri": URI}}))
        assert symbols
        graph = client.answer(client.send("awl/graph", {"textDocument": {"uri": URI}}))
        assert graph is not None and "mermaid" in graph
        tree = client.answer(client.send("awl/syntaxTree", {"textDocument": {"uri": URI}}))
        assert tree["text"] == document(40)
        client.send("textDocument/didClose", {"textDocument": {"uri": URI}}, request=False)
        assert client.published()[-1] == {"uri": URI, "diagnostics": []}
        assert client.server.documents == {}
        await asyncio.sleep(0.01)  # (`initialized`'s task ends)

    asyncio.run(main())


def test_the_timings_set_on_the_server_module_are_the_ones_it_uses(monkeypatch: pytest.MonkeyPatch) -> None:
    async def first_publish(offload_lines: int) -> tuple[int, int]:
        """How many diagnostics were published during the open, and how many once its work ended."""
        client = Client()
        monkeypatch.setattr(awl_lsp.server.language_server, "OFFLOAD_LINES", offload_lines)
        client.send("initialize", {"processId": None, "capabilities": {}, "rootUri": None})
        client.open(document(40))
        during = len(client.published())
        for _ in range(200):
            await asyncio.sleep(0.01)
            if not client.server._workers:
                break
        await asyncio.sleep(0.01)
        return during, len(client.published())

    # a 40-line document under the threshold is checked during the open; with the threshold set to
    # 1 line on `awl_lsp.server.language_server`, its first check runs in a worker and publishes after it
    assert asyncio.run(first_publish(10**6)) == (1, 1)
    assert asyncio.run(first_publish(1)) == (0, 1)
