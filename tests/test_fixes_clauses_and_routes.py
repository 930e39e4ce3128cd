"""Quick fixes that complete what a step, an outcome, a route or a workloop header leaves out, and
put lines written in the wrong place where they go.

As in `test_fixes_declarations`: each case puts one mistake into a canonical document, applies the
editor's fix for it (the problem is gone, nothing new is wrong, `awl fmt` would leave the fixed
text as it is) and checks the fixed lines; the engine's front end must accept each fixed workflow.
"""

from __future__ import annotations

import pytest
from fix_cases import WORKFLOW, WORKLOOP, Case, apply_fix, assert_canonical_kept, assert_lines, engine_verdict

SHOUT = "  shout(text: greeting.text) -> loud\n  loud |> route shouted"
ARM = "  outcome quiet: when not loud.loud,\n    route shouted(text: loud.text, loud: false)"

CASES = [
    # ---- outcome arms
    Case(
        "an else arm after the last arm, routed as it is",
        WORKFLOW,
        [(SHOUT, "  shout(text: greeting.text) -> loud\n" + ARM)],
        "outcomes-exhaustive",
        "Add an `otherwise` arm",
        [
            ARM.split("\n")[1],
            "  outcome other: otherwise,",
            "    route shouted(text: loud.text, loud: false)",
        ],
    ),
    Case(
        "the else arm moved last",
        WORKFLOW,
        [
            (
                SHOUT,
                "  shout(text: greeting.text) -> loud\n  outcome rest: otherwise, route shouted(loud)\n"
                + ARM,
            )
        ],
        "else-not-last",
        "Move the `otherwise` arm last",
        ["    route shouted(text: loud.text, loud: false)", "  outcome rest: otherwise, route shouted(loud)"],
    ),
    Case(
        "an arm's missing route",
        WORKFLOW,
        [
            (
                SHOUT,
                (
                    "  shout(text: greeting.text) -> loud\n  outcome quiet: when not loud.loud\n"
                    "  outcome rest: otherwise, route shouted(loud)"
                ),
            )
        ],
        "outcome-route",
        "Add a route",
        ["  outcome quiet: when not loud.loud, route shouted(loud)"],
    ),
    Case(
        "a statement below the arms moved above them",
        WORKFLOW,
        [
            (
                SHOUT,
                (
                    "  shout(text: greeting.text) -> loud\n  outcome rest: otherwise, route shouted(loud)\n"
                    "  sleep 1s"
                ),
            )
        ],
        "after-outcomes",
        "Move above the outcome arms",
        [
            "  shout(text: greeting.text) -> loud",
            "  sleep 1s",
            "  outcome rest: otherwise, route shouted(loud)",
        ],
    ),
    # ---- a step's end
    Case(
        "the last step's route, passing the value of the outcome's type it has",
        WORKFLOW,
        [(SHOUT, "  shout(text: greeting.text) -> loud")],
        "falls-off-end",
        "Add `route shouted(loud)`",
        ["  shout(text: greeting.text) -> loud", "  route shouted(loud)"],
    ),
    Case(
        "a dead end routed on to the step below it",
        WORKFLOW,
        [
            (
                "  greet(name: name) -> greeting\n",
                (
                    '  greet(name: name) -> greeting\n  outcome hi: when greeting.text != "", route shout\n'
                    "  outcome lo: otherwise, route pause\n\nstep pause\n  sleep 1s\n"
                ),
            )
        ],
        "dead-end-step",
        "Add `route shout`",
        ["step pause", "  sleep 1s", "  route shout", "", "step shout"],
    ),
    Case(
        "an `on failure` block ends in a route to a failure outcome",
        WORKFLOW,
        [(SHOUT, SHOUT + "\n  on failure\n    sleep 1s")],
        "on-failure-route",
        'Add `route failed(reason: "")`',
        ["  on failure", "    sleep 1s", '    route failed(reason: "")'],
    ),
    Case(
        "a line below the route moved above it",
        WORKFLOW,
        [(SHOUT, SHOUT + "\n  sleep 1s")],
        "after-route",
        "Move above the `route`",
        ["  shout(text: greeting.text) -> loud", "  sleep 1s", "  loud |> route shouted"],
    ),
    # ---- payloads
    Case(
        "a bare route to an outcome that carries a value: pass the step's value of its type",
        WORKFLOW,
        [("  loud |> route shouted", "  route shouted")],
        "route-no-payload",
        "Pass `loud`",
        ["  route shouted(loud)"],
    ),
    Case(
        "a route to a step carries no payload",
        WORKFLOW,
        [("  greet(name: name) -> greeting\n", "  greet(name: name) -> greeting\n  route shout(greeting)\n")],
        "route-step-payload",
        "Remove the payload `(greeting)`",
        ["  route shout"],
    ),
    Case(
        "one named field for an outcome that carries a string: the value alone",
        WORKFLOW,
        [
            (
                "  outcome failed:  type Failed,  route failure",
                "  outcome failed:  type String,  route failure",
            ),
            ("type Failed   { reason: String }\n", ""),
            (SHOUT, SHOUT + '\n  on failure\n    route failed(reason: "no voice")'),
        ],
        "route-not-record",
        'Pass `"no voice"` alone',
        ['    route failed("no voice")'],
    ),
    Case(
        "a piped value of another type: the outcome carries it",
        WORKFLOW,
        [
            (
                "  outcome failed:  type Failed,  route failure",
                "  outcome failed:  type Shouted, route failure",
            ),
            ("type Failed   { reason: String }\n", ""),
            (
                "  greet(name: name) -> greeting\n",
                (
                    '  greet(name: name) -> greeting\n  outcome hi: when greeting.text != "", route shout\n'
                    "  outcome lo: otherwise, route give_up\n\nstep give_up\n  greet(name: name) -> hello\n"
                    "  hello |> route failed\n"
                ),
            ),
        ],
        "route-payload",
        "Make outcome `failed` carry `Greeting`",
        [
            "  outcome shouted: type Shouted,  route success",
            "  outcome failed:  type Greeting, route failure",
        ],
    ),
    Case(
        "a spawn binds nothing",
        WORKFLOW,
        [
            ("worker voice", "child audit(text: String) -> Nil\n\nworker voice"),
            (SHOUT, "  spawn audit(text: greeting.text) -> handle\n" + SHOUT),
        ],
        "spawn",
        "Remove `-> handle`",
        ["  spawn audit(text: greeting.text)"],
    ),
    # ---- lines in the wrong place, names
    Case(
        "narration after the header moved up to the narration",
        WORKFLOW,
        [("type Greeting", "//! It shouts.\ntype Greeting")],
        "narration",
        "Move to the narration at the top",
        ["//! Greet a name, then shout the greeting back.", "//! It shouts.", "workflow shout_back"],
    ),
    Case(
        "a header clause at the margin moved into the header",
        WORKFLOW,
        [("type Greeting", "input times: Int\n\ntype Greeting")],
        "unknown-declaration",
        "Move into the header",
        ["  input name: String", "  input times: Int", "  outcome shouted: type Shouted, route success"],
        preferred=False,
    ),
    Case(
        "an unknown header clause kept as a comment",
        WORKFLOW,
        [("  input name: String", '  input name: String\n  about "Shouts."')],
        "unknown-clause",
        "Turn into a comment",
        ['  // about "Shouts."'],
        preferred=False,
    ),
    Case(
        "an empty worker gets an action to fill in",
        WORKFLOW,
        [("worker voice", "worker quiet\n\nworker voice")],
        "worker",
        "Add an action",
        ["worker quiet", "  action run(value: String) -> Nil"],
    ),
    Case(
        "a subflow outcome carries no route",
        WORKFLOW,
        [
            (
                "step greet",
                (
                    "subflow hush(text: String)\n  outcome hushed: type Shouted, route success\n\n"
                    "  step low\n    shout(text: text) -> low\n    low |> route hushed\n\nstep greet"
                ),
            ),
            (SHOUT, "  hush(text: greeting.text) -> loud\n\nstep done\n  loud |> route shouted"),
        ],
        "subflow-outcome-route",
        "Remove `route success`",
        ["  outcome hushed: type Shouted"],
    ),
    Case(
        "a type name that cannot be written where it is used, renamed everywhere",
        WORKFLOW,
        [
            ("type Greeting { text: String }", "type greeting_card { text: String }"),
            ("-> Greeting", "-> greeting_card"),
        ],
        "naming",
        "Rename to `GreetingCard`",
        ["type GreetingCard { text: String }", "  action greet(name: String) -> GreetingCard"],
    ),
    Case(
        "an argument naming no parameter: the one left",
        WORKFLOW,
        [("greet(name: name)", "greet(who: name)")],
        "arguments",
        "Change to `name`",
        ["  greet(name: name) -> greeting"],
    ),
    Case(
        "a step named like an outcome, renamed with the routes that mean it",
        WORKFLOW,
        [
            (
                "  greet(name: name) -> greeting\n",
                (
                    '  greet(name: name) -> greeting\n  outcome hi: when greeting.text != "", route shout\n'
                    "  outcome lo: otherwise, route failed\n\nstep failed\n"
                    '  route failed(reason: "no greeting")\n'
                ),
            )
        ],
        "step-named-outcome",
        "Rename step `failed` to `failed_step`",
        [
            "  outcome lo: otherwise, route failed_step",
            "step failed_step",
            '  route failed(reason: "no greeting")',
        ],
    ),
    Case(
        "a header outcome's kind that is neither",
        WORKFLOW,
        [("type Failed,  route failure", "type Failed,  route sideways")],
        "outcome",
        "Change to `failure`",
        ["  outcome failed:  type Failed,  route failure"],
        preferred=False,
    ),
    # ---- workloop clauses
    Case(
        "a retire block at the end",
        WORKLOOP,
        [("\nretire\n  archive(inbox: inbox, upto: last_seen)\n", "")],
        "retire",
        "Add a `retire` block",
        ["  route start(last_seen: batch.newest)", "", "retire", "  sleep 1s"],
    ),
    Case(
        "a second retire block merged into the first",
        WORKLOOP,
        [
            (
                "  archive(inbox: inbox, upto: last_seen)\n",
                "  archive(inbox: inbox, upto: last_seen)\n\nretire\n  sleep 1s\n",
            )
        ],
        "retire",
        "Merge into the first `retire` block",
        ["retire", "  archive(inbox: inbox, upto: last_seen)", "  sleep 1s"],
    ),
    Case(
        "a loop armed by nothing gets a cadence",
        WORKLOOP,
        [("  every 10m\n  on nudge\n", "")],
        "workloop-arming",
        "Add `every 1h`",
        ["workloop inbox_sweep", "  every 1h", "  input inbox: String"],
    ),
    Case(
        "an invariant's confirms",
        WORKLOOP,
        [("    confirms start\n", "")],
        "invariant",
        "Add `confirms start`",
        ["    tolerance unconfirmed for 1h", "    confirms start"],
    ),
    Case(
        "an invariant's tolerance, before its confirms",
        WORKLOOP,
        [("    tolerance unconfirmed for 1h\n", "")],
        "invariant",
        "Add `tolerance 3 windows`",
        ["  invariant draining: type SweepStatus", "    tolerance 3 windows", "    confirms start"],
    ),
    Case(
        "a tolerance of no windows",
        WORKLOOP,
        [("tolerance unconfirmed for 1h", "tolerance 0 windows")],
        "tolerance",
        "Change to `1`",
        ["    tolerance 1 windows"],
    ),
    Case(
        "windows in a loop armed only by a signal",
        WORKLOOP,
        [("  every 10m\n", ""), ("tolerance unconfirmed for 1h", "tolerance 3 windows")],
        "tolerance",
        "Use `tolerance unconfirmed for 1h`",
        ["    tolerance unconfirmed for 1h"],
    ),
    Case(
        "confirms naming no step",
        WORKLOOP,
        [("    confirms start", "    confirms finish")],
        "confirms",
        "Confirm `start`",
        ["    confirms start"],
    ),
    Case(
        "a carry's default",
        WORKLOOP,
        [('  carry last_seen: String = ""', "  carry last_seen: String")],
        "carry",
        'Add the default `= ""`',
        ['  carry last_seen: String = ""'],
    ),
    Case(
        "a detached workflow owes no result",
        WORKLOOP,
        [
            (
                "detached triage_message(message_id: String, sender: String)",
                "detached triage_message(message_id: String, sender: String) -> Int",
            )
        ],
        "detached",
        "Remove `-> Int`",
        ["detached triage_message(message_id: String, sender: String)"],
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_the_fix_completes_it(case: Case) -> None:
    fixed, action = apply_fix(case.broken, case.code, case.title)
    assert_lines(fixed, case.expect)
    assert_canonical_kept(case.broken, fixed)
    assert bool(action.is_preferred) == case.preferred


@pytest.mark.parametrize("case", [c for c in CASES if c.workflow], ids=[c.id for c in CASES if c.workflow])
def test_the_engine_accepts_the_fixed_workflow(case: Case) -> None:
    assert engine_verdict(case.broken) != "OK", "the mistake put in is no mistake to the engine"
    fixed, _ = apply_fix(case.broken, case.code, case.title)
    assert engine_verdict(fixed) == "OK"
