"""Start-up of the real server over stdio: how long an editor waits for `initialize`, and for the
first diagnostics of the document that made it start the server.

    python bench/startup.py                          # 9 alternating runs of each
    AWL_STARTUP_RUNS=15 python bench/startup.py
    python bench/startup.py --root OTHER_CHECKOUT    # another checkout's server, in this venv
    python bench/startup.py --against OTHER_CHECKOUT # its first completions beside these

Every server is a fresh process talking over its stdin/stdout pipes, started with the initialize
params VS Code sends (`vscode_initialize.json`), and timed by the clock of this process from the
spawn (or the message sent) to the reply's last byte read:

- spawn → `initialize` answered: `awl lsp` beside a bare pygls server (`LanguageServer("bare",
  "0").start_io()`, nothing else) in the same venv, runs alternating (awl, bare, awl, …), medians.
  `awl lsp` is started twice: as the clients we ship start it (`PYTHONMALLOC=malloc` in its
  environment: no re-execution) and as any other client does (it re-executes itself once under
  the C allocator, `awl_lsp.server.memory`). The server's own CPU time up to the answer (all threads,
  from /proc) is printed beside the wall-clock time: it is what a loaded machine cannot inflate.
- `didOpen` → first diagnostics of a 300-line document (`generate.document`, a workloop, and
  `shapes.subflows`, a workflow): opened right after `initialized` (an editor opening the file that
  launched the server) and after a quiet second. Twice: for a client that is sent diagnostics
  (`publishDiagnostics`: Neovim 0.10/0.11, Helix, Emacs) and for VS Code, which pulls them
  (`textDocument/diagnostic` sent right after the `didOpen`).
- the first completion of a process at 5,000 lines beside the second at the same place (what the
  warm-up after `initialize` is for): the document opened and the completion asked after quiet
  seconds, and both at once (the warm-up had no quiet moment yet). `--against` times another
  checkout's server beside this one's, alternating.

The package's bytecode is compiled first (as an install does), so no run pays for compiling it.
"""

from __future__ import annotations

import argparse
import compileall
import copy
import json
import os
import queue
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from generate import document, typing  # noqa: E402
from shapes import subflows  # noqa: E402


def process_cpu(pid: int) -> float:
    """Seconds of CPU process `pid` has run, all its threads (the scheduler's own account, in ns:
    what a loaded machine's waiting does not inflate)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            pass
    return total / 1e9


RUNS = int(os.environ.get("AWL_STARTUP_RUNS", "9"))
COMPLETION_RUNS = int(os.environ.get("AWL_STARTUP_COMPLETION_RUNS", "5"))
QUIET = 1.0  # seconds: "after a quiet second"
# before the first completion: past the full collection the server makes once the input has been
# quiet for a second (`publishing.RECLAIM_AFTER`), which a completion asked then would wait for
SETTLED = 2.0
TIMEOUT = 60.0
BARE = "from pygls.lsp.server import LanguageServer; LanguageServer('bare', '0').start_io()"
VSCODE_PARAMS: dict[str, Any] = json.loads((HERE / "vscode_initialize.json").read_text())
VSCODE_PARAMS.pop("_comment", None)


def push_params() -> dict[str, Any]:
    """VS Code's params without pulling diagnostics: what a client that is sent them declares."""
    params = copy.deepcopy(VSCODE_PARAMS)
    params["capabilities"]["textDocument"].pop("diagnostic", None)
    params["capabilities"]["workspace"].pop("diagnostics", None)
    return params


