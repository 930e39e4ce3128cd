"""Keystrokes inside a step that break the syntax and mend it: the states a document is in while
someone types (mid-word, mid-bracket, a string just opened).

    python bench/breaking.py                       # 300 / 5,000 / 20,000 lines
    AWL_BENCH_BREAK_SIZES=5000 AWL_BENCH_RUNS=10 python bench/breaking.py

`breaking_edits(text)` gives each edit as a (do, undo) pair of (start row, start col, end row,
end col, new text) on a call line of the middle step of any document (`shapes.SHAPES`); the tests
replay them on every shape. Each pair is typed and undone in turn, so every row is timed from one
side: the keystroke that breaks the text (`do`), then the one that mends it again (`undo`):

- `r` typed right after `name:` in a call's arguments (`item_id:r checked_1.id`), then deleted;
- a second character typed after that `r` (a broken line typed on), then deleted;
- `(` typed before an argument's value (the bracket left open), then deleted;
- `[` typed there (a list left open), then deleted;
- `"` typed before an argument's value (a string left open to the end of the line), then deleted;
- the call's closing `)` deleted, then typed again;
- Enter after an argument's comma, inside the brackets (the next argument on a continuation
  line, one level deeper: still valid), then joined again;
- the call line pasted above itself cut short before its `)` (an unclosed bracket), then removed.

Printed: the in-process CPU (edit, then the diagnostics of the new version: what a loaded machine
cannot inflate) and, over stdio, from `didChange` to the `publishDiagnostics` of that version with
the server process's CPU for it (from /proc), p50 / p90 each.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

Edit = tuple[int, int, int, int, str]

SIZES = [int(s) for s in os.environ.get("AWL_BENCH_BREAK_SIZES", "300,5000,20000").split(",") if s]
RUNS = int(os.environ.get("AWL_BENCH_RUNS", "20"))
_CALL = re.compile(r"\w+\((\w+): ")

LABELS = {
    "mid-word": "`r` typed after `name:` in a call",
    "typing on": "a second character on that broken line",
    "open paren": "`(` typed before an argument",
    "open bracket": "`[` typed before an argument",
    "open quote": '`"` typed before an argument',
    "close deleted": "the call's `)` deleted",
    "enter in brackets": "Enter after a comma inside the brackets",
    "paste cut short": "a call line pasted, cut short before its `)`",
}


def call_line(text: str) -> tuple[int, str, re.Match[str]]:
    """The first line of a step from the middle step (a `step` at the left margin) on that calls
    with a named argument, and the match of the call's head (`name(arg: `)."""
    rows = text.split("\n")
    steps = [i for i, line in enumerate(rows) if line.startswith("step ")]
    start = steps[len(steps) // 2]
    for row in range(start + 1, len(rows)):
        if not rows[row].startswith(" "):
            continue
        found = _CALL.search(rows[row])
        if found is not None and not rows[row].lstrip().startswith("//"):
            return row, rows[row], found
    raise ValueError("no call with a named argument in a step from the middle on")


def breaking_edits(text: str) -> dict[str, tuple[Edit, Edit]]:
    """Each breaking keystroke as a (do, undo) pair (see the module's docstring)."""
    row, line, call = call_line(text)
    colon = call.end() - 1  # `name:|` (the space after the colon still follows)
    value = call.end()  # `name: |value`
    close = line.index(")", value)
    comma = line.find(", ", value, close)
    out: dict[str, tuple[Edit, Edit]] = {
        "mid-word": ((row, colon, row, colon, "r"), (row, colon, row, colon + 1, "")),
        "open paren": ((row, value, row, value, "("), (row, value, row, value + 1, "")),
        "open bracket": ((row, value, row, value, "["), (row, value, row, value + 1, "")),
        "open quote": ((row, value, row, value, '"'), (row, value, row, value + 1, "")),
        "close deleted": ((row, close, row, close + 1, ""), (row, close, row, close, ")")),
        "paste cut short": (
            (row, 0, row, 0, line[:close] + "\n"),
            (row, 0, row + 1, 0, ""),
        ),
    }
    if comma != -1:
        indent = len(line) - len(line.lstrip(" "))
        out["enter in brackets"] = (
            (row, comma + 1, row, comma + 2, "\n" + " " * (indent + 2)),
            (row, comma + 1, row + 1, indent + 2, " "),
        )
    return out


def typing_on(text: str) -> tuple[Edit, Edit, Edit]:
    """The mid-word `r`, then a second character after it (broken to broken), and its undo."""
    first = breaking_edits(text)["mid-word"][0]
    row, col = first[0], first[1] + 1
    return first, (row, col, row, col, "e"), (row, col, row, col + 1, "")


def pct(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank) of `values`, in ms."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))] * 1000


def _rows(text: str) -> list[tuple[str, Edit]]:
    """The timed edits in the order they are typed (each undone after it)."""
    out: list[tuple[str, Edit]] = []
    edits = breaking_edits(text)
    for name, (do, undo) in edits.items():
        out += [(f"{name} do", do), (f"{name} undo", undo)]
        if name == "mid-word":
            _, on, back = typing_on(text)
            out += [("typing on do", on), ("typing on undo", back)]
    return out


def cpu_costs(text: str, runs: int = RUNS) -> dict[str, list[float]]:
    """In-process CPU seconds of each edit followed by the new version's diagnostics."""
    from awl_lsp.features.diagnostics import diagnostics
    from awl_lsp.features.documents import OpenDocument
    from awl_lsp.syntax import TextEdit

    doc = OpenDocument(text, 1, None, None)
    diagnostics(doc.snapshot)
    spent: dict[str, list[float]] = {}
    order = _rows(text)
    for _ in range(runs):
        for name, edit in order:
            if name == "typing on do":  # typed on the broken line: the `r` goes first
                doc.edit([TextEdit(*order[0][1])], (doc.version or 0) + 1)
                diagnostics(doc.snapshot)
            t0 = time.process_time()
            doc.edit([TextEdit(*edit)], (doc.version or 0) + 1)
            diagnostics(doc.snapshot)
            spent.setdefault(name, []).append(time.process_time() - t0)
            if name == "typing on undo":
                doc.edit([TextEdit(*order[1][1])], (doc.version or 0) + 1)
                diagnostics(doc.snapshot)
    return spent


async def stdio_costs(text: str, runs: int = RUNS) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Over stdio: edit → diagnostics of that version (seconds), and the server's CPU for each."""
    from lsp_latency import Bench, Doc

    bench = Bench()
    await bench.start()
    doc = Doc(bench, text)
    await bench.diagnostics_for(doc.uri, 1)
    wall: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    order = _rows(text)
    measured = Path("/proc/self/schedstat").exists()
    for _ in range(runs):
        for name, edit in order:
            if name == "typing on do":
                await doc.edit(*order[0][1])
            c0 = bench.server_cpu() if measured else 0.0
            wall.setdefault(name, []).append(await doc.edit(*edit))
            if measured:
                cpu.setdefault(name, []).append(bench.server_cpu() - c0)
            if name == "typing on undo":
                await doc.edit(*order[1][1])
    await bench.stop()
    return wall, cpu


def table(title: str, results: dict[int, dict[str, list[float]]], target: bool = True) -> str:
    sizes = sorted(results)
    head = [title] + [f"{n:,} lines" for n in sizes] + (["target"] if target else [])
    rows = [head, ["---"] * len(head)]
    names = [name for name in results[sizes[0]] if name.endswith(" do")]
    for name in names:
        kind = name.removesuffix(" do")
        for side, label in (("do", ""), ("undo", " — undone")):
            key = f"{kind} {side}"
            cells = [f"{pct(results[n][key], 0.5):.1f} / {pct(results[n][key], 0.9):.1f}" for n in sizes]
            goal = ["p50 ≤ 15, p90 ≤ 40 (300: p50 ≤ 8)"] if target else []
            rows.append([LABELS[kind] + label, *cells, *goal])
    small = next((n for n in sizes if n <= 400), None)
    big = next((n for n in sizes if 4000 <= n <= 6000), None)
    lines = ["| " + " | ".join(r) + " |" for r in rows]
    if small and big:
        ratios = [
            pct(results[big][k], 0.5) / max(pct(results[small][k], 0.5), 1e-6)
            for k in results[big]
            if results[small].get(k)
        ]
        lines.append(f"5k / 300 lines (p50), worst row: ratio {max(ratios):.2f} (target ≤ 2)")
    return "\n".join(lines)


async def main_async() -> None:
    from generate import document

    texts = {size: document(size) for size in SIZES}
    lines = {size: texts[size].count("\n") + 1 for size in SIZES}
    stdio: dict[int, dict[str, list[float]]] = {}
    server: dict[int, dict[str, list[float]]] = {}
    for size in SIZES:
        t0 = time.perf_counter()
        stdio[lines[size]], server[lines[size]] = await stdio_costs(texts[size])
        print(f"  measured {lines[size]} lines over stdio in {time.perf_counter() - t0:.0f} s", flush=True)
    print(table("syntax-breaking keys, ms over stdio to the diagnostics, p50 / p90", stdio))
    print()
    if any(server.values()):
        print(table("server CPU ms over stdio (whole process), p50 / p90", server, target=False))
        print()
    cpu = {lines[size]: cpu_costs(texts[size]) for size in SIZES}
    print(table("syntax-breaking keys, CPU ms in-process (edit + diagnostics), p50 / p90", cpu))
    load = os.getloadavg()[0]
    print(f"runs per row: {RUNS}; machine: {os.cpu_count()} cores, load average {load:.1f}")


if __name__ == "__main__":
    asyncio.run(main_async())
