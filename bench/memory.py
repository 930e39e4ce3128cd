"""Resident memory of the real server over stdio: idle, 100 open documents, all closed, open/close cycles.

    python bench/memory.py                 # 100 documents of 300 lines, 5 cycles
    AWL_MEMORY_DOCS=50 AWL_MEMORY_CYCLES=3 python bench/memory.py
    python bench/memory.py --inside        # what one open document keeps, in-process (tracemalloc)

Each document is a generated 300-line workloop (`generate.document(300)`) with its own loop name,
opened the way an editor opens it: `didOpen`, then the requests an editor sends for a new buffer
(semantic tokens, document symbols, folding ranges, inlay hints), waiting for its diagnostics.
RSS is read from /proc after the server has been idle for a second (it gives freed memory back
half a second after the last close). Targets (issue 10): ≤ 150 MB with 100 open; closing them
returns close to the idle baseline; repeated cycles don't grow.
"""

from __future__ import annotations

import asyncio
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from lsprotocol import types as lsp

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import document  # noqa: E402

DOCS = int(os.environ.get("AWL_MEMORY_DOCS", "100"))
CYCLES = int(os.environ.get("AWL_MEMORY_CYCLES", "5"))
LINES = 300
SETTLE = 1.0  # seconds idle before reading RSS (the server releases memory 0.5 s after a close)


@dataclass
class Phases:
    docs: int
    idle: float = float("nan")
    opened: float = float("nan")
    closed: float = float("nan")
    cycles: list[float] = field(default_factory=list)  # RSS after each further open/close cycle
    peak: float = float("nan")  # VmHWM at the end

    def table(self) -> str:
        rows = [
            ("idle server (initialized, nothing open)", self.idle, "baseline"),
            (f"{self.docs} open {LINES}-line documents", self.opened, "≤ 150 MB"),
            ("all closed", self.closed, "close to the baseline"),
        ]
        if self.cycles:
            rows.append((f"after {len(self.cycles)} more open/close cycles", self.cycles[-1], "flat"))
        out = ["| server RSS | MB | target |", "|---|---|---|"]
        out += [f"| {label} | {mb:.1f} | {target} |" for label, mb, target in rows]
        if self.cycles:
            out.append("")
            out.append("closed after each cycle (MB): " + ", ".join(f"{mb:.1f}" for mb in self.cycles))
        out.append(f"peak (VmHWM): {self.peak:.1f} MB")
        return "\n".join(out)


def proc_mb(pid: int, key: str) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def settled_mb(pid: int, quiet: float = SETTLE, bound: float = 30.0) -> float:
    """RSS once it has stayed the same for `quiet` seconds (after `initialize` the server loads its
    analysis and features while nothing else is to do: `awl_lsp.server.warm`)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + bound
    last, since = proc_mb(pid, "VmRSS"), loop.time()
    while loop.time() < deadline:
        await asyncio.sleep(0.1)
        now = proc_mb(pid, "VmRSS")
        if abs(now - last) > 0.05:
            last, since = now, loop.time()
        elif loop.time() - since >= quiet:
            break
    return last


async def _open_all(bench, texts: list[str]) -> list[str]:  # noqa: ANN001 — lsp_latency.Bench
    uris = [bench.open(text)[0] for text in texts]
    client = bench.client
    for uri in uris:
        ident = lsp.TextDocumentIdentifier(uri)
        await client.text_document_semantic_tokens_full_async(lsp.SemanticTokensParams(ident))
        await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(ident))
        await client.text_document_folding_range_async(lsp.FoldingRangeParams(ident))
        whole = lsp.Range(lsp.Position(0, 0), lsp.Position(LINES + 10, 0))
        await client.text_document_inlay_hint_async(lsp.InlayHintParams(ident, whole))
    for uri in uris:
        await bench.diagnostics_for(uri, 1)
    return uris


async def _close_all(bench, uris: list[str]) -> None:  # noqa: ANN001
    for uri in uris:
        bench.close(uri)
    # a request after the closes: answered once every close before it was handled
    await bench.client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(uris[-1]), lsp.Position(0, 0))
    )


async def phases(docs: int = DOCS, cycles: int = CYCLES) -> Phases:
    from lsp_latency import Bench

    bench = Bench()
    await bench.start()
    pid = bench.client._server.pid  # type: ignore[union-attr]
    out = Phases(docs)
    base = document(LINES)
    serial = 0

    def batch() -> list[str]:
        nonlocal serial
        serial += 1
        return [base.replace("big_loop", f"loop_{serial}_{i}") for i in range(docs)]

    try:
        out.idle = await settled_mb(pid)
        uris = await _open_all(bench, batch())
        await asyncio.sleep(SETTLE)
        out.opened = proc_mb(pid, "VmRSS")
        await _close_all(bench, uris)
        await asyncio.sleep(SETTLE)
        out.closed = proc_mb(pid, "VmRSS")
        for _ in range(cycles):
            uris = await _open_all(bench, batch())
            await _close_all(bench, uris)
            await asyncio.sleep(SETTLE)
            out.cycles.append(proc_mb(pid, "VmRSS"))
        out.peak = proc_mb(pid, "VmHWM")
    finally:
        await bench.stop()
    return out


def inside() -> str:
    """What one open document keeps alive, measured in this process with tracemalloc."""
    import gc
    import tracemalloc

    from awl_lsp.features.diagnostics import diagnostics
    from awl_lsp.features.documents import OpenDocument
    from awl_lsp.features.folding import folding_ranges
    from awl_lsp.features.semantic_tokens import semantic_tokens_full
    from awl_lsp.features.symbols import document_symbols

    text = document(LINES)
    warm = OpenDocument(text, 1, None, None)
    diagnostics(warm.snapshot, "file:///warm.awl")
    del warm
    gc.collect()
    tracemalloc.start(1)
    before = tracemalloc.take_snapshot()
    docs = []
    for i in range(10):
        doc = OpenDocument(text.replace("big_loop", f"loop_{i}"), 1, None, None)
        snap = doc.snapshot
        snap.derived("diagnostics", lambda s: diagnostics(s, "file:///x.awl"))
        semantic_tokens_full(snap)
        document_symbols(snap)
        folding_ranges(snap)
        docs.append(doc)
    gc.collect()
    after = tracemalloc.take_snapshot()
    stats = after.compare_to(before, "filename")
    total = sum(s.size_diff for s in stats)
    lines = [f"10 open documents of {LINES} lines: {total / 10 / 1024:.0f} KiB Python heap each", ""]
    lines.append("| where allocated | KiB per document |")
    lines.append("|---|---|")
    for s in stats[:15]:
        name = s.traceback[0].filename
        short = name.split("awl_lsp/")[-1] if "awl_lsp/" in name else Path(name).name
        lines.append(f"| {short} | {s.size_diff / 10 / 1024:.0f} |")
    tracemalloc.stop()
    return "\n".join(lines)


def main() -> None:
    if "--inside" in sys.argv:
        print(inside())
        return
    print(asyncio.run(phases()).table())


if __name__ == "__main__":
    main()
