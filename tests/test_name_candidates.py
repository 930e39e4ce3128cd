"""Every name the checker calls unknown carries what it most likely meant: `data.name` (the name as
written, at the problem's range) and `data.candidates` (the close names of the right kind, best
first) — the input of the "Change to `x`" quick fix — and the message says "did you mean".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_messages_expected import LOOP

from awl_lsp.features.diagnostics import findings
from awl_lsp.features.documents import analyse_text

HERE = Path(__file__).resolve().parent

FLOW = """//! probe
workflow probe
  input items: [Task]
  input level: Level
  signal go: Bool
  outcome done: type Int, route success

type Level = Low | High
type Task { id: String, urgent: Bool, size: Int }

const limit = 3
const label = "x"
const title = label + label

worker w
  action inc(n: Int) -> Int
  action pick(tasks: [Task]) -> Task

child helper(n: Int) -> Int

step first
  items |> filter(.urgent) -> hot
  pick(tasks: hot) -> t
  inc(n: t.size) -> m
  wait go -> ok
  spawn helper(n: m)
  outcome high: when level == High and ok, route second
  outcome low: otherwise, route second

step second
  inc(n: limit) -> k
  workflow.id -> run
  route done(k)
"""

LOOP_MORE = LOOP.replace("  input queue_dir: String\n", "  input queue_dir: String\n  carry seen: Int = 0\n")

# (kind, document, text written, what it becomes, the code, the name, the best candidate)
CASES = [
    ("field in a combinator", FLOW, "filter(.urgent)", "filter(.urgnt)", "unknown-field", "urgnt", "urgent"),
    ("field read", FLOW, "n: t.size", "n: t.sise", "unknown-field", "sise", "size"),
    (
        "record field",
        FLOW,
        "pick(tasks: hot) -> t",
        'pick(tasks: [Task(id: "a", urgnt: true, size: 1)]) -> t',
        "record-field",
        "urgnt",
        "urgent",
    ),
    ("type", FLOW, "urgent: Bool,", "urgent: Boolean,", "unknown-type", "Boolean", "Bool"),
    ("declared type", FLOW, "input level: Level", "input level: Levl", "unknown-type", "Levl", "Level"),
    ("variant", FLOW, "level == High", "level == Hgh", "enum-variant", "Hgh", "High"),
    ("signal", FLOW, "wait go -> ok", "wait goo -> ok", "wait", "goo", "go"),
    (
        "step in a route",
        FLOW,
        "high: when level == High and ok, route second",
        "high: when level == High and ok, route secnd",
        "route-target",
        "secnd",
        "second",
    ),
    ("step in after", FLOW, "step second", "step second after frist", "after", "frist", "first"),
    ("outcome", FLOW, "route done(k)", "route don(k)", "route-target", "don", "done"),
    ("action", FLOW, "inc(n: t.size)", "incc(n: t.size)", "unknown-call", "incc", "inc"),
    ("child", FLOW, "spawn helper(n: m)", "spawn helpr(n: m)", "spawn", "helpr", "helper"),
    ("argument", FLOW, "inc(n: t.size)", "inc(nn: t.size)", "arguments", "nn", "n"),
    ("binding", FLOW, "pick(tasks: hot)", "pick(tasks: hott)", "unknown-binding", "hott", "hot"),
    (
        "const in a const",
        FLOW,
        "const title = label + label",
        "const title = label + labl",
        "const",
        "labl",
        "label",
    ),
    ("workflow builtin", FLOW, "workflow.id -> run", "workflow.ib -> run", "workflow-field", "ib", "id"),
    ("report", LOOP, "answer board(", "answer bord(", "answer", "bord", "board"),
    ("report field", LOOP, "answer board(swept:", "answer board(swep:", "answer", "swep", "swept"),
    ("carry", LOOP_MORE, "  route start\n", "  route start(sen: 1)\n", "route-start", "sen", "seen"),
    ("detached", LOOP, "hatch process_task(", "hatch proces_task(", "hatch", "proces_task", "process_task"),
    ("confirmed step", LOOP, "confirms start", "confirms strat", "confirms", "strat", "start"),
    (
        "substep route to a sibling",
        FLOW,
        "  inc(n: t.size) -> m\n",
        "  inc(n: t.size) -> m\n  step alpha\n    inc(n: m) -> q\n    route betta\n"
        "  step beta\n    inc(n: m) -> r\n",
        "route-target",
        "betta",
        "beta",
    ),
    (
        "substep route to a parent arm",
        FLOW,
        "  inc(n: t.size) -> m\n",
        "  inc(n: t.size) -> m\n  step a\n    inc(n: m) -> q\n    route hig\n",
        "route-target",
        "hig",
        "high",
    ),
    (
        "substep route out of reach",
        FLOW,
        "  inc(n: t.size) -> m\n",
        "  inc(n: t.size) -> m\n  step a\n    inc(n: m) -> q\n    route secnd\n"
        "  step second\n    inc(n: m) -> r\n",
        "route-target",
        "secnd",
        "second",
    ),
    (
        "top-level route to a substep",
        FLOW,
        "  route done(k)\n",
        "  step inner\n    inc(n: k) -> z\n  route inne\n",
        "route-target",
        "inne",
        "",
    ),
]


@pytest.mark.parametrize(
    ("kind", "doc", "old", "new", "code", "name", "best"), CASES, ids=[c[0] for c in CASES]
)
def test_an_unknown_name_carries_its_candidates(
    kind: str, doc: str, old: str, new: str, code: str, name: str, best: str
) -> None:
    assert old in doc
    text = doc.replace(old, new, 1)
    path = HERE / "probe.awl"
    found = [f for f in findings(analyse_text(text, path, HERE)) if f.code == code and f.data]
    about = [f for f in found if f.data.get("name") == name]
    assert about, [(f.code, f.data, f.message) for f in findings(analyse_text(text, path, HERE))]
    problem = about[0]
    if not best:  # nothing in reach is close: the data says so
        assert problem.data["candidates"] == [], problem.data
        return
    assert problem.data["candidates"][0] == best, problem.data
    assert name not in problem.data["candidates"]
    lines = text.split("\n")
    r = problem.range
    assert lines[r[0]][r[1] : r[3]] == name, "the range is the name as written (the fix replaces it)"
    assert f"did you mean `{best}`" in problem.message, problem.message
