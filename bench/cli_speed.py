"""The command line's speed: `awl check` / `awl fmt --check` on one small document and on 480,
each beside the engine's own front end (`awl-reference check`) run on the same files, the two
commands alternating in one run (A B A B …) so a busy machine slows both alike.

    .venv/bin/python bench/cli_speed.py [--runs 7] [--awl PATH] [--jobs N]

Prints, per row, the wall-clock median and spread (min–max) of each command and the CPU time
(user + system of the finished processes, every worker included) — the machine is shared, so
the CPU column is the steadier one.

The files: a small workflow (`tests/data/spec/faults/valid/base.awl`, one the engine accepts) and
a small workloop (`examples/inbox_sweep.awl`); the 480 small documents are every `*.awl` of at
most 60 lines under `tests/data` and the corpus (`$AWL_CORPUS`, default `../shared/corpus`),
sorted by path, 480 picked at even steps. The engine knows no workloops: its rows run it on the
workflows of the same set (the documents that declare no `workloop`); for the workloop row, on
the small workflow. Before timing, the package's bytecode is compiled (as `pip install` does):
with `PYTHONDONTWRITEBYTECODE=1` in the environment every run would compile ~100 modules again.
A context row gives Python's own start in this venv (`python -c pass`): an editable install adds
an import hook to every start that an installed wheel does not have.
"""

from __future__ import annotations

import argparse
import compileall
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("AWL_CORPUS") or REPO.parent / "shared" / "corpus").resolve()
REFERENCE = Path(os.environ.get("AWL_REFERENCE") or REPO.parent / "shared" / "bin" / "awl-reference")
WORKFLOW = REPO / "tests" / "data" / "spec" / "faults" / "valid" / "base.awl"
WORKLOOP = REPO / "examples" / "inbox_sweep.awl"
MANY = 480
SMALL_LINES = 60


def small_documents(count: int = MANY) -> list[Path]:
    """`count` small documents (≤ SMALL_LINES lines) of tests/data and the corpus, at even steps."""
    roots = [REPO / "tests" / "data", CORPUS]
    found = sorted(
        p
        for root in roots
        if root.is_dir()
        for p in root.rglob("*.awl")
        if p.read_bytes().count(b"\n") <= SMALL_LINES
    )
    if len(found) <= count:
        return found
    return [found[i * len(found) // count] for i in range(count)]


def is_workflow(path: Path) -> bool:
    """Does the engine's front end read it (no `workloop` declaration)?"""
    return not any(line.startswith("workloop") for line in path.read_text(encoding="utf-8").splitlines())


def awl_command(explicit: str | None) -> list[str]:
    if explicit:
        return [explicit]
    script = Path(sys.executable).with_name("awl")
    return [str(script)] if script.exists() else [sys.executable, "-m", "awl_lsp"]


def compile_bytecode(awl: list[str]) -> None:
    """Compile the bytecode of the `awl_lsp` package that `awl` runs (what `pip install` does)."""
    python = sys.executable
    first = Path(awl[0]).read_bytes()[:200].split(b"\n")[0] if Path(awl[0]).is_file() else b""
    if first.startswith(b"#!") and b"python" in first:
        python = first[2:].decode().strip()
    where = subprocess.run(
        [python, "-c", "import awl_lsp, os; print(os.path.dirname(awl_lsp.__file__))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    compileall.compile_dir(where, quiet=1)


def _run(command: Sequence[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process and its children) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def paired(a: Sequence[str], b: Sequence[str] | None, runs: int) -> tuple[list, list]:
    """Run A and B in turn (one warm-up each first); the (wall, cpu) of every counted run."""
    _run(a)
    if b is not None:
        _run(b)
    ours, theirs = [], []
    for _ in range(runs):
        ours.append(_run(a))
        if b is not None:
            theirs.append(_run(b))
    return ours, theirs


def _ms(x: float) -> str:
    return f"{x * 1000:,.0f} ms" if x < 10 else f"{x:.1f} s"


def _cell(samples: list) -> str:
    if not samples:
        return "–"
    walls = [w for w, _ in samples]
    cpu = statistics.median(c for _, c in samples)
    spread = f"{_ms(min(walls))}–{_ms(max(walls))}"
    return f"{_ms(statistics.median(walls))} ({spread}); cpu {_ms(cpu)}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="counted runs of each command (default 7)")
    parser.add_argument("--awl", help="the awl command to time (default: the one beside this Python)")
    parser.add_argument("--jobs", help="pass -j/--jobs to awl (default: its own, every core)")
    args = parser.parse_args(argv)

    awl = awl_command(args.awl)
    compile_bytecode(awl)
    jobs = ["--jobs", args.jobs] if args.jobs else []
    reference = [str(REFERENCE)] if REFERENCE.exists() else None
    many = small_documents()
    workflows = [p for p in many if is_workflow(p)]
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    work = Path(tempfile.mkdtemp(prefix="awl-cli-bench-"))
    try:
        fixable = work / WORKLOOP.name  # --fix writes: a copy (nothing to fix in it, so it stays)
        shutil.copyfile(WORKLOOP, fixable)

        def ref(*files: Path) -> list[str] | None:
            return [*reference, "check", *map(str, files)] if reference else None

        rows = [
            (
                f"awl check FILE (small workflow, {_lines(WORKFLOW)} lines)",
                ["check", str(WORKFLOW)],
                ref(WORKFLOW),
            ),
            (
                f"awl check FILE (small workloop, {_lines(WORKLOOP)} lines)",
                ["check", str(WORKLOOP)],
                ref(WORKFLOW),
            ),
            ("awl check --fix FILE (the workloop)", ["check", "--fix", str(fixable)], ref(WORKFLOW)),
            (
                "awl check --format json FILE (the workloop)",
                ["check", "--format", "json", str(WORKLOOP)],
                ref(WORKFLOW),
            ),
            (
                "awl fmt --check FILE (the workflow)",
                ["fmt", "--check", str(WORKFLOW)],
                [*reference, "fmt", str(WORKFLOW)] if reference else None,
            ),
            (f"awl check: {len(many)} small documents", ["check", *jobs, *map(str, many)], ref(*workflows)),
            (
                f"awl fmt --check: {len(many)} small documents",
                ["fmt", "--check", *jobs, *map(str, many)],
                ref(*workflows),
            ),
        ]
        print(
            f"command line: {' '.join(awl)} — {args.runs} runs each, alternating with the reference; "
            f"{cores} core(s); wall median (min–max), cpu = user+system of all processes"
        )
        print(
            f"reference: the engine's front end on the same files ({len(workflows)} workflows of {len(many)})"
        )
        print("| command | awl | reference (awl-reference check) | wall ratio |")
        print("|---|---|---|---|")
        start, _ = paired([sys.executable, "-c", "pass"], None, args.runs)
        print(f"| (context) Python's own start in this venv: `python -c pass` | {_cell(start)} | – | – |")
        for label, ours_args, theirs in rows:
            ours, ref_runs = paired([*awl, *ours_args], theirs, args.runs)
            ratio = "–"
            if ref_runs:
                ratio = f"{_median_wall(ours) / _median_wall(ref_runs):.1f}×"
            print(f"| {label} | {_cell(ours)} | {_cell(ref_runs)} | {ratio} |", flush=True)
        if reference is None:
            print(f"(no reference: {REFERENCE} not found; set AWL_REFERENCE)")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


def _median_wall(samples: list) -> float:
    return statistics.median(w for w, _ in samples)


def _lines(path: Path) -> int:
    return path.read_bytes().count(b"\n")


if __name__ == "__main__":
    raise SystemExit(main())
