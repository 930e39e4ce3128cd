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
and dispatched one at a time on the event loop.
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

from cattrs.errors import ClassValidationError
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException, JsonRpcRequestCancelled
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import JsonRPCNotification, JsonRPCRequestMessage
from pygls.protocol.language_server import lsp_method

from awl_lsp import memory
from awl_lsp.framing import Body, End, Framer, Lost, ReadFn, Slip, fd_reader
from awl_lsp.syntax.bounds import json_nesting

log = logging.getLogger("awl_lsp.protocol")

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
SERVER_NOT_INITIALIZED = -32002
REQUEST_CANCELLED = -32800

MAX_JSON_DEPTH = 512  # deeper JSON than any LSP message needs is refused before Python recursion


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


class Rejection(Exception):
    """A message refused before dispatch: the JSON-RPC error to answer with (id None: not answerable)."""

    def __init__(self, code: int, message: str, msg_id: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.msg_id = msg_id


def decode(body: bytes) -> Any:
    """The JSON value of a body (Rejection -32700 when it is not UTF-8 JSON or absurdly deep)."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Rejection(PARSE_ERROR, f"the message body is not UTF-8 (byte {exc.start})") from None
    if json_nesting(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH:
        raise Rejection(PARSE_ERROR, f"the message is nested more than {MAX_JSON_DEPTH} levels deep")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise Rejection(PARSE_ERROR, f"the message body is not JSON: {exc}") from None


def envelope(value: Any) -> dict[str, Any]:
    """Check a decoded value is one JSON-RPC 2.0 message; Rejection -32600 otherwise."""
    if isinstance(value, list):
        raise Rejection(INVALID_REQUEST, "batches are not part of the Language Server Protocol")
    if not isinstance(value, dict):
        raise Rejection(INVALID_REQUEST, f"a message must be a JSON object, not {type(value).__name__}")
    msg_id = value.get("id")
    good_id = isinstance(msg_id, (int, str)) and not isinstance(msg_id, bool)
    answer_id = msg_id if good_id else None
    if value.get("jsonrpc") != "2.0":
        raise Rejection(INVALID_REQUEST, 'the message lacks "jsonrpc": "2.0"', answer_id)
    if "id" in value and not good_id:
        raise Rejection(INVALID_REQUEST, "a message id must be an integer or a string")
    if "method" in value:
        if not isinstance(value["method"], str) or not value["method"]:
            raise Rejection(INVALID_REQUEST, "a method name must be a non-empty string", answer_id)
        if "params" in value and not isinstance(value["params"], (dict, list, type(None))):
            raise Rejection(INVALID_PARAMS, "params must be an object or an array", answer_id)
        return value
    if good_id and (("result" in value) != ("error" in value)):
        return value  # a response to one of our requests
    raise Rejection(
        INVALID_REQUEST, "a message needs a method (or, as a response, a result or an error)", answer_id
    )


class Dispatcher:
    """Lifecycle and validation between the framer and pygls; one instance per connection."""

    def __init__(self, server: LanguageServer) -> None:
        self.server = server
        self.protocol = server.protocol
        self.initialized = False
        self.shut_down = False
        self.exit_code: int | None = None
        self.cancelled: set[Any] = set()
        self.arrived = 0  # bodies the reader thread has read (only it counts them)
        self.taken = 0  # bodies the loop has taken up (only it counts them)
        self._lock = threading.Lock()

    # ---- output
    def reply_error(self, msg_id: Any, code: int, message: str) -> None:
        error = {"code": code, "message": message}
        self.protocol._send_data({"jsonrpc": "2.0", "id": msg_id, "error": error})

    def log(self, message: str, kind: lsp.MessageType = lsp.MessageType.Warning) -> None:
        log.warning("%s", message)
        try:
            self.protocol.notify(lsp.WINDOW_LOG_MESSAGE, lsp.LogMessageParams(type=kind, message=message))
        except Exception:  # noqa: BLE001 — the log line must never be what fails
            log.exception("could not send a log message")

    # ---- reader thread side
    def note_cancel(self, value: Any) -> None:
        """Seen by the reader as soon as it arrives: mark the request cancelled if it has not run yet."""
        if isinstance(value, dict) and value.get("method") == lsp.CANCEL_REQUEST:
            params = value.get("params")
            target = params.get("id") if isinstance(params, dict) else None
            if isinstance(target, (int, str)):
                with self._lock:
                    self.cancelled.add(target)

    # ---- loop side
    def handle_all(self, bodies: list[bytes]) -> None:
        """Handle bodies that arrived together, in order. A run of `didChange` notifications for one
        document (keys typed faster than the server parses) is applied as one change carrying all
        their edits, with the last version: one re-parse for the burst instead of one per key."""
        run: dict[str, Any] | None = None
        for body in bodies:
            change = self._change(body)
            if change is not None and run is not None and _continues(run, change):
                run["params"]["contentChanges"] += change["params"]["contentChanges"]
                run["params"]["textDocument"]["version"] = change["params"]["textDocument"]["version"]
                continue
            if run is not None:
                self.handle(value=run)
                run = None
            if change is not None and self.server_merges(change):
                run = change
            else:
                self.handle(body)
            if self.exit_code is not None:
                return
        if run is not None:
            self.handle(value=run)

    def _change(self, body: bytes) -> dict[str, Any] | None:
        """A well-formed `didChange` notification made only of range edits, or None."""
        if b"textDocument/didChange" not in body:
            return None
        try:
            value = envelope(decode(body))
        except Rejection:
            return None
        params = value.get("params")
        if (
            value.get("method") != lsp.TEXT_DOCUMENT_DID_CHANGE
            or "id" in value
            or not isinstance(params, dict)
        ):
            return None
        doc, changes = params.get("textDocument"), params.get("contentChanges")
        if not (isinstance(doc, dict) and isinstance(doc.get("uri"), str) and isinstance(changes, list)):
            return None
        version = doc.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            return None
        if not all(isinstance(c, dict) and isinstance(c.get("range"), dict) for c in changes):
            return None
        return value

    def server_merges(self, change: dict[str, Any]) -> bool:
        """May later changes be folded into this one? (The server says: only when this one will be
        applied — its document is open, in sync and older than this version.)"""
        ask = getattr(self.server, "can_merge_changes", None)
        doc = change["params"]["textDocument"]
        return bool(
            ask is not None and self.initialized and not self.shut_down and ask(doc["uri"], doc["version"])
        )

    def handle(self, body: bytes = b"", value: dict[str, Any] | None = None) -> None:
        """Handle one body (or an already decoded message); every request gets exactly one answer."""
        try:
            if value is None:
                value = envelope(decode(body))
            self._dispatch(value)
        except Rejection as rej:
            if rej.msg_id is not None or rej.code in (PARSE_ERROR, INVALID_REQUEST):
                self.reply_error(rej.msg_id, rej.code, rej.message)
            self.log(f"refused a message: {rej.message}")
        except Exception as exc:  # noqa: BLE001 — whatever goes wrong, the connection keeps serving
            log.exception("failed to handle a message")
            msg_id = value.get("id") if isinstance(value, dict) else None
            if isinstance(msg_id, (int, str)) and isinstance(value, dict) and "method" in value:
                self.reply_error(msg_id, INTERNAL_ERROR, f"internal error: {exc}")
            self.log(f"failed to handle a message: {exc}", lsp.MessageType.Error)

    def _dispatch(self, value: dict[str, Any]) -> None:
        method = value.get("method")
        msg_id = value.get("id")
        is_request = method is not None and "id" in value
        if method is None:  # a response from the client
            self.protocol.handle_message(self._structured(value, None))
            return
        if method == lsp.EXIT:
            self.exit_code = 0 if self.shut_down else 1
            return
        if method == lsp.CANCEL_REQUEST:
            params = value.get("params")
            target = params.get("id") if isinstance(params, dict) else None
            running = self.protocol._request_futures.get(target) if isinstance(target, (int, str)) else None
            if running is not None and not running.done():
                running.cancel()  # a request awaiting something: pygls answers it -32800
            with self._lock:
                self.cancelled.discard(target)
            return
        if is_request:
            with self._lock:
                was_cancelled = msg_id in self.cancelled
                self.cancelled.discard(msg_id)
            if was_cancelled:
                raise Rejection(REQUEST_CANCELLED, f"request {msg_id} was cancelled", msg_id)
            if self.shut_down:
                raise Rejection(INVALID_REQUEST, f"{method}: the server has been shut down", msg_id)
            if method == lsp.INITIALIZE:
                if self.initialized:
                    raise Rejection(INVALID_REQUEST, "initialize may only be sent once", msg_id)
            elif not self.initialized:
                text = f"{method}: the server is not initialized yet"
                raise Rejection(SERVER_NOT_INITIALIZED, text, msg_id)
        elif self.shut_down or not self.initialized:
            state = "shut down" if self.shut_down else "not initialized"
            self.log(f"ignored {method}: the server is {state}")
            return
        message = self._structured(value, msg_id if is_request else None)
        if method == lsp.INITIALIZE:
            self.initialized = True
        if method == lsp.SHUTDOWN:
            self.shut_down = True
        self.protocol.handle_message(message)
        if method == lsp.SHUTDOWN:
            self.protocol._shutdown = False  # pygls would drop `exit`; the lifecycle is ours
        if method == lsp.INITIALIZE and (answered := getattr(self.server, "initialize_answered", None)):
            answered()  # (the answer has been written: pygls sends it as its handler returns)

    def _structured(self, value: dict[str, Any], msg_id: Any) -> Any:
        """The lsprotocol object for a message; Rejection -32602 when its params do not fit."""
        method = value.get("method")
        if method is None:
            return self.protocol.structure_message(value)
        known = self.protocol.get_message_type(method)
        fallback = JsonRPCRequestMessage if "id" in value else JsonRPCNotification
        shaped = dict(value)
        shaped.setdefault("params", None)
        try:
            return self.protocol._converter.structure(shaped, known or fallback)
        except (ClassValidationError, TypeError, ValueError, KeyError, AttributeError) as exc:
            detail = _first_error(exc)
            raise Rejection(INVALID_PARAMS, f"invalid params for {method}: {detail}", msg_id) from None
        except RecursionError:
            text = f"invalid params for {method}: nested too deeply"
            raise Rejection(INVALID_PARAMS, text, msg_id) from None


def _continues(run: dict[str, Any], change: dict[str, Any]) -> bool:
    """Is `change` the next change of the same document as `run`, with a newer version?"""
    a, b = run["params"]["textDocument"], change["params"]["textDocument"]
    return bool(a["uri"] == b["uri"] and b["version"] > a["version"])


def _first_error(exc: BaseException) -> str:
    while isinstance(exc, ClassValidationError) and exc.exceptions:
        exc = exc.exceptions[0]
    note = getattr(exc, "__notes__", None)
    return f"{exc} ({note[0]})" if note else str(exc) or type(exc).__name__


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
