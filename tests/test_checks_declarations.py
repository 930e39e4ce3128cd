"""Declaration rules (rules_declarations, rules_consts): each rule on a small document, both ways."""

from __future__ import annotations

import pytest
from helpers import assert_checker_error, checker_errors, checker_problems

BASE = """\
//! Send a note and report the receipt.
workflow notify_once
  input message: String
  signal cancel: Receipt
  outcome sent: type Receipt, route success
  outcome dropped: type Receipt, route failure

const greeting = "hello"
const prompt = greeting + " there"

type Receipt { id: String, accepted: Bool, tags: [String], note: String? }
type Channel = Email | Chat

worker notifier
  action send_message(message: String, channel: String) -> Receipt
    node chat, timeout 30s, retry 3 every 10s

child audit(message: String) -> Nil

step send
  spawn audit(message: message)
  send_message(message: prompt + message, channel: "email") -> receipt
    timeout 1m
  sleep 5s

  outcome ok: when receipt.accepted, route sent(receipt)
  outcome dud: otherwise, route dropped(receipt)
"""


problems = checker_problems
errors = checker_errors


def edit(old: str, new: str, text: str = BASE) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


assert_error = assert_checker_error


def test_base_document_is_clean() -> None:
    assert errors(BASE) == []


# ---------------------------------------------------------------- narration and header
def test_missing_narration() -> None:
    assert_error(edit("//! Send a note and report the receipt.\n", ""), 1, "//!")


def test_narration_after_the_header() -> None:
    assert_error(edit("const greeting", "//! late\nconst greeting"), 8, "//!", "before the header")


def test_header_comes_first_and_once() -> None:
    text = edit("workflow notify_once", "const early = 1\nworkflow notify_once")
    assert_error(text, 2, "must come first")
    assert_error(
        BASE + "\nworkflow again\n  outcome x: type Receipt, route success\n", 29, "exactly one flow"
    )


def test_workflow_needs_an_outcome() -> None:
    text = edit(
        "  outcome sent: type Receipt, route success\n  outcome dropped: type Receipt, route failure\n", ""
    )
    assert_error(text, 2, "notify_once", "outcome")


def test_header_outcome_needs_type_and_route() -> None:
    assert_error(edit("outcome sent: type Receipt, route success", "outcome sent: route success"), 5, "type")
    assert_error(
        edit("outcome sent: type Receipt, route success", "outcome sent: type Receipt"), 5, "route success"
    )
    assert_error(edit("route success", "route sideways"), 5, "sideways")


@pytest.mark.parametrize(
    ("old", "new", "word"),
    [
        ("input message: String", "input message", "input"),
        ("signal cancel: Receipt", "signal cancel", "signal"),
    ],
)
def test_input_and_signal_need_types(old: str, new: str, word: str) -> None:
    assert_error(edit(old, new), 3 if word == "input" else 4, word, "has no type")


# ---------------------------------------------------------------- types
def test_builtin_types_cannot_be_redeclared() -> None:
    assert_error(edit("type Channel", "type Bool { v: Int }\ntype Channel"), 12, "`Bool`", "builtin")


@pytest.mark.parametrize("form", ["Ack", "[Ack]", "Ack?"])
def test_unknown_types_anywhere(form: str) -> None:
    assert_error(edit("tags: [String]", f"tags: {form}"), 11, "unknown type `Ack`")


@pytest.mark.parametrize(("generic", "hint"), [("List(String)", "[T]"), ("Option(String)", "T?")])
def test_generic_forms_point_to_the_awl_spelling(generic: str, hint: str) -> None:
    assert_error(edit("input message: String", f"input message: {generic}"), 3, hint)


def test_list_elements_are_not_optional() -> None:
    assert_error(edit("tags: [String]", "tags: [String?]"), 11, "element")


def test_enum_variants_carry_no_payload() -> None:
    assert_error(edit("Email | Chat", "Email(String) | Chat"), 12, "payload", "Email")


# ---------------------------------------------------------------- workers and signatures
def test_worker_needs_actions() -> None:
    assert_error(edit("worker notifier\n", "worker idle\n\nworker notifier\n"), 14, "idle", "action")


def test_action_and_child_need_return_types() -> None:
    assert_error(edit(" -> Receipt\n    node", "\n    node"), 15, "send_message", "->")
    assert_error(
        edit("child audit(message: String) -> Nil", "child audit(message: String)"), 18, "audit", "->"
    )


def test_parameters_need_types() -> None:
    assert_error(
        edit("action send_message(message: String,", "action send_message(message,"),
        15,
        "parameter",
        "message",
    )


# ---------------------------------------------------------------- config lines
def test_call_site_overrides_only_node_and_timeout() -> None:
    assert_error(edit("    timeout 1m\n", "    retry 2 every 1m\n"), 23, "retry", "node", "timeout")


def test_retry_needs_a_schedule() -> None:
    assert_error(edit("retry 3 every 10s", "retry 3"), 16, "every", "backoff")


def test_backoff_needs_a_range() -> None:
    assert_error(edit("retry 3 every 10s", "retry 3 backoff 10s"), 16, "..")
    assert errors(edit("retry 3 every 10s", "retry 3 backoff 10s..5m")) == []


def test_timeout_needs_a_duration() -> None:
    assert_error(edit("node chat, timeout 30s,", "node chat, timeout,"), 16, "duration")
    assert_error(edit("node chat, timeout 30s,", "node chat, timeout 30,"), 16, "duration")


# ---------------------------------------------------------------- consts
def test_const_unknown_reference() -> None:
    assert_error(edit('const greeting = "hello"', "const greeting = missing"), 8, "unknown const `missing`")


def test_const_cannot_read_inputs() -> None:
    assert_error(
        edit('const greeting = "hello"', "const greeting = message"),
        8,
        "is a workflow input or signal, not a const",
    )


def test_const_cycle() -> None:
    assert_error(
        edit('const greeting = "hello"', 'const greeting = prompt + "!"'), 9, "defined in terms of itself"
    )


def test_const_duplicate() -> None:
    assert_error(
        edit("const prompt", 'const greeting = "again"\nconst prompt'),
        9,
        "duplicate const declaration `greeting`",
    )


def test_bindings_cannot_shadow_consts() -> None:
    assert_error(
        edit("-> receipt\n", "-> receipt\n  receipt |> .id -> prompt\n"), 23, "bindings cannot shadow consts"
    )


def test_schema_of_unknown_type() -> None:
    assert_error(
        edit('const greeting = "hello"', "const greeting = schema of Missing"), 8, "unknown type `Missing`"
    )
    assert errors(edit('const greeting = "hello"', "const greeting = schema of Receipt")) == []
