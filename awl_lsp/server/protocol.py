"""The JSON-RPC / LSP base protocol by the book, around pygls: envelopes, lifecycle, errors, cancellation.

pygls hands every body to `json.loads` with an object hook and answers most malformed input with
nothing (or `null`) plus a pop-up. This module owns what happens between the bytes (see
`framing`) and pygls's feature dispatch:

- a body that is not UTF-8 JSON → -32700; not a single JSON-RPC 2.0 object (a batch, no
  `"jsonrpc"`, a bad id or method) → -32600; params that do not fit the method → -32602;
  an unknown request method → -32601 (pygls); a request before `initialize` → -32002; a second
  `initialize` or any request after `shutdown` → -32600; a request cancelled before it ran → -32800,
  and one cancelled while it runs too (at the feature's next `checkpoint()`, see
  `awl_lsp.features.cancel`, or at its next `await`);
- `exit` ends the process with status 0 after `shutdown`, 1 without;
- failures that have no request to answer are logged (`window/logMessage`), never popped up;
- pygls's own text-document bookkeeping (which splits lines with `str.splitlines`) is switched
  off: the server keeps its documents itself;
- a handled notification leaves nothing behind (pygls would keep each one's future for good).

Messages are read on a thread (so `$/cancelRequest` is seen while a request waits in the queue)
and dispatched one at a time on the event loop. Which message runs, and which is refused with
which code, is `dispatch`'s; this module is the server around it and the answers' way out.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import os
import sys
import threading
from functools import partial
from typing import Any

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException, JsonRpcRequestCancelled
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

from awl_lsp.server import memory
from awl_lsp.server.dispatch import Dispatcher
from awl_lsp.server.framing import Body, End, Framer, Lost, ReadFn, Slip, fd_reader

log = logging.getLogger("awl_lsp.server.protocol")


class JsonText(str):
    """A request's result already encoded as JSON text (a feature that keeps its answer's pieces
    encoded): sent as it is, without pygls's unstructuring and `json.dumps`."""


