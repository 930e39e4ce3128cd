"""The fix for a condition that is not Bool (`type-bool`, `data.found` its type): test the value.

Where a guard, an `until`, an operand of `and`/`or`/`not` or an `any`/`all` predicate reads a value
that is no truth value, the usual meaning of such a test is written out: an Int or a Float is
compared with zero (`sum != 0`), a String with `""`, a list tested `is empty`, an optional
`is present` — under a `not`, the `not` is folded into the test (`not n` → `n == 0`). The value
compared with is a placeholder the editor lets the user change. Unsafe: that "non-zero" or
"non-empty" was meant is a guess. Not offered inside `filter(…)` (it takes a field accessor, not
a test) nor for an optional Bool (its fix makes the declaration required, `declared_types`).

`is empty` on a String or a number (`is-empty`, `data.found`) is the test against the empty
text or zero, `x == ""`, `x == 0`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from awl_lsp.features.fixes.places import node_at, span
from awl_lsp.features.fixes.values import Edit, Fix, escape, plain_text, tabstop
from awl_lsp.model.type_base import parse_type_text
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

# the type's "nothing": (the test that holds for a value that is something, the one under `not`)
_ZERO = {"Int": "0", "Float": "0.0", "String": '""', "Dir": '""'}


def _tests(type_text: str, value: str) -> tuple[str, str, bool] | None:
    """(the test that holds for a value that is something, the one under `not`, whether they are
    snippets) for a value of the type."""
    t = parse_type_text(type_text)
    if t.is_optional:
        return None if t.strip().name == "Bool" else (f"{value} is present", f"{value} is absent", False)
    if t.is_list:
        return f"not {value} is empty", f"{value} is empty", False
    zero = _ZERO.get(t.name) if t.kind == "builtin" else None
    if zero is None:
        return None
    value = escape(value)
    return f"{value} != {tabstop(1, zero)}", f"{value} == {tabstop(1, zero)}", True


def test_the_value(snap: Snapshot, problem: Problem) -> list[Fix]:
    found = (problem.data or {}).get("found")
    node = node_at(snap, problem.range)
    if not isinstance(found, str) or span(node) != problem.range:
        return []
    parent = node.parent
    if parent is not None and parent.type == "combinator" and snap.text(parent.children[0]) == "filter":
        return []
    tests = _tests(found, snap.text(node))
    if tests is None:
        return []
    target, text, snippet = node, tests[0], tests[2]
    if parent is not None and parent.type == "not_expression":
        target, text = parent, tests[1]
    title = f"Test `{plain_text(text) if snippet else text}`"
    return [Fix(title, (Edit(span(target), text),), safe=False, preferred=True, snippet=snippet)]


def compare_with_nothing(snap: Snapshot, problem: Problem) -> list[Fix]:
    """`is-empty` on a String or a number (`data.found`): `x == ""`, `x == 0` (under `not`, `!=`).
    Unsafe: that the empty text or zero was meant is a guess."""
    node = node_at(snap, problem.range)
    value = node.child_by_field_name("value") if node.type == "is_expression" else None
    zero = _ZERO.get(str((problem.data or {}).get("found")))
    if zero is None or value is None or span(node) != problem.range:
        return []
    target, op = node, "=="
    if node.parent is not None and node.parent.type == "not_expression":
        target, op = node.parent, "!="
    text = f"{escape(snap.text(value))} {op} {tabstop(1, zero)}"
    title = f"Test `{plain_text(text)}`"
    return [Fix(title, (Edit(span(target), text),), safe=False, preferred=True, snippet=True)]
