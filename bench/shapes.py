"""Document shapes for the benchmarks and the incremental-equals-fresh tests, beside `generate.py`'s.

`generate.document` is one shape: records, a worker per record and 12-line steps. Real documents
are shaped otherwise too, and what an open costs follows the shape, so each shape here is a
generator of a valid document of at least `lines` lines:

- `dense`: a workloop whose every step calls an action, answers the report, forks over a list to
  `hatch … key …` and ends in two outcome arms (no declarations between the steps);
- `pipes`: steps of long pipe chains, continued on `|>` lines;
- `types`: many record types, one field per line with `///` docs, read by a few steps;
- `tiny`: many two-line steps, each routing to the next;
- `deep`: steps whose substeps nest four levels deep;
- `subflows`: a workflow with many subflows, each with its own outcome and steps, called from steps;
- `rebound`: `dense`'s steps pasted from one template, so every step binds the same names again
  (each binding after the first is reported: a document with hundreds of diagnostics).

`SHAPES` names them all, `generate.document` included as `bench`.
"""

from __future__ import annotations

from collections.abc import Callable

from generate import document as bench_document

_LOOP_HEAD = [
    "//! A generated workloop: {what}.",
    "workloop {name}",
    "  every 5m",
    "  input region: String",
    '  carry cursor: String = ""',
    "  report board: type Board",
    "  retention 7d",
    "",
    "type Board { seen: Int, last: String }",
    "type Part { name: String, weight: Int, ready: Bool }",
    "type Batch { id: String, parts: [Part], note: String }",
    "",
    "worker common",
    "  action gather(region: String, cursor: String) -> Batch",
    "  action weigh(part: Part) -> Int",
    "  action label(part: Part) -> String",
    "",
]

_LOOP_TAIL = [
    "step finish",
    '  answer board(seen: 1, last: "done")',
    "  route start(cursor: region)",
    "",
    "retire",
    "  gather(region: region, cursor: cursor)",
    "",
]


_HATCHED = ["detached follow_up(item_id: String, note: String)", ""]


def _loop(
    name: str, what: str, lines: int, step: Callable[[int, str], list[str]], extra: list[str] | None = None
) -> str:
    head = [line.replace("{name}", name).replace("{what}", what) for line in _LOOP_HEAD] + (extra or [])
    body: list[str] = []
    i = 0
    while len(head) + len(body) + len(_LOOP_TAIL) < lines:
        body += step(i, f"s_{i + 1}")
        i += 1
    text = "\n".join(head + body + _LOOP_TAIL)
    return text.replace(f"route s_{i}\n", "route finish\n").replace(f"route s_{i},", "route finish,")


def dense(lines: int = 5000) -> str:
    def step(i: int, next_step: str) -> list[str]:
        return [
            f"step s_{i}",
            f"  gather(region: region, cursor: cursor) -> batch_{i}",
            f"  answer board(seen: {i}, last: batch_{i}.id)",
            f"  fork part in batch_{i}.parts",
            f"    hatch follow_up(item_id: part.name, note: batch_{i}.note) key part.name",
            "  join",
            f"  outcome busy_{i}: if batch_{i}.parts is empty, route {next_step}",
            f"  outcome calm_{i}: else, route {next_step}",
            "",
        ]

    return _loop("dense_loop", "dense fork, hatch and answer steps", lines, step, _HATCHED)


def rebound(lines: int = 5000) -> str:
    def step(i: int, next_step: str) -> list[str]:
        return [
            f"step s_{i}",
            "  gather(region: region, cursor: cursor) -> batch",
            f"  answer board(seen: {i}, last: batch.id)",
            "  fork part in batch.parts",
            "    hatch follow_up(item_id: part.name, note: batch.note) key part.name",
            "  join",
            f"  outcome busy_{i}: if batch.parts is empty, route {next_step}",
            f"  outcome calm_{i}: else, route {next_step}",
            "",
        ]

    return _loop("rebound_loop", "steps pasted from one template", lines, step, _HATCHED)