class RequestRefused(JsonRpcException):
    """A request the server answers with an error the user acts on (a rename to an invalid or taken
    name): answered RequestFailed with the reason, and logged as one line — it is no server fault."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code=lsp.LSPErrorCodes.RequestFailed)


class AwlProtocol(LanguageServerProtocol):
    """pygls's LSP protocol without its text-document store (our documents live in the server)."""

    def _send_handler_result(self, future: Any, *, msg_id: Any) -> None:
        """A refused or cancelled request is answered with its error, without the traceback pygls
        logs for a failing handler (neither is a failure of the server)."""
        if not future.cancelled():
            exc = future.exception()
            if isinstance(exc, (RequestRefused, JsonRpcRequestCancelled)):
                self._request_futures.pop(msg_id, None)
                if isinstance(exc, RequestRefused):
                    log.info("request %s refused: %s", msg_id, exc.message)
                self._send_response(msg_id, error=exc.to_response_error())
                return
        super()._send_handler_result(future, msg_id=msg_id)

    def _send_response(self, msg_id: Any, result: Any = None, error: Any = None) -> None:
        if error is None and isinstance(result, JsonText):
            self._result_types.pop(msg_id, None)
            self._send_body('{"jsonrpc": "2.0", "id": ' + json.dumps(msg_id) + ', "result": ' + result + "}")
            return
        super()._send_response(msg_id, result, error)

    def _send_body(self, body: str) -> None:
        """Write one message body that is JSON text already (framed as pygls frames its own)."""
        if self.writer is None:
            log.error("unable to send a message: no transport")
            return
        data = body.encode("utf-8")
        kind = f"Content-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}"
        header = f"Content-Length: {len(data)}\r\n{kind}\r\n\r\n"
        try:
            written = self.writer.write(header.encode("ascii") + data)
            if inspect.isawaitable(written):
                asyncio.ensure_future(written)
        except BrokenPipeError:
            log.exception("could not send a message: the client closed the connection")
            raise

    def _execute_handler(
        self, msg_id: Any, handler: Any, callback: Any, args: Any = None, kwargs: Any = None
    ):
        # pygls files the future of a notification (and of each step of a generator handler) under
        # a fresh id that nothing ever removes: one future per keystroke, kept for the session.
        # Forget it once it is done; requests are forgotten by pygls when their answer is sent.
        internal = callback == self._check_handler_result or (
            isinstance(callback, partial) and callback.func == self._run_generator
        )
        if internal:
            callback = partial(self._forget_then, msg_id, callback)
        return super()._execute_handler(msg_id, handler, callback, args, kwargs)

    def _forget_then(self, msg_id: Any, callback: Any, future: Any) -> None:
        if not future.cancelled():  # (`shutdown` cancels what is pending while it walks the dict)
            self._request_futures.pop(msg_id, None)
        callback(future)

    @lsp_method(lsp.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: lsp.DidOpenTextDocumentParams):
        if (handler := self.fm.features.get(lsp.TEXT_DOCUMENT_DID_OPEN)) is not None:
            yield handler, (params,), None

    @lsp_method(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: lsp.DidChangeTextDocumentParams):
        if (handler := self.fm.features.get(lsp.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None

    @lsp_method(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: lsp.DidCloseTextDocumentParams):
        if (handler := self.fm.features.get(lsp.TEXT_DOCUMENT_DID_CLOSE)) is not None:
            yield handler, (params,), None

    @lsp_method(lsp.INITIALIZE)
    def lsp_initialize(self, params: lsp.InitializeParams):
        """pygls's initialize, then the server's word on capabilities that depend on the client's."""
        result = yield from super().lsp_initialize(params)
        settle = getattr(self._server, "settle_capabilities", None)
        if settle is not None:
            settle(params.capabilities, result.capabilities)
        return result


class RobustLanguageServer(LanguageServer):
    """A pygls `LanguageServer` speaking the base protocol through `Dispatcher` and `Framer`."""

    def __init__(self, name: str, version: str, **kwargs: Any) -> None:
        super().__init__(name, version, protocol_cls=AwlProtocol, **kwargs)

    dispatcher: Dispatcher | None = None
    _framer: Framer | None = None
    _read: ReadFn | None = None

    def request_cancelled(self, msg_id: Any) -> bool:
        """Has the client cancelled request `msg_id`? (Noted by the reader thread as the
        `$/cancelRequest` arrives, so a request can see it while it runs.)"""
        dispatcher = self.dispatcher
        return dispatcher is not None and msg_id in dispatcher.cancelled

    def messages_waiting(self) -> bool:
        """Has input arrived that the loop has not taken up yet — a message queued by the reader
        thread, one it is still reading, or bytes waiting in the pipe? (Work that can wait — a
        publish — lets it go first; when this says no, the input is quiet.)"""
        dispatcher = self.dispatcher
        if dispatcher is None:
            return False
        if dispatcher.arrived > dispatcher.taken:
            return True
        framer = self._framer
        if framer is not None and framer.holding():
            return True
        pending = getattr(self._read, "pending", None)
        return bool(pending is not None and pending())

    def report_server_error(self, error: Exception, source: Any) -> None:
        """Failures are logged for the user to find, never popped up (requests already carry -32603)."""
        if isinstance(error, JsonRpcRequestCancelled):
            return  # not a failure: the client asked for it (and was answered -32800)
        text = error.message if isinstance(error, JsonRpcException) else str(error)
        log.error("%s: %s", getattr(source, "__name__", source), text)
        try:
            self.window_log_message(lsp.LogMessageParams(type=lsp.MessageType.Error, message=f"awl: {text}"))
        except Exception:  # noqa: BLE001
            log.exception("could not send a log message")

    def log_message(self, text: str, kind: lsp.MessageType = lsp.MessageType.Warning) -> None:
        """A line in the client's log for this server (never a pop-up)."""
        log.warning("%s", text)
        try:
            self.window_log_message(lsp.LogMessageParams(type=kind, message=text))
        except Exception:  # noqa: BLE001
            log.exception("could not send a log message")

    def serve(self, read: ReadFn, write: Any) -> int:
        """Serve one client until `exit` or the end of the stream; the process exit status."""
        from pygls.io_ import StdoutWriter

        self.protocol.set_writer(StdoutWriter(write))
        dispatcher = self.dispatcher = Dispatcher(self)
        self._read = read
        framer = self._framer = Framer(read)
        with memory.full_collections_when_quiet():
            return asyncio.run(self._serve(framer, dispatcher))

    async def _serve(self, framer: Framer, dispatcher: Dispatcher) -> int:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[Body | Slip | Lost | End] = asyncio.Queue()

        def pump() -> None:
            while True:
                event = framer.next()
                if isinstance(event, Body) and len(event.data) < 4096 and b"$/cancelRequest" in event.data:
                    try:
                        dispatcher.note_cancel(json.loads(event.data))
                    except Exception:  # noqa: BLE001 — judged properly on the loop
                        pass
                if isinstance(event, Body):
                    dispatcher.arrived += 1
                loop.call_soon_threadsafe(queue.put_nowait, event)
                if isinstance(event, (Lost, End)):
                    return

        threading.Thread(target=pump, name="awl-lsp-reader", daemon=True).start()
        while True:
            event = await queue.get()
            if isinstance(event, Body):
                dispatcher.taken += 1
            if isinstance(event, Body) and not event.slip and not queue.empty():
                # what arrived while the loop was busy is handled together (see `handle_all`)
                bodies = [event.data]
                while not queue.empty() and _plain_body(queue):
                    bodies.append(queue.get_nowait().data)  # type: ignore[union-attr]
                    dispatcher.taken += 1
                dispatcher.handle_all(bodies)
                memory.settle()  # what outlived the messages is not walked by collections again
                if dispatcher.exit_code is not None:
                    return dispatcher.exit_code
                continue
            if isinstance(event, Body):
                if event.slip:
                    dispatcher.log(event.slip)
                dispatcher.handle(event.data)
                memory.settle()
                if dispatcher.exit_code is not None:
                    return dispatcher.exit_code
            elif isinstance(event, Slip):
                dispatcher.log(event.message, lsp.MessageType.Error)
            elif isinstance(event, Lost):
                dispatcher.log(
                    f"{event.message}; exiting so the client can restart the server", lsp.MessageType.Error
                )
                return 2
            else:
                if event.message:
                    dispatcher.log(event.message, lsp.MessageType.Error)
                return 0 if dispatcher.shut_down else 1


def _plain_body(queue: asyncio.Queue) -> bool:
    """Is the next queued event a body that arrived without a framing slip?"""
    head = queue._queue[0]  # type: ignore[attr-defined]
    return isinstance(head, Body) and not head.slip


def serve_stdio(server: RobustLanguageServer) -> int:
    """Serve on this process's stdin/stdout; the exit status."""
    try:
        return server.serve(fd_reader(sys.stdin.fileno()), sys.stdout.buffer)
    except BrokenPipeError:
        log.error("the client closed the connection")
        return 1
    finally:
        try:
            sys.stdout.flush()
        except (BrokenPipeError, ValueError, OSError):
            os._exit(1)
