"""Parser benchmark: a full parse of a large AWL workloop vs. an incremental re-parse after a
one-character edit (what an editor does on every keystroke).

    python bench/parse_bench.py [--lines 5000] [--runs 21]

Prints the median of N runs of each, in milliseconds (time.perf_counter).
"""

from __future__ import annotations

import argparse
import statistics
import time

import tree_sitter_awl
from tree_sitter import Language, Parser, Point, Tree

LANGUAGE = Language(tree_sitter_awl.language())


def generate(min_lines: int) -> str:
    """A valid workloop of at least `min_lines` lines: many types, workers, actions and steps."""
    lines = [
        "//! Generated for the parser benchmark: a workloop with many types, actions and steps.",
        "workloop big_sweep",
        "  every 10m",
        "  input region: String",
        "  signal nudge: Nudge",
        "  carry seen: [String] = []",
        "  carry rounds: Int = 0",
        "  report board: type Board",
        "  invariant healthy: type Board",
        "    tolerance 3 windows",
        "    confirms start",
        "  retention 14d",
        "",
        "type Nudge { reason: String }",
        "type Board { swept: Int, failed: Int }",
        "",
    ]
    body: list[str] = []
    n = 0
    while len(lines) + len(body) < min_lines - 10:
        body += [
            f"/// Record kind {n}.",
            f"type Record{n} {{",
            "  id: String,",
            "  tags: [String],",
            f"  /// Optional parent of record kind {n}.",
            f"  parent: Record{n}?,",
            "  score: Float,",
            "}",
            f"type Batch{n} {{ items: [Record{n}], seen: [String], count: Int }}",
            f"type Mode{n} = Fast | Careful | Skip",
            "",
            f"worker pool_{n}",
            f"  action fetch_{n}(region: String, seen: [String]) -> Batch{n}",
            "    node fetcher, timeout 5m, retry 3 every 30s",
            f"  action score_{n}(record: Record{n}) -> Float",
            "    retry 2 backoff 1s..1m",
            f"  action store_{n}(items: [Record{n}], mode: Mode{n}) -> Int",
            "",
            f"detached follow_up_{n}(record_id: String, score: Float)",
            "",
            f"step fetch_{n}",
            f"  fetch_{n}(region: region, seen: seen) -> batch_{n}",
            f"  batch_{n}.items",
            "    |> filter(.score > 0.5)",
            f"    |> sort(.id) -> good_{n}",
            f"  outcome empty_{n}: if batch_{n}.items is empty and rounds > 3,",
            "    route start(rounds: rounds + 1)",
            f"  outcome some_{n}: else, route score_all_{n}",
            "",
            f"step score_all_{n}",
            f"  fork record in good_{n}",
            f"    score_{n}(record: record) -> s",
            f'    hatch follow_up_{n}(record_id: record.id, score: 1.0) key "r{n}/" + record.id',
            f"  join -> scores_{n}",
            f"  loop stored_{n} = 0 counting attempt_{n}",
            f"    store_{n}(items: good_{n}, mode: Careful) -> stored_{n}",
            f"    until stored_{n} > 0",
            "    max 3",
            "  on failure",
            f"    store_{n}(items: [], mode: Skip)",
            "    route start(rounds: rounds + 1)",
            f"  answer board(swept: stored_{n}, failed: 0)",
            f"  outcome done_{n}: when stored_{n} > 0,",
            f"    route start(seen: batch_{n}.seen, rounds: 0)",
            f"  outcome retry_{n}: otherwise, route fetch_{n}",
            "  max 5 visits",
            "",
        ]
        n += 1
    tail = [
        "retire",
        "  answer board(swept: 0, failed: rounds)",
        "  sleep 1s",
        "",
    ]
    return "\n".join(lines + body + tail)


def point_of(data: bytes, offset: int) -> Point:
    row = data.count(b"\n", 0, offset)
    return Point(row, offset - (data.rfind(b"\n", 0, offset) + 1))


def count_problems(tree: Tree) -> int:
    count = 0
    cursor = tree.walk()
    reached_root = False
    while not reached_root:
        node = cursor.node
        if node.is_error or node.is_missing:
            count += 1
        if cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                reached_root = True
                break
    return count


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    options.add_argument("--lines", type=int, default=5000, help="minimum document size (default 5000)")
    options.add_argument("--runs", type=int, default=21, help="runs per measurement (default 21)")
    args = options.parse_args()

    source = generate(args.lines).encode("utf-8")
    parser = Parser(LANGUAGE)
    base = parser.parse(source)
    problems = count_problems(base)
    if problems:
        raise SystemExit(f"generated document has {problems} ERROR/MISSING nodes")

    full = []
    for _ in range(args.runs):
        started = time.perf_counter()
        parser.parse(source)
        full.append(time.perf_counter() - started)

    # One-character edit in the middle of the document: `score > 0.5` -> `score > 0.6`.
    offset = source.index(b"0.5)", len(source) // 2) + 2
    edited = source[:offset] + b"6" + source[offset + 1 :]
    incremental = []
    for _ in range(args.runs):
        old = base.copy()
        old.edit(
            start_byte=offset,
            old_end_byte=offset + 1,
            new_end_byte=offset + 1,
            start_point=point_of(source, offset),
            old_end_point=point_of(source, offset + 1),
            new_end_point=point_of(edited, offset + 1),
        )
        started = time.perf_counter()
        new = parser.parse(edited, old)
        incremental.append(time.perf_counter() - started)
    if str(new.root_node) != str(parser.parse(edited).root_node):
        raise SystemExit("incremental re-parse differs from a fresh parse")

    lines = source.count(b"\n") + 1
    line = source.count(b"\n", 0, offset) + 1
    print(f"parse_bench: {lines:,} lines, {len(source):,} bytes, {args.runs} runs each (median)")
    print(f"  full parse:           {statistics.median(full) * 1000:8.2f} ms")
    print(
        f"  incremental re-parse: {statistics.median(incremental) * 1000:8.2f} ms"
        f"  (one-character edit at line {line:,})"
    )


if __name__ == "__main__":
    main()
