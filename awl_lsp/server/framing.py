"""LSP base-protocol framing: `Content-Length` headers and bodies out of a byte stream, resilient to slips.

A `Framer` turns the bytes a client writes into message bodies. It is forgiving where the intent
is clear (header names in any case, LF-only header lines, blank lines between messages) and
resynchronises where it is not: after stray bytes, a missing or non-numeric length or a body one
byte off, it resumes at the next `Content-Length` header. When no such header follows within a
grace period it reports the stream as lost, so the server can exit non-zero and the client can
restart it, instead of waiting forever for a header that never comes.

Everything here is pure byte handling over a `read(n, timeout)` callable, so tests drive it with
in-memory streams; `fd_reader` adapts a file descriptor (the server's stdin).
"""

from __future__ import annotations

import json
import os
import select
from collections.abc import Callable
from dataclasses import dataclass

# read(n, timeout): up to n bytes; b"" at end of stream; None when `timeout` seconds passed with no data
ReadFn = Callable[[int, float | None], bytes | None]

HEADER = b"content-length:"
MAX_BODY = 256 * 1024 * 1024  # a larger Content-Length is a framing error, not a 256 MB allocation
GRACE_SECONDS = 2.0  # how long to wait for a following header after a framing error
STALL_SECONDS = 0.25  # a body this long without new bytes is checked for being complete already


@dataclass(frozen=True)
class Body:
    """One message body, with what was wrong with its framing (if anything) and how it was mended."""

    data: bytes
    slip: str | None = None


@dataclass(frozen=True)
class Slip:
    """A framing error after which reading resumed at the next header (the skipped bytes are lost)."""

    message: str


@dataclass(frozen=True)
class Lost:
    """A framing error with no header after it: the stream cannot be followed any further."""

    message: str


@dataclass(frozen=True)
class End:
    """The client closed the stream."""

    message: str | None = None


Event = Body | Slip | Lost | End


