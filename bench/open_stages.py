"""Where a first analysis spends its CPU, per document shape of `shapes.SHAPES` (in-process).

    python bench/open_stages.py                 # every shape at 5,000 lines
    python bench/open_stages.py dense rebound   # some shapes
    python bench/open_stages.py --rules         # also each rule's share

`open_shapes.py` says how long an open takes; this says what in it: per shape, the median CPU ms
of each stage of `diagnostics(OpenDocument(text).snapshot)` — the text and tree (parse, bounds,
line index), the model, the syntax problems, the item rules and what the checker reads of each
item besides them (its nodes by type, summary, tally, exports), the document-wide rules, and the
rest (annotations, folding, the conversion to LSP). Each stage is timed by wrapping its function,
which adds ≈ 1 µs per call: the parts add up to a little more than an unwrapped open (the `total`
row is timed unwrapped, before the wrappers are put in). With `--rules`, each rule's `check_item`
and `check` is wrapped too (≈ 20 more calls per item: the rules' rows are then a little high).

This is one process's work: the server (and `awl check` on one long file) splits a long document's
first item rules between two (`awl_lsp.checks.parallel`), which `open_shapes.py` measures.

Run it under the allocator the server uses (`PYTHONMALLOC=malloc`, see `awl_lsp.server.memory`)
to see the server's costs; the default allocator shows the command line's.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from shapes import SHAPES  # noqa: E402

LINES = 5000
RUNS = 5
Spent = dict[str, float]
ORDER: list[str] = []  # the stages in the order they were wrapped (the table's rows)


def timed(spent: Spent, name: str, owner: Any, attr: str) -> None:  # noqa: ANN401 — a module or a class
    """Wrap `owner.attr` so that its CPU time adds to `spent[name]` (an inner call of the same stage
    is not counted twice: the stages nest only as listed in `stages`)."""
    if name not in ORDER:
        ORDER.append(name)
    setattr(owner, attr, cpu_timed(spent, name, getattr(owner, attr)))


def cpu_timed(spent: Spent, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """`fn`, its CPU time added to `spent[name]` at each call."""

    def run(*args: object, **kwargs: object) -> object:
        t = time.process_time()
        try:
            return fn(*args, **kwargs)
        finally:
            spent[name] = spent.get(name, 0.0) + time.process_time() - t

    return run


def open_once(text: str) -> float:
    from awl_lsp.features.diagnostics import diagnostics
    from awl_lsp.features.documents import OpenDocument

    t0 = time.process_time()
    diagnostics(OpenDocument(text, 1, None, None).snapshot)
    return time.process_time() - t0


def stages(spent: Spent, rules: bool) -> None:
    """Wrap the stages of a first analysis (each module's own name for the function it calls)."""
    from awl_lsp import checks
    from awl_lsp.checks import engine, item_check
    from awl_lsp.features import documents, findings
    from awl_lsp.model import builder

    timed(spent, "text and tree", documents, "SyntaxDocument")
    timed(spent, "model", builder.ModelBuilder, "build")
    timed(spent, "syntax problems", findings, "document_syntax_problems")
    timed(spent, "checker", findings, "run_checks")
    timed(spent, "  per item", item_check.ItemRun, "check")
    timed(spent, "    nodes by type", item_check, "item_nodes")
    timed(spent, "    summary", item_check, "summarize")
    timed(spent, "    tally", item_check, "tally")
    timed(spent, "    exports", item_check, "exports")
    timed(spent, "  document-wide rules", engine.CheckCache, "_run_wide")
    timed(spent, "annotate and fold", findings, "annotate")
    timed(spent, "annotate and fold", findings, "fold")
    if not rules:
        return
    for rule in checks.RULES:
        name = rule.__name__.rsplit(".", 1)[-1]
        if callable(getattr(rule, "check_item", None)):
            timed(spent, f"    item: {name}", rule, "check_item")
        if callable(getattr(rule, "check", None)):
            timed(spent, f"    wide: {name}", rule, "check")


def main() -> None:
    args = sys.argv[1:]
    rules = "--rules" in args
    names = [a for a in args if a in SHAPES] or list(SHAPES)
    texts = {name: SHAPES[name](LINES) for name in names}
    open_once(texts[names[0]])  # (imports and first-use caches are no shape's cost)
    totals = {name: statistics.median(open_once(text) for _ in range(RUNS)) for name, text in texts.items()}
    spent: Spent = {}
    stages(spent, rules)
    table: dict[str, dict[str, float]] = {}
    for name, text in texts.items():
        runs: dict[str, list[float]] = {}
        for _ in range(RUNS):
            spent.clear()
            open_once(text)
            for stage, cpu in spent.items():
                runs.setdefault(stage, []).append(cpu)
        table[name] = {stage: statistics.median(cpu) for stage, cpu in runs.items()}
    order = [stage for stage in ORDER if any(stage in row for row in table.values())]
    head = ["CPU ms (median), per shape", *names]
    rows = [head, ["---"] * len(head), ["total (unwrapped)", *(f"{totals[n] * 1000:.0f}" for n in names)]]
    rows += [[stage, *(f"{table[n].get(stage, 0.0) * 1000:.1f}" for n in names)] for stage in order]
    print("\n".join("| " + " | ".join(r) + " |" for r in rows))
    print(f"{LINES:,} lines, runs per shape: {RUNS}")


if __name__ == "__main__":
    main()
