"""Completion: the exact words, names and snippets offered at each kind of cursor position.

Each case inserts a half-typed line into an otherwise valid document (a workloop modelled on the
user's `queue_watch` reference example, and a workflow) and checks the labels `complete` returns.
`‸` marks the cursor.
"""

from __future__ import annotations

import pytest
from lsprotocol import types as lsp

from awl_lsp.features.completion import complete
from awl_lsp.features.snapshot import Snapshot
from awl_lsp.model import ModelBuilder
from awl_lsp.syntax import SyntaxDocument

WORKLOOP = """\
//! Poll a queue on cadence; hatch one detached run per task found.
workloop queue_watch
  every 25m
  input queue_dir: String
  signal poke: Poke
  carry seen: [String] = []
  report board: type Board
  invariant serving: type Board
    tolerance 3 windows
    confirms start
  retention 14d

type Board { swept: Int }
type Poke { reason: String }
/// One queued task.
type Task  { id: String, kind: String, payload: String }
type Sweep { tasks: [Task], seen: [String], swept: Int }

worker sweepers
  /// Lists the queue.
  action sweep(queue_dir: String, seen: [String]) -> Sweep
    node sweeper, timeout 5m

detached process_task(kind: String, payload: String)

step sweep_queue
  sweep(queue_dir: queue_dir, seen: seen) -> found
  answer board(swept: found.swept)
  outcome idle: if found.tasks is empty, route start
  outcome busy: else, route dispatch

step dispatch
  fork task in found.tasks
    hatch process_task(kind: task.kind, payload: task.payload) key task.id
  join
  route start(seen: found.seen)

retire
  sweep(queue_dir: queue_dir, seen: seen)
"""

WORKFLOW = """\
//! Review a brief with several lenses.
workflow review_brief
  timeout 2h
  input brief: Brief
  signal approve: Approval
  outcome landed: type Landed, route success
  outcome rejected: type Rejected, route failure

type Brief { title: String, lenses: [Lens] }
type Lens { name: String, charter: String }
/// One reviewer's verdict.
type Verdict {
  lens: String,
  /// True when the lens blocks the brief.
  blocking: Bool,
}
type Approval { by: String }
type Landed { summary: String, cycles: Int }
type Rejected { verdicts: [Verdict] }

worker reviewers
  action review(lens: Lens, brief: Brief) -> Verdict
    node reviewer, timeout 20m
  action summarize(verdicts: [Verdict]) -> Landed
  action shout(text: String) -> String

child notify(channel: String, text: String) -> Nil

step review_all
  fork lens in brief.lenses
    review(lens: lens, brief: brief)
  join -> verdicts
  verdicts |> filter(.blocking) -> blocking
  outcome accepted: if blocking is empty, route finish
  outcome blocked: else, route rejected(verdicts: blocking)

step finish
  summarize(verdicts: verdicts) -> landed
  wait approve timeout 1h -> approval
  route landed(summary: landed.summary, cycles: 1)
"""

STEP_BODY = {
    "spawn",
    "hatch",
    "answer",
    "wait",
    "sleep",
    "fork",
    "loop",
    "distribute",
    "sequence",
    "collect",
    "step",
    "on",
    "route",
    "outcome",
    "max",
}
TYPES = {"Bool", "Int", "Float", "String", "Nil", "Dir"}
WORKLOOP_TYPES = TYPES | {"Board", "Poke", "Task", "Sweep"}
WORKFLOW_TYPES = TYPES | {"Brief", "Lens", "Verdict", "Approval", "Landed", "Rejected"}


def _snapshot(text: str) -> Snapshot:
    doc = SyntaxDocument(text)
    return Snapshot(doc, ModelBuilder().build(doc.tree, doc.source))


