"""A refused rename over stdio: the client gets the reason as the request's error, and the server's
log (its stderr) holds no Python traceback — a refusal is an answer, not a failure of the server."""

from __future__ import annotations

import time

import pytest
from raw_lsp import RawServer

TEXT = """//! probe
workflow probe
  input n: Int
  outcome done: type Int, route success

worker w
  action inc(n: Int) -> Int

step first
  inc(n: n) -> m

step second
  route done(m)
"""
URI = "file:///rename-probe.awl"


@pytest.mark.parametrize(
    ("new_name", "words"),
    [("Bad Name", "snake_case"), ("second", "second")],
    ids=["invalid", "colliding"],
)
def test_a_refused_rename_is_answered_without_a_traceback(new_name: str, words: str) -> None:
    server = RawServer()
    try:
        server.initialize()
        server.open(URI, TEXT)
        where = {"textDocument": {"uri": URI}, "position": {"line": 8, "character": 6}, "newName": new_name}
        reply = server.request("textDocument/rename", where)
        assert "error" in reply, reply
        assert reply["error"]["code"] == -32803  # RequestFailed
        assert words in reply["error"]["message"]
        assert server.hover_works(URI), "the server goes on serving"
        server.request("shutdown")
        server.notify("exit", None)
        server.wait()
        time.sleep(0.2)  # (the reader thread takes the last of stderr)
        log = server.stderr_text()
        assert "Traceback" not in log, log
        assert not [m for m in server.logs() if "Error" in m or new_name in m], server.logs()
    finally:
        server.close()
