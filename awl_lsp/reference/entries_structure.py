"""Project-written entries for AWL's structural words: declarations, headers, worker config, outcomes.

Each entry is one sentence in this project's own words with a short AWL example; the
workloop words are documented by the user's reference instead (see `parser.py`).
"""

from __future__ import annotations

from awl_lsp.reference.model import EntryText

STRUCTURE_ENTRIES: tuple[EntryText, ...] = (
    EntryText(
        "workflow",
        ("top-level", "expression"),
        "Opens a document whose run ends in one of its declared header outcomes; inside expressions the "
        "same word is the `workflow` namespace, where `workflow.id` is the run's replay-stable execution id.",
        """\
//! Stamp the run's own id onto its result.
workflow stamp_run
  outcome recorded: type Stamp, route success

type Stamp { id: String }

step identify
  route recorded(id: workflow.id)""",
    ),
    EntryText(
        "input",
        ("workflow-header", "workloop-header"),
        "Declares a typed value supplied when the flow starts, readable by name throughout the document.",
        """\
workflow resize_images
  input images: [String]
  input width: Int
  input note: String?
  outcome resized: type Int, route success""",
    ),
    EntryText(
        "signal",
        ("workflow-header", "workloop-header"),
        "Declares a typed message the running flow can receive from outside, read by `wait` in a step or, "
        "in a workloop, used by `on` to arm iterations.",
        """\
workflow deploy_gate
  input build_id: String
  signal go: Approval
  outcome deployed: type Approval, route success

type Approval { approver: String }""",
    ),
    EntryText(
        "outcome",
        ("workflow-header", "step-body"),
        "Names a way to finish: in a workflow header it fixes the result type and whether it routes to "
        "`success` or `failure`, and after a step body it is a guarded branch choosing where the step "
        "routes.",
        """\
workflow check_site
  input url: String
  outcome up:   type Status, route success
  outcome down: type Status, route failure

type Status { alive: Bool }

worker probes
  action ping(url: String) -> Status

step probe
  ping(url: url) -> status
  outcome reachable: if status.alive, route up(alive: true)
  outcome silent: else, route down(alive: false)""",
    ),
    EntryText(
        "type",
        ("top-level", "header-outcome-type"),
        "Declares a named record, enum or JSON-Schema-backed type at top level, and after `outcome n:`, "
        "`report n:` or `invariant n:` introduces the type of that value.",
        """\
type Stage = Drafted | Approved | Shipped
type Draft { title: String, stage: Stage, note: String? }
type Ticket = schema("ticket.schema.json")""",
    ),
    EntryText(
        "schema",
        ("top-level", "expression"),
        "Brings JSON Schema into the type system: `type T = schema { … }` inlines one, "
        '`type T = schema("file.json")` imports one, and `schema of T` is a declared type\'s schema as '
        "a value.",
        """\
type Round = schema {
  "type": "object",
  "required": ["summary"],
  "properties": { "summary": { "type": "string" } }
}

const round_schema = schema of Round""",
    ),
    EntryText(
        "worker",
        ("top-level",),
        "Declares a named group of typed actions that external workers serve and steps call by name.",
        """\
worker mailer
  action send(to: String, body: String) -> Bool
    node smtp, timeout 1m, retry 3 every 30s""",
    ),
    EntryText(
        "action",
        ("worker-body",),
        "Declares one typed operation of a `worker`, optionally followed by an indented "
        "`node`/`timeout`/`retry` config line that applies to every call.",
        """\
worker builds
  /// Compile one revision of a repository.
  action compile(repo: String, rev: String) -> Int
    node builder, timeout 20m""",
    ),
    EntryText(
        "child",
        ("top-level",),
        "Declares another workflow that a step calls like an action and awaits, with typed inputs and a "
        "typed result.",
        """\
child write_changelog(repo: String, version: String) -> String

step changelog
  write_changelog(repo: repo, version: version) -> log""",
    ),
    EntryText(
        "subflow",
        ("top-level",),
        "Declares a reusable group of steps with its own parameters and `outcome`s, called from a step like "
        "an action.",
        """\
subflow shout(text: String)
  outcome out: type String
  step raise
    text + "!" -> loud
    loud |> route out""",
    ),
    EntryText(
        "step",
        ("top-level", "step-body"),
        "Declares a named unit of work whose body runs in written order; a step nested in another step's "
        "body is a substep.",
        """\
step fetch
  fetch_page(url: url) -> page

step index after fetch
  index_page(page: page) -> entry""",
    ),
    EntryText(
        "const",
        ("top-level",),
        "Binds a name to a compile-time value: a literal, raw string, `json { … }`, `schema of T`, list, "
        "or a `+` of these.",
        '''\
const greeting = "Hello"
const intro = greeting + ", reviewer."
const prompt = """
  Review the change and return a verdict.
  """''',
    ),
    EntryText(
        "after",
        ("step-header",),
        "Makes a step wait for the named steps, turning file order into an explicit dependency graph.",
        """\
step compose after claims, citations
  compose(facts: claim_set.facts, links: citation_set.links) -> report""",
    ),
    EntryText(
        "timeout",
        ("workflow-header", "action-config", "wait-tail"),
        "Sets a deadline: in a workflow header it bounds the whole run, on an action's config line each "
        "call, and after `wait SIGNAL` the wait, whose binding then becomes optional.",
        """\
workflow timed_report
  timeout 6h
  input report: String
  outcome processed: type String, route success

worker reports
  action process(report: String) -> String
    timeout 10m""",
    ),
    EntryText(
        "retry",
        ("action-config",),
        "Sets how many times a failed action call is retried, followed by its schedule: `every D` for a "
        "fixed pause or `backoff D..D` for growing pauses.",
        """\
worker fetcher
  action fetch(url: String) -> String
    node network, timeout 2m, retry 5 every 30s""",
    ),
    EntryText(
        "every",
        ("workloop-header", "retry-schedule"),
        "Sets a fixed period: in a workloop header it arms one iteration per period, and after `retry N` "
        "it is the pause between attempts.",
        """\
workloop nightly_backup
  every 24h
  input volumes: [String]

worker storage
  action snapshot(volume: String) -> String
    timeout 2h, retry 3 every 10m""",
    ),
    EntryText(
        "backoff",
        ("retry-schedule",),
        "Makes the pauses between retries grow from the first duration to the second, as in "
        "`retry 4 backoff 5s..2m`.",
        """\
worker chat
  action announce(text: String) -> Nil
    node chat, timeout 30s, retry 4 backoff 5s..2m""",
    ),
    EntryText(
        "node",
        ("action-config",),
        "Pins an action to a named execution node, either on its config line or on an override line "
        "indented under one call.",
        """\
worker renderer
  action render(scene_path: String) -> String
    node gpu_small, timeout 30m

step render
  render(scene_path: scene_path) -> output
    node gpu_large, timeout 3h""",
    ),
    EntryText(
        "on",
        ("workloop-header", "step-body"),
        "Either arms a workloop with a declared signal (`on nudge` starts an iteration when it arrives) or, "
        "as `on failure` in a step body, opens the block that runs when the step fails.",
        """\
workloop mail_watch
  on nudge
  signal nudge: Nudge

step publish
  push_live(assets: assets) -> live
  on failure
    delete_assets(assets: assets)
    route failed(reason: "publish failed")""",
    ),
    EntryText(
        "failure",
        ("workflow-header", "step-body"),
        "Marks a failed end: `route failure` makes a header outcome finish the run as failed, and "
        "`on failure` opens a step's compensation block.",
        """\
workflow publish_assets
  input bundle: String
  outcome published: type Receipt, route success
  outcome failed:    type Failed,  route failure

type Receipt { count: Int }
type Failed  { reason: String }""",
    ),
    EntryText(
        "success",
        ("workflow-header",),
        "Marks a header outcome as a successful end of the run: `outcome n: type T, route success`.",
        """\
workflow triage_message
  input message: String
  outcome triaged: type String, route success""",
    ),
    EntryText(
        "if",
        ("step-body",),
        "Guards a step outcome so that it is taken when the expression holds: `outcome n: if EXPR, route …`.",
        """\
step decide
  score(text: text) -> verdict
  outcome keep: if verdict.score >= 0.5, route publish
  outcome drop: else, route archive""",
    ),
    EntryText(
        "else",
        ("step-body",),
        "Guards the last outcome of a step, taken when none of the `if` guards above it holds.",
        """\
step decide
  score(text: text) -> verdict
  outcome keep: if verdict.score >= 0.5, route publish
  outcome drop: else,
    route archive""",
    ),
    EntryText(
        "when",
        ("step-body",),
        "The older spelling of `if` in an outcome guard, still accepted.",
        """\
step await_approval
  wait approval -> decision
  outcome approved: when decision.approve, route ship
  outcome denied: otherwise, route rework""",
    ),
    EntryText(
        "otherwise",
        ("step-body",),
        "The older spelling of `else` in an outcome guard, still accepted.",
        """\
step await_approval
  wait approval -> decision
  outcome approved: when decision.approve, route ship
  outcome denied: otherwise, route rework""",
    ),
    EntryText(
        "visits",
        ("step-body", "expression"),
        "Completes `max N visits`, the bound on how often routes may re-enter a step, and inside that "
        "step's outcome guards reads how many visits have happened.",
        """\
step push
  deploy(host: host) -> checked
  outcome again: if not checked.ok and visits < 3, route push
  outcome move_on: else, route settle
  max 3 visits""",
    ),
)
