"""Is the input quiet? What the server asks before publishing diagnostics: a message the reader
thread has queued, one it is still reading, or bytes still in the pipe all mean "not yet"."""

from __future__ import annotations

import os

from awl_lsp.server.dispatch import Dispatcher
from awl_lsp.server.framing import Body, FdReader, Framer
from awl_lsp.server.protocol import RobustLanguageServer


def _frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def test_bytes_in_the_pipe_are_pending_until_the_reader_has_handed_their_message_on() -> None:
    r, w = os.pipe()
    try:
        reader = FdReader(r)
        framer = Framer(reader)
        assert not reader.pending() and not framer.holding()
        os.write(w, _frame(b'{"jsonrpc": "2.0", "method": "a"}'))
        assert reader.pending()  # in the pipe, nobody has read it yet
        event = framer.next()
        assert isinstance(event, Body) and event.data == b'{"jsonrpc": "2.0", "method": "a"}'
        # read and returned, but not yet handed on: still pending until the reader asks for more
        assert reader.pending()
        os.write(w, _frame(b'{"jsonrpc": "2.0", "method": "b"}')[:10])  # half a header
        assert reader.pending()
        reader(1, 0)  # the reader comes back for more (and takes one byte of the half header)
        assert reader.pending()
    finally:
        os.close(r)
        os.close(w)


def test_a_partly_read_message_is_held_by_the_framer() -> None:
    r, w = os.pipe()
    try:
        reader = FdReader(r)
        framer = Framer(reader)
        whole = _frame(b'{"jsonrpc": "2.0", "method": "a"}')
        os.write(w, whole[:-5])
        framer._fill(0)  # what the reader thread does: the bytes so far, then it waits for the rest
        assert framer.holding()
        os.write(w, whole[-5:])
        assert isinstance(framer.next(), Body)
        assert not framer.holding()
    finally:
        os.close(r)
        os.close(w)


def test_the_server_sees_input_waiting_in_the_pipe_and_queued_by_the_reader() -> None:
    r, w = os.pipe()
    try:
        server = RobustLanguageServer("quiet-test", "0")
        reader = FdReader(r)
        server._read = reader
        server._framer = Framer(reader)
        server.dispatcher = Dispatcher(server)
        assert not server.messages_waiting()
        os.write(w, _frame(b"{}"))
        assert server.messages_waiting()
        assert isinstance(server._framer.next(), Body)
        server.dispatcher.arrived += 1  # queued for the loop (what the reader thread does next)
        reader(0, 0)  # …and the reader waits for more: nothing in its hands, the pipe is empty
        assert server.messages_waiting()  # the loop has not taken it up yet
        server.dispatcher.taken += 1
        assert not server.messages_waiting()
    finally:
        os.close(r)
        os.close(w)