def items_at(base: str, after: str | None, line: str) -> list[lsp.CompletionItem]:
    """Insert `line` (with a `‸` cursor) after the first line equal to `after` (None: at the end).

    `line` may hold several lines; the cursor is wherever `‸` is.
    """
    lines = base.split("\n")
    if after is None:
        while lines and lines[-1] == "":
            lines.pop()
        row = len(lines)
    else:
        row = lines.index(after) + 1
    before = line[: line.index("‸")]
    cursor = lsp.Position(row + before.count("\n"), len(before.split("\n")[-1]))
    lines.insert(row, line.replace("‸", ""))
    return complete(_snapshot("\n".join(lines) + "\n"), cursor)


def labels(base: str, after: str | None, line: str) -> set[str]:
    return {item.label for item in items_at(base, after, line)}


def wl(after: str | None, line: str) -> set[str]:
    return labels(WORKLOOP, after, line)


def wf(after: str | None, line: str) -> set[str]:
    return labels(WORKFLOW, after, line)


# ---------------------------------------------------------------------- top level and headers
def test_top_level_with_header_offers_declarations_only() -> None:
    assert wl("  retention 14d", "‸") == {"const", "type", "worker", "child", "detached", "subflow", "step"}
    assert wf(None, "st‸") == {"const", "type", "worker", "child", "subflow", "step"}  # detached: workloops


def test_top_level_without_header_offers_the_flow_words() -> None:
    got = labels("type Board { swept: Int }\n", None, "‸")
    assert {"workflow", "workloop"} <= got
    assert "retire" not in got


def test_retire_offered_once_and_only_in_workloops() -> None:
    no_retire = WORKLOOP.split("retire\n")[0]
    assert "retire" in labels(no_retire, None, "‸")
    assert "retire" not in wl(None, "‸")
    assert "retire" not in wf(None, "‸")


def test_workloop_header_is_exactly_its_slot() -> None:
    # `every` and `retention` are written already, and a header holds each once
    expected = {"on", "input", "signal", "carry", "report", "invariant"}
    assert wl("  every 25m", "  ‸") == expected
    assert wl("  every 25m", "  re‸") == expected
    assert wl("  retention 14d", "  ‸") == expected  # the header's last line
    bare = WORKLOOP.replace("  every 25m\n", "").replace("  retention 14d\n", "")
    assert labels(bare, "  input queue_dir: String", "  ‸") == expected | {"every", "retention"}
    # the clause on the cursor's own line is the one being typed: still offered
    assert "every" in wl_line("  ev‸", "  every 25m")


def wl_line(line: str, replacing: str) -> set[str]:
    """Labels with the cursor on `line` written in place of the line `replacing`."""
    lines = WORKLOOP.split("\n")
    row = lines.index(replacing)
    return labels("\n".join(lines[:row] + lines[row + 1 :]), lines[row - 1], line)


def test_workflow_header_is_exactly_its_slot() -> None:
    assert wf("  timeout 2h", "  ‸") == {"input", "signal", "outcome"}  # one `timeout` is written
    assert wf("  timeout 2h", "  ou‸") == {"input", "signal", "outcome"}
    no_timeout = WORKFLOW.replace("  timeout 2h\n", "")
    assert labels(no_timeout, "  input brief: Brief", "  ‸") == {"timeout", "input", "signal", "outcome"}


def test_header_on_offers_signals() -> None:
    assert wl("  every 25m", "  on ‸") == {"poke"}


def test_header_outcome_type_and_route() -> None:
    assert wf("  timeout 2h", "  outcome n: ‸") == {"type"}
    assert wf("  timeout 2h", "  outcome n: type Landed, ‸") == {"route"}
    assert wf("  timeout 2h", "  outcome n: type Landed, route ‸") == {"success", "failure"}


# ---------------------------------------------------------------------- invariant
def test_invariant_body() -> None:
    assert wl("    tolerance 3 windows", "    ‸") == set()  # both once-only clauses are written
    no_confirms = WORKLOOP.replace("    confirms start\n", "")
    assert labels(no_confirms, "    tolerance 3 windows", "    ‸") == {"confirms"}
    empty = no_confirms.replace("    tolerance 3 windows\n", "")
    assert labels(empty, "  invariant serving: type Board", "    ‸") == {"tolerance", "confirms"}
    assert labels(empty, "  invariant serving: type Board", "    tol‸") == {"tolerance", "confirms"}


