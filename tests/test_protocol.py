"""The base protocol by the book, probed with raw bytes over stdio against the real `awl lsp`.

Each probe asserts the exact JSON-RPC error code (or behaviour), that no pop-up
(`window/showMessage`) was sent, and that the server still answers a hover afterwards.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from raw_lsp import RawServer, frame

URI = "file:///probe.awl"
DOC = "//! probe\nworkflow w\n  input a: Int\n"
HOVER = {"textDocument": {"uri": URI}, "position": {"line": 1, "character": 1}}


def started() -> RawServer:
    server = RawServer()
    server.initialize()
    server.open(URI, DOC)
    return server


@pytest.fixture
def lsp() -> Iterator[RawServer]:
    server = started()
    yield server
    server.close()


@pytest.fixture(scope="module")
def shared() -> Iterator[RawServer]:
    server = started()
    yield server
    server.close()


def error_of(reply: dict) -> int:
    assert "error" in reply, reply
    return reply["error"]["code"]


def still_serves(server: RawServer) -> None:
    assert server.hover_works(URI)
    assert server.popups() == []


# ---- bodies that are not JSON-RPC messages


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b"{bad json", -32700),
        (b"\xff\xfe{}", -32700),  # not UTF-8
        (b'[{"jsonrpc": "2.0", "id": 1, "method": "shutdown"}]', -32600),  # a batch
        (b"42", -32600),  # not an object
        (b'{"id": 5, "method": "textDocument/hover", "params": {}}', -32600),  # no "jsonrpc"
        (b'{"jsonrpc": "2.0", "id": true, "method": "shutdown"}', -32600),  # a bad id
        (b'{"jsonrpc": "2.0", "id": 6, "method": 7}', -32600),  # a bad method
        (b"[" * 100000 + b"]" * 100000, -32700),  # nested past any sense
    ],
)
def test_bad_bodies_get_json_rpc_errors(shared: RawServer, body: bytes, code: int) -> None:
    shared.raw(f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
    reply = shared.next()
    while "method" in reply:  # skip log lines
        reply = shared.next()
    assert error_of(reply) == code
    still_serves(shared)


@pytest.mark.parametrize(
    "params",
    [
        None,
        [1, 2],
        {"position": {"line": 0, "character": 0}},  # no textDocument
        {"textDocument": {"uri": URI}, "position": {"line": -1, "character": 0}},
        {"textDocument": {"uri": URI}, "position": {"line": 2**32, "character": 0}},
        {"textDocument": {"uri": URI}, "position": {"line": 0, "character": "x"}},
    ],
)
@pytest.mark.parametrize(
    "method",
    [
        "textDocument/hover",
        "textDocument/completion",
        "textDocument/definition",
        "textDocument/references",
        "textDocument/documentHighlight",
        "textDocument/signatureHelp",
        "textDocument/rename",
    ],
)
def test_bad_params_get_invalid_params(shared: RawServer, method: str, params: object) -> None:
    msg_id, data = shared.request_bytes(method, None)
    body = {"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params}
    shared.raw(frame(body))
    assert error_of(shared.response(msg_id)) == -32602


@pytest.mark.parametrize(
    "method",
    [
        "textDocument/documentSymbol",
        "textDocument/foldingRange",
        "textDocument/semanticTokens/full",
        "textDocument/formatting",
        "textDocument/selectionRange",
        "textDocument/inlayHint",
        "textDocument/codeAction",
        "workspace/symbol",
    ],
)
def test_every_request_type_answers_null_params(shared: RawServer, method: str) -> None:
    assert error_of(shared.request(method, None)) == -32602
    assert shared.popups() == []


def test_a_malformed_response_from_the_client_is_logged(shared: RawServer) -> None:
    shared.send({"jsonrpc": "2.0", "id": "not-ours", "error": "not an error object"})
    shared.send({"jsonrpc": "2.0", "id": 12345, "result": {"unasked": True}})
    still_serves(shared)


def test_unknown_method_and_notification(shared: RawServer) -> None:
    assert error_of(shared.request("awl/noSuchThing", {})) == -32601
    shared.notify("awl/noSuchNotification", {})
    shared.notify("$/someExtension", {})
    still_serves(shared)


def test_a_failing_feature_answers_internal_error_and_the_next_request_works(shared: RawServer) -> None:
    # a selection range far past the document (the position itself is valid): never a hang
    reply = shared.request(
        "textDocument/selectionRange",
        {"textDocument": {"uri": URI}, "positions": [{"line": 99, "character": 99}]},
    )
    assert "result" in reply or error_of(reply) == -32603
    still_serves(shared)


# ---- framing


def test_header_names_are_case_insensitive_and_lf_only_lines_are_read(lsp: RawServer) -> None:
    msg_id, data = lsp.request_bytes("textDocument/hover", HOVER)
    lsp.raw(data.replace(b"Content-Length", b"content-LENGTH").replace(b"\r\n", b"\n"))
    assert "result" in lsp.response(msg_id)


@pytest.mark.parametrize("delta", [-1, 1, -3, 4])
def test_a_length_a_little_off_is_mended(shared: RawServer, delta: int) -> None:
    msg_id, data = shared.request_bytes("textDocument/hover", HOVER)
    body = data.split(b"\r\n\r\n", 1)[1]
    shared.raw(f"Content-Length: {len(body) + delta}\r\n\r\n".encode() + body)
    assert "result" in shared.response(msg_id)
    still_serves(shared)


@pytest.mark.parametrize(
    "junk",
    [
        b"garbage between messages\r\n",
        b"\x00\x01\x02",
        b"Content-Length: abc\r\n\r\n{}",
        b"X-Header: 1\r\n\r\n{}",  # no Content-Length at all
        b"Content-Length: 99999999999999\r\n\r\n",
    ],
)
def test_framing_slips_resynchronise_at_the_next_header(shared: RawServer, junk: bytes) -> None:
    msg_id, data = shared.request_bytes("textDocument/hover", HOVER)
    shared.raw(junk + data)
    assert "result" in shared.response(msg_id)
    assert any("framing error" in line or "refused" in line for line in shared.logs())
    assert shared.popups() == []


def test_a_framing_error_with_nothing_after_it_exits_non_zero(lsp: RawServer) -> None:
    lsp.raw(b'\r\n{"jsonrpc": "2.0", "id": 1, "method": "shutdown"}')  # a body without its header
    assert lsp.wait(15) != 0


# ---- lifecycle


def test_requests_before_initialize_get_server_not_initialized() -> None:
    server = RawServer()
    try:
        assert error_of(server.request("textDocument/hover", HOVER)) == -32002
        server.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": URI, "languageId": "awl", "version": 1, "text": DOC}},
        )
        assert "result" in server.request("initialize", {"processId": None, "capabilities": {}})
        assert error_of(server.request("initialize", {"processId": None, "capabilities": {}})) == -32600
        assert server.popups() == []
    finally:
        server.close()


def test_exit_without_shutdown_is_status_1(lsp: RawServer) -> None:
    lsp.notify("exit", None)
    assert lsp.wait() == 1


def test_shutdown_then_exit_is_status_0_and_requests_between_are_invalid(lsp: RawServer) -> None:
    assert lsp.request("shutdown")["result"] is None
    assert error_of(lsp.request("textDocument/hover", HOVER)) == -32600
    lsp.notify("exit", None)
    assert lsp.wait() == 0


def test_cancelled_requests_are_answered_request_cancelled(lsp: RawServer) -> None:
    big = DOC + "".join(f"\nstep s{i}\n  route done(n: {i})\n" for i in range(3000))
    lsp.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": "file:///big.awl", "languageId": "awl", "version": 1, "text": big}},
    )
    slow_id, slow = lsp.request_bytes(
        "textDocument/semanticTokens/full", {"textDocument": {"uri": "file:///big.awl"}}
    )
    ids, batch = [], slow
    for _ in range(2):
        msg_id, data = lsp.request_bytes("textDocument/hover", HOVER)
        ids.append(msg_id)
        batch += data
    for msg_id in ids:
        batch += frame({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": msg_id}})
    lsp.raw(batch)
    assert "result" in lsp.response(slow_id, timeout=60)
    assert [error_of(lsp.response(i)) for i in ids] == [-32800, -32800]
    still_serves(lsp)


# ---- document sync


def test_changes_that_cannot_apply_are_logged_not_popped_up(lsp: RawServer) -> None:
    def change(uri: str, version: int, changes: list) -> None:
        lsp.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": version}, "contentChanges": changes},
        )

    change("file:///never-opened.awl", 2, [{"text": "x"}])
    change(URI, 10, [{"text": DOC + "\n// ten\n"}])
    ten = lsp.diagnostics(URI)
    assert ten["version"] == 10
    change(URI, 4, [{"text": "stale"}])  # older than 10: ignored
    rng = {"start": {"line": 40, "character": 0}, "end": {"line": 41, "character": 0}}
    change(URI, 11, [{"range": rng, "text": "past the end"}])
    eleven = lsp.diagnostics(URI)
    assert eleven["version"] == 11
    assert any(d.get("code") == "out-of-sync" for d in eleven["diagnostics"])
    change(URI, 12, [{"text": DOC + "// \ud800 lone surrogate\n"}])
    twelve = lsp.diagnostics(URI)
    assert twelve["version"] == 12 and not any(d.get("code") == "out-of-sync" for d in twelve["diagnostics"])
    logs = "\n".join(lsp.logs())
    assert "not open" in logs and "not newer" in logs and "past the end" in logs and "surrogate" in logs
    assert lsp.popups() == []
    tree = lsp.request("awl/syntaxTree", {"textDocument": {"uri": URI}})["result"]
    assert tree["text"] == DOC + "// \ufffd lone surrogate\n"


# ---- workspace safety


def test_no_feature_shows_a_file_outside_the_workspace(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    outside = tmp_path / "outside"
    workspace.mkdir()
    outside.mkdir()
    canary = {"type": "object", "properties": {"canary_field_zq": {"type": "string"}}}
    (outside / "x.json").write_text(json.dumps(canary))
    (workspace / "inside.json").write_text(json.dumps(canary).replace("canary_field_zq", "inside_field"))
    (workspace / "link.json").symlink_to(outside / "x.json")
    server = RawServer()
    try:
        server.initialize(workspace)
        targets = ["../outside/x.json", str(outside / "x.json"), "link.json", "inside.json"]
        for n, target in enumerate(targets):
            uri = (workspace / f"doc{n}.awl").as_uri()
            text = (
                f'//! canary\nworkflow w\n  input x: T\n\ntype T = schema("{target}")\n\nstep s\n  y = x.\n'
            )
            diags = server.open(uri, text)["diagnostics"]
            where = {"textDocument": {"uri": uri}, "position": {"line": 7, "character": 8}}
            answers = [
                server.request("textDocument/completion", where),
                server.request(
                    "textDocument/hover",
                    {"textDocument": {"uri": uri}, "position": {"line": 2, "character": 11}},
                ),
                server.request(
                    "textDocument/inlayHint",
                    {
                        "textDocument": {"uri": uri},
                        "range": {"start": {"line": 0, "character": 0}, "end": {"line": 8, "character": 0}},
                    },
                ),
            ]
            shown = json.dumps(answers) + json.dumps(diags)
            if target == "inside.json":
                assert "inside_field" in shown  # the safe path still works
            else:
                assert "canary_field_zq" not in shown
                assert any("outside the workspace" in d["message"] for d in diags)
    finally:
        server.close()


# ---- crash isolation, in process


def test_a_failing_handler_is_answered_internal_error_and_logged() -> None:
    import io

    from awl_lsp.server.protocol import RobustLanguageServer

    server = RobustLanguageServer("crash-test", "0")
    calls: list[str] = []

    @server.feature("awl/boom")
    def boom(ls: object, params: object) -> None:
        calls.append("boom")
        raise RuntimeError("feature exploded")

    @server.feature("awl/notifyBoom")
    def notify_boom(ls: object, params: object) -> None:
        raise RuntimeError("notification exploded")

    @server.feature("awl/fine")
    def fine(ls: object, params: object) -> str:
        return "still here"

    def msg(msg_id: int | None, method: str, params: object) -> bytes:
        body: dict = {"jsonrpc": "2.0", "method": method, "params": params}
        if msg_id is not None:
            body["id"] = msg_id
        return frame(body)

    stream = io.BytesIO(
        msg(1, "initialize", {"processId": None, "capabilities": {}})
        + msg(2, "awl/boom", {})
        + msg(None, "awl/notifyBoom", {})
        + msg(3, "awl/fine", {})
        + msg(4, "shutdown", None)
        + msg(None, "exit", None)
    )
    out = io.BytesIO()
    status = server.serve(lambda n, timeout: stream.read(n), out)
    chunks = out.getvalue().split(b"\r\n\r\n")[1:]
    replies = [json.loads(chunk.split(b"Content-Length")[0]) for chunk in chunks]
    by_id = {r.get("id"): r for r in replies if "id" in r and "method" not in r}
    assert status == 0 and calls == ["boom"]
    assert by_id[2]["error"]["code"] == -32603
    assert by_id[3]["result"] == "still here"
    logs = [r["params"]["message"] for r in replies if r.get("method") == "window/logMessage"]
    assert any("feature exploded" in line for line in logs)
    assert any("notification exploded" in line for line in logs)
    assert not any(r.get("method") == "window/showMessage" for r in replies)


def test_a_notification_with_bad_params_is_logged_not_popped_up(shared: RawServer) -> None:
    shared.notify("textDocument/didChange", {"textDocument": {"uri": URI}})  # no version, no changes
    still_serves(shared)
    assert any("invalid params for textDocument/didChange" in line for line in shared.logs())
