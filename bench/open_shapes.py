"""Open → first diagnostics for every document shape of `shapes.SHAPES`, at 5,000 lines.

    python bench/open_shapes.py
    AWL_BENCH_OPEN_LINES=20000 AWL_BENCH_OPEN_RUNS=5 python bench/open_shapes.py

Per shape, over stdio, the time from `didOpen` to the first `publishDiagnostics` (the p50 of the
runs; each open a new document in one server, closed after):
- `over stdio`: each open after a quiet moment, as someone opens one file after another (the
  document closed before is freed by then), with the server process's own CPU for it (from /proc:
  its threads, not the child process a long document's first check forks, see
  `awl_lsp.checks.parallel`);
- `back to back`: the next open sent as soon as the last one's diagnostics arrived and it was
  closed, as a script's are (the closed documents wait for quiet to be freed, up to
  `CLOSED_LINES`);
and the in-process CPU of a first analysis in one process (parse, model, checks, diagnostics:
what a loaded machine cannot inflate).
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from shapes import SHAPES  # noqa: E402

LINES = int(os.environ.get("AWL_BENCH_OPEN_LINES", "5000"))
RUNS = int(os.environ.get("AWL_BENCH_OPEN_RUNS", "7"))
TARGET = "≤ 300 ms"


def cpu_open(text: str, runs: int = RUNS) -> float:
    """The median in-process CPU seconds of a first analysis of `text` to its diagnostics."""
    from awl_lsp.features.diagnostics import diagnostics
    from awl_lsp.features.documents import OpenDocument

    spent = []
    for _ in range(runs):
        t0 = time.process_time()
        diagnostics(OpenDocument(text, 1, None, None).snapshot)
        spent.append(time.process_time() - t0)
    return statistics.median(spent)


async def stdio_opens(
    texts: dict[str, str], runs: int = RUNS, quiet: bool = True
) -> dict[str, tuple[float, float | None]]:
    """Per shape: the p50 of open → first diagnostics over stdio, and of the server's CPU for it.

    `quiet`: before each open the input is quiet long enough for the server to free the document
    closed last (`RELEASE_AFTER`), as when someone opens one file after another; otherwise the
    opens come back to back (close, open at once), as a script's do."""
    from lsp_latency import Bench

    from awl_lsp.server.publishing import RELEASE_AFTER

    bench = Bench()
    await bench.start()
    measured = Path("/proc/self/schedstat").exists()
    out: dict[str, tuple[float, float | None]] = {}
    # a first document opened and closed: the server's own warm-up is not any shape's cost
    uri, _ = bench.open(texts["bench"])
    await bench.diagnostics_for(uri, 1)
    bench.close(uri)
    for name, text in texts.items():
        wall, cpu = [], []
        for _ in range(runs):
            if quiet:
                await asyncio.sleep(RELEASE_AFTER + 0.3)
            c0 = bench.server_cpu() if measured else 0.0
            uri, t0 = bench.open(text)
            wall.append(await bench.diagnostics_for(uri, 1) - t0)
            if measured:
                cpu.append(bench.server_cpu() - c0)
            bench.close(uri)
        out[name] = (statistics.median(wall), statistics.median(cpu) if cpu else None)
    await bench.stop()
    return out


def table(
    texts: dict[str, str],
    stdio: dict[str, tuple[float, float | None]],
    churn: dict[str, tuple[float, float | None]],
    cpu: dict[str, float],
) -> str:
    head = ["open → first diagnostics, per shape (ms, p50)", "lines", "over stdio", "server CPU"]
    head += ["back to back", "in-process CPU, one process"]
    rows = [head + ["target"], ["---"] * (len(head) + 1)]
    for name, text in texts.items():
        wall, server = stdio.get(name, (float("nan"), None))
        rows.append(
            [
                name,
                f"{text.count(chr(10)) + 1:,}",
                f"{wall * 1000:.0f}",
                f"{server * 1000:.0f}" if server is not None else "n/a",
                f"{churn.get(name, (float('nan'), None))[0] * 1000:.0f}",
                f"{cpu[name] * 1000:.0f}",
                TARGET,
            ]
        )
    return "\n".join("| " + " | ".join(r) + " |" for r in rows)


def main() -> None:
    texts = {name: make(LINES) for name, make in SHAPES.items()}
    t0 = time.perf_counter()
    stdio = asyncio.run(stdio_opens(texts))
    churn = asyncio.run(stdio_opens(texts, quiet=False))
    print(f"  opened {len(texts)} shapes over stdio in {time.perf_counter() - t0:.0f} s", flush=True)
    cpu = {name: cpu_open(text) for name, text in texts.items()}
    print(table(texts, stdio, churn, cpu))
    load = os.getloadavg()[0]
    print(f"runs per shape: {RUNS}; machine: {os.cpu_count()} cores, load average {load:.1f}")


if __name__ == "__main__":
    main()
