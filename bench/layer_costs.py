"""CPU ms per edit in the syntax and model layers alone, and with diagnostics (in-process).

    .venv/bin/python bench/layer_costs.py [300 5000 20000]

For each size and each edit (a character, Enter, deleting a line, pasting a 10-line step, all
inside a step in the middle of a generated workloop) it prints the median CPU time of
`OpenDocument.edit` (text, positions, tree, bounds), of the model build for the new snapshot,
and of edit + model + diagnostics together. Each edit is followed by its undo, timed alike.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from generate import document, typing  # noqa: E402

from awl_lsp.features.diagnostics import diagnostics  # noqa: E402
from awl_lsp.features.documents import OpenDocument  # noqa: E402
from awl_lsp.syntax import TextEdit  # noqa: E402

RUNS = 20


def costs(lines: int) -> dict[str, tuple[float, float, float]]:
    text = document(lines)
    edits = typing(text).edits
    doc = OpenDocument(text, 1, None, None)
    diagnostics(doc.snapshot)
    out = {}
    for name, pair in edits.items():
        e, m, t = [], [], []
        for i in range(RUNS * 2 + 4):
            t0 = time.process_time()
            doc.edit([TextEdit(*pair[i % 2])], (doc.version or 0) + 1)
            t1 = time.process_time()
            snap = doc.snapshot
            t2 = time.process_time()
            diagnostics(snap)
            t3 = time.process_time()
            if i >= 4:
                e.append(t1 - t0)
                m.append(t2 - t1)
                t.append(t3 - t0)
        out[name] = (statistics.median(e) * 1e3, statistics.median(m) * 1e3, statistics.median(t) * 1e3)
    return out


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [300, 5000, 20000]
    print("CPU ms per edit (median): edit | model | edit+model | total with diagnostics")
    for n in sizes:
        for name, (e, m, t) in costs(n).items():
            print(f"{n:>6} {name:<7} {e:7.2f} {m:7.2f} {e + m:7.2f} {t:8.2f}")


if __name__ == "__main__":
    main()
