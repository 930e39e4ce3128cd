"""The command line's per-file work spread over every core, its results in the files' order.

`run_jobs(work, items, context, jobs)` returns `[work(context, item) for item in items]` — the same
list whether it ran in this process or in worker processes, so what a command prints never depends
on how many cores did the work. Few items, or `jobs == 1`, run here: starting workers would cost
more than they save. Otherwise `jobs` workers (default: the cores this process may run on) each
take slices of the items. On Linux they are forked: they start with every module this process has
imported and with `context` as it is — only items and results travel between processes. Where
fork is not available they are spawned, and `context` is pickled once per worker.

`work` must be a module-level function (a spawned worker finds it by name) that returns what to
print rather than printing it; items, context and results must pickle. An exception raised by
`work` in a worker is raised here, as it would have been in one process.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

MIN_PARALLEL = 12  # fewer items than this run in this process
MIN_PER_WORKER = 4  # no more workers than give each this many items

_work: Callable[[Any, Any], Any] | None = None
_context: Any = None


def available_cores() -> int:
    """The processors this process may run on (its affinity), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def workers_for(count: int, jobs: int | None) -> int:
    """How many processes `run_jobs` uses for `count` items: 1 means this one alone."""
    wanted = available_cores() if not jobs or jobs < 1 else jobs
    if count < MIN_PARALLEL:
        return 1
    return max(1, min(wanted, count // MIN_PER_WORKER))


def run_jobs(
    work: Callable[[Any, Item], Result], items: Sequence[Item], context: Any = None, jobs: int | None = None
) -> list[Result]:
    """`[work(context, item) for item in items]`, on up to `jobs` processes (None or 0: every core)."""
    workers = workers_for(len(items), jobs)
    if workers == 1:
        return [work(context, item) for item in items]
    import multiprocessing  # (only a run that starts workers loads it)

    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    pool_context = multiprocessing.get_context(method)
    # Slices of a few dozen items: few round trips, and a slow slice cannot leave a core idle long.
    chunk = max(1, min(64, len(items) // (workers * 4)))
    gc.freeze()  # what exists now is shared with forked workers: the collector never touches it
    try:
        with pool_context.Pool(workers, initializer=_start, initargs=(work, context)) as pool:
            return pool.map(_call, items, chunksize=chunk)
    finally:
        gc.unfreeze()


def _start(work: Callable[[Any, Any], Any], context: Any) -> None:
    global _work, _context
    _work, _context = work, context


def _call(item: Any) -> Any:
    assert _work is not None
    return _work(_context, item)
