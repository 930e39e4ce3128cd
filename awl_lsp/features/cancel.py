"""Cancelling a request while it runs: long features call `checkpoint()` between units of work.

The server runs each request inside `cancellable(is_cancelled)`; `is_cancelled` reads what the
protocol's reader thread noted (a `$/cancelRequest` is seen the moment it arrives, even while the
event loop is busy with the request it names). `checkpoint()` raises `Cancelled` once the request
is cancelled, so the work stops between two items and the server answers -32800. Outside a
request (the CLI, tests) `checkpoint()` does nothing. Features only ever stop *between* units whose
results they have not yet published to a shared cache, so a cancelled request leaves every cache
as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_CHECK: ContextVar[Callable[[], bool] | None] = ContextVar("awl_cancel_check", default=None)


class Cancelled(Exception):
    """The request this work belongs to was cancelled by the client."""


def checkpoint() -> None:
    """Raise `Cancelled` if the current request has been cancelled."""
    check = _CHECK.get()
    if check is not None and check():
        raise Cancelled


@contextmanager
def cancellable(is_cancelled: Callable[[], bool]) -> Iterator[None]:
    """Run the body as one request: `checkpoint()` inside it consults `is_cancelled`."""
    token = _CHECK.set(is_cancelled)
    try:
        yield
    finally:
        _CHECK.reset(token)
