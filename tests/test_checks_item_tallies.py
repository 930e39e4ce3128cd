"""What each item's tally and summary tell the document-wide name rules: names declared twice in
one namespace, values bound twice, bindings and types never used — and what is not a repeat (a
fork's item name in two steps, one field name in two types)."""

from __future__ import annotations

from helpers import assert_checker_error, checker_errors, checker_problems

from awl_lsp.checks.base import Severity

BASE = """\
//! Weigh the parts of two orders.
workflow weigh_orders
  input order: String
  outcome weighed: type Weights, route success

type Part { name: String, weight: Int }
type Weights { name: String, first: [Int], second: [Int] }

worker scale
  action split(order: String) -> [Part]
  action weigh(part: Part) -> Int

step first
  split(order: order) -> parts
  fork part in parts
    weigh(part: part)
  join -> first_weights

step second after first
  fork part in parts
    weigh(part: part)
  join -> second_weights
  route weighed(name: order, first: first_weights, second: second_weights)
"""


def edit(old: str, new: str, text: str = BASE) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def warnings(text: str) -> list[tuple[int, str]]:
    return [(p.range[0] + 1, p.message) for p in checker_problems(text) if p.severity is Severity.WARNING]


def test_a_fork_item_in_two_steps_and_a_field_name_in_two_types_are_no_repeats() -> None:
    assert checker_errors(BASE) == []
    assert warnings(BASE) == []


def test_a_field_declared_twice_in_one_type_is_reported_on_the_second() -> None:
    text = edit("first: [Int], second", "first: [Int], first: [Int], second")
    assert_checker_error(text, 7, "duplicate", "first")


def test_a_value_bound_again_in_a_later_step_is_reported_there() -> None:
    text = edit("step second after first\n", "step second after first\n  split(order: order) -> parts\n")
    assert_checker_error(text, 20, "parts", "already bound")


def test_a_value_bound_twice_in_one_step_is_reported_on_the_second() -> None:
    text = edit("  fork part in parts\n", "  split(order: order) -> parts\n  fork part in parts\n")
    assert_checker_error(text, 15, "parts", "already bound")


def test_a_join_never_read_and_a_type_never_used_warn() -> None:
    text = edit("first: first_weights, second: second_weights", "first: first_weights, second: first_weights")
    text = edit("type Part {", "type Spare { weight: Int }\ntype Part {", text)
    found = warnings(text)
    assert any("second_weights" in m and "never read" in m for _, m in found), found
    assert any("Spare" in m for _, m in found), found
