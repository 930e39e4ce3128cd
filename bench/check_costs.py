"""The checker's own CPU per edit: `run_checks` and the rest of `findings`, at a given size.

    .venv/bin/python bench/check_costs.py 5000 [char,enter,delete,paste] [rules]

Edits a generated workloop inside a step in the middle (the edits of `lsp_latency.cpu_costs`),
each followed by its diagnostics, and prints the mean CPU ms of 20 edits (after 4 to
warm up): diagnostics in all, `run_checks` in them, the rest (syntax problems, annotations,
conversion). With `rules`, also each document-wide rule's share (0 when its problems were reused).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from generate import document, typing  # noqa: E402
from open_stages import cpu_timed  # noqa: E402

from awl_lsp import checks  # noqa: E402
from awl_lsp.features import diagnostics as diag  # noqa: E402
from awl_lsp.features import findings  # noqa: E402
from awl_lsp.features.documents import OpenDocument  # noqa: E402
from awl_lsp.syntax import TextEdit  # noqa: E402

RUNS = 20


def main() -> None:
    lines = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    kinds = sys.argv[2].split(",") if len(sys.argv) > 2 else ["char", "enter", "delete", "paste"]
    text = document(lines)
    edits = typing(text).edits
    spent: dict[str, float] = {}

    def timed(name: str, fn: Callable) -> Callable:
        return cpu_timed(spent, name, fn)

    findings.run_checks = timed("run_checks", findings.run_checks)  # type: ignore[assignment]
    if len(sys.argv) > 3:
        for rule in checks.RULES:
            if hasattr(rule, "check"):
                rule.check = timed(rule.__name__.rsplit(".", 1)[-1], rule.check)
    doc = OpenDocument(text, 1, None, None)
    diag.diagnostics(doc.snapshot)
    for kind in kinds:
        pair = edits[kind]
        total = 0.0
        for i in range(RUNS + 4):
            if i == 4:
                spent.clear()
                total = 0.0
            doc.edit([TextEdit(*pair[i % 2])], (doc.version or 0) + 1)
            snap = doc.snapshot
            snap.model  # noqa: B018 — the model is the syntax layer's cost, not the checker's
            t = time.process_time()
            diag.diagnostics(snap)
            total += time.process_time() - t
        ms = {name: v / RUNS * 1000 for name, v in spent.items()}
        checks_ms = ms.pop("run_checks", 0.0)
        all_ms = total / RUNS * 1000
        rest = all_ms - checks_ms
        print(
            f"{lines} {kind:7s} diagnostics {all_ms:6.2f} ms  run_checks {checks_ms:6.2f}  rest {rest:6.2f}"
        )
        for name, v in sorted(ms.items(), key=lambda kv: -kv[1]):
            print(f"    {name:28s} {v:6.3f}")


if __name__ == "__main__":
    main()
