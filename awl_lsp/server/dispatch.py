"""The base protocol's judgement of each message, before pygls sees it: the JSON-RPC envelope, the
lifecycle and cancellation, each answered with its error code (see `protocol` for the list).

`decode` and `envelope` say whether a body is one JSON-RPC 2.0 message; `Dispatcher` decides, for
each message read, whether it runs, is refused (not initialized, shut down, a second `initialize`, a
cancelled request) or has params that do not fit its method, and folds a run of queued edits of one
document into the newest.
"""

from __future__ import annotations

import json
import logging
import threading
from typing import Any

from cattrs.errors import ClassValidationError
from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.protocol.json_rpc import JsonRPCNotification, JsonRPCRequestMessage

from awl_lsp.syntax.bounds import json_nesting

log = logging.getLogger("awl_lsp.server.protocol")  # (one logger for the base protocol)

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
SERVER_NOT_INITIALIZED = -32002
REQUEST_CANCELLED = -32800

MAX_JSON_DEPTH = 512  # deeper JSON than any LSP message needs is refused before Python recursion


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
