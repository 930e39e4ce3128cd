"""Project-written entries for AWL's step-body words, expression words and builtin types.

Each entry is one sentence in this project's own words with a short AWL example.
"""

from __future__ import annotations

from awl_lsp.reference.model import EntryText

_LOOP_EXAMPLE = """\
step poll
  loop status = Poll(state: "pending", done: false) counting polls
    poll(job_id: job_id, prior: status) -> status
    until status.done
    max 20"""

_REGION_EXAMPLE = """\
step wave
  {opener} job in jobs

step run
  run_job(job: job) -> verdict

step gather
  collect verdict{tolerant} -> verdicts"""

_TALLY_EXAMPLE = """\
step tally
  findings |> {stage} -> {name}"""


def _tally(stage: str, name: str) -> str:
    return _TALLY_EXAMPLE.format(stage=stage, name=name)


BODY_ENTRIES: tuple[EntryText, ...] = (
    EntryText(
        "fork",
        ("step-body",),
        "Runs work in parallel: `fork x in coll` runs its indented body once per element, and a bare "
        "`fork` runs its indented calls side by side, each closed by `join`.",
        """\
step inspect_all
  fork item in items
    inspect(item: item)
  join -> verdicts

step gather
  fork
    fetch_profile(id: user_id) -> profile
    fetch_history(id: user_id) -> history
  join""",
    ),
    EntryText(
        "join",
        ("step-body",),
        "Closes a `fork` and waits for all of its branches; on a collection fork `join -> name` binds the "
        "branch results as a list.",
        """\
step apply_all
  fork migration in migrations
    apply_one(migration: migration)
  join -> receipts""",
    ),
    EntryText(
        "sequential",
        ("step-body",),
        "Makes a collection `fork` handle one element at a time, in collection order, instead of in "
        "parallel.",
        """\
step apply_all
  fork migration in migrations sequential
    apply_one(migration: migration)
  join -> receipts""",
    ),
    EntryText(
        "in",
        ("step-body",),
        "Names the collection that `fork`, `distribute` or `sequence` iterates, as in `fork x in items`.",
        """\
step ship_all
  fork order in orders
    ship(order: order)
  join""",
    ),
    EntryText(
        "loop",
        ("step-body",),
        "Repeats its indented body from `x = SEED`, rebinding `x` each round, until its `until` condition "
        "holds or its `max` bound is reached.",
        _LOOP_EXAMPLE,
    ),
    EntryText(
        "counting",
        ("step-body",),
        "Names an Int that counts a loop's rounds and stays readable after the loop.",
        _LOOP_EXAMPLE,
    ),
    EntryText(
        "until",
        ("step-body",),
        "Ends a loop body with the condition that stops the loop once it holds.",
        _LOOP_EXAMPLE,
    ),
    EntryText(
        "max",
        ("step-body",),
        "Bounds repetition: `max EXPR` closes a loop body with its round limit, and `max N visits` after a "
        "step's outcomes limits how often routes may re-enter that step.",
        """\
step check
  review(draft: draft) -> verdict
  outcome approved: if verdict.approved, route publish
  outcome rework: else, route compose
  max 3 visits""",
    ),
    EntryText(
        "spawn",
        ("step-body",),
        "Starts a declared `child` workflow without waiting for it and without binding a result.",
        """\
child archive_run(version: String) -> Nil

step release
  spawn archive_run(version: version)""",
    ),
    EntryText(
        "answer",
        ("step-body",),
        "Registers this iteration's value for a declared workloop `report`, naming each field of its type.",
        """\
step sweep_queue
  sweep(queue_dir: queue_dir) -> found
  answer board(swept: found.swept)
  route start""",
    ),
    EntryText(
        "wait",
        ("step-body",),
        "Pauses the step until a declared signal arrives and binds its payload with the required "
        "`-> name`; with `timeout D` the binding is optional and absent when the time runs out.",
        """\
step hold
  wait go -> approval

step ask
  wait operator_reply timeout 30m -> reply""",
    ),
    EntryText(
        "sleep",
        ("step-body",),
        "Pauses the step for a fixed duration such as `30s`, `5m`, `3h` or `2d`.",
        """\
step cooldown
  sleep 30s""",
    ),
    EntryText(
        "route",
        ("step-body", "pipe-stage"),
        "Sends control on to a step, to a declared outcome with its payload, or in a workloop to `start`, "
        "and also ends pipes (`x |> route done`) and outcome guards.",
        """\
step finish
  route done(summary: report.text)

step ship
  draft |> publish |> route published""",
    ),
    EntryText(
        "distribute",
        ("step-body",),
        "As a step's only line, fans the following steps out over a collection in parallel, one instance "
        "per element, until a `collect` gathers their results.",
        _REGION_EXAMPLE.format(opener="distribute", tolerant=""),
    ),
    EntryText(
        "sequence",
        ("step-body",),
        "Like `distribute`, but runs the per-element instances one at a time in collection order.",
        _REGION_EXAMPLE.format(opener="sequence", tolerant="?"),
    ),
    EntryText(
        "collect",
        ("step-body",),
        "Closes a `distribute` or `sequence` region by gathering one binding per element into a list; "
        "`collect b? -> name` tolerates failed instances by leaving their slots absent.",
        _REGION_EXAMPLE.format(opener="distribute", tolerant="?"),
    ),
    EntryText(
        "filter",
        ("pipe-stage",),
        "A pipe stage keeping the elements for which its predicate holds.",
        _tally("filter(.blocking)", "blockers"),
    ),
    EntryText(
        "map",
        ("pipe-stage",),
        "A pipe stage replacing each element with the given projection.",
        _tally("map(.title)", "titles"),
    ),
    EntryText(
        "sort",
        ("pipe-stage",),
        "A pipe stage ordering a list by the given key.",
        _tally("sort(.severity)", "ranked"),
    ),
    EntryText(
        "count",
        ("pipe-stage",),
        "A pipe stage giving the number of elements in a list as an Int.",
        _tally("count", "total"),
    ),
    EntryText(
        "any",
        ("pipe-stage",),
        "A pipe stage that is true when its predicate holds for at least one element, so false on an "
        "empty list.",
        _tally("any(.blocking)", "has_blocker"),
    ),
    EntryText(
        "all",
        ("pipe-stage",),
        "A pipe stage that is true when its predicate holds for every element, so true on an empty list.",
        _tally('all(.severity != "blocker")', "all_minor"),
    ),
    EntryText(
        "is",
        ("expression",),
        "Tests the state of a value: `x is empty` for a collection, `x is present` or `x is absent` for "
        "an optional.",
        """\
step decide
  outcome nothing: if found.tasks is empty, route idle
  outcome reply: if reply is present, route handle
  outcome quiet: else, route idle""",
    ),
    EntryText(
        "empty",
        ("expression",),
        "Completes `x is empty`, true when the collection has no elements.",
        """\
step decide
  outcome idle: if found.tasks is empty, route rest
  outcome busy: else, route dispatch""",
    ),
    EntryText(
        "present",
        ("expression",),
        "Completes `x is present`, true when the optional value holds something.",
        """\
step ask
  wait operator_reply timeout 30m -> reply
  outcome answered: if reply is present, route confirm
  outcome silent: else, route give_up""",
    ),
    EntryText(
        "absent",
        ("expression",),
        "Completes `x is absent`, true when the optional value holds nothing.",
        """\
step check
  draft |> .detail -> detail
  outcome unreviewed: if detail is absent, route review
  outcome reviewed: else, route publish""",
    ),
    EntryText(
        "not",
        ("expression",),
        "Negates the boolean expression that follows it.",
        """\
step decide
  outcome redo: if not verdict.ok, route rework
  outcome done: else, route publish""",
    ),
    EntryText(
        "and",
        ("expression",),
        "Is true when both boolean operands are true.",
        """\
step decide
  outcome ship: if report.clean and report.score > 0.5, route publish
  outcome hold: else, route review""",
    ),
    EntryText(
        "or",
        ("expression",),
        "Is true when at least one of its boolean operands is true.",
        """\
step decide
  outcome skip: if detail is absent or detail.approved, route publish
  outcome look: else, route review""",
    ),
    EntryText(
        "true",
        ("expression",),
        "The Bool literal for truth.",
        """\
step notify
  broadcast(recipients: ["ops"], body: "deploy done", urgent: true) -> receipt""",
    ),
    EntryText(
        "false",
        ("expression",),
        "The Bool literal for falsehood.",
        """\
step poll
  loop draft = Draft(body: "", ready: false)
    polish(prior: draft) -> draft
    until draft.ready
    max 5""",
    ),
    EntryText(
        "of",
        ("expression",),
        "Completes `schema of T`, whose value is the JSON Schema of the declared type `T`.",
        """\
type Verdict { passed: Bool, note: String? }

const verdict_schema = schema of Verdict""",
    ),
    EntryText(
        "json",
        ("expression",),
        "Writes a JSON value verbatim between balanced braces, as in `const s = json { … }`.",
        """\
const item_schema = json {
  "type": "object",
  "required": ["id"]
}""",
    ),
    EntryText(
        "Bool",
        ("type",),
        "The builtin truth-value type, whose values are `true` and `false`.",
        "type Check { passed: Bool }",
    ),
    EntryText(
        "Int",
        ("type",),
        "The builtin whole-number type, also the type of `count` results and `counting` variables.",
        "type Tally { attempts: Int }",
    ),
    EntryText(
        "Float",
        ("type",),
        "The builtin fractional-number type, written like `0.5`.",
        "type Score { weight: Float }",
    ),
    EntryText(
        "String",
        ("type",),
        'The builtin text type, written as `"…"` with escapes or as a `"""…"""` raw string.',
        "type Note { title: String, body: String? }",
    ),
    EntryText(
        "Nil",
        ("type",),
        "The builtin type of no value, the result of an action or child that returns nothing.",
        """\
worker mailer
  action announce(text: String) -> Nil""",
    ),
    EntryText(
        "Dir",
        ("type",),
        "The builtin directory type, for workspace paths handed to actions.",
        """\
worker analyzer
  action analyze(workspace: Dir) -> String""",
    ),
)
