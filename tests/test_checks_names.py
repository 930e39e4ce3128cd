"""Name, reference, layout and warning rules: each rule on a small document, both ways."""

from __future__ import annotations

import pytest
from helpers import assert_checker_error, checker_errors, checker_problems

from awl_lsp.checks.base import Severity

BASE = """\
//! Greet a person, wait for approval, and shout the greeting.
workflow greet_person
  input name: String
  signal approval: Approval
  outcome shouted: type Shouted, route success

type Approval { approver: String }
type Greeting { greeting: String }
type Shouted { text: String }

worker voice
  action greet(name: String) -> Greeting
  action shout(text: String) -> Shouted

child audit(name: String) -> Nil

step hello
  spawn audit(name: name)
  greet(name: name) -> greeting
  wait approval -> decision
  sleep 1s

step loud after hello
  shout(text: greeting.greeting + decision.approver) -> loud
  loud |> route shouted
"""


problems = checker_problems
errors = checker_errors


def warnings(text: str) -> list[tuple[int, str]]:
    return [(p.range[0] + 1, p.message) for p in problems(text) if p.severity is Severity.WARNING]


def edit(old: str, new: str, text: str = BASE) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


assert_error = assert_checker_error


def test_base_document_is_clean() -> None:
    assert errors(BASE) == []
    assert warnings(BASE) == []


# ---------------------------------------------------------------- duplicates
@pytest.mark.parametrize(
    ("old", "new", "line", "words"),
    [
        (
            "  input name: String\n",
            "  input name: String\n  input name: String\n",
            4,
            ("duplicate input `name`",),
        ),
        (
            "  signal approval: Approval\n",
            "  signal approval: Approval\n  signal approval: Approval\n",
            5,
            ("duplicate signal",),
        ),
        (
            "  outcome shouted: type Shouted, route success\n",
            "  outcome shouted: type Shouted, route success\n  outcome shouted: type Shouted, route "
            "success\n",
            6,
            ("duplicate outcome",),
        ),
        (
            "type Shouted { text: String }",
            "type Shouted { text: String, text: String }",
            9,
            ("duplicate field",),
        ),
        (
            "type Shouted { text: String }\n",
            "type Shouted { text: String }\ntype Shouted { text: String }\n",
            10,
            ("duplicate type",),
        ),
        (
            "child audit",
            "worker other\n  action shout(text: String) -> Shouted\n\nchild audit",
            16,
            ("duplicate action", "shout"),
        ),
        ("step loud after hello", "step hello\n  sleep 1s\n\nstep loud after hello", 23, ("duplicate step",)),
        (
            "action greet(name: String)",
            "action greet(name: String, name: String)",
            12,
            ("duplicate parameter",),
        ),
        (
            "greet(name: name) -> greeting",
            "greet(name: name, name: name) -> greeting",
            19,
            ("duplicate argument",),
        ),
    ],
)
def test_duplicates_are_reported_on_the_second(old: str, new: str, line: int, words: tuple[str, ...]) -> None:
    assert_error(edit(old, new), line, *words)


# ---------------------------------------------------------------- keywords and conventions
def test_keywords_cannot_be_names() -> None:
    assert_error(
        edit("  input name: String\n", "  input name: String\n  input step: String\n"), 4, "`step`", "keyword"
    )
    assert errors(edit("  input name: String\n", "  input name: String\n  input report: String\n")) == []


@pytest.mark.parametrize(
    ("old", "new", "line", "word"),
    [
        ("workflow greet_person", "workflow GreetPerson", 2, "snake_case"),
        ("type Shouted { text: String }", "type Shouted { Text: String }", 9, "snake_case"),
        (
            "type Shouted { text: String }",
            "type Shouted { text: String }\ntype shout_mode = Loud | Soft",
            10,
            "TitleCase",
        ),
        (
            "type Shouted { text: String }",
            "type Shouted { text: String }\ntype Mode = loud | Soft",
            10,
            "TitleCase",
        ),
    ],
)
def test_naming_conventions(old: str, new: str, line: int, word: str) -> None:
    assert_error(edit(old, new), line, word)


