"""Memory follows the open documents: closing them gives it back, and open/close cycles stay flat."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
from raw_lsp import RawServer

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from generate import document  # noqa: E402

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc to read RSS")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def settled_mb(pid: int, quiet: float = 1.0, bound: float = 30.0) -> float:
    """The RSS once it has stayed the same for `quiet` seconds: after `initialize` the server loads
    its analysis and features while nothing else is to do (`awl_lsp.server.warm`), so its idle size is
    reached a moment later."""
    deadline = time.monotonic() + bound
    last, since = rss_mb(pid), time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.1)
        now = rss_mb(pid)
        if abs(now - last) > 0.05:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet:
            break
    return last


def test_closing_documents_returns_memory_and_cycles_stay_flat() -> None:
    server = RawServer()
    try:
        server.initialize()
        base = document(300)
        start = settled_mb(server.proc.pid)
        closed: list[float] = []
        peak = start
        for cycle in range(3):
            for i in range(25):
                server.open(f"file:///m{i}.awl", base.replace("big_loop", f"loop_{i}_{cycle}"))
            peak = max(peak, rss_mb(server.proc.pid))
            for i in range(25):
                server.notify("textDocument/didClose", {"textDocument": {"uri": f"file:///m{i}.awl"}})
            server.diagnostics("file:///m24.awl")  # the close is processed
            # the closed documents are freed and the pages given back once the input has been quiet
            # for half a second: read the RSS until it is down (a loaded machine takes longer)
            grown = peak - start
            deadline = time.monotonic() + 10
            time.sleep(0.6)
            while rss_mb(server.proc.pid) - start >= 0.5 * grown and time.monotonic() < deadline:
                time.sleep(0.2)
            closed.append(rss_mb(server.proc.pid))
        grown = peak - start
        assert grown > 20, (start, peak)  # the documents did take memory
        for after in closed:
            assert after - start < 0.5 * grown, (start, peak, closed)
    finally:
        server.close()
