"""Latency of the real server over stdio on a ≥5,000-line document: open→diagnostics, edit→diagnostics.

Also times the in-process layers: a whole-document analysis (what opening a file costs), and one
keystroke — incremental parse, model rebuild, syntax problems, checks with the document's check
cache — for a character typed in the header, a character typed in a step, and a line break.
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


def _median_ms(values: list[float]) -> float:
    return statistics.median(values) * 1000


def in_process(text: str) -> None:
    from awl_lsp.checks import CheckCache, run_checks
    from awl_lsp.model import ModelBuilder
    from awl_lsp.syntax import SyntaxDocument, TextEdit
    from awl_lsp.syntax.errors import syntax_problems

    cold: dict[str, list[float]] = {"parse": [], "model": [], "syntax": [], "checks": []}
    for _ in range(3):
        t0 = time.perf_counter()
        doc = SyntaxDocument(text)
        t1 = time.perf_counter()
        model = ModelBuilder().build(doc.tree, doc.source)
        t2 = time.perf_counter()
        syntax_problems(doc.tree, doc.source, doc.text)
        t3 = time.perf_counter()
        run_checks(model, doc.tree, doc.source, cache=CheckCache())
        t4 = time.perf_counter()
        for key, value in zip(cold, (t1 - t0, t2 - t1, t3 - t2, t4 - t3), strict=True):
            cold[key].append(value)
    cells = "  ".join(f"{k} {_median_ms(v):6.1f}" for k, v in cold.items())
    print(f"  whole document (open):  {cells} ms")

    lines = text.splitlines()
    header = lines.index("  every 5m")
    step = lines.index("step stage_300") + 1 if "step stage_300" in lines else len(lines) // 2
    edits = {
        "header char": lambda i: TextEdit(header, 8, header, 9, "6" if i % 2 == 0 else "5"),
        "step char": lambda i: TextEdit(step, 2, step, 3, "g" if i % 2 == 0 else "f"),
        "line break": lambda i: TextEdit(step, 0, step + i % 2, 0, "" if i % 2 else "\n"),
    }
    doc = SyntaxDocument(text)
    builder, cache = ModelBuilder(), CheckCache()
    run_checks(builder.build(doc.tree, doc.source), doc.tree, doc.source, cache=cache)
    print("  one keystroke (ms):      parse   model  syntax  checks   total   (re-resolved / re-checked)")
    for label, edit in edits.items():
        times: dict[str, list[float]] = {"parse": [], "model": [], "syntax": [], "checks": [], "total": []}
        for i in range(RUNS):
            t0 = time.perf_counter()
            doc.apply([edit(i)])
            t1 = time.perf_counter()
            model = builder.build(doc.tree, doc.source)
            t2 = time.perf_counter()
            syntax_problems(doc.tree, doc.source, doc.text)
            t3 = time.perf_counter()
            run_checks(model, doc.tree, doc.source, cache=cache)
            t4 = time.perf_counter()
            for key, value in zip(times, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t4 - t0), strict=True):
                times[key].append(value)
        cells = " ".join(f"{_median_ms(v):7.1f}" for v in times.values())
        print(f"    {label:<21}{cells}   ({builder.last_resolved} / {cache.last_checked})")


def main() -> None:
    text = document(5000)
    n = text.count("\n") + 1
    print(f"document: {n} lines, {len(text.encode())} bytes")
    in_process(text)
    opens, edits = asyncio.run(server_latency(text))
    print(f"server open→diagnostics  median {statistics.median(opens) * 1000:8.1f} ms  (n={len(opens)})")
    print(f"server edit→diagnostics  median {statistics.median(edits) * 1000:8.1f} ms  (n={len(edits)})")


if __name__ == "__main__":
    main()
