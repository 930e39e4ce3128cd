"""A large, valid AWL workloop for benchmarks: `document(lines)` returns at least that many lines."""

from __future__ import annotations


def document(min_lines: int = 5000) -> str:
    head = [
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
        "",
        "detached follow_up(item_id: String, note: String)",
        "",
    ]
    body: list[str] = []
    i = 0
    steps: list[str] = []
    while len(head) + len(body) < min_lines - 10:
        body += [
            f"/// Record number {i}.",
            f"type Item{i} {{ id: String, note: String, count: Int, ok: Bool }}",
            "",
            f"worker pool_{i}",
            f"  action fetch_{i}(region: String, cursor: String) -> Item{i}",
            "    node shell, timeout 5m, retry 2 every 30s",
            f"  action check_{i}(item: Item{i}) -> Item{i}",
            "",
            f"step stage_{i}",
            f"  fetch_{i}(region: region, cursor: cursor) -> item_{i}",
            f"  check_{i}(item: item_{i}) -> checked_{i}",
            f"  checked_{i} |> .note -> note_{i}",
            f"  hatch follow_up(item_id: checked_{i}.id, note: note_{i}) key checked_{i}.id",
            "",
        ]
        steps.append(f"stage_{i}")
        i += 1
    tail = [
        "step finish",
        "  answer board(seen: 1)",
        "  route start(cursor: region)",
        "",
        "retire",
        "  fetch_0(region: region, cursor: cursor)",
        "",
    ]
    return "\n".join(head + body + tail)


if __name__ == "__main__":
    print(document())