def test_tolerance_tails() -> None:
    assert wl("    confirms start", "    tolerance ‸") == {"unconfirmed"}
    assert wl("    confirms start", "    tolerance 3 ‸") == {"windows"}
    assert wl("    confirms start", "    tolerance 3 win‸") == {"windows"}
    assert wl("    confirms start", "    tolerance unconfirmed ‸") == {"for"}
    assert wl("    confirms start", "    tolerance unconfirmed for ‸") == set()


def test_confirms_targets() -> None:
    assert wl("    tolerance 3 windows", "    confirms ‸") == {"start", "sweep_queue", "dispatch"}


# ---------------------------------------------------------------------- workers
def test_worker_and_action_config() -> None:
    assert wl("  action sweep(queue_dir: String, seen: [String]) -> Sweep", "  ac‸") == {"action"}
    assert wf("    node reviewer, timeout 20m", "  ‸") == {"action"}
    assert wf("  action summarize(verdicts: [Verdict]) -> Landed", "    ‸") == {"node", "timeout", "retry"}
    assert wf("  action summarize(verdicts: [Verdict]) -> Landed", "    node x, ‸") == {"timeout", "retry"}
    assert wf("  action summarize(verdicts: [Verdict]) -> Landed", "    retry 3 ‸") == {"every", "backoff"}


# ---------------------------------------------------------------------- step bodies
def test_workloop_step_body_statements_callables_values() -> None:
    got = wl("  answer board(swept: found.swept)", "  ‸")
    # this workloop declares no child: `spawn` would name nothing, so it is not offered
    assert STEP_BODY - {"spawn"} == got & STEP_BODY
    assert {"sweep", "queue_dir", "seen", "found"} <= got
    assert not got & {"every", "on_", "input", "carry", "retention", "tolerance", "workflow", "const", "join"}
    assert got - STEP_BODY == {"sweep", "queue_dir", "seen", "found"}
    child = "child notify(text: String) -> Nil\n\n"
    with_child = WORKLOOP.replace("detached process_task", child + "detached process_task")
    assert "spawn" in labels(with_child, "  answer board(swept: found.swept)", "  ‸")


def test_workflow_step_body_has_no_workloop_words() -> None:
    got = wf("  summarize(verdicts: verdicts) -> landed", "  ‸")
    assert STEP_BODY - {"hatch", "answer"} <= got
    assert not got & {"hatch", "answer", "every", "timeout", "input", "start"}
    assert {"review", "summarize", "shout", "notify", "brief", "verdicts", "blocking"} <= got


def test_callable_snippet_has_named_argument_placeholders() -> None:
    items = items_at(WORKLOOP, "  answer board(swept: found.swept)", "  sw‸")
    sweep = next(i for i in items if i.label == "sweep")
    assert sweep.kind is lsp.CompletionItemKind.Function
    assert sweep.insert_text_format is lsp.InsertTextFormat.Snippet
    assert isinstance(sweep.text_edit, lsp.TextEdit)
    assert sweep.text_edit.new_text == "sweep(queue_dir: ${1:queue_dir}, seen: ${2:seen})"
    assert sweep.text_edit.range == lsp.Range(lsp.Position(28, 2), lsp.Position(28, 4))
    assert sweep.detail == "action sweep(queue_dir: String, seen: [String]) -> Sweep"
    assert sweep.documentation == lsp.MarkupContent(lsp.MarkupKind.Markdown, "Lists the queue.")


def test_keyword_items_carry_reference_docs() -> None:
    empty = WORKLOOP.replace("    confirms start\n", "").replace("    tolerance 3 windows\n", "")
    items = items_at(empty, "  invariant serving: type Board", "    ‸")
    tol = next(i for i in items if i.label == "tolerance")
    assert tol.kind is lsp.CompletionItemKind.Keyword
    assert isinstance(tol.documentation, lsp.MarkupContent)
    assert tol.documentation.kind is lsp.MarkupKind.Markdown
    assert tol.documentation.value.startswith("**tolerance**")
    assert tol.detail