class FdReader:
    """A `ReadFn` over a file descriptor (select for the timeout; a blocking select, then a read, without
    one) that can say, from another thread, whether input has arrived that its reader has not handed
    on yet (`pending`): bytes in the pipe, or bytes it is reading right now."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        # True from just before a read until the reader waits again: what it read may be in its
        # hands only (a thread back from a read waits for the interpreter lock before it can queue it)
        self.busy = False

    def __call__(self, n: int, timeout: float | None) -> bytes | None:
        self.busy = False  # (every body read so far has been handed on: the framer asks for more)
        try:
            ready, _, _ = select.select([self.fd], [], [], timeout)
        except (OSError, ValueError):
            ready = [self.fd]
        if not ready:
            return None
        self.busy = True
        try:
            return os.read(self.fd, n)
        except OSError:
            return b""

    def pending(self) -> bool:
        """Has input arrived that the reading thread has not handed on yet? (Asked from the loop.)"""
        if self.busy:
            return True
        try:
            ready, _, _ = select.select([self.fd], [], [], 0)
        except (OSError, ValueError):
            return False
        return bool(ready)


def fd_reader(fd: int) -> FdReader:
    """A `ReadFn` over a file descriptor; see `FdReader`."""
    return FdReader(fd)


class Framer:
    def __init__(self, read: ReadFn, grace: float = GRACE_SECONDS) -> None:
        self._read = read
        self._grace = grace
        self._buf = bytearray()
        self._eof = False

    # ---- buffer
    def _fill(self, timeout: float | None = None) -> bool:
        """Read more bytes; False at end of stream or when `timeout` passed."""
        if self._eof:
            return False
        chunk = self._read(65536, timeout)
        if chunk is None:
            return False
        if not chunk:
            self._eof = True
            return False
        self._buf += chunk
        return True

    def _line(self) -> bytes | None:
        """The next line with its terminator (the rest of the stream at its end; None when empty)."""
        while True:
            i = self._buf.find(b"\n")
            if i != -1:
                line = bytes(self._buf[: i + 1])
                del self._buf[: i + 1]
                return line
            if len(self._buf) > 65536:  # no header line is this long: hand it over for resynchronising
                line = bytes(self._buf)
                self._buf.clear()
                return line
            if not self._buf:  # idle between messages: block until the client writes
                if not self._fill():
                    return None
                continue
            if self._fill(STALL_SECONDS):
                continue
            if self._eof or (self._buf and not _could_be_header(self._buf)):
                if not self._buf:
                    return None
                line = bytes(self._buf)  # stalled on bytes no header starts with: hand them over
                self._buf.clear()
                return line

    def _exact(self, n: int) -> bytes:
        """Up to `n` bytes of body (fewer when the stream ends or stalls a few bytes short)."""
        while len(self._buf) < n:
            if not self._buf:  # idle between messages: block until the client writes
                if not self._fill():
                    break  # the stream ended right after the header: an empty, short body
                continue
            if self._fill(STALL_SECONDS):
                continue
            if self._eof or (n - len(self._buf) <= 64 and _is_json(self._buf)):
                break  # a stalled body a few bytes short that is complete already: the length was too long
            if not self._fill():
                break
        data = bytes(self._buf[:n])
        del self._buf[:n]
        return data

    def _unread(self, data: bytes) -> None:
        self._buf[:0] = data

    def holding(self) -> bool:
        """Are bytes of a message read but not yet returned (a body that is still arriving)?
        (Asked from another thread: a glance at the buffer's length, nothing more.)"""
        return len(self._buf) > 0

    # ---- messages
    def next(self) -> Event:
        """The next body (or framing event)."""
        headers: dict[bytes, bytes] = {}
        while True:
            line = self._line()
            if line is None:
                return Lost("the stream ended inside a message header") if headers else End()
            content = line.rstrip(b"\r\n")
            if not content:
                if not headers:
                    continue  # blank lines between messages are harmless
                break
            name, sep, value = content.partition(b":")
            if not sep or not name or not _is_token(name.strip()):
                if headers or content.strip():
                    problem = f"unexpected bytes where a header was expected: {content[:40]!r}"
                    return self._resync(line, problem)
                continue
            headers[name.strip().lower()] = value.strip()
        raw = headers.get(b"content-length")
        if raw is None:
            return self._resync(b"", "a message header without Content-Length")
        if not raw.isdigit() or int(raw) > MAX_BODY:
            return self._resync(b"", f"an unusable Content-Length {raw[:40]!r}")
        length = int(raw)
        data = self._exact(length)
        if len(data) < length:
            if self._eof:
                return End(f"the stream ended inside a message body ({len(data)} of {length} bytes)")
            return Body(data, f"Content-Length {length} was {length - len(data)} byte(s) too long")
        return self._mend(data)

    def _mend(self, data: bytes) -> Body:
        """A body whose length was off by a little: take the JSON value and put back what follows it."""
        try:
            json.loads(data)
            return Body(data)
        except (ValueError, RecursionError):
            pass
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return Body(data)
        stripped = text.lstrip()
        # too long: the body swallowed the start of the next header
        try:
            _, end = json.JSONDecoder().raw_decode(stripped)
        except (ValueError, RecursionError):
            end = -1
        if end > 0:
            rest = stripped[end:]
            if rest.strip() and HEADER.startswith(rest.strip().lower().encode()[: len(HEADER)]):
                self._unread(rest.encode())
                used = stripped[:end].encode()
                return Body(used, f"Content-Length {len(data)} was {len(data) - len(used)} byte(s) too long")
        # too short: the rest of the value waits in front of the next header
        i = self._buf.lower().find(HEADER)
        tail = bytes(self._buf[: i if i != -1 else len(self._buf)])
        if tail and len(tail) <= 64:
            try:
                json.loads(data + tail)
            except (ValueError, RecursionError):
                return Body(data)
            del self._buf[: len(tail)]
            return Body(data + tail, f"Content-Length {len(data)} was {len(tail)} byte(s) too short")
        return Body(data)

    def _resync(self, pending: bytes, problem: str) -> Slip | Lost:
        """Skip to the next `Content-Length` header; Lost when none comes within the grace period."""
        self._unread(pending)
        while True:
            i = self._buf.lower().find(HEADER)
            if i != -1:
                del self._buf[:i]
                return Slip(f"framing error ({problem}); resumed at the next Content-Length header")
            keep = len(HEADER) - 1  # a header may be split across reads
            if len(self._buf) > keep:
                del self._buf[: len(self._buf) - keep]
            if not self._fill(self._grace):
                return Lost(f"framing error ({problem}) and no Content-Length header follows")


def _is_json(data: bytes | bytearray) -> bool:
    try:
        json.loads(data)
    except (ValueError, RecursionError):
        return False
    return True


def _could_be_header(partial: bytes | bytearray) -> bool:
    name, sep, _ = bytes(partial).partition(b":")
    return not name or _is_token(name.strip()) if not sep else bool(name) and _is_token(name.strip())


def _is_token(name: bytes) -> bool:
    return all(33 <= b <= 126 and b not in b'()<>@,;:\\"/[]?={}' for b in name)
