"""`make bench`: every benchmark of the project, one after the other."""

from __future__ import annotations

import runpy
from pathlib import Path

HERE = Path(__file__).resolve().parent

for name in ("parse_bench.py", "startup.py", "lsp_latency.py", "workspace_index.py", "cli_speed.py"):
    path = HERE / name
    if path.exists():
        print(f"== {name}")
        runpy.run_path(str(path), run_name="__main__")

# the syntax-breaking keystrokes and the open of every document shape (issue 21)
for name in ("breaking.py", "open_shapes.py"):
    print(f"== {name}")
    runpy.run_path(str(HERE / name), run_name="__main__")