def test_fork_body_and_join() -> None:
    got = wf("    review(lens: lens, brief: brief)", "    ‸")
    assert {"spawn", "review", "lens", "brief"} <= got
    assert "hatch" not in got and "outcome" not in got
    assert "join" in wl("    hatch process_task(kind: task.kind, payload: task.payload) key task.id", "  ‸")
    assert "join" not in wl("  join", "  ‸")


def test_loop_body() -> None:
    loop = '  loop n = 0\n    shout(text: "x")\n'
    doc = WORKFLOW.replace("  summarize(verdicts: verdicts) -> landed\n", loop)
    got = labels(doc, '    shout(text: "x")', "    ‸")
    assert {"until", "max", "spawn", "wait", "shout"} <= got
    assert not got & {"route", "outcome", "step", "hatch", "answer"}


def test_step_header_after() -> None:
    assert wl(None, "step extra ‸") == {"after"}
    assert wl(None, "step extra after ‸") == {"sweep_queue", "dispatch"}
    assert wl(None, "step extra after sweep_queue, ‸") == {"dispatch"}
    assert wl(None, "step ‸") == set()


def test_route_targets() -> None:
    assert wl("  answer board(swept: found.swept)", "  route ‸") == {"start", "sweep_queue", "dispatch"}
    assert wf("  summarize(verdicts: verdicts) -> landed", "  route ‸") == {
        "review_all",
        "finish",
        "landed",
        "rejected",
    }
    assert wf("  summarize(verdicts: verdicts) -> landed", "  verdicts |> route ‸") == {
        "review_all",
        "finish",
        "landed",
        "rejected",
    }


def test_route_target_kinds() -> None:
    items = {i.label: i for i in items_at(WORKLOOP, "  answer board(swept: found.swept)", "  route ‸")}
    assert items["start"].kind is lsp.CompletionItemKind.EnumMember
    assert items["dispatch"].kind is lsp.CompletionItemKind.Module


def test_hatch_answer_wait_spawn_on() -> None:
    assert wl("  answer board(swept: found.swept)", "  hatch ‸") == {"process_task"}
    assert wl("  answer board(swept: found.swept)", "  answer ‸") == {"board"}
    assert wl("  answer board(swept: found.swept)", "  wait ‸") == {"poke"}
    assert wl("  answer board(swept: found.swept)", "  wait poke ‸") == {"timeout"}
    assert wf("  summarize(verdicts: verdicts) -> landed", "  spawn ‸") == {"notify"}
    assert wl("  answer board(swept: found.swept)", "  on ‸") == {"failure"}
    hatch = next(i for i in items_at(WORKLOOP, "  join", "  hatch ‸") if i.label == "process_task")
    assert isinstance(hatch.text_edit, lsp.TextEdit)
    # no `kind` or `payload` in scope: typed placeholders, not names that do not exist
    assert hatch.text_edit.new_text == 'process_task(kind: ${1:""}, payload: ${2:""})'
    answer = next(i for i in items_at(WORKLOOP, "  join", "  answer ‸") if i.label == "board")
    assert isinstance(answer.text_edit, lsp.TextEdit)
    assert answer.text_edit.new_text == "board(swept: ${1:0})"


def test_hatch_tail_key() -> None:
    line = "    hatch process_task(kind: task.kind, payload: task.payload) ‸"
    assert wl("  fork task in found.tasks", line) == {"key"}


def test_step_outcome_guards_and_route() -> None:
    after = "  answer board(swept: found.swept)"
    assert wl(after, "  outcome n: ‸") == {"if", "else", "when", "otherwise"}
    assert wl(after, "  outcome n: else, ‸") == {"route"}
    assert wl(after, "  outcome n: if found.swept > 3, ‸") == {"route"}
    assert wl(after, "  outcome n: else, route ‸") == {"start", "sweep_queue", "dispatch"}


def test_visits_counting_sequential() -> None:
    after = "  answer board(swept: found.swept)"
    assert wl(after, "  max 3 ‸") == {"visits"}
    assert wl(after, "  loop n = 0 ‸") == {"counting", "and", "or", "is"}
    assert wl(after, "  fork t in found.tasks ‸") == {"sequential", "and", "or", "is"}
    assert wl(after, "  fork t ‸") == {"in"}