def pipes(lines: int = 5000) -> str:
    def step(i: int, next_step: str) -> list[str]:
        return [
            f"step s_{i}",
            f"  gather(region: region, cursor: cursor) -> batch_{i}",
            f"  batch_{i}.parts",
            "    |> filter(.ready)",
            "    |> sort(.weight)",
            f"    |> map(.name) -> names_{i}",
            f"  batch_{i}.parts |> filter(.ready) |> map(.weight) |> count -> heavy_{i}",
            f"  answer board(seen: heavy_{i}, last: batch_{i}.id)",
            f"  outcome more_{i}: if names_{i} is empty, route {next_step}",
            f"  outcome done_{i}: else, route {next_step}",
            "",
        ]

    return _loop("pipe_loop", "long pipe chains", lines, step)


def types(lines: int = 5000) -> str:
    records: list[str] = []
    i = 0
    while len(records) < lines * 3 // 4:
        records += [
            f"/// Record {i}: one field per line.",
            f"type Rec{i} {{",
            "  /// Where it came from.",
            "  origin: String,",
            "  count: Int,",
            "  ratio: Float?,",
            "  parts: [Part],",
            f"  previous: Rec{i - 1}?," if i else "  first: Bool,",
            "}",
            "",
        ]
        i += 1
    loaded = sorted({*range(0, i, max(1, i // 40)), i - 1})
    worker = ["worker records"] + [f"  action load_{j}(id: String) -> Rec{j}" for j in loaded]

    def step(k: int, next_step: str) -> list[str]:
        j = loaded[k % len(loaded)]
        return [
            f"step s_{k}",
            f"  load_{j}(id: region) -> rec_{k}",
            f"  answer board(seen: rec_{k}.count, last: rec_{k}.origin)",
            f"  outcome empty_{k}: if rec_{k}.parts is empty, route {next_step}",
            f"  outcome full_{k}: else, route {next_step}",
            "",
        ]

    return _loop("typed_loop", "many types and fields", lines, step, records + worker + [""])


def tiny(lines: int = 5000) -> str:
    def step(i: int, next_step: str) -> list[str]:
        return [f"step s_{i}", f"  route {next_step}", ""]

    return _loop("tiny_loop", "many tiny steps", lines, step)


def deep(lines: int = 5000) -> str:
    def step(i: int, next_step: str) -> list[str]:
        return [
            f"step s_{i}",
            f"  gather(region: region, cursor: cursor) -> batch_{i}",
            f"  step a_{i}",
            f"    fork part in batch_{i}.parts",
            f"      step b_{i}",
            "        weigh(part: part) -> w",
            f"        step c_{i}",
            "          label(part: part) -> name",
            f"          step d_{i}",
            "            hatch follow_up(item_id: name, note: region) key w",
            "    join",
            f"  step e_{i} after a_{i}",
            f"    answer board(seen: {i}, last: batch_{i}.id)",
            f"  outcome on_{i}: if batch_{i}.parts is empty, route {next_step}",
            f"  outcome off_{i}: else, route {next_step}",
            "",
        ]

    return _loop("deep_loop", "deep substeps", lines, step, _HATCHED)


def subflows(lines: int = 5000) -> str:
    head = [
        "//! A generated workflow: many subflows, each with its own outcome and steps.",
        "workflow sub_flows",
        "  input topic: String",
        "  outcome done: type String, route success",
        "",
        "worker writing",
        "  action work(item: String) -> String",
        "  action judge(item: String) -> Bool",
        "",
    ]
    subs: list[str] = []
    calls: list[str] = []
    i = 0
    while len(head) + len(subs) + len(calls) + 3 < lines:
        subs += [
            f"subflow polish_{i}(text: String)",
            "  outcome out: type String",
            "  step first",
            "    work(item: text) -> drafted",
            "    judge(item: drafted) -> good",
            "    outcome fine: when good, route out(drafted)",
            "    outcome redo: otherwise, route second",
            "  step second",
            "    work(item: drafted) -> better",
            "    better |> route out",
            "",
        ]
        previous = f"got_{i - 1}" if i else "topic"
        calls += [f"step run_{i}", f"  polish_{i}(text: {previous}) -> got_{i}", ""]
        i += 1
    tail = ["step finish", f"  got_{i - 1} |> route done", ""]
    return "\n".join(head + subs + calls + tail)


SHAPES: dict[str, Callable[[int], str]] = {
    "bench": bench_document,
    "dense": dense,
    "pipes": pipes,
    "types": types,
    "tiny": tiny,
    "deep": deep,
    "subflows": subflows,
    "rebound": rebound,
}
