"""`make bench`: every benchmark of the project, one after the other.

Each script runs as `python bench/NAME.py` would; one that ends with `SystemExit` (its exit status)
does not end the run: the next one still prints its table, and `make bench` fails at the end if any
script failed.
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

SCRIPTS = (
    "parse_bench.py",
    "startup.py",
    "lsp_latency.py",
    "workspace_index.py",
    "cli_speed.py",
    "breaking.py",  # the syntax-breaking keystrokes at 300 / 5k / 20k lines
    "open_shapes.py",  # the open of every document shape
)


def main() -> int:
    failed: list[str] = []
    for name in SCRIPTS:
        print(f"== {name}", flush=True)
        try:
            runpy.run_path(str(HERE / name), run_name="__main__")
        except SystemExit as exit_:
            if exit_.code not in (None, 0):
                print(f"== {name} ended with {exit_.code!r}", flush=True)
                failed.append(name)
    if failed:
        print(f"== failed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
