"""Framing at the very end of the stream: a header whose body never comes ends cleanly, not with a crash."""

from __future__ import annotations

from awl_lsp.server.framing import End, Framer, ReadFn


def _stream(data: bytes) -> ReadFn:
    rest = [data]

    def read(n: int, timeout: float | None) -> bytes | None:
        out, rest[0] = rest[0][:n], rest[0][n:]
        return out

    return read


def test_a_stream_that_ends_right_after_a_header_ends_inside_the_body() -> None:
    event = Framer(_stream(b"Content-Length: 10\r\n\r\n")).next()
    assert isinstance(event, End)
    assert event.message is not None and "0 of 10 bytes" in event.message