def frame(obj: Any) -> bytes:  # noqa: ANN401
    body = json.dumps(obj).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class Wire:
    """One server process and a client speaking LSP to it over its pipes. Every message read is
    stamped with the time its last byte arrived; the server's requests (registrations,
    configuration, progress, refresh) are answered at once, as an editor does."""

    def __init__(self, cmd: list[str], env: dict[str, str], cwd: Path) -> None:
        self.spawned = time.perf_counter()
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, cwd=cwd
        )
        self.inbox: queue.Queue[tuple[float, dict | None]] = queue.Queue()
        self._lock = threading.Lock()
        self._id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.inbox.put((time.perf_counter(), None))
                    return
                if not line.strip():
                    break
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            msg = json.loads(out.read(length or 0))
            at = time.perf_counter()
            if "method" in msg and "id" in msg:  # a request of the server's: answered as an editor does
                items = (msg.get("params") or {}).get("items")
                result = [None] * len(items) if msg["method"] == "workspace/configuration" and items else None
                self.send({"jsonrpc": "2.0", "id": msg["id"], "result": result})
            self.inbox.put((at, msg))

    def send(self, obj: Any) -> float:  # noqa: ANN401
        """Write one message; the time it was written."""
        data = frame(obj)
        with self._lock:
            assert self.proc.stdin is not None
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
            return time.perf_counter()

    def request(self, method: str, params: Any) -> tuple[int, float]:  # noqa: ANN401
        self._id += 1
        return self._id, self.send({"jsonrpc": "2.0", "id": self._id, "method": method, "params": params})

    def notify(self, method: str, params: Any) -> float:  # noqa: ANN401
        return self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def wait_for(self, match: Callable[[dict], bool]) -> tuple[float, dict]:
        deadline = time.perf_counter() + TIMEOUT
        while True:
            try:
                at, msg = self.inbox.get(timeout=max(0.01, deadline - time.perf_counter()))
            except queue.Empty:
                raise RuntimeError("the server said nothing for a minute") from None
            if msg is None:
                raise RuntimeError("the server closed its output")
            if match(msg):
                return at, msg

    def answer(self, msg_id: int) -> tuple[float, dict]:
        return self.wait_for(lambda m: "method" not in m and m.get("id") == msg_id)

    def initialize(self, params: dict[str, Any], folder: Path) -> float:
        """Send `initialize` (for `folder`); the time its answer arrived."""
        params = dict(params, processId=os.getpid(), rootPath=str(folder), rootUri=folder.as_uri())
        params["workspaceFolders"] = [{"uri": folder.as_uri(), "name": folder.name}]
        msg_id, _ = self.request("initialize", params)
        at, reply = self.answer(msg_id)
        if "result" not in reply:
            raise RuntimeError(f"initialize failed: {reply}")
        return at

    def cpu(self) -> float:
        """Seconds of CPU the server process has run (all its threads; the scheduler's account)."""
        return process_cpu(self.proc.pid)

    def stop(self) -> None:
        try:
            msg_id, _ = self.request("shutdown", None)
            self.answer(msg_id)
            self.notify("exit", None)
            self.proc.wait(10)
        except (OSError, RuntimeError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass


@dataclass
class Servers:
    """How each server is started: the commands, and the environments our clients give them."""

    root: Path | None
    env: dict[str, str] = field(init=False)

    def __post_init__(self) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONMALLOC", "AWL_KEEP_ALLOCATOR")}
        if self.root is not None:
            env["PYTHONPATH"] = str(self.root)
        self.env = env

    @property
    def awl(self) -> list[str]:
        script = Path(sys.executable).with_name("awl")
        return [str(script), "lsp"] if script.exists() else [sys.executable, "-m", "awl_lsp", "lsp"]

    def ours(self) -> dict[str, str]:
        """The environment the clients we ship give `awl lsp` (see vscode-extension, editors/)."""
        return dict(self.env, PYTHONMALLOC="malloc")

    def others(self) -> dict[str, str]:
        return dict(self.env)


def median_ms(values: list[float]) -> float:
    return statistics.median(values) * 1000 if values else float("nan")


def spawn_to_initialize(
    servers: Servers, folder: Path, runs: int
) -> dict[str, tuple[list[float], list[float]]]:
    """Wall and CPU seconds from spawn to the `initialize` answer, runs alternating between kinds."""
    kinds: dict[str, tuple[list[str], dict[str, str]]] = {
        "awl lsp (as our clients start it)": (servers.awl, servers.ours()),
        "bare pygls server": ([sys.executable, "-c", BARE], servers.others()),
        "awl lsp (any other client: re-executes)": (servers.awl, servers.others()),
    }
    times: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in kinds}
    names = list(kinds)
    for run in range(runs):
        order = names[run % len(names) :] + names[: run % len(names)]
        for name in order:
            cmd, env = kinds[name]
            wire = Wire(cmd, env, folder)
            try:
                at = wire.initialize(VSCODE_PARAMS, folder)
                times[name][1].append(wire.cpu())
                times[name][0].append(at - wire.spawned)
            finally:
                wire.stop()
    return times


def first_diagnostics(
    servers: Servers, folder: Path, text: str, pull: bool, quiet: float
) -> tuple[float, float, int]:
    """Seconds from `didOpen` (sent right after `initialized`, or after `quiet`) to the document's
    first diagnostics (published, or the answer to a pull sent right after the open), the server's
    CPU seconds in that time, and how many diagnostics."""
    path = folder / "opened.awl"
    path.write_text(text)
    uri = path.as_uri()
    wire = Wire(servers.awl, servers.ours(), folder)
    try:
        wire.initialize(VSCODE_PARAMS if pull else push_params(), folder)
        wire.notify("initialized", {})
        if quiet:
            time.sleep(quiet)
        item = {"uri": uri, "languageId": "awl", "version": 1, "text": text}
        cpu = wire.cpu()
        sent = wire.notify("textDocument/didOpen", {"textDocument": item})
        if pull:
            msg_id, _ = wire.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
            at, reply = wire.answer(msg_id)
            found = len(reply["result"]["items"])
        else:
            at, msg = wire.wait_for(
                lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
            )
            found = len(msg["params"]["diagnostics"])
        return at - sent, wire.cpu() - cpu, found
    finally:
        wire.stop()


