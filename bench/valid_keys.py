"""Valid keystrokes in a step: the server's CPU per edit over a bare stdio pipe, and the share of it
tree-sitter's re-parse takes.

    python bench/valid_keys.py                          # 300 / 5,000 / 20,000 lines, 40 runs each
    python bench/valid_keys.py --sizes 300,5000 --runs 60
    python bench/valid_keys.py --python ../other/.venv/bin/python   # another checkout's server

`lsp_latency.py` drives the server through a pygls client whose own work shares the machine's two
cores with the server, and takes 20 runs: its server-CPU row moves by ± 1.5 ms between runs of the
same commit on a loaded machine. Here the client is a few lines of framing, the server's CPU is read
from `/proc/PID/task/*/schedstat` (every thread, the scheduler's own account) from the `didChange`
to the `publishDiagnostics` of that version, and the p50 is taken over `--runs` rounds of the same
sequence `lsp_latency.py` types (a character and its undo, Enter, deleting a line, pasting a
10-line step, each followed by its undo), after a few opens and closes of the document, into an
unsaved document of the workspace folder. `--python` runs another checkout's server (its
`.venv/bin/python`), so two commits are compared in one session.

Below each size: the incremental re-parse of the same one-character edit alone (`Tree.edit`, then
`Parser.parse` with the old tree, in this process) and the document's top-level items. Tree-sitter
cannot reuse the nodes that join a repetition (the parse table keeps a reduce beside the repeat's
shift, so they are made "fragile"): a re-parse steps over every top-level item again, ≈ 0.3 µs
each, wherever the edit is — the part of a valid keystroke that grows with the document.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import PASTE, document, typing  # noqa: E402


class Server:
    """`python -m awl_lsp lsp` behind a pipe, framed by hand."""

    def __init__(self, python: str, root: Path) -> None:
        env = dict(os.environ, PYTHONMALLOC="malloc")  # (what the clients we ship set)
        self.proc = subprocess.Popen(
            [python, "-m", "awl_lsp", "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env
        )
        self.request(1, "initialize", {"processId": None, "rootUri": root.as_uri(), "capabilities": {}})
        self.notify("initialized", {})

    def cpu(self) -> float:
        """Seconds of CPU the server has run, all its threads."""
        total = 0
        for task in Path(f"/proc/{self.proc.pid}/task").iterdir():
            try:
                total += int((task / "schedstat").read_text().split()[0])
            except OSError:  # (a thread that ended meanwhile)
                pass
        return total / 1e9

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        self.proc.stdin.flush()

    def notify(self, method: str, params: dict[str, Any]) -> None:
        self.send({"method": method, "params": params})

    def request(self, msg_id: int, method: str, params: dict[str, Any] | None) -> None:
        self.send({"id": msg_id, "method": method, "params": params})
        self.until(lambda m: m.get("id") == msg_id and "method" not in m)

    def read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        length = 0
        while (line := self.proc.stdout.readline()) not in (b"\r\n", b"\n"):
            if not line:
                raise EOFError("the server ended")
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        message: dict[str, Any] = json.loads(self.proc.stdout.read(length))
        return message

    def until(self, wanted: Any) -> None:  # noqa: ANN401 — a predicate on a message
        while not wanted(message := self.read()):
            if "id" in message and "method" in message:  # a request of the server's: answered
                self.send({"id": message["id"], "result": None})

    def published(self, uri: str, version: int) -> None:
        """Wait for the diagnostics of `version` of `uri`."""
        self.until(
            lambda m: (
                m.get("method") == "textDocument/publishDiagnostics"
                and m["params"]["uri"] == uri
                and m["params"].get("version") == version
            )
        )

    def open(self, uri: str, text: str) -> None:
        item = {"uri": uri, "languageId": "awl", "version": 1, "text": text}
        self.notify("textDocument/didOpen", {"textDocument": item})
        self.published(uri, 1)

    def stop(self) -> None:
        self.request(999_999, "shutdown", None)
        self.notify("exit", {})
        self.proc.wait(30)


def server_cpu(python: str, lines: int, runs: int) -> dict[str, float]:
    """The server's CPU per edit (p50, ms) at `lines` lines."""
    folder = Path(tempfile.mkdtemp())
    server = Server(python, folder)
    text = document(lines)
    for k in range(5):  # (as lsp_latency.py: the server has opened and closed the document before)
        uri = (folder / f"opened_{k}.awl").as_uri()
        server.open(uri, text)
        server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    time.sleep(1.5)  # (the closed documents are released when the input is quiet)
    uri = (folder / "typed.awl").as_uri()
    server.open(uri, text)
    time.sleep(1.0)
    where = typing(text)
    row, col, step = where.row, where.col, where.step
    line = text.split("\n")[row]
    version = 1
    spent: dict[str, list[float]] = {}
    for _ in range(runs):
        paste = "\n".join(PASTE).format(j=version) + "\n"
        for name, (sl, sc, el, ec, new) in (
            ("char", (row, col, row, col, "7")),
            ("char", (row, col, row, col + 1, "")),
            ("enter", (row, len(line), row, len(line), "\n  ")),
            ("", (row, len(line), row + 1, 2, "")),
            ("delete", (row, 0, row + 1, 0, "")),
            ("", (row, 0, row, 0, line + "\n")),
            ("paste", (step, 0, step, 0, paste)),
            ("", (step, 0, step + len(PASTE), 0, "")),
        ):
            version += 1
            span = {"start": {"line": sl, "character": sc}, "end": {"line": el, "character": ec}}
            change = {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"range": span, "text": new}],
            }
            before = server.cpu()
            server.notify("textDocument/didChange", change)
            server.published(uri, version)
            if name:
                spent.setdefault(name, []).append(server.cpu() - before)
    server.stop()
    return {name: statistics.median(values) * 1000 for name, values in spent.items()}


