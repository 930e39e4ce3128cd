"""The fixes, registered explicitly and in order, each keyed on a problem's `code` and its `data`.

`fixes_for` asks every entry whose code and data match, in this order, and gathers what they
offer: the order is the order the editor lists them in, and the first preferred fix is the one
`awl check --fix` applies (a later fix that calls itself preferred is not, for that problem).
`preferred_fix` asks only as far as that one (counting and applying fixes need no more). A
fix reads the problem's range, code and data — never its message. A problem that only follows from
another (`data.because`: a step unreachable because a route is misspelt) gets no fix of its own:
the fix of its cause is the fix.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from awl_lsp.features.fixes import (
    argument_names,
    arguments,
    bindings,
    clauses,
    declaration_renames,
    declare_callables,
    declare_header,
    declare_targets,
    declare_types,
    document,
    misplaced,
    names,
    outcome_arms,
    replacements,
    route_payloads,
    step_ends,
    step_order,
    tokens,
    unbound_names,
    workloop_clauses,
)
from awl_lsp.features.fixes.values import Fix
from awl_lsp.syntax.problems import Problem

# isort: split
# the fixes of syntax, layout, duplicates, the flow graph, loops, regions and subflows
from awl_lsp.features.fixes import (
    comments,
    flow,
    flow_kinds,
    forks,
    layout,
    line_ends,
    loops,
    parentheses,
    regions,
    repeats,
    steps,
    subflows,
    syntax_slips,
)

# isort: split
# the fixes of types, values, constants, schemas and calls' settings
from awl_lsp.features.fixes import (
    calls,
    conditions,
    consts,
    declared_types,
    durations,
    json_repair,
    lists,
    literals,
    records,
    renames,
    schemas,
    settings,
    strings,
    variants,
)

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

log = logging.getLogger("awl_lsp.fixes")

FixFunction = Callable[["Snapshot", Problem], list[Fix]]
Data = Mapping[str, Any]


def _always(_: Data) -> bool:
    return True


@dataclass(frozen=True)
class Entry:
    """One fix: asked for the problems with this `code` (any code when None) whose `data` `when`
    accepts."""

    fix: FixFunction
    code: str | None = None
    when: Callable[[Data], bool] = _always

    def matches(self, problem: Problem) -> bool:
        return (self.code is None or problem.code == self.code) and self.when(problem.data or {})


FIXES: tuple[Entry, ...] = (
    Entry(clauses.add_hatch_key, "hatch-key", lambda d: d.get("missing") == "key"),
    Entry(clauses.add_tolerance_windows, "tolerance", lambda d: d.get("missing") == "windows"),
    Entry(document.add_narration, "narration", lambda d: d.get("missing") == "narration"),
    Entry(tokens.insert_missing_token, "missing", lambda d: isinstance(d.get("missing"), str)),
    Entry(names.rename_to_convention, "naming", lambda d: bool(d.get("rename"))),
    Entry(replacements.write_what_was_meant, None, lambda d: bool(d.get("rewrite"))),
    Entry(names.change_to_candidate, None, lambda d: bool(d.get("candidates"))),
    Entry(arguments.add_missing_arguments, None, lambda d: isinstance(d.get("missing"), list)),
    Entry(bindings.remove_unused_binding, "unused-binding"),
    # ---- syntax, layout, duplicates, the flow graph, loops, regions, subflows (branch `fixflow`)
    Entry(layout.spaces_for_tabs, "tab-indent"),
    Entry(layout.even_indent, "odd-indent"),
    Entry(layout.one_level_under, "indent-jump"),
    Entry(layout.like_line_above, "unexpected-indent"),
    Entry(layout.fields_one_level_under, "field-indent"),
    Entry(layout.closing_brace_on_its_line, "brace-indent"),
    Entry(layout.comma_between_fields, "field-comma"),
    Entry(comments.plain_comment, "doc-line"),
    Entry(comments.comment_above_brackets, "comment-in-brackets"),
    Entry(comments.comment_above_arm, "comment-in-arm"),
    Entry(repeats.duplicate, "duplicate", lambda d: isinstance(d.get("name"), str)),
    Entry(repeats.rebinding, "rebinding", lambda d: isinstance(d.get("name"), str)),
    Entry(repeats.keep_one, "timeout-twice"),
    Entry(repeats.keep_one, "visits-twice"),
    Entry(repeats.keep_one, "visits-bound-twice"),
    Entry(repeats.keep_one, "on-failure-twice"),
    Entry(repeats.optional_once, "optional-twice"),
    Entry(flow.bound_the_cycle, "route-cycle"),
    Entry(flow.drop_after_waits, "after-cycle", lambda d: bool(d.get("drop"))),
    Entry(flow.drop_after_waits, "region-after", lambda d: bool(d.get("drop"))),
    Entry(flow.route_into_bounded_step, "unreachable-step", lambda d: bool(d.get("enter_from"))),
    Entry(flow.remove_unreachable_step, "unreachable-step", lambda d: bool(d.get("removable"))),
    Entry(flow.handle_exhaustion, "loop-exhaustion"),
    Entry(flow.bound_the_guarded_step, "visits-read"),
    Entry(loops.add_max, "loop-max"),
    Entry(loops.add_until, "loop-until"),
    Entry(loops.add_seed, "loop-seed"),
    Entry(loops.rebind_the_loop_value, "loop-rebind"),
    Entry(loops.rename_counter, "loop-counter-shadow"),
    Entry(loops.rename_counter, "loop-counter-inside"),
    Entry(steps.subflow_alone, "subflow-not-alone"),
    Entry(steps.distribute_alone, "distribute-alone"),
    Entry(regions.collect_first, "collect-first"),
    Entry(regions.remove_stray_collect, "collect-no-region"),
    Entry(regions.collect_made_inside, "collect-outside", lambda d: isinstance(d.get("name"), str)),
    Entry(forks.close_the_fork, "fork-join"),
    Entry(forks.bare_join, "fork-named-join"),
    Entry(line_ends.drop_hatch_binding, "hatch-binding"),
    Entry(line_ends.drop_bare_arrow, "binding-name"),
    Entry(line_ends.bind_idle_chain, "pipe-unterminated"),  # (issue 22, every fix safe: before removing it)
    Entry(line_ends.drop_idle_chain, "pipe-unterminated"),
    Entry(flow_kinds.remove_workloop_word, "workloop-only"),
    Entry(subflows.pass_as_parameter, "subflow-outer-name"),
    Entry(subflows.call_in_a_step_of_its_own, "subflow-pipe-stage"),
    Entry(parentheses.drop_parentheses, "parentheses"),
    Entry(names.rename_to_convention, "keyword-name", lambda d: bool(d.get("rename"))),
    Entry(syntax_slips.rewrite_slip, "syntax"),
    # ---- types, values, constants, schemas, calls' settings (issue 22)
    Entry(literals.convert_value, "type-mismatch", lambda d: isinstance(d.get("expected"), str)),
    Entry(literals.convert_value, "visits-type", lambda d: d.get("expected") == "Int"),
    Entry(literals.convert_value, "loop-max-type", lambda d: d.get("expected") == "Int"),
    Entry(literals.convert_list_item, "list-item-type", lambda d: isinstance(d.get("expected"), str)),
    Entry(literals.convert_compared, "compare-mismatch", lambda d: isinstance(d.get("left"), str)),
    Entry(literals.join_strings, "plus-mismatch", lambda d: isinstance(d.get("left"), str)),
    Entry(strings.rewrite_escapes, "string-escape"),
    Entry(strings.close_string, "string"),
    Entry(durations.write_duration, "duration"),
    Entry(durations.whole_seconds, "duration-unit"),
    Entry(durations.positive_timeout, "timeout-zero"),
    Entry(durations.complete_retry, "retry"),
    Entry(consts.fold_comparison, "const-compile-time"),
    Entry(consts.inline_const, "const-compile-time", lambda d: isinstance(d.get("const"), str)),
    Entry(consts.inline_const, "const", lambda d: isinstance(d.get("const"), str) and "name" not in d),
    Entry(consts.declare_const, "const", lambda d: isinstance(d.get("name"), str) and "const" in d),
    Entry(records.add_field_to_record, "record-field", lambda d: isinstance(d.get("record"), str)),
    Entry(records.leave_out_null, "null-value"),
    Entry(calls.name_positional_argument, "named-arguments", lambda d: "positional" in d),
    Entry(calls.pipe_stage_as_call, "pipe-stage", lambda d: isinstance(d.get("stage"), str)),
    Entry(calls.map_one_field_at_a_time, "combinator-accessor", lambda d: d.get("combinator") == "map"),
    Entry(calls.sort_by_field, "combinator-argument", lambda d: isinstance(d.get("combinator"), str)),
    Entry(calls.pipe_a_value_into_accessor, "relative-field", lambda d: isinstance(d.get("field"), str)),
    Entry(calls.pipe_into_call, "config-not-call", lambda d: d.get("value") == "pipe_expression"),
    Entry(calls.only_workflow_id, "workflow-field", lambda d: isinstance(d.get("only"), str)),
    Entry(json_repair.repair_json, "json-invalid"),
    Entry(schemas.fix_ref, "schema-unsupported", lambda d: d.get("issue") == "ref"),
    Entry(schemas.pick_one_type, "schema-unsupported", lambda d: d.get("issue") == "type-list"),
    Entry(schemas.known_type_word, "schema-unsupported", lambda d: d.get("issue") == "type-word"),
    Entry(schemas.keep_one_shape, "schema-unsupported", lambda d: d.get("issue") == "keyword"),
    Entry(renames.rename_const, "const-collision"),
    Entry(renames.rename_binding, "const-shadow"),
    Entry(renames.rename_read_value, "combinator-name-read"),
    Entry(settings.keep_one_setting, "config-key-twice", lambda d: isinstance(d.get("key"), str)),
    Entry(settings.move_retry_to_action, "call-override", lambda d: d.get("setting") == "retry"),
    Entry(conditions.test_the_value, "type-bool", lambda d: isinstance(d.get("found"), str)),
    Entry(variants.add_variant, "enum-variant", lambda d: isinstance(d.get("enum"), str)),
    Entry(variants.change_to_variant, "enum-variant", lambda d: isinstance(d.get("variants"), list)),
    Entry(variants.variant_as_string, "enum-variant", lambda d: isinstance(d.get("variant"), str)),
    Entry(declared_types.change_slot_type, "type-mismatch", lambda d: bool(d.get("slot"))),
    Entry(declared_types.make_slot_optional, "optional-into-plain", lambda d: bool(d.get("slot"))),
    Entry(declared_types.make_source_required, None, lambda d: bool(d.get("source"))),
    Entry(declared_types.make_source_optional, "is-present", lambda d: bool(d.get("plain_source"))),
    Entry(declared_types.retype_compared, "compare-mismatch", lambda d: "left_source" in d),
    Entry(literals.default_placeholder, "type-mismatch", lambda d: bool(d.get("slot"))),
    Entry(conditions.compare_with_nothing, "is-empty", lambda d: isinstance(d.get("found"), str)),
    Entry(lists.use_list_field, None, lambda d: isinstance(d.get("list_field"), str)),
    Entry(declared_types.add_missing_type, "header-type", lambda d: d.get("needs") == "type"),
    Entry(declared_types.add_missing_type, "parameter-type", lambda d: d.get("needs") == "type"),
    Entry(declared_types.add_return_type, "return-type", lambda d: d.get("needs") == "return type"),
    Entry(declared_types.list_without_optional, "list-element", lambda d: isinstance(d.get("choices"), list)),
    # -- generated from usage; workloop clauses; outcomes and routes (issue 22, family A)
    Entry(declare_callables.declare_action, "unknown-call", lambda d: bool(d.get("name"))),
    Entry(declare_types.declare_type, "unknown-call", lambda d: bool(d.get("name"))),
    Entry(declare_types.declare_type, "unknown-type", lambda d: bool(d.get("name"))),
    Entry(declare_types.add_field, "unknown-field", lambda d: bool(d.get("type"))),
    Entry(declare_header.declare_report, "answer", lambda d: bool(d.get("name"))),
    Entry(declare_header.declare_carry, "route-start", lambda d: bool(d.get("name"))),
    Entry(declare_header.declare_signal, "wait", lambda d: bool(d.get("name"))),
    Entry(declare_header.declare_signal, "workloop-arming", lambda d: bool(d.get("name"))),
    Entry(workloop_clauses.add_arming, "workloop-arming", lambda d: d.get("missing") == "arming"),
    Entry(workloop_clauses.add_retire, "retire", lambda d: d.get("missing") == "retire"),
    Entry(workloop_clauses.add_retire_body, "retire", lambda d: d.get("missing") == "body"),
    Entry(workloop_clauses.merge_retire, "retire", lambda d: bool(d.get("merge"))),
    Entry(workloop_clauses.add_invariant_clause, "invariant", lambda d: bool(d.get("missing"))),
    Entry(workloop_clauses.least_tolerance, "tolerance", lambda d: "least" in d),
    Entry(workloop_clauses.unconfirmed_tolerance, "tolerance", lambda d: d.get("form") == "unconfirmed"),
    Entry(workloop_clauses.confirm_start, "confirms"),
    Entry(workloop_clauses.complete_carry, "carry", lambda d: bool(d.get("missing"))),
    Entry(workloop_clauses.drop_detached_result, "detached", lambda d: d.get("drop") == "result"),
    Entry(outcome_arms.add_else_arm, "outcomes-exhaustive", lambda d: d.get("missing") == "else"),
    Entry(outcome_arms.move_else_last, "else-not-last", lambda d: d.get("move") == "last"),
    Entry(outcome_arms.add_arm_route, "outcome-route", lambda d: d.get("missing") == "route"),
    Entry(step_ends.finish_last_step, "falls-off-end", lambda d: d.get("missing") == "route"),
    Entry(step_ends.route_dead_end, "dead-end-step", lambda d: d.get("missing") == "route"),
    Entry(step_ends.end_failure_block, "on-failure-route", lambda d: d.get("missing") == "route"),
    Entry(step_order.move_above_outcomes, "after-outcomes", lambda d: d.get("move") == "above"),
    Entry(step_order.move_above_route, "after-route", lambda d: d.get("move") == "above"),
    Entry(route_payloads.pass_payload, "route-no-payload", lambda d: bool(d.get("outcome"))),
    Entry(route_payloads.drop_step_payload, "route-step-payload", lambda d: d.get("drop") == "payload"),
    Entry(route_payloads.payload_form, "route-not-record"),
    Entry(route_payloads.retype_outcome, "route-payload", lambda d: bool(d.get("outcome"))),
    Entry(route_payloads.spawn_binding, "spawn", lambda d: d.get("drop") == "binding"),
    Entry(route_payloads.call_directly, "spawn", lambda d: bool(d.get("call"))),
    Entry(declare_types.add_built_field, "route-unknown-field", lambda d: bool(d.get("name"))),
    Entry(declare_types.add_built_field, "answer", lambda d: bool(d.get("name"))),
    Entry(declare_types.add_built_field, "arguments", lambda d: bool(d.get("name"))),
    Entry(argument_names.rename_to_free_parameter, None, lambda d: bool(d.get("free"))),
    Entry(unbound_names.bind_or_declare, "unknown-binding", lambda d: bool(d.get("name"))),
    Entry(unbound_names.bind_wait, "wait", lambda d: d.get("missing") == "binding"),
    Entry(declare_targets.declare_route_target, "route-target", lambda d: bool(d.get("name"))),
    Entry(declare_targets.declare_first_outcome, "outcome", lambda d: d.get("missing") == "outcome"),
    Entry(declare_targets.outcome_type, "outcome", lambda d: d.get("missing") == "type"),
    Entry(declare_targets.outcome_route_kind, "outcome", lambda d: d.get("missing") == "kind"),
    Entry(declare_targets.outcome_kind, "outcome", lambda d: bool(d.get("choices"))),
    Entry(misplaced.narration_placement, "narration", lambda d: d.get("misplaced") == "narration"),
    Entry(misplaced.clause_into_header, "unknown-declaration", lambda d: d.get("move") == "header"),
    Entry(misplaced.clause_to_comment, "unknown-clause", lambda d: not d.get("candidates")),
    Entry(misplaced.worker_action, "worker", lambda d: d.get("missing") == "action"),
    Entry(misplaced.drop_subflow_route, "subflow-outcome-route", lambda d: d.get("drop") == "route"),
    Entry(declaration_renames.rename_at_first_use, "naming", lambda d: bool(d.get("kind"))),
    Entry(declaration_renames.rename_step, "step-named-outcome", lambda d: bool(d.get("rename"))),
    Entry(declare_callables.declare_child, "spawn", lambda d: bool(d.get("name"))),
    Entry(declare_callables.declare_detached, "hatch", lambda d: bool(d.get("name"))),
)


def fixes_for(snap: Snapshot, problem: Problem, *, strict: bool = False) -> list[Fix]:
    """Every fix offered for the problem, in registry order, at most the first one preferred.

    A fix that fails is logged and skipped, so it cannot hide the others — unless `strict` (the
    tests), where the failure is raised."""
    out = [f for found in _offers(snap, problem, strict) for f in found]
    preferred = next((i for i, f in enumerate(out) if f.preferred), None)
    return [replace(f, preferred=False) if f.preferred and i != preferred else f for i, f in enumerate(out)]


def preferred_fix(snap: Snapshot, problem: Problem) -> Fix | None:
    """The problem's preferred fix — the one `awl check --fix` applies, the first preferred of
    `fixes_for` — without asking the entries after the one that offers it (what counting and
    applying fixes need, at a fraction of listing them all)."""
    for found in _offers(snap, problem, False):
        for f in found:
            if f.preferred:
                return f
    return None


def _offers(snap: Snapshot, problem: Problem, strict: bool) -> Iterator[list[Fix]]:
    """What each entry that matches the problem offers, in registry order (none for a problem that
    only follows from another: fixing that one fixes this)."""
    if (problem.data or {}).get("because"):
        return
    for entry in FIXES:
        if not entry.matches(problem):
            continue
        try:
            found = entry.fix(snap, problem)
        except Exception:
            if strict:
                raise
            log.exception("fix %s failed on a %s problem", entry.fix.__name__, problem.code)
            continue
        yield found
