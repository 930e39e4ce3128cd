"""Generated AWL workloops for benchmarks and tests: `document(lines)` returns at least that many lines.

The document reads like a real workloop: records, workers with actions, and steps whose bodies
call actions, pipe, fork over a list and join, hatch detached work, answer the report and end
with outcomes that route on. Each step reads bindings of its own and the loop's inputs and
carries, so an edit inside one step has neighbours that really depend on the header.
`step(i)` is one such step (what the benchmark pastes); `STEP_LINE` names the line of a step
the benchmark types into.
"""

from __future__ import annotations

from dataclasses import dataclass

HEAD = [
    "//! A generated workloop for benchmarks: many types, actions and steps.",
    "workloop big_loop",
    "  every 5m",
    "  input region: String",
    '  carry cursor: String = ""',
    "  report board: type Board",
    "  invariant healthy: type Board",
    "    tolerance 3 windows",
    "    confirms start",
    "  retention 7d",
    "",
    "type Board { seen: Int }",
    "type Part { name: String, weight: Int }",
    "",
    "detached follow_up(item_id: String, note: String)",
    "",
    "worker common",
    "  action split(item_id: String) -> [Part]",
    "  action weigh(part: Part) -> Int",
    "",
]


def declarations(i: int) -> list[str]:
    return [
        f"/// Record number {i}.",
        f"type Item{i} {{ id: String, note: String, count: Int, ok: Bool }}",
        "",
        f"worker pool_{i}",
        f"  action fetch_{i}(region: String, cursor: String) -> Item{i}",
        "    node shell, timeout 5m, retry 2 every 30s",
        f"  action check_{i}(item: Item{i}) -> Item{i}",
        "",
    ]


def step(i: int, next_step: str) -> list[str]:
    """One step (12 lines, the blank line after it included)."""
    return [
        f"step stage_{i}",
        f"  fetch_{i}(region: region, cursor: cursor) -> item_{i}",
        f"  check_{i}(item: item_{i}) -> checked_{i}",
        f"  checked_{i} |> .note -> note_{i}",
        f"  split(item_id: checked_{i}.id) -> parts_{i}",
        f"  fork part in parts_{i}",
        "    weigh(part: part)",
        f"  join -> weights_{i}",
        f"  hatch follow_up(item_id: checked_{i}.id, note: note_{i}) key checked_{i}.id",
        f"  answer board(seen: {i})",
        f"  outcome busy_{i}: if weights_{i} is empty, route {next_step}",
        f"  outcome calm_{i}: else, route {next_step}",
        "",
    ]


# the line of a step (relative to `step stage_N`) where the benchmark types: `answer board(seen: N)`
STEP_LINE = 9
TYPED_AT = len("  answer board(seen: ")  # the column typed at, inside the call's argument

# a 10-line step pasted above the step typed in (`{j}` makes its names unique per paste)
PASTE = [
    "step pasted_{j}",
    "  fetch_0(region: region, cursor: cursor) -> p_item_{j}",
    "  check_0(item: p_item_{j}) -> p_checked_{j}",
    "  p_checked_{j} |> .note -> p_note_{j}",
    "  split(item_id: p_checked_{j}.id) -> p_parts_{j}",
    "  fork part in p_parts_{j}",
    "    weigh(part: part)",
    "  join -> p_weights_{j}",
    "  outcome done_{j}: if p_weights_{j} is empty, route finish",
    "  outcome more_{j}: else, route finish",
    "",
]


@dataclass(frozen=True)
class Typing:
    """Where the benchmarks type in a generated document: the middle step's first row, the row and
    column inside it, and each edit as a (do, undo) pair of (start row, start col, end row, end col,
    new text) — a character, Enter at the end of the line, deleting the line, pasting a step."""

    step: int
    row: int
    col: int
    edits: dict[str, list[tuple[int, int, int, int, str]]]


def typing(text: str) -> Typing:
    rows = text.split("\n")
    steps = [i for i, line in enumerate(rows) if line.startswith("step stage_")]
    step = steps[len(steps) // 2]
    row, col = step + STEP_LINE, TYPED_AT
    line = rows[row]
    assert line.startswith("  answer board(seen: "), line
    paste = "\n".join(PASTE).format(j=0) + "\n"
    edits = {
        "char": [(row, col, row, col, "7"), (row, col, row, col + 1, "")],
        "enter": [(row, len(line), row, len(line), "\n  "), (row, len(line), row + 1, 2, "")],
        "delete": [(row, 0, row + 1, 0, ""), (row, 0, row, 0, line + "\n")],
        "paste": [(step, 0, step, 0, paste), (step, 0, step + len(PASTE), 0, "")],
    }
    return Typing(step, row, col, edits)


def document(min_lines: int = 5000) -> str:
    body: list[str] = []
    i = 0
    tail = [
        "step finish",
        "  answer board(seen: 1)",
        "  route start(cursor: region)",
        "",
        "retire",
        "  fetch_0(region: region, cursor: cursor)",
        "",
    ]
    while len(HEAD) + len(body) + len(tail) < min_lines:
        body += declarations(i) + step(i, f"stage_{i + 1}")
        i += 1
    text = "\n".join(HEAD + body + tail)
    return text.replace(f"route stage_{i}\n", "route finish\n")


if __name__ == "__main__":
    import sys

    print(document(int(sys.argv[1]) if len(sys.argv) > 1 else 5000))