# ---------------------------------------------------------------------- arguments
def test_argument_names_not_yet_given() -> None:
    after = "  answer board(swept: found.swept)"
    assert wl(after, "  sweep(‸") == {"queue_dir", "seen"}
    assert wl(after, "  sweep(queue_dir: q, ‸") == {"seen"}
    assert wl(after, "  sweep(queue_dir: q, ‸)") == {"seen"}
    item = next(i for i in items_at(WORKLOOP, after, "  sweep(‸") if i.label == "seen")
    assert isinstance(item.text_edit, lsp.TextEdit) and item.text_edit.new_text == "seen: "


def test_argument_names_for_route_answer_hatch_and_records() -> None:
    after = "  answer board(swept: found.swept)"
    assert wl(after, "  route start(‸") == {"seen"}
    assert wl(after, "  answer board(‸") == {"swept"}
    assert wl(after, "  hatch process_task(kind: k, ‸") == {"payload"}
    assert wf("  summarize(verdicts: verdicts) -> landed", "  route landed(‸") == {"summary", "cycles"}
    assert wf("  summarize(verdicts: verdicts) -> landed", "  route landed(cycles: 2, ‸") == {"summary"}
    assert wf("  summarize(verdicts: verdicts) -> landed", "  x = Approval(‸") == {"by"}


def test_multi_line_argument_list() -> None:
    assert wf("  summarize(verdicts: verdicts) -> landed", '  notify(channel: "x",\n    ‸') == {"text"}


def test_argument_value_is_an_expression() -> None:
    got = wl("  answer board(swept: found.swept)", "  sweep(queue_dir: ‸")
    assert {"queue_dir", "seen", "found", "not", "true", "false", "workflow"} <= got
    assert not got & STEP_BODY


# ---------------------------------------------------------------------- types
def test_type_positions_offer_types_only() -> None:
    assert wl("  every 25m", "  input x: ‸") == WORKLOOP_TYPES
    assert wl("  every 25m", "  carry x: ‸") == WORKLOOP_TYPES
    assert wl("  every 25m", "  carry x: [‸") == WORKLOOP_TYPES
    assert wl("  every 25m", "  signal x: ‸") == WORKLOOP_TYPES
    assert wl("  every 25m", "  report x: ‸") == WORKLOOP_TYPES | {"type"}
    assert wl("  every 25m", "  report x: type ‸") == WORKLOOP_TYPES
    assert wf("  timeout 2h", "  outcome n: type ‸") == WORKFLOW_TYPES
    assert wf("type Approval { by: String }", "type Extra { a: ‸ }") == WORKFLOW_TYPES | {"Extra"}
    assert wf("type Approval { by: String }", "type Extra { a: Int, b: [‸] }") == WORKFLOW_TYPES | {"Extra"}
    assert wf("  action shout(text: String) -> String", "  action more(a: ‸") == WORKFLOW_TYPES
    assert wf("  action shout(text: String) -> String", "  action more(a: Int) -> ‸") == WORKFLOW_TYPES
    child = "child notify(channel: String, text: String) -> Nil"
    assert wf(child, "child more(a: Int) -> ‸") == WORKFLOW_TYPES
    multi = wf("  lens: String,", "  extra: ‸")
    assert multi == WORKFLOW_TYPES


def test_type_item_kinds() -> None:
    items = items_at(WORKFLOW, "  timeout 2h", "  input x: ‸")
    assert {i.kind for i in items} == {lsp.CompletionItemKind.Class}