def test_an_action_not_in_snake_case_is_an_error_where_it_is_called() -> None:
    # the engine takes `action Shout(…)` where it is declared; a call of it cannot be written
    text = edit("action shout(", "action Shout(")
    text = edit("shout(text: greeting.greeting", "Shout(text: greeting.greeting", text)
    assert_error(text, 24, "snake_case")
    assert all(row != 13 for row, _ in checker_errors(text))


# ---------------------------------------------------------------- calls
def test_unknown_action() -> None:
    assert_error(edit("  sleep 1s\n", "  polish(note: name)\n"), 21, "polish")
    assert_error(edit("loud |> route shouted", "loud |> frobnicate |> route shouted"), 25, "frobnicate")


def test_arguments_are_named_complete_and_known() -> None:
    assert_error(edit("greet(name: name) -> greeting", "greet(name) -> greeting"), 19, "named")
    assert_error(edit("greet(name: name) -> greeting", "greet() -> greeting"), 19, "missing", "name")
    assert_error(
        edit("greet(name: name) -> greeting", "greet(name: name, loud: true) -> greeting"), 19, "loud"
    )


def test_pipe_stage_is_a_one_argument_action() -> None:
    text = edit("action shout(text: String)", "action shout(text: String, volume: Int)")
    text = edit(
        "shout(text: greeting.greeting + decision.approver) -> loud",
        "shout(text: greeting.greeting, volume: 1) -> loud",
        text,
    )
    text = edit("loud |> route shouted", "loud.text |> shout |> route shouted", text)
    assert_error(text, 25, "shout", "one-argument")


def test_spawn_rules() -> None:
    assert_error(edit("spawn audit(", "spawn ghost("), 18, "ghost", "child")
    assert_error(edit("spawn audit(name: name)", "spawn greet(name: name)"), 18, "child", "action")
    assert_error(
        edit("spawn audit(name: name)", "spawn audit(name: name) -> handle"), 18, "spawn", "no result"
    )


def test_wait_and_sleep() -> None:
    assert_error(edit("wait approval -> decision", "wait go -> decision"), 20, "go", "signal")
    assert_error(edit("wait approval -> decision", "wait approval"), 20, "->")
    assert_error(edit("sleep 1s", "sleep 5"), 21, "duration")


def test_after_and_route_targets_resolve() -> None:
    assert_error(edit("after hello", "after hello, phantom"), 23, "phantom")
    assert_error(edit("route shouted", "route finished"), 25, "finished")


def test_rebinding_in_one_step() -> None:
    assert_error(
        edit("  wait approval", "  greet(name: name) -> greeting\n  wait approval"),
        20,
        "greeting",
        "already bound",
    )


# ---------------------------------------------------------------- layout
def test_unknown_header_clause_lists_the_clauses() -> None:
    assert_error(
        edit("  input name: String\n", "  input name: String\n  invar\n"),
        4,
        "unknown header clause `invar`",
        "`timeout`",
        "`outcome`",
    )


def test_unknown_guard_word() -> None:
    text = edit("  loud |> route shouted\n", "  outcome yes: unless loud.text, route shouted\n")
    assert_error(text, 25, "unless", "if")


def test_outcome_without_route_on_its_line() -> None:
    text = edit(
        "  loud |> route shouted\n",
        '  outcome yes: when loud.text == ""\n  outcome no: otherwise, route shouted(loud)\n',
    )
    assert_error(text, 25, "yes", "route")


# ---------------------------------------------------------------- warnings
def test_unused_type_and_binding_warn() -> None:
    text = edit("type Shouted { text: String }", "type Shouted { text: String }\ntype Spare { x: Int }")
    text = edit("  sleep 1s\n", "  greet(name: name) -> spare\n", text)
    found = warnings(text)
    assert any("Spare" in m for _, m in found), found
    assert any("spare" in m and "never read" in m for _, m in found), found
