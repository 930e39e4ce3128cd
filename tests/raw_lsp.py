"""A raw-bytes LSP client for protocol tests: spawns `awl lsp` and speaks (or mis-speaks) the wire format."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def frame(obj: Any, *, header: str = "Content-Length", delta: int = 0) -> bytes:
    body = json.dumps(obj).encode()
    return f"{header}: {len(body) + delta}\r\n\r\n".encode() + body


class RawServer:
    def __init__(
        self, cwd: Path | None = None, cmd: list[str] | None = None, env: dict[str, str] | None = None
    ) -> None:
        self.proc = subprocess.Popen(
            cmd or [sys.executable, "-m", "awl_lsp", "lsp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd or ROOT,
            env=env,
        )
        self.inbox: queue.Queue[dict | None] = queue.Queue()
        self.seen: list[dict] = []
        self._next_id = 1000
        threading.Thread(target=self._read, daemon=True).start()
        self.stderr_lines: list[bytes] = []  # what the server wrote to stderr (its log), kept drained
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        for line in self.proc.stderr:
            self.stderr_lines.append(line)

    def stderr_text(self) -> str:
        return b"".join(self.stderr_lines).decode("utf-8", errors="replace")

    def _read(self) -> None:
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.inbox.put(None)
                    return
                if not line.strip():
                    break
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            self.inbox.put(json.loads(out.read(length)))

    # ---- writing
    def raw(self, data: bytes) -> None:
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, obj: Any, **kw: Any) -> None:
        self.raw(frame(obj, **kw))

    def notify(self, method: str, params: Any) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request_bytes(self, method: str, params: Any = None) -> tuple[int, bytes]:
        self._next_id += 1
        msg: dict[str, Any] = {"jsonrpc": "2.0", "id": self._next_id, "method": method}
        if params is not None:
            msg["params"] = params
        return self._next_id, frame(msg)

    def request(self, method: str, params: Any = None, timeout: float = 10) -> dict:
        msg_id, data = self.request_bytes(method, params)
        self.raw(data)
        return self.response(msg_id, timeout)

    # ---- reading
    def next(self, timeout: float = 10) -> dict | None:
        try:
            msg = self.inbox.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no message from the server within {timeout} s") from None
        if msg is not None:
            self.seen.append(msg)
        return msg

    def response(self, msg_id: Any, timeout: float = 10) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            msg = self.next(max(0.01, deadline - time.monotonic()))
            if msg is None:
                raise AssertionError(f"the server closed its output before answering {msg_id}")
            if "method" not in msg and msg.get("id") == msg_id:
                return msg

    def notification(self, method: str, timeout: float = 10, where: Any = None) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            msg = self.next(max(0.01, deadline - time.monotonic()))
            if msg is None:
                raise AssertionError(f"the server closed its output before sending {method}")
            if msg.get("method") == method and (where is None or where(msg["params"])):
                return msg["params"]

    def popups(self) -> list[dict]:
        return [m for m in self.seen if m.get("method") == "window/showMessage"]

    def logs(self) -> list[str]:
        return [m["params"]["message"] for m in self.seen if m.get("method") == "window/logMessage"]

    # ---- lifecycle
    def initialize(self, root: Path | None = None) -> dict:
        root_uri = root.as_uri() if root else None
        params: dict[str, Any] = {"processId": None, "capabilities": {}, "rootUri": root_uri}
        result = self.request("initialize", params)
        self.notify("initialized", {})
        return result

    def open(self, uri: str, text: str, version: int = 1) -> dict:
        self.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "awl", "version": version, "text": text}},
        )
        return self.diagnostics(uri)

    def diagnostics(self, uri: str, timeout: float = 20) -> dict:
        return self.notification("textDocument/publishDiagnostics", timeout, lambda p: p["uri"] == uri)

    def hover_works(self, uri: str = "file:///probe.awl") -> bool:
        """The server still serves: a hover on an open document gets a result (not an error)."""
        where = {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 1}}
        reply = self.request("textDocument/hover", where)
        return "result" in reply

    def wait(self, timeout: float = 10) -> int:
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"the server did not exit within {timeout} s") from None

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except OSError:
                pass
