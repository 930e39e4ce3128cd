"""An LSP `initialize` / `shutdown` / `exit` round trip over stdio against an `awl` command.

Usage: python lsp_smoke.py AWL_EXECUTABLE [FILE.awl]
With FILE, the document is opened and the script waits for its publishDiagnostics.
Exit 0 when the server answered everything and exited with status 0; prints what it saw.
Standard library only, so it runs with any Python >= 3.11 (it is used by `make dist-check`).
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any


def _send(proc: subprocess.Popen[bytes], msg: dict[str, Any]) -> None:
    body = json.dumps(msg).encode()
    assert proc.stdin is not None
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    proc.stdin.flush()


def _read(proc: subprocess.Popen[bytes]) -> dict[str, Any]:
    assert proc.stdout is not None
    length = 0
    while True:
        line = proc.stdout.readline()
        if not line:
            raise EOFError("the server closed its stdout")
        if line in (b"\r\n", b"\n"):
            break
        name, _, value = line.decode("ascii").partition(":")
        if name.strip().lower() == "content-length":
            length = int(value)
    return json.loads(proc.stdout.read(length))


def _wait_for(proc: subprocess.Popen[bytes], pred: Any) -> dict[str, Any]:
    while True:
        msg = _read(proc)
        if pred(msg):
            return msg


def main(argv: list[str]) -> int:
    exe = argv[1]
    doc = Path(argv[2]).resolve() if len(argv) > 2 else None
    proc = subprocess.Popen([exe, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    timer = threading.Timer(60, proc.kill)
    timer.start()
    try:
        _send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                     "params": {"processId": None, "rootUri": None, "capabilities": {}}})
        init = _wait_for(proc, lambda m: m.get("id") == 1)
        info = init["result"].get("serverInfo", {})
        print(f"initialize: {info.get('name')} {info.get('version')}, "
              f"{len(init['result']['capabilities'])} capabilities")
        _send(proc, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
        if doc is not None:
            uri = doc.as_uri()
            _send(proc, {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                "uri": uri, "languageId": "awl", "version": 1, "text": doc.read_text(encoding="utf-8")}}})
            diag = _wait_for(proc, lambda m: m.get("method") == "textDocument/publishDiagnostics"
                             and m["params"]["uri"] == uri)
            print(f"publishDiagnostics: {len(diag['params']['diagnostics'])} for {doc.name}")
        _send(proc, {"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None})
        shut = _wait_for(proc, lambda m: m.get("id") == 2)
        if "error" in shut:
            print(f"shutdown failed: {shut['error']}", file=sys.stderr)
            return 1
        _send(proc, {"jsonrpc": "2.0", "method": "exit", "params": None})
        rc = proc.wait(timeout=30)
        print(f"exit: status {rc}")
        return 0 if rc == 0 else 1
    finally:
        timer.cancel()
        if proc.poll() is None:
            proc.kill()


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