# ---------------------------------------------------------------------- expressions and fields
def test_field_completion() -> None:
    after = "  answer board(swept: found.swept)"
    assert wl(after, "  found.‸") == {"tasks", "seen", "swept"}
    assert wl(after, "  found.sw‸") == {"tasks", "seen", "swept"}
    hatch = "    hatch process_task(kind: task.kind, payload: task.payload) key task.id"
    assert wl(hatch, "    x = task.‸") == {"id", "kind", "payload"}
    assert wl(after, "  x = workflow.‸") == {"id"}
    assert wl(after, "  found.tasks |> filter(.‸") == {"id", "kind", "payload"}
    assert wl(after, "  found |> .tasks |> filter(.‸") == {"id", "kind", "payload"}
    assert wl(after, "  found |> .‸") == {"tasks", "seen", "swept"}


def test_field_completion_through_bindings_and_nesting() -> None:
    after = "  summarize(verdicts: verdicts) -> landed"
    assert wf(after, "  landed.‸") == {"summary", "cycles"}
    assert wf(after, "  approval.‸") == {"by"}
    assert wf(after, "  brief.‸") == {"title", "lenses"}
    assert wf("    review(lens: lens, brief: brief)", "    x = lens.‸") == {"name", "charter"}
    assert wf(after, "  verdicts |> filter(.‸") == {"lens", "blocking"}
    blocking = next(i for i in items_at(WORKFLOW, after, "  verdicts |> filter(.‸") if i.label == "blocking")
    assert blocking.kind is lsp.CompletionItemKind.Field
    assert blocking.detail == "blocking: Bool"
    doc = "True when the lens blocks the brief."
    assert blocking.documentation == lsp.MarkupContent(lsp.MarkupKind.Markdown, doc)


def test_expression_operators() -> None:
    after = "  answer board(swept: found.swept)"
    assert wl(after, "  outcome n: if found.tasks ‸") == {"and", "or", "is"}
    assert wl(after, "  outcome n: if found.tasks is ‸") == {"empty", "present", "absent"}
    assert wl(after, "  outcome n: if found.tasks is empty ‸") == {"and", "or"}
    got = wl(after, "  outcome n: if ‸")
    assert {"not", "true", "false", "workflow", "found", "seen", "queue_dir"} <= got
    assert not got & (STEP_BODY | {"and", "is"})


def test_pipe_stages() -> None:
    after = "  summarize(verdicts: verdicts) -> landed"
    stages = {"summarize", "shout", "filter", "map", "sort", "count", "any", "all", "route"}
    assert wf(after, "  verdicts |> ‸") == stages


# ---------------------------------------------------------------------- never illegal
@pytest.mark.parametrize(
    ("line", "banned"),
    [
        ("  ‸", {"every", "input", "carry", "tolerance", "windows", "retention", "workflow", "key"}),
        ("  route ‸", {"hatch", "every", "queue_dir"}),
        ("  hatch ‸", {"sweep", "board", "key", "start"}),
        ("  sweep(‸", {"found", "every", "hatch"}),
    ],
)
def test_never_illegal_in_workloop_step(line: str, banned: set[str]) -> None:
    assert not wl("  answer board(swept: found.swept)", line) & banned


def test_no_workloop_words_in_workflow() -> None:
    after = "  summarize(verdicts: verdicts) -> landed"
    assert "start" not in wf(after, "  route ‸")
    assert not wf(after, "  ‸") & {"hatch", "answer"}
    assert wf(None, "‸") & {"retire", "workflow", "workloop"} == set()


def test_nothing_offered_inside_comments_strings_and_names() -> None:
    after = "  answer board(swept: found.swept)"
    assert wl(after, "  // route ‸") == set()
    assert wl(after, '  x = "route ‸') == set()
    assert wl(after, "  sweep(queue_dir: q) -> ‸") == set()
    assert wl(after, "  sleep ‸") == set()
    assert wl(None, "workflow ‸") == set()
    assert wl("  every 25m", "    ‸") == set()  # too deep for a header clause


# ---------------------------------------------------------------------- other blocks
def test_call_override_on_failure_retire_and_defaults() -> None:
    after = "  answer board(swept: found.swept)"
    assert wl(after, "  sweep(queue_dir: q, seen: seen)\n    ‸") == {"node", "timeout"}
    assert wl(after, "  sweep(queue_dir: q, seen: seen)\n    node n, ‸") == {"timeout"}
    assert wl(after, "  on failure\n    ‸") == {"sweep", "route"}
    retire = wl("  sweep(queue_dir: queue_dir, seen: seen)", "  ‸")
    assert {"sweep", "hatch", "route", "wait"} <= retire
    assert not retire & {"step", "outcome", "on", "max", "every"}
    default = wl("  every 25m", "  carry n: Int = ‸")
    assert {"true", "false", "not"} <= default
    assert not default & {"found", "seen", "queue_dir"}