def first_completion(servers: Servers, folder: Path, text: str, quiet: float) -> tuple[float, float, int]:
    """The first and the second completion of a process at the bench's typing place (seconds): the
    document opened `quiet` seconds after `initialized` and the completion asked `quiet` seconds
    after its diagnostics (with 0, the editor asks at once)."""
    path = folder / "big.awl"
    path.write_text(text)
    uri = path.as_uri()
    where = typing(text)
    wire = Wire(servers.awl, servers.ours(), folder)
    try:
        wire.initialize(VSCODE_PARAMS, folder)
        wire.notify("initialized", {})
        time.sleep(quiet)
        item = {"uri": uri, "languageId": "awl", "version": 1, "text": text}
        wire.notify("textDocument/didOpen", {"textDocument": item})
        msg_id, _ = wire.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
        wire.answer(msg_id)
        time.sleep(quiet)
        asked = {"textDocument": {"uri": uri}, "position": {"line": where.row, "character": where.col}}
        took = []
        items = 0
        for _ in range(2):
            msg_id, sent = wire.request("textDocument/completion", asked)
            at, reply = wire.answer(msg_id)
            took.append(at - sent)
            items = len((reply.get("result") or {}).get("items", []))
        return took[0], took[1], items
    finally:
        wire.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, help="measure the awl_lsp of this checkout (same venv)")
    parser.add_argument(
        "--against", type=Path, help="also time the completions of this checkout's server, alternating"
    )
    args = parser.parse_args()
    root = args.root.resolve() if args.root else None
    package = (root or HERE.parent) / "awl_lsp"
    compileall.compile_dir(str(package), quiet=1)
    if args.against is not None:
        compileall.compile_dir(str(args.against.resolve() / "awl_lsp"), quiet=1)
    servers = Servers(root)
    folder = Path(tempfile.mkdtemp(prefix="awl-startup-"))
    load = os.getloadavg()[0]

    times = spawn_to_initialize(servers, folder, RUNS)
    bare_wall = median_ms(times["bare pygls server"][0])
    bare_cpu = median_ms(times["bare pygls server"][1])
    print(f"spawn → initialize answered, ms (median of {RUNS} alternating runs, VS Code's initialize params)")
    print()
    print("| server | wall | × bare | server CPU | × bare | target |")
    print("|---|---|---|---|---|---|")
    for name, (wall, cpu) in times.items():
        w, c = median_ms(wall), median_ms(cpu)
        target = "reference" if name.startswith("bare") else "wall ≤ 1.15 × bare"
        print(f"| {name} | {w:.0f} | {w / bare_wall:.2f} | {c:.0f} | {c / bare_cpu:.2f} | {target} |")
    print()

    texts = {"workloop": document(300), "workflow": subflows(300)}
    print(f"didOpen → first diagnostics of a 300-line document, ms (median / max of {RUNS})")
    print()
    print("| document | client | opened | wall | server CPU | diagnostics | target |")
    print("|---|---|---|---|---|---|---|")
    for kind, text in texts.items():
        lines = text.count("\n") + 1
        for pull in (False, True):
            client = "VS Code (pulls)" if pull else "sent them (Neovim, Helix, Emacs)"
            for quiet in (0.0, QUIET):
                took, spent = [], []
                found = 0
                for _ in range(RUNS):
                    seconds, cpu, found = first_diagnostics(servers, folder, text, pull, quiet)
                    took.append(seconds)
                    spent.append(cpu)
                when = "after a quiet second" if quiet else "right after initialized"
                print(
                    f"| {kind} ({lines} lines) | {client} | {when} | {median_ms(took):.1f} / "
                    f"{max(took) * 1000:.1f} | {median_ms(spent):.1f} | {found} | wall ≤ 100 |"
                )
    print()

    big = document(5000)
    sides = {"this checkout": servers}
    if args.against is not None:
        sides[f"{args.against}"] = Servers(args.against.resolve())
    rows = {
        "the first of the process (opened and asked after quiet seconds)": (SETTLED, 0),
        "the second, same place": (SETTLED, 1),
        "the first, opened right after initialized and asked right after its diagnostics": (0.0, 0),
        "the second, same place ": (0.0, 1),
    }
    took: dict[tuple[str, float, int], list[float]] = {}
    items = 0
    for _ in range(COMPLETION_RUNS):  # (alternating between the checkouts)
        for quiet in (SETTLED, 0.0):
            for name, side in sides.items():
                both = first_completion(side, folder, big, quiet)
                items = both[2]
                for i in (0, 1):
                    took.setdefault((name, quiet, i), []).append(both[i])
    lines = big.count("\n") + 1
    print(f"completion in a {lines}-line workloop, ms (median of {COMPLETION_RUNS} processes, {items} items)")
    print()
    print("| completion | " + " | ".join(sides) + " |")
    print("|---|" + "---|" * len(sides))
    for label, (quiet, i) in rows.items():
        cells = " | ".join(f"{median_ms(took[(n, quiet, i)]):.1f}" for n in sides)
        print(f"| {label.strip()} | {cells} |")
    print()
    end = os.getloadavg()[0]
    print(f"load average {load:.1f} at the start, {end:.1f} at the end; {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
