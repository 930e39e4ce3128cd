"""Issue 10 probes as a table: each hostile input on a fresh `awl lsp`, its answer, whether it still serves.

    .venv/bin/python bench/robustness.py [--root CHECKOUT] [--sizes]

`--root` runs the server of another checkout (to compare before/after); `--sizes` adds the size
probes (long lines, deep nesting, a 10 MB document) with timings and peak memory.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent / "tests"), str(HERE)]

import raw_lsp  # noqa: E402
from generate import document  # noqa: E402
from raw_lsp import RawServer, frame  # noqa: E402

URI = "file:///probe.awl"
DOC = "//! probe\nworkflow w\n  input a: Int\n"
HOVER = {"textDocument": {"uri": URI}, "position": {"line": 1, "character": 1}}


def fresh(initialize: bool = True) -> RawServer:
    server = RawServer(raw_lsp.ROOT)
    if initialize:
        server.initialize()
        server.open(URI, DOC)
    return server


def describe(reply: object) -> str:
    if not isinstance(reply, dict):
        return str(reply)
    if "error" in reply:
        return f"error {reply['error']['code']}"
    if reply.get("method") == "window/showMessage":
        return "pop-up"
    return "result null" if reply.get("result") is None else "result"


def outcome(server: RawServer, msg_id: object = None) -> str:
    try:
        if msg_id is None:
            reply = server.next(3)
            while reply is not None and reply.get("method") not in (None, "window/showMessage"):
                reply = server.next(3)
        else:
            reply = server.response(msg_id, 3)
    except AssertionError:
        reply = "no answer"
    try:
        alive = "serves" if server.hover_works(URI) else "hover fails"
    except AssertionError:
        alive = "DEAF"
    popup = " + pop-up" if server.popups() else ""
    server.close()
    return f"{describe(reply)}; then {alive}{popup}"


def body(data: bytes) -> str:
    server = fresh()
    server.raw(f"Content-Length: {len(data)}\r\n\r\n".encode() + data)
    return outcome(server)


def request(method: str, params: object, mangle: Callable[[bytes], bytes] = lambda b: b) -> str:
    server = fresh()
    msg_id, _ = server.request_bytes(method, None)
    server.raw(mangle(frame({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})))
    return outcome(server, msg_id)


def length_off(delta: int) -> Callable[[bytes], bytes]:
    def mangle(data: bytes) -> bytes:
        payload = data.split(b"\r\n\r\n", 1)[1]
        return f"Content-Length: {len(payload) + delta}\r\n\r\n".encode() + payload

    return mangle


def single(server: RawServer, method: str, params: object) -> str:
    msg_id, data = server.request_bytes(method, params)
    server.raw(data)
    try:
        return describe(server.response(msg_id, 3))
    except AssertionError:
        return "no answer"
    finally:
        server.close()


def change(server: RawServer, uri: str, version: int, changes: list) -> None:
    params = {"textDocument": {"uri": uri, "version": version}, "contentChanges": changes}
    server.notify("textDocument/didChange", params)


def lifecycle() -> dict[str, str]:
    rows = {"request before initialize": single(fresh(False), "textDocument/hover", HOVER)}
    server = fresh()
    server.notify("exit", None)
    try:
        rows["exit without shutdown"] = f"status {server.proc.wait(5)}"
    except Exception:  # noqa: BLE001
        rows["exit without shutdown"] = "does not exit"
    server.close()
    server = fresh()
    server.request("shutdown")
    rows["request after shutdown"] = single(server, "textDocument/hover", HOVER)

    server = fresh()
    big = DOC + "".join(f"\nstep s{i}\n  route done(n: {i})\n" for i in range(3000))
    server.open("file:///big.awl", big)
    tokens = {"textDocument": {"uri": "file:///big.awl"}}
    slow, batch = server.request_bytes("textDocument/semanticTokens/full", tokens)
    ids = []
    for _ in range(2):
        msg_id, data = server.request_bytes("textDocument/hover", HOVER)
        ids.append(msg_id)
        batch += data
    for msg_id in ids:
        batch += frame({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": msg_id}})
    server.raw(batch)
    try:
        server.response(slow, 30)
        done = sum(server.response(i, 5).get("error", {}).get("code") == -32800 for i in ids)
        rows["$/cancelRequest for 2 queued requests"] = f"{done} of 2 answered -32800"
    except AssertionError:
        rows["$/cancelRequest for 2 queued requests"] = "no answer"
    server.close()

    server = fresh()
    change(server, "file:///never-opened.awl", 2, [{"text": "x"}])
    time.sleep(1)
    server.hover_works(URI)
    logged = any("not open" in line for line in server.logs())
    rows["didChange before didOpen"] = "pop-up" if server.popups() else "logged" if logged else "silent"
    server.close()

    server = fresh()
    for version, note in ((10, "a"), (4, "b"), (4, "c")):
        change(server, URI, version, [{"text": f"{DOC}// {note}\n"}])
    versions = []
    try:
        for _ in range(3):
            versions.append(server.diagnostics(URI, 3)["version"])
    except AssertionError:
        pass
    rows["changes with versions 10, 4, 4"] = f"published versions {versions}"
    server.close()

    server = fresh()
    change(server, URI, 2, [{"text": DOC + "// \ud800\n"}])
    time.sleep(1)
    serves = server.hover_works(URI)
    rows["lone surrogate in a change"] = ("pop-up" if server.popups() else "no pop-up") + (
        ", serves" if serves else ", fails"
    )
    server.close()
    return rows


def probes() -> dict[str, str]:
    pos = {"textDocument": {"uri": URI}}
    far = {**pos, "position": {"line": 2**32, "character": 0}}
    return {
        "invalid JSON": body(b"{bad json"),
        "body not UTF-8": body(b"\xff\xfe{}"),
        "a batch": body(b'[{"jsonrpc": "2.0", "id": 1, "method": "shutdown"}]'),
        'no "jsonrpc"': body(b'{"id": 5, "method": "textDocument/hover", "params": {}}'),
        "params null": request("textDocument/hover", None),
        "params a list": request("textDocument/hover", [1]),
        "negative position": request("textDocument/hover", {**pos, "position": {"line": -1, "character": 0}}),
        "position >= 2^32": request("textDocument/hover", far),
        "missing textDocument": request("textDocument/definition", {"position": {"line": 0, "character": 0}}),
        "unknown method": request("awl/none", {}),
        "lowercase content-length": request(
            "textDocument/hover", HOVER, lambda b: b.replace(b"Content-Length", b"content-length")
        ),
        "LF-only header lines": request("textDocument/hover", HOVER, lambda b: b.replace(b"\r\n", b"\n")),
        "stray bytes before a message": request("textDocument/hover", HOVER, lambda b: b"garbage\r\n" + b),
        "Content-Length 1 short": request("textDocument/hover", HOVER, length_off(-1)),
        "Content-Length 1 long": request("textDocument/hover", HOVER, length_off(1)),
        "non-numeric Content-Length": request(
            "textDocument/hover", HOVER, lambda b: b"Content-Length: abc\r\n\r\n{}" + b
        ),
        **lifecycle(),
    }


def peak_mb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) // 1024
    return -1


def sizes(timeout: float) -> None:
    head = "//! x\nworkflow w\n  input a: Int\n  outcome done: type Out, route s\n\n"
    head += "type Out { n: Int }\n\nstep s\n"
    cases = {
        "80 KB line `x x x …`": head + "  y = " + "x " * 40_000 + "\n  route done(n: 1)\n",
        "1 MB line of bracket garbage": head + "  y = " + "([{" * 333_333 + "\n",
        "2,000-deep parentheses": head + "  y = " + "(" * 2000 + "1" + ")" * 2000 + "\n",
        "10 MB workloop": document(300_000),
    }
    big = "file:///big.awl"
    at = {"line": 0, "character": 3}
    keystroke = [{"range": {"start": at, "end": at}, "text": "z"}]
    for name, text in cases.items():
        server = RawServer(raw_lsp.ROOT)
        server.initialize()
        server.open(URI, DOC)
        started = time.monotonic()
        server.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": big, "languageId": "awl", "version": 1, "text": text}},
        )
        try:
            found = server.diagnostics(big, timeout)
            opened = time.monotonic() - started
            started = time.monotonic()
            server.hover_works(URI)
            hovered = (time.monotonic() - started) * 1000
            started = time.monotonic()
            change(server, big, 2, keystroke)
            server.diagnostics(big, timeout)
            typed = time.monotonic() - started
            seen = {d.get("code") for d in found["diagnostics"]}
            codes = sorted(seen & {"line-too-long", "too-large", "too-deep"})
            size = f"{len(text) / 1e6:.2f} MB"
            print(
                f"| {name} | {size} | {opened:.2f} s | {typed:.2f} s | {hovered:.0f} ms | "
                f"{peak_mb(server.proc.pid)} MB | {', '.join(codes)} |"
            )
        except AssertionError:
            print(
                f"| {name} | {len(text) / 1e6:.2f} MB | no diagnostics in {timeout:.0f} s | | | "
                f"{peak_mb(server.proc.pid)} MB | |"
            )
        server.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--root", type=Path, default=HERE.parent, help="the checkout whose server to run")
    parser.add_argument("--sizes", action="store_true", help="also the size probes")
    parser.add_argument("--timeout", type=float, default=60, help="seconds to wait for diagnostics")
    args = parser.parse_args()
    raw_lsp.ROOT = args.root.resolve()
    for name, result in probes().items():
        print(f"| {name} | {result} |")
    if args.sizes:
        print("| size probe | size | open → diagnostics | keystroke | hover meanwhile | peak RSS | skipped |")
        sizes(args.timeout)


if __name__ == "__main__":
    main()
