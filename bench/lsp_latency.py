"""Latency of the real server over stdio on a ≥5,000-line document: open→diagnostics, edit→diagnostics.

Also times the in-process layers for one keystroke (incremental parse, model rebuild, checks).
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import document  # noqa: E402

RUNS = 10


async def server_latency(text: str) -> tuple[list[float], list[float]]:
    client = LanguageClient("awl-bench", "0.1")
    got: asyncio.Queue[float] = asyncio.Queue()

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def _diag(params: lsp.PublishDiagnosticsParams) -> None:
        got.put_nowait(time.perf_counter())

    await client.start_io(sys.executable, "-m", "awl_lsp", "lsp")
    folder = Path(tempfile.mkdtemp())
    await client.initialize_async(
        lsp.InitializeParams(capabilities=lsp.ClientCapabilities(), root_uri=folder.as_uri())
    )
    client.initialized(lsp.InitializedParams())
    opens: list[float] = []
    edits: list[float] = []
    line = text.splitlines().index("  every 5m")
    for run in range(RUNS):
        uri = (folder / f"big_{run}.awl").as_uri()
        t0 = time.perf_counter()
        client.text_document_did_open(
            lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "awl", 1, text))
        )
        opens.append((await got.get()) - t0)
        for version in range(2, 4):
            char = "6" if version % 2 == 0 else "5"
            t0 = time.perf_counter()
            client.text_document_did_change(
                lsp.DidChangeTextDocumentParams(
                    lsp.VersionedTextDocumentIdentifier(version=version, uri=uri),
                    [
                        lsp.TextDocumentContentChangePartial(
                            range=lsp.Range(lsp.Position(line, 8), lsp.Position(line, 9)), text=char
                        )
                    ],
                )
            )
            edits.append((await got.get()) - t0)
        client.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(uri)))
        await got.get()
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return opens, edits


def in_process(text: str) -> dict[str, float]:
    from awl_lsp.checks import run_checks
    from awl_lsp.model import ModelBuilder
    from awl_lsp.syntax import SyntaxDocument, TextEdit
    from awl_lsp.syntax.errors import syntax_problems

    doc = SyntaxDocument(text)
    builder = ModelBuilder()
    model = builder.build(doc.tree, doc.source)
    line = text.splitlines().index("  every 5m")
    parse, build, check = [], [], []
    for i in range(RUNS):
        t0 = time.perf_counter()
        doc.apply([TextEdit(line, 8, line, 9, "6" if i % 2 == 0 else "5")])
        t1 = time.perf_counter()
        model = builder.build(doc.tree, doc.source)
        t2 = time.perf_counter()
        syntax_problems(doc.tree, doc.source, doc.text)
        run_checks(model, doc.tree, doc.source)
        t3 = time.perf_counter()
        parse.append(t1 - t0)
        build.append(t2 - t1)
        check.append(t3 - t2)
    return {
        "incremental parse": statistics.median(parse),
        "model rebuild": statistics.median(build),
        "items re-read": builder.last_extracted,
        "items reused": builder.last_reused,
        "checks": statistics.median(check),
    }


def main() -> None:
    text = document(5000)
    n = text.count("\n") + 1
    print(f"document: {n} lines, {len(text.encode())} bytes")
    for name, value in in_process(text).items():
        print(
            f"  {name:<18} {value * 1000:8.2f} ms" if isinstance(value, float) else f"  {name:<18} {value:8d}"
        )
    opens, edits = asyncio.run(server_latency(text))
    print(f"server open→diagnostics  median {statistics.median(opens) * 1000:8.1f} ms  (n={len(opens)})")
    print(f"server edit→diagnostics  median {statistics.median(edits) * 1000:8.1f} ms  (n={len(edits)})")


if __name__ == "__main__":
    main()