def test_subflow_body_and_scope() -> None:
    sub = (
        "subflow polish(draft: Landed)\n"
        "  outcome polished: type Landed\n"
        "  step tidy\n"
        "    shout(text: draft.summary)\n"
    )
    doc = WORKFLOW + "\n" + sub
    assert labels(doc, "  step tidy", "  ‸") == {"outcome", "step"}
    assert labels(doc, "  step tidy", "    route ‸") == {"tidy", "polished"}
    assert labels(doc, "  step tidy", "    shout(text: draft.‸)") == {"summary", "cycles"}
    assert labels(doc, "  step tidy", "  outcome n: ‸") == {"type"}


def test_text_edit_replaces_the_whole_word_under_the_cursor() -> None:
    no_tolerance = WORKLOOP.replace("    tolerance 3 windows\n", "")
    items = items_at(no_tolerance, "  invariant serving: type Board", "    tol‸ernce")
    tol = next(i for i in items if i.label == "tolerance")
    assert isinstance(tol.text_edit, lsp.TextEdit)
    row = WORKLOOP.split("\n").index("    tolerance 3 windows")
    assert tol.text_edit.range == lsp.Range(lsp.Position(row, 4), lsp.Position(row, 12))
    assert tol.text_edit.new_text == "tolerance ${1:3} windows"  # the keyword's form


def test_half_typed_last_item_of_the_document() -> None:
    # the half-typed step parses (a `route` without a target), so it is a target too
    assert wl(None, "step extra\n  route ‸") == {"start", "sweep_queue", "dispatch", "extra"}
    assert wl(None, "step extra\n  hatch ‸") == {"process_task"}
    assert wl(None, "step extra\n  found.‸") == {"tasks", "seen", "swept"}
    assert STEP_BODY - {"spawn"} <= wl(None, "step extra\n  ‸")


def test_substep_routes_to_parent_outcome_and_positional_payloads() -> None:
    doc = """\
workflow substep_cleanup
  input target: String
  outcome done:   type String, route success
  outcome failed: type String, route failure

worker shell
  action publish(target: String) -> String

step publish_it
  step attempt
    publish(target: target) -> receipt
    route finish
  max 3 visits
  outcome finish: otherwise, route failed("substep finished")
"""
    targets = {"attempt", "publish_it", "done", "failed", "finish"}
    assert labels(doc, "    route finish", "    route ‸") == targets
    got = labels(doc, "    route finish", "    route failed(‸")
    assert {"target", "receipt", "not", "true"} <= got
    assert {"visits", "target"} <= labels(doc, "  max 3 visits", "  outcome again: if ‸")


# ---------------------------------------------------------------------- what the items insert
def test_templates_only_at_the_top_of_an_empty_document_and_they_check_clean() -> None:
    from awl_lsp.features.completion_snippets import plain
    from awl_lsp.features.diagnostics import diagnostics

    items = items_at("", None, "‸")
    assert [i.label for i in items] == ["workloop", "workflow"]
    for item in items:
        assert item.insert_text_format is lsp.InsertTextFormat.Snippet
        text = plain(item.text_edit.new_text)
        doc = SyntaxDocument(text)
        snap = Snapshot(doc, ModelBuilder().build(doc.tree, doc.source))
        assert [d.message for d in diagnostics(snap)] == [], item.label
    # anywhere else, no whole-document template
    for got in (wl("  every 25m", "  ‸"), wl(None, "‸"), wl("  answer board(swept: found.swept)", "  ‸")):
        assert not {"workflow", "workloop"} & got
    assert all("\n" not in i.text_edit.new_text for i in items_at(WORKLOOP, None, "‸"))


