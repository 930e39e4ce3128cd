"""Single assignment as the engine counts it, beyond the first error a conformance document pins:
every binding a step that runs a second time makes is reported (and only those), in the editor
after an edit exactly as in a fresh check.

The documents are written from probes of the engine's front end: it reports each of these
bindings, and no other (`awl-reference check` lists every error it finds).
"""

from __future__ import annotations

from awl_lsp.checks import Severity
from awl_lsp.features.diagnostics import findings
from awl_lsp.features.documents import OpenDocument
from awl_lsp.syntax import TextEdit

HEAD = """//! probe
workflow probe
  input url: String
  input urls: [String]
  signal poke: String
  outcome done: type String, route success

worker w
  action grab(url: String) -> String

"""
FIRST = HEAD.count("\n") + 1  # the line of the first step


def _twice(text: str) -> list[tuple[int, str]]:
    """(1-based line, name) of each binding reported as bound twice."""
    doc = OpenDocument(text, 1, None, None)
    return sorted(
        (p.range[0] + 1, text.split("\n")[p.range[0]][p.range[1] : p.range[3]])
        for p in findings(doc.snapshot)
        if p.code == "binding-twice" and p.severity is Severity.ERROR
    )


def test_what_runs_again_after_a_step_waiting_on_one_below_it() -> None:
    text = HEAD + (
        "step one after three\n"  # starts first, and again when `three` finishes
        "  grab(url: url) -> a\n"
        "  max 3 visits\n"
        "step two\n"
        "  grab(url: url) -> b\n"
        '  outcome x: when b == "x", route four\n'
        "  outcome y: otherwise, route three\n"
        "step three\n"
        "  grab(url: url) -> c\n"
        "  route done(c)\n"
        "step four\n"
        "  grab(url: url) -> d\n"
        "  route done(d)\n"
    )
    # `one`, `two`, `three` are on the cycle (their second run is sanctioned); `four` is not
    assert _twice(text) == [(FIRST + 11, "d")]


def test_every_kind_of_binding_in_a_step_that_runs_again() -> None:
    text = HEAD + (
        "step one after two\n"
        "  grab(url: url) -> a\n"
        "  max 3 visits\n"
        "step two\n"
        "  grab(url: url) -> b\n"
        "step three\n"
        "  loop cur = url counting n\n"  # the loop's value and counter
        "    grab(url: cur) -> cur\n"  # (its value rebound in the body: the sanctioned rebinding)
        '    until cur == "x"\n'
        "    max 3\n"
        "  fork u in urls\n"
        "    grab(url: u) -> g\n"  # (the fork body's own names: not the step's)
        "  join -> gs\n"
        "  fork\n"
        "    grab(url: url) -> p\n"
        "  join\n"
        "  wait poke timeout 1m -> heard\n"
        "  url |> grab -> piped\n"
        "  step inner\n"
        "    grab(url: url) -> sub\n"
        "  outcome fin: otherwise, route done(piped)\n"
    )
    assert sorted(name for _, name in _twice(text)) == ["cur", "gs", "heard", "n", "p", "piped", "sub"]


def test_a_cycle_nothing_leads_into_runs_what_follows_it_again() -> None:
    text = HEAD + (
        "step one\n"
        "  grab(url: url) -> a\n"
        "  route done(a)\n"
        "step two\n"  # unreachable: nothing leads into the cycle two → three → two
        "  grab(url: url) -> b\n"
        "  max 3 visits\n"
        "step three\n"
        "  grab(url: url) -> c\n"
        '  outcome again: when c == "x", route two\n'
        "  outcome on: otherwise, route four\n"
        "step four\n"
        "  grab(url: url) -> d\n"
        "  route done(d)\n"
    ).replace("outcome on:", "outcome onward:")
    assert _twice(text) == [(FIRST + 11, "d")]


def test_a_reachable_route_cycle_runs_nothing_again() -> None:
    text = HEAD + (
        "step one\n"
        "  grab(url: url) -> a\n"
        "step two\n"
        "  grab(url: url) -> b\n"
        '  outcome again: when b == "x", route one\n'
        "  outcome onward: otherwise, route three\n"
        "  max 3 visits\n"
        "step three\n"
        "  grab(url: url) -> c\n"
        "  route done(c)\n"
    )
    assert _twice(text) == []


def test_adding_and_dropping_the_after_that_starts_a_step_again() -> None:
    text = HEAD + (
        "step one\n"
        "  grab(url: url) -> a\n"
        "  max 3 visits\n"
        "step two\n"
        "  grab(url: url) -> b\n"
        "step three\n"
        "  grab(url: url) -> c\n"
        "  route done(c)\n"
    )
    doc = OpenDocument(text, 1, None, None)

    def twice() -> list[tuple[int, str]]:
        return sorted((p.range[0], p.message) for p in findings(doc.snapshot) if p.code == "binding-twice")

    assert twice() == []
    row = FIRST - 1
    end = len("step one")
    doc.edit([TextEdit(row, end, row, end, " after two")], 2)
    fresh = OpenDocument(doc.syntax.text, 1, None, None)
    assert twice() == sorted(
        (p.range[0], p.message) for p in findings(fresh.snapshot) if p.code == "binding-twice"
    )
    assert [r + 1 for r, _ in twice()] == [FIRST + 6]  # `c`: `three` runs again after the cycle
    doc.edit([TextEdit(row, end, row, end + len(" after two"), "")], 3)
    assert twice() == []
