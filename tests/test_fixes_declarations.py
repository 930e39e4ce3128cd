"""Quick fixes that declare what the document uses but nothing declares, typed from how it is used.

Each case puts one mistake into a canonical document and applies the fix the editor offers for it
(`fix_cases.apply_fix`: the problem is gone, nothing new is wrong, `awl fmt` would leave the text
as the fix wrote it); a workflow is then given to the engine's own front end, which must accept
the fixed text. The fixed lines are what the user sees.
"""

from __future__ import annotations

import pytest
from fix_cases import WORKFLOW, WORKLOOP, Case, apply_fix, assert_canonical_kept, assert_lines, engine_verdict

CASES = [
    Case(
        "action from a call: parameters from the arguments, the result from the binding's use",
        WORKFLOW,
        [("  shout(text: greeting.text) -> loud", "  yell(text: greeting.text) -> loud")],
        "unknown-call",
        "Declare action `yell` in worker `voice`",
        ["  action shout(text: String) -> Shouted", "  action yell(text: String) -> Shouted"],
    ),
    Case(
        "action from a pipe stage: one parameter named after the piped value, the result the route's",
        WORKFLOW,
        [
            (
                "  shout(text: greeting.text) -> loud\n  loud |> route shouted",
                "  greeting.text |> whisper |> route shouted",
            )
        ],
        "unknown-call",
        "Declare action `whisper` in worker `voice`",
        ["  action whisper(text: String) -> Shouted"],
    ),
    Case(
        "action whose result nothing takes returns Nil",
        WORKFLOW,
        [
            (
                "  shout(text: greeting.text) -> loud\n",
                "  log_greeting(text: greeting.text, times: 2)\n  shout(text: greeting.text) -> loud\n",
            )
        ],
        "unknown-call",
        "Declare action `log_greeting` in worker `voice`",
        ["  action log_greeting(text: String, times: Int) -> Nil"],
    ),
    Case(
        "action in a new worker where the printer puts workers",
        WORKFLOW,
        [
            (
                (
                    "worker voice\n  action greet(name: String) -> Greeting\n"
                    "  action shout(text: String) -> Shouted\n\n"
                ),
                "",
            ),
            (
                "  shout(text: greeting.text) -> loud\n  loud |> route shouted",
                "  Shouted(text: greeting.text, loud: true) |> route shouted",
            ),
        ],
        "unknown-call",
        "Declare action `greet` in a new worker",
        [
            "type Failed   { reason: String }",
            "",
            "worker main",
            "  action greet(name: String) -> Greeting",
            "",
            "step greet",
        ],
    ),
    Case(
        "record type from the fields read off a value of it",
        WORKFLOW,
        [("  input name: String", "  input brief: Brief"), ("greet(name: name)", "greet(name: brief.title)")],
        "unknown-type",
        "Declare type `Brief`",
        ["type Failed   { reason: String }", "", "type Brief { title: String }", "", "worker voice"],
    ),
    Case(
        "record type from a construction",
        WORKFLOW,
        [
            (
                "  shout(text: greeting.text)",
                "  Note(text: greeting.text, words: 2) -> note\n  shout(text: note.text)",
            )
        ],
        "unknown-call",
        "Declare type `Note`",
        ["type Note { text: String, words: Int }"],
    ),
    Case(
        "a type nobody declares where a declared one flows: that one",
        WORKFLOW,
        [("  outcome shouted: type Shouted, route success", "  outcome shouted: type Shout, route success")],
        "unknown-type",
        "Change to `Shouted`",
        ["  outcome shouted: type Shouted, route success"],
    ),
    Case(
        "the same, declared with the fields of the type that flows there",
        WORKFLOW,
        [("  outcome shouted: type Shouted, route success", "  outcome shouted: type Shout, route success")],
        "unknown-type",
        "Declare type `Shout`",
        ["type Shout { text: String, loud: Bool }"],
        preferred=False,
    ),
    Case(
        "field read from a record nothing builds",
        WORKFLOW,
        [("shout(text: greeting.text)", "shout(text: greeting.tone)")],
        "unknown-field",
        "Add field `tone` to `Greeting`",
        ["type Greeting { text: String, tone: String }"],
    ),
    Case(
        "payload field the outcome's record lacks",
        WORKFLOW,
        [
            (
                "  loud |> route shouted",
                '  loud |> route shouted\n  on failure\n    route failed(reason: "no voice", code: 503)',
            )
        ],
        "route-unknown-field",
        "Add field `code` to `Failed`",
        ["type Failed   { reason: String, code: Int }"],
    ),
    Case(
        "outcome for a route that carries a value",
        WORKFLOW,
        [("  loud |> route shouted", "  loud |> route yelled")],
        "route-target",
        "Declare outcome `yelled`",
        [
            "  outcome shouted: type Shouted, route success",
            "  outcome failed:  type Failed,  route failure",
            "  outcome yelled:  type Shouted, route success",
        ],
    ),
    Case(
        "step stub for a bare route, routing on to the step that followed",
        WORKFLOW,
        [("  greet(name: name) -> greeting", "  greet(name: name) -> greeting\n  route check")],
        "route-target",
        "Create step `check`",
        ["  route check", "", "step check", "  route shout", "", "step shout"],
    ),
    Case(
        "a workflow's first outcome, typed by what its route carries",
        WORKFLOW,
        [
            (
                (
                    "  outcome shouted: type Shouted, route success\n"
                    "  outcome failed:  type Failed,  route failure\n"
                ),
                "",
            )
        ],
        "outcome",
        "Declare outcome `shouted`",
        ["  input name: String", "  outcome shouted: type Shouted, route success"],
    ),
    Case(
        "an outcome's missing type, from what routes to it",
        WORKFLOW,
        [("  outcome shouted: type Shouted, route success", "  outcome shouted: route success")],
        "outcome",
        "Add `type Shouted`",
        ["  outcome shouted: type Shouted, route success"],
    ),
    Case(
        "signal for a wait, typed by the reads of its binding",
        WORKFLOW,
        [("  greet(name: name) -> greeting", "  wait go -> ok\n  greet(name: ok.who) -> greeting")],
        "wait",
        "Declare signal `go`",
        [
            "  input name: String",
            "  signal go: Go",
            "type Failed   { reason: String }",
            "",
            "type Go { who: String }",
        ],
    ),
    Case(
        "input for a name nothing binds",
        WORKFLOW,
        [("  greet(name: name) -> greeting", "  greet(name: nickname) -> greeting")],
        "unknown-binding",
        "Declare input `nickname`",
        ["  input name: String", "  input nickname: String"],
    ),
    Case(
        "binding for an unbound call the read needs",
        WORKFLOW,
        [("  greet(name: name) -> greeting", "  greet(name: name)")],
        "unknown-binding",
        "Bind `greet` as `-> greeting`",
        ["  greet(name: name) -> greeting"],
    ),
    Case(
        "detached workflow for a hatch",
        WORKLOOP,
        [
            (
                "hatch triage_message(message_id: message.id, sender: message.sender)",
                "hatch escalate(id: message.id, size: 3)",
            )
        ],
        "hatch",
        "Declare detached `escalate`",
        [
            "detached triage_message(message_id: String, sender: String)",
            "",
            "detached escalate(id: String, size: Int)",
            "",
            "step fetch",
        ],
    ),
    Case(
        "report for an answer, of the record its fields fit",
        WORKLOOP,
        [
            (
                "  answer status(fetched: fetched, hatched: fetched)",
                "  answer status(fetched: fetched, hatched: fetched)\n  answer tally(fetched: 1, hatched: 2)",
            )
        ],
        "answer",
        "Declare report `tally`",
        ["  report status: type SweepStatus", "  report tally: type SweepStatus"],
    ),
    Case(
        "report for an answer with a record of its own",
        WORKLOOP,
        [
            (
                "  answer status(fetched: fetched, hatched: fetched)",
                "  answer status(fetched: fetched, hatched: fetched)\n  answer last(sender: batch.newest)",
            )
        ],
        "answer",
        "Declare report `last`",
        ["  report last: type Last", "type Last { sender: String }"],
    ),
    Case(
        "carry for `route start`, defaulting to a value of its type",
        WORKLOOP,
        [("route start(last_seen: batch.newest)", "route start(last_seen: batch.newest, rounds: fetched)")],
        "route-start",
        "Declare carry `rounds`",
        ['  carry last_seen: String = ""', "  carry rounds: Int = 0"],
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_the_fix_declares_it(case: Case) -> None:
    fixed, action = apply_fix(case.broken, case.code, case.title)
    assert_lines(fixed, case.expect)
    assert_canonical_kept(case.broken, fixed)
    assert bool(action.is_preferred) == case.preferred


@pytest.mark.parametrize("case", [c for c in CASES if c.workflow], ids=[c.id for c in CASES if c.workflow])
def test_the_engine_accepts_the_fixed_workflow(case: Case) -> None:
    assert engine_verdict(case.broken) != "OK", "the mistake put in is no mistake to the engine"
    fixed, _ = apply_fix(case.broken, case.code, case.title)
    assert engine_verdict(fixed) == "OK"


# ---------------------------------------------------------------- every kind of unknown name
# A misspelt name of each kind gets "Change to `x`" first (preferred) and the fix declaring the name
# as written. (A close name nothing else uses — a step, a type, a detached workflow, a binding —
# would look unused once the misspelling is declared: then only "Change to" is offered.)
KINDS = [
    (
        "action",
        WORKFLOW,
        "  shout(text:",
        "  shuot(text:",
        "unknown-call",
        ["Change to `shout`", "Declare action `shuot` in worker `voice`"],
    ),
    (
        "type",
        WORKFLOW,
        "-> Shouted",
        "-> Shoted",
        "unknown-type",
        ["Change to `Shouted`", "Declare type `Shoted`"],
    ),
    (
        "record construction",
        WORKFLOW,
        "  loud |> route shouted",
        "  Shoutd(text: loud.text, loud: true) |> route shouted",
        "unknown-call",
        ["Change to `Shouted`", "Declare type `Shoutd`"],
    ),
    (
        "field",
        WORKFLOW,
        "greeting.text",
        "greeting.txt",
        "unknown-field",
        ["Change to `text`", "Add field `txt` to `Greeting`"],
    ),
    (
        "binding",
        WORKFLOW,
        "  loud |> route shouted",
        "  shout(text: greting.text) -> again\n  loud |> route shouted",
        "unknown-binding",
        ["Change to `greeting`", "Declare input `greting`"],
    ),
    ("child", WORKFLOW, "worker voice", "child audit(text: String) -> Nil\n\nworker voice", None, None),
    (
        "signal",
        WORKLOOP,
        "  on nudge",
        "  on nuge",
        "workloop-arming",
        ["Change to `nudge`", "Declare signal `nuge`"],
    ),
    (
        "report",
        WORKLOOP,
        "answer status(",
        "answer stats(",
        "answer",
        ["Change to `status`", "Declare report `stats`"],
    ),
    (
        "carry",
        WORKLOOP,
        "route start(last_seen:",
        "route start(last_sen:",
        "route-start",
        ["Change to `last_seen`", "Declare carry `last_sen`"],
    ),
]


@pytest.mark.parametrize(
    ("kind", "base", "right", "wrong", "code", "titles"),
    [k for k in KINDS if k[4]],
    ids=[k[0] for k in KINDS if k[4]],
)
def test_each_kind_of_unknown_name_offers_the_close_name_and_the_declaration(
    kind: str, base: str, right: str, wrong: str, code: str, titles: list[str]
) -> None:
    text = base.replace(right, wrong, 1)
    fixed, action = apply_fix(text, code, titles[0])
    assert action.is_preferred
    misspelt = titles[1].split("`")[1]
    assert misspelt not in fixed
    declared, other = apply_fix(text, code, titles[1])
    assert not other.is_preferred and misspelt in declared


def test_a_spawned_child_misspelt_offers_the_close_name_and_the_declaration() -> None:
    base = WORKFLOW.replace("worker voice", "child audit(text: String) -> Nil\n\nworker voice")
    base = base.replace("  loud |> route shouted", "  spawn audit(text: loud.text)\n  loud |> route shouted")
    text = base.replace("spawn audit(", "spawn audti(")
    fixed, action = apply_fix(text, "spawn", "Change to `audit`")
    assert action.is_preferred and fixed == base
    declared, _ = apply_fix(text, "spawn", "Declare child `audti`")
    assert_lines(declared, ["child audit(text: String) -> Nil", "child audti(text: String) -> Nil"])
