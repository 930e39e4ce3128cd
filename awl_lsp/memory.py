"""Giving memory back: after documents close, collect cycles and return freed heap pages to the OS.

CPython frees a closed document's objects at once, but the C allocator keeps the pages, so the
process would stay at its high-water mark. `release()` runs the cycle collector and, on glibc,
`malloc_trim(0)`, so memory use follows the documents that are open.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import os
import sys
from collections.abc import Callable

_trim: Callable[[int], int] | None = None
try:
    _libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    _trim = _libc.malloc_trim
except (OSError, AttributeError):  # not glibc: collecting is all we can do
    _trim = None


def release() -> None:
    gc.collect()
    if _trim is not None:
        _trim(0)


def prefer_system_allocator(argv: list[str]) -> None:
    """Re-run this process under the C allocator (`PYTHONMALLOC=malloc`), once, before serving.

    CPython's own small-object allocator keeps an arena while any object in it lives, so a
    server that opened and closed many documents would hold its peak memory for good; with the
    C allocator and `release()` it returns to its baseline. Same speed on our workloads. Does
    nothing off POSIX, when the variable is already set, or when `AWL_KEEP_ALLOCATOR` is set (and
    if the re-run fails, it serves as it is).
    """
    if os.name != "posix" or os.environ.get("PYTHONMALLOC") or os.environ.get("AWL_KEEP_ALLOCATOR"):
        return  # (elsewhere exec starts a new process and the client would lose its pipe)
    env = dict(os.environ, PYTHONMALLOC="malloc")
    try:
        os.execve(sys.executable, [sys.executable, "-m", "awl_lsp", *argv], env)
    except OSError:
        return