def reparse(lines: int, runs: int = 100) -> tuple[float, int]:
    """tree-sitter's incremental re-parse of the typed character alone (µs, p50 of the character
    and its undo), and the document's top-level items."""
    import tree_sitter_awl
    from tree_sitter import Language, Parser, Point

    parser = Parser(Language(tree_sitter_awl.language()))
    text = document(lines)
    where = typing(text)
    before = text.encode()
    at = len("\n".join(text.split("\n")[: where.row]).encode()) + 1 + where.col
    after = before[:at] + b"7" + before[at:]
    here, there = Point(where.row, where.col), Point(where.row, where.col + 1)
    tree = parser.parse(before)
    spent = []
    for i in range(runs):
        if i % 2 == 0:  # the character typed…
            tree.edit(at, at, at + 1, here, here, there)
            source = after
        else:  # …and deleted again
            tree.edit(at, at + 1, at, here, there, here)
            source = before
        t0 = time.process_time()
        tree = parser.parse(source, tree)
        spent.append(time.process_time() - t0)
    return statistics.median(spent) * 1e6, tree.root_node.named_child_count


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="300,5000,20000")
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument(
        "--python", default=sys.executable, help="the server's interpreter (another checkout's venv)"
    )
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    costs = {n: server_cpu(args.python, n, args.runs) for n in sizes}
    parses = {n: reparse(n) for n in sizes}
    print(
        f"| server CPU ms, p50 of {args.runs} ({args.python}) | "
        + " | ".join(f"{n:,} lines" for n in sizes)
        + " |"
    )
    print("|---|" + "---|" * len(sizes))
    for name in ("char", "enter", "delete", "paste"):
        print(f"| {name} | " + " | ".join(f"{costs[n][name]:.2f}" for n in sizes) + " |")
    print(
        "| tree-sitter re-parse of the char alone, µs (in this process) | "
        + " | ".join(f"{parses[n][0]:.0f}" for n in sizes)
        + " |"
    )
    print("| top-level items | " + " | ".join(f"{parses[n][1]:,}" for n in sizes) + " |")
    if 300 in costs and 5000 in costs:
        ratio = costs[5000]["char"] / costs[300]["char"]
        print(f"\n5k / 300 lines, a character typed (server CPU p50): ratio {ratio:.2f} (target ≤ 2)")


if __name__ == "__main__":
    main()
