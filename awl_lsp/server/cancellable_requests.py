"""Requests the client can cancel while they run.

LSP lets a client cancel a request it no longer needs (`$/cancelRequest`); the reader thread notes
the cancellation as it arrives (`RobustLanguageServer.request_cancelled`), and a handler wrapped in
`cancellable_request` sees it at the features' next `checkpoint()` (`awl_lsp.features.cancel`): the
work stops there, the client's log says so, and the request is answered -32800 (RequestCancelled).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcRequestCancelled

from awl_lsp.features.cancel import Cancelled, cancellable
from awl_lsp.server.protocol import RobustLanguageServer

Handler = Callable[..., object]


def cancellable_request(handler: Handler) -> Handler:
    """A request handler the client can cancel while it runs: features reach `checkpoint()` between
    units of work and stop there, and the request is answered -32800 (RequestCancelled)."""

    def stopped(ls: RobustLanguageServer, msg_id: object) -> JsonRpcRequestCancelled:
        ls.log_message(f"request {msg_id} cancelled while it ran", lsp.MessageType.Log)
        return JsonRpcRequestCancelled(f"request {msg_id} was cancelled")

    if asyncio.iscoroutinefunction(handler):

        @functools.wraps(handler)
        async def run_async(ls: RobustLanguageServer, params: object) -> object:
            msg_id = ls.protocol.msg_id
            try:
                with cancellable(lambda: ls.request_cancelled(msg_id)):
                    return await handler(ls, params)
            except Cancelled:
                raise stopped(ls, msg_id) from None

        return run_async

    @functools.wraps(handler)
    def run(ls: RobustLanguageServer, params: object) -> object:
        msg_id = ls.protocol.msg_id
        try:
            with cancellable(lambda: ls.request_cancelled(msg_id)):
                return handler(ls, params)
        except Cancelled:
            raise stopped(ls, msg_id) from None

    return run