def test_one_item_per_label() -> None:
    for after, line in (("  answer board(swept: found.swept)", "  ‸"), ("  every 25m", "  ‸"), (None, "‸")):
        found = [i.label for i in items_at(WORKLOOP, after, line)]
        assert len(found) == len(set(found)), found


def test_keywords_insert_their_form_as_snippets() -> None:
    bare = WORKLOOP.replace("  every 25m\n", "").replace("  retention 14d\n", "")
    items = {i.label: i for i in items_at(bare, "  input queue_dir: String", "  ‸")}
    assert items["every"].text_edit.new_text == "every ${1:10m}"
    assert items["every"].insert_text_format is lsp.InsertTextFormat.Snippet
    assert items["retention"].text_edit.new_text == "retention ${1:7d}"
    body = {i.label: i for i in items_at(WORKLOOP, "  answer board(swept: found.swept)", "  ‸")}
    assert body["sleep"].text_edit.new_text == "sleep ${1:5m}"
    assert body["on"].text_edit.new_text == "on failure"
    tail = {i.label: i for i in items_at(WORKLOOP, "  join", "  wait poke ‸")}
    assert tail["timeout"].text_edit.new_text == "timeout ${1:30m}"
    # with text after the word, a keyword inserts just itself
    typed = {i.label: i for i in items_at(WORKLOOP, "  answer board(swept: found.swept)", "  sl‸ 5m")}
    assert typed["sleep"].text_edit.new_text == "sleep"


def test_plain_text_and_plain_docs_for_clients_without_snippets_or_markdown() -> None:
    lines = WORKLOOP.split("\n")
    row = lines.index("  answer board(swept: found.swept)") + 1
    text = "\n".join(lines[:row] + ["  "] + lines[row:])
    doc = SyntaxDocument(text)
    snap = Snapshot(doc, ModelBuilder().build(doc.tree, doc.source))
    items = complete(snap, lsp.Position(row, 2), snippet_ok=False, markdown_ok=False)
    assert items and all(i.insert_text_format is lsp.InsertTextFormat.PlainText for i in items)
    by = {i.label: i for i in items}
    assert by["sleep"].text_edit.new_text == "sleep 5m"
    assert by["sweep"].text_edit.new_text == "sweep(queue_dir: queue_dir, seen: seen)"
    assert all(not isinstance(i.documentation, lsp.MarkupContent) for i in items)
    assert "```" not in by["sleep"].documentation


def test_calls_use_values_in_scope_and_typed_placeholders() -> None:
    items = {i.label: i for i in items_at(WORKLOOP, "  answer board(swept: found.swept)", "  ‸")}
    # `queue_dir` (an input) and `seen` (a carry) exist, so they are passed as they are
    assert items["sweep"].text_edit.new_text == "sweep(queue_dir: ${1:queue_dir}, seen: ${2:seen})"


def test_names_in_scope_rank_before_keywords() -> None:
    items = sorted(items_at(WORKLOOP, "  answer board(swept: found.swept)", "  ‸"), key=lambda i: i.sort_text)
    kinds = [i.kind for i in items]
    first_keyword = kinds.index(lsp.CompletionItemKind.Keyword)
    assert {"found", "queue_dir", "seen", "sweep"} <= {i.label for i in items[:first_keyword]}


def test_argument_values_are_names_bound_before_the_cursor_first() -> None:
    items = sorted(
        items_at(WORKLOOP, "  sweep(queue_dir: queue_dir, seen: seen) -> found", "  answer board(swept: ‸)"),
        key=lambda i: i.sort_text,
    )
    labels = [i.label for i in items]
    assert labels[:3] == ["queue_dir", "seen", "found"]  # names in scope, before any keyword
    # `found` is bound in step sweep_queue: offered in the step after it, not above its binding
    after = {i.label for i in items_at(WORKLOOP, "step dispatch", "  answer board(swept: ‸)")}
    assert "found" in after
    before = {i.label for i in items_at(WORKLOOP, "step sweep_queue", "  answer board(swept: ‸)")}
    assert "found" not in before
