"""Quick fixes for syntax, layout, duplicates, the flow graph, loops, regions and subflows.

Each case is a document written for one diagnostic (none is a corpus document) and the text its
fix makes of it, as the editor applies it (`code_actions`, the same `Fix` `awl check --fix` uses):
the diagnostic is gone, no problem appears that was not there (of any severity), the text still
parses, and the fix says whether it may be applied unasked (`safe`). Where the document is a
workflow, the engine's own front end (`awl-reference check`) refuses the document as written and
accepts the fixed one — a fix that makes the engine happy is what counts as fixed. The command
line applies the same fixes (`fix_text`, unsafe ones only when allowed).
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from differential.harness import REFERENCE, reference_verdicts
from differential.mutate import in_reference_language
from helpers import snap_of
from lsp_edits import apply_workspace_edit
from lsprotocol import types as lsp

from awl_lsp.documents import analyse_text
from awl_lsp.features.code_actions import code_actions, problem_of
from awl_lsp.features.diagnostics import diagnostics
from awl_lsp.features.findings import findings
from awl_lsp.features.fixes import fix_text, fixes_for
from awl_lsp.features.fixes.apply import syntax_broken

URI = "file:///work/doc.awl"

HEAD = """\
//! A flow written for one fix.
workflow t
  input n: Int
  outcome done: type Int, route success

worker w
  action add(a: Int, b: Int) -> Int
"""


@dataclass(frozen=True)
class Case:
    id: str
    code: str
    before: str
    after: str
    safe: bool
    title: str = ""  # a part of the fix's title, when the problem has several fixes


def flow(body: str, head: str = HEAD) -> str:
    return head + "\n" + body


CASES = [
    # ---------------------------------------------------------------- layout
    Case(
        "tab",
        "tab-indent",
        flow("step s\n\troute done(n)\n"),
        flow("step s\n  route done(n)\n"),
        safe=True,
    ),
    Case(
        "odd-first-line-of-block",
        "odd-indent",
        flow("step s\n   add(a: n, b: 1) -> m\n  route done(m)\n"),
        flow("step s\n  add(a: n, b: 1) -> m\n  route done(m)\n"),
        safe=False,
    ),
    Case(
        "odd-beside-siblings",
        "odd-indent",
        flow("step s\n  step inner\n    add(a: n, b: 1) -> m\n     add(a: m, b: 1) -> k\n  route done(k)\n"),
        flow("step s\n  step inner\n    add(a: n, b: 1) -> m\n    add(a: m, b: 1) -> k\n  route done(k)\n"),
        safe=False,
    ),
    Case(
        "jump-whole-body",
        "indent-jump",
        flow("step s\n      add(a: n, b: 1) -> m\n      route done(m)\n"),
        flow("step s\n  add(a: n, b: 1) -> m\n  route done(m)\n"),
        safe=True,
    ),
    Case(
        "jump-config-line",
        "indent-jump",
        flow("step s\n  route done(n)\n").replace("-> Int\n", "-> Int\n        timeout 5m\n", 1),
        flow("step s\n  route done(n)\n").replace("-> Int\n", "-> Int\n    timeout 5m\n", 1),
        safe=True,
    ),
    Case(
        "statement-under-statement",
        "unexpected-indent",
        flow("step s\n  add(a: n, b: 1) -> m\n    add(a: m, b: 1) -> k\n  route done(k)\n"),
        flow("step s\n  add(a: n, b: 1) -> m\n  add(a: m, b: 1) -> k\n  route done(k)\n"),
        safe=True,
    ),
    Case(
        "field-deeper",
        "field-indent",
        flow("type P {\n  a: Int,\n    b: Int,\n}\n\nstep s\n  route done(n)\n").replace(
            "input n: Int", "input n: Int\n  input p: P"
        ),
        flow("type P {\n  a: Int,\n  b: Int,\n}\n\nstep s\n  route done(n)\n").replace(
            "input n: Int", "input n: Int\n  input p: P"
        ),
        safe=True,
    ),
    Case(
        "field-at-margin",
        "field-indent",
        flow("type P {\n  a: Int,\nb: Int,\n}\n\nstep s\n  route done(n)\n").replace(
            "input n: Int", "input n: Int\n  input p: P"
        ),
        flow("type P {\n  a: Int,\n  b: Int,\n}\n\nstep s\n  route done(n)\n").replace(
            "input n: Int", "input n: Int\n  input p: P"
        ),
        safe=True,
    ),
    Case(
        "brace-after-field",
        "brace-indent",
        flow("type P {\n  a: Int,\n  b: Int }\n\nstep s\n  route done(n)\n").replace(
            "input n: Int", "input n: Int\n  input p: P"
        ),
        flow("type P {\n  a: Int,\n  b: Int\n}\n\nstep s\n  route done(n)\n").replace(
            "input n: Int", "input n: Int\n  input p: P"
        ),
        safe=True,
    ),
    Case(
        "brace-indented",
        "brace-indent",
        flow("type P {\n  a: Int,\n    }\n\nstep s\n  route done(n)\n").replace(
            "input n: Int", "input n: Int\n  input p: P"
        ),
        flow("type P {\n  a: Int,\n}\n\nstep s\n  route done(n)\n").replace(
            "input n: Int", "input n: Int\n  input p: P"
        ),
        safe=True,
    ),
    Case(
        "field-comma",
        "field-comma",
        flow("type P { a: Int b: String }\n\nstep s\n  route done(n)\n").replace(
            "input n: Int", "input n: Int\n  input p: P"
        ),
        flow("type P { a: Int, b: String }\n\nstep s\n  route done(n)\n").replace(
            "input n: Int", "input n: Int\n  input p: P"
        ),
        safe=True,
    ),
    # ---------------------------------------------------------------- comments
    Case(
        "doc-on-route",
        "doc-line",
        flow("step s\n  /// leave\n  route done(n)\n"),
        flow("step s\n  // leave\n  route done(n)\n"),
        safe=True,
    ),
    Case(
        "comment-in-arguments",
        "comment-in-brackets",
        flow("step s\n  add(\n    // the first\n    a: n,\n    b: 1,\n  ) -> m\n  route done(m)\n"),
        flow("step s\n  // the first\n  add(\n    a: n,\n    b: 1,\n  ) -> m\n  route done(m)\n"),
        safe=True,
    ),
    Case(
        "comment-after-parameter",
        "comment-in-brackets",
        flow("step s\n  route done(n)\n").replace(
            "  action add(a: Int, b: Int) -> Int\n",
            "  action add(\n    a: Int, // left\n    b: Int,\n  ) -> Int\n",
        ),
        flow("step s\n  route done(n)\n").replace(
            "  action add(a: Int, b: Int) -> Int\n",
            "  // left\n  action add(\n    a: Int,\n    b: Int,\n  ) -> Int\n",
        ),
        safe=True,
    ),
    Case(
        "comment-in-arm",
        "comment-in-arm",
        flow(
            "step s\n  outcome big: when n > 1,\n    // the big ones\n    route done(n)\n  outcome small: otherwise, route done(0)\n"
        ),
        flow(
            "step s\n  // the big ones\n  outcome big: when n > 1,\n    route done(n)\n  outcome small: otherwise, route done(0)\n"
        ),
        safe=True,
    ),
    # ---------------------------------------------------------------- written twice
    Case(
        "duplicate-input-copy",
        "duplicate",
        flow("step s\n  route done(n)\n").replace("input n: Int", "input n: Int\n  input n: Int"),
        flow("step s\n  route done(n)\n"),
        safe=True,
    ),
    Case(
        "duplicate-field-in-a-copied-type",
        "duplicate",
        flow("type P { a: Int }\ntype P { a: Int }\n\nstep s\n  route done(p.a)\n").replace(
            "input n: Int", "input n: Int\n  input p: P"
        ),
        flow("type P { a: Int }\n\nstep s\n  route done(p.a)\n").replace(
            "input n: Int", "input n: Int\n  input p: P"
        ),
        safe=True,
    ),
    Case(
        "duplicate-step-renamed",
        "duplicate",
        flow("step s\n  route again\n\nstep again\n  add(a: n, b: 1) -> m\n\nstep again\n  route done(m)\n"),
        flow(
            "step s\n  route again\n\nstep again\n  add(a: n, b: 1) -> m\n\nstep again_2\n  route done(m)\n"
        ),
        safe=False,
    ),
    Case(
        "duplicate-argument",
        "duplicate",
        flow("step s\n  add(a: n, b: 1, a: 2) -> m\n  route done(m)\n"),
        flow("step s\n  add(a: n, b: 1) -> m\n  route done(m)\n"),
        safe=False,
    ),
    Case(
        "rebinding-copy",
        "rebinding",
        flow("step s\n  add(a: n, b: 1) -> m\n  add(a: n, b: 1) -> m\n  route done(m)\n"),
        flow("step s\n  add(a: n, b: 1) -> m\n  route done(m)\n"),
        safe=False,
    ),
    Case(
        "rebinding-renamed",
        "rebinding",
        flow("step s\n  add(a: n, b: 1) -> m\n  add(a: m, b: 1) -> m\n  route done(m)\n"),
        flow("step s\n  add(a: n, b: 1) -> m\n  add(a: m, b: 1) -> m_2\n  route done(m_2)\n"),
        safe=False,
    ),
    Case(
        "timeout-twice",
        "timeout-twice",
        flow("step s\n  route done(n)\n").replace("input n: Int", "timeout 1h\n  timeout 2h\n  input n: Int"),
        flow("step s\n  route done(n)\n").replace("input n: Int", "timeout 1h\n  input n: Int"),
        safe=False,
        title="second",
    ),
    Case(
        "timeout-twice-keep-the-second",
        "timeout-twice",
        flow("step s\n  route done(n)\n").replace("input n: Int", "timeout 1h\n  timeout 2h\n  input n: Int"),
        flow("step s\n  route done(n)\n").replace("input n: Int", "timeout 2h\n  input n: Int"),
        safe=False,
        title="first",
    ),
    Case(
        "same-visits-bound-twice",
        "visits-twice",
        flow(
            "step s\n  add(a: n, b: 1) -> m\n  outcome more: when m < 5, route s\n  outcome out: otherwise, route done(m)\n  max 3 visits\n  max 3 visits\n"
        ),
        flow(
            "step s\n  add(a: n, b: 1) -> m\n  outcome more: when m < 5, route s\n  outcome out: otherwise, route done(m)\n  max 3 visits\n"
        ),
        safe=True,
    ),
    Case(
        "on-failure-twice",
        "on-failure-twice",
        flow(
            "step s\n  add(a: n, b: 1) -> m\n  on failure\n    route done(0)\n  on failure\n    route done(1)\n  route done(m)\n"
        ).replace("step s\n  add", "step s\n  add", 1),
        flow("step s\n  add(a: n, b: 1) -> m\n  on failure\n    route done(0)\n  route done(m)\n"),
        safe=False,
        title="second",
    ),
    Case(
        "optional-twice",
        "optional-twice",
        flow("step s\n  route done(n)\n").replace("input n: Int", "input n: Int\n  input note: String??"),
        flow("step s\n  route done(n)\n").replace("input n: Int", "input n: Int\n  input note: String?"),
        safe=True,
    ),
    # ---------------------------------------------------------------- the flow graph
    Case(
        "route-cycle",
        "route-cycle",
        flow(
            "step s\n  add(a: n, b: 1) -> m\n\nstep check\n  outcome more: when m < 5, route s\n  outcome out: otherwise, route done(m)\n"
        ),
        flow(
            "step s\n  add(a: n, b: 1) -> m\n\nstep check\n  outcome more: when m < 5, route s\n  outcome out: otherwise, route done(m)\n  max 3 visits\n"
        ),
        safe=False,
    ),
    Case(
        "after-itself",
        "after-cycle",
        flow("step s after s\n  route done(n)\n"),
        flow("step s\n  route done(n)\n"),
        safe=True,
    ),
    Case(
        "after-each-other",
        "after-cycle",
        flow("step s after later\n  add(a: n, b: 1) -> m\n\nstep later after s\n  route done(m)\n"),
        flow("step s\n  add(a: n, b: 1) -> m\n\nstep later after s\n  route done(m)\n"),
        safe=False,
    ),
    Case(
        "unreachable-step",
        "unreachable-step",
        flow(
            "step s\n  route done(n)\n\n/// never runs\nstep spare\n  add(a: n, b: 2) -> k\n  route done(k)\n"
        ),
        flow("step s\n  route done(n)\n"),
        safe=False,
    ),
    Case(
        "falls-into-a-bound-step",
        "unreachable-step",
        flow(
            "step s\n  add(a: n, b: 1) -> m\n\nstep again\n  max 3 visits\n  add(a: m, b: 1) -> k\n  outcome more: when k < 5, route again\n  outcome out: otherwise, route done(k)\n"
        ),
        flow(
            "step s\n  add(a: n, b: 1) -> m\n  route again\n\nstep again\n  max 3 visits\n  add(a: m, b: 1) -> k\n  outcome more: when k < 5, route again\n  outcome out: otherwise, route done(k)\n"
        ),
        safe=True,
    ),
    Case(
        "exhaustion-by-the-closing-route",
        "loop-exhaustion",
        flow(
            "step s\n  loop m = n counting rounds\n    add(a: m, b: 1) -> m\n    until m > 9\n    max 5\n  route done(m)\n"
        ),
        flow(
            "step s\n  loop m = n counting rounds\n    add(a: m, b: 1) -> m\n    until m > 9\n    max 5\n  outcome finished: otherwise, route done(m)\n"
        ),
        safe=False,
    ),
    Case(
        "exhaustion-into-the-next-step",
        "loop-exhaustion",
        flow(
            "step s\n  loop m = n\n    add(a: m, b: 1) -> m\n    until m > 9\n    max 5\n\nstep report\n  route done(m)\n"
        ),
        flow(
            "step s\n  loop m = n\n    add(a: m, b: 1) -> m\n    until m > 9\n    max 5\n  outcome finished: otherwise, route report\n\nstep report\n  route done(m)\n"
        ),
        safe=False,
    ),
    # ---------------------------------------------------------------- loops
    Case(
        "loop-max",
        "loop-max",
        flow(
            "step s\n  loop m = n\n    add(a: m, b: 1) -> m\n    until m > 9\n  outcome out: otherwise, route done(m)\n"
        ),
        flow(
            "step s\n  loop m = n\n    add(a: m, b: 1) -> m\n    until m > 9\n    max 10\n  outcome out: otherwise, route done(m)\n"
        ),
        safe=False,
    ),
    Case(
        "loop-until",
        "loop-until",
        flow(
            "step s\n  loop m = n\n    add(a: m, b: 1) -> m\n    max 4\n  outcome out: otherwise, route done(m)\n"
        ),
        flow(
            "step s\n  loop m = n\n    add(a: m, b: 1) -> m\n    until false\n    max 4\n  outcome out: otherwise, route done(m)\n"
        ),
        safe=False,
    ),
    Case(
        "loop-seed",
        "loop-seed",
        flow(
            "step s\n  loop m\n    add(a: m, b: 1) -> m\n    until m > 9\n    max 4\n  outcome out: otherwise, route done(m)\n"
        ),
        flow(
            "step s\n  loop m = 0\n    add(a: m, b: 1) -> m\n    until m > 9\n    max 4\n  outcome out: otherwise, route done(m)\n"
        ),
        safe=False,
    ),
    Case(
        "loop-rebind",
        "loop-rebind",
        flow(
            "step s\n  loop m = n\n    add(a: m, b: 1) -> next\n    until next > 9\n    max 4\n  outcome out: otherwise, route done(m)\n"
        ),
        flow(
            "step s\n  loop m = n\n    add(a: m, b: 1) -> m\n    until m > 9\n    max 4\n  outcome out: otherwise, route done(m)\n"
        ),
        safe=False,
    ),
    Case(
        "loop-counter-shadow",
        "loop-counter-shadow",
        flow(
            "step s\n  loop m = n counting m\n    add(a: m, b: 1) -> m\n    until m > 9\n    max 4\n  outcome out: otherwise, route done(m)\n"
        ),
        flow(
            "step s\n  loop m = n counting rounds\n    add(a: m, b: 1) -> m\n    until m > 9\n    max 4\n  outcome out: otherwise, route done(m)\n"
        ),
        safe=False,
    ),
    Case(
        "visits-read-unbounded",
        "visits-read",
        flow(
            "step s\n  add(a: n, b: 1) -> m\n  outcome more: when visits < 2, route s\n  outcome out: otherwise, route done(m)\n"
        ),
        flow(
            "step s\n  add(a: n, b: 1) -> m\n  outcome more: when visits < 2, route s\n  outcome out: otherwise, route done(m)\n  max 3 visits\n"
        ),
        safe=False,
    ),
    # ---------------------------------------------------------------- regions and subflows
    Case(
        "subflow-not-alone",
        "subflow-not-alone",
        flow(
            "subflow twice(x: Int)\n  outcome out: type Int\n\n  step go\n    add(a: x, b: x) -> y\n    route out(y)\n\n"
            "step s\n  add(a: n, b: 1) -> m\n  twice(x: m) -> k\n  route done(k)\n"
        ),
        flow(
            "subflow twice(x: Int)\n  outcome out: type Int\n\n  step go\n    add(a: x, b: x) -> y\n    route out(y)\n\n"
            "step s\n  add(a: n, b: 1) -> m\n\nstep s_2\n  twice(x: m) -> k\n\nstep s_3\n  route done(k)\n"
        ),
        safe=False,
    ),
    Case(
        "subflow-reads-an-input",
        "subflow-outer-name",
        flow(
            "subflow twice(x: Int)\n  outcome out: type Int\n\n  step go\n    add(a: x, b: n) -> y\n    route out(y)\n\n"
            "step s\n  twice(x: n) -> k\n\nstep t\n  route done(k)\n"
        ),
        flow(
            "subflow twice(x: Int, n: Int)\n  outcome out: type Int\n\n  step go\n    add(a: x, b: n) -> y\n    route out(y)\n\n"
            "step s\n  twice(x: n, n: n) -> k\n\nstep t\n  route done(k)\n"
        ),
        safe=True,
    ),
    Case(
        "distribute-alone",
        "distribute-alone",
        flow(
            "step open\n  add(a: n, b: 1) -> m\n  distribute x in [m, n]\n\nstep work\n  add(a: x, b: 1) -> y\n\n"
            "step close\n  collect y -> ys\n  ys |> count -> k\n  route done(k)\n"
        ),
        flow(
            "step open\n  add(a: n, b: 1) -> m\n\nstep open_2\n  distribute x in [m, n]\n\nstep work\n  add(a: x, b: 1) -> y\n\n"
            "step close\n  collect y -> ys\n  ys |> count -> k\n  route done(k)\n"
        ),
        safe=False,
    ),
    Case(
        "collect-a-binding-of-the-region",
        "collect-outside",
        flow(
            "step open\n  distribute x in [n]\n\nstep work\n  add(a: x, b: 1) -> y\n\n"
            "step close\n  collect z -> ys\n  ys |> count -> k\n  route done(k)\n"
        ),
        flow(
            "step open\n  distribute x in [n]\n\nstep work\n  add(a: x, b: 1) -> y\n\n"
            "step close\n  collect y -> ys\n  ys |> count -> k\n  route done(k)\n"
        ),
        safe=False,
    ),
    Case(
        "collect-first",
        "collect-first",
        flow(
            "step open\n  distribute x in [n]\n\nstep work\n  add(a: x, b: 1) -> y\n\n"
            "step close\n  add(a: n, b: 2)\n  collect y -> ys\n  ys |> count -> k\n  route done(k)\n"
        ),
        flow(
            "step open\n  distribute x in [n]\n\nstep work\n  add(a: x, b: 1) -> y\n\n"
            "step close\n  collect y -> ys\n  add(a: n, b: 2)\n  ys |> count -> k\n  route done(k)\n"
        ),
        safe=False,
    ),
    Case(
        "collect-with-no-region",
        "collect-no-region",
        flow("step s\n  add(a: n, b: 1) -> m\n  collect m -> ms\n  route done(m)\n"),
        flow("step s\n  add(a: n, b: 1) -> m\n  route done(m)\n"),
        safe=False,
    ),
    Case(
        "after-across-a-region",
        "region-after",
        flow(
            "step open\n  distribute x in [n]\n\nstep work\n  add(a: x, b: 1) -> y\n\n"
            "step close\n  collect y -> ys\n\nstep report after work\n  ys |> count -> k\n  route done(k)\n"
        ),
        flow(
            "step open\n  distribute x in [n]\n\nstep work\n  add(a: x, b: 1) -> y\n\n"
            "step close\n  collect y -> ys\n\nstep report\n  ys |> count -> k\n  route done(k)\n"
        ),
        safe=False,
    ),
    # ---------------------------------------------------------------- forks and line ends
    Case(
        "fork-without-join",
        "fork-join",
        flow(
            "step s\n  fork\n    add(a: n, b: 1) -> m\n    add(a: n, b: 2) -> k\n  add(a: m, b: k) -> j\n  route done(j)\n"
        ),
        flow(
            "step s\n  fork\n    add(a: n, b: 1) -> m\n    add(a: n, b: 2) -> k\n  join\n  add(a: m, b: k) -> j\n  route done(j)\n"
        ),
        safe=True,
    ),
    Case(
        "named-fork-join-binding",
        "fork-named-join",
        flow(
            "step s\n  fork\n    add(a: n, b: 1) -> m\n    add(a: n, b: 2) -> k\n  join -> both\n  add(a: m, b: k) -> j\n  route done(j)\n"
        ),
        flow(
            "step s\n  fork\n    add(a: n, b: 1) -> m\n    add(a: n, b: 2) -> k\n  join\n  add(a: m, b: k) -> j\n  route done(j)\n"
        ),
        safe=True,
    ),
    Case(
        "bare-arrow",
        "binding-name",
        flow("step s\n  add(a: n, b: 1) ->\n  route done(n)\n"),
        flow("step s\n  add(a: n, b: 1)\n  route done(n)\n"),
        safe=False,
    ),
    Case(
        "idle-chain",
        "pipe-unterminated",
        flow("step s\n  [n] |> filter(. > 1) |> count\n  route done(n)\n").replace(". > 1", "n > 1"),
        flow("step s\n  route done(n)\n"),
        safe=False,
    ),
    Case(
        "every-in-a-workflow",
        "workloop-only",
        flow("step s\n  route done(n)\n").replace("input n: Int", "every 10m\n  input n: Int"),
        flow("step s\n  route done(n)\n"),
        safe=False,
    ),
    Case(
        "detached-in-a-workflow",
        "workloop-only",
        flow("/// started elsewhere\ndetached later(n: Int)\n\nstep s\n  route done(n)\n"),
        flow("step s\n  route done(n)\n"),
        safe=False,
    ),
    Case(
        "negated-comparison",
        "parentheses",
        flow(
            "step s\n  outcome big: when not (n < 3), route done(n)\n  outcome small: otherwise, route done(0)\n"
        ),
        flow(
            "step s\n  outcome big: when n >= 3, route done(n)\n  outcome small: otherwise, route done(0)\n"
        ),
        safe=True,
    ),
    Case(
        "parenthesised-argument",
        "parentheses",
        flow("step s\n  add(a: (n), b: 1) -> m\n  route done(m)\n"),
        flow("step s\n  add(a: n, b: 1) -> m\n  route done(m)\n"),
        safe=True,
    ),
    Case(
        "keyword-as-a-name",
        "keyword-name",
        flow("step s\n  route done(n)\n").replace("input n: Int", "input n: Int\n  input step: String"),
        flow("step s\n  route done(n)\n").replace("input n: Int", "input n: Int\n  input step_name: String"),
        safe=False,
    ),
    # ---------------------------------------------------------------- syntax slips
    Case(
        "list-of",
        "syntax",
        flow("step s\n  route done(n)\n").replace("input n: Int", "input n: Int\n  input xs: List(Int)"),
        flow("step s\n  route done(n)\n").replace("input n: Int", "input n: Int\n  input xs: [Int]"),
        safe=True,
    ),
    Case(
        "option-of",
        "syntax",
        flow("step s\n  route done(n)\n").replace("input n: Int", "input n: Int\n  input x: Option(String)"),
        flow("step s\n  route done(n)\n").replace("input n: Int", "input n: Int\n  input x: String?"),
        safe=True,
    ),
    Case(
        "equals-binder",
        "syntax",
        flow("step s\n  m = add(a: n, b: 1)\n  route done(m)\n"),
        flow("step s\n  add(a: n, b: 1) -> m\n  route done(m)\n"),
        safe=True,
    ),
    Case(
        "compound-duration",
        "syntax",
        flow("step s\n  sleep 2h15m\n  route done(n)\n"),
        flow("step s\n  sleep 135m\n  route done(n)\n"),
        safe=True,
    ),
    Case(
        "float-spelling",
        "syntax",
        flow("const ratio = .25\n\nstep s\n  route done(n)\n"),
        flow("const ratio = 0.25\n\nstep s\n  route done(n)\n"),
        safe=True,
    ),
    Case(
        "max-in-a-step",
        "syntax",
        flow(
            "step s\n  add(a: n, b: 1) -> m\n  outcome more: when m < 5, route s\n  outcome out: otherwise, route done(m)\n  max 2\n"
        ),
        flow(
            "step s\n  add(a: n, b: 1) -> m\n  outcome more: when m < 5, route s\n  outcome out: otherwise, route done(m)\n  max 2 visits\n"
        ),
        safe=True,
    ),
    Case(
        "settings-on-two-lines",
        "syntax",
        flow("step s\n  route done(n)\n").replace(
            "-> Int\n", "-> Int\n    timeout 5m\n    retry 2 every 10s\n", 1
        ),
        flow("step s\n  route done(n)\n").replace(
            "-> Int\n", "-> Int\n    timeout 5m, retry 2 every 10s\n", 1
        ),
        safe=True,
    ),
    Case(
        "const-inside-a-worker",
        "syntax",
        flow("step s\n  route done(n)\n").replace("-> Int\n", '-> Int\n  const greeting = "hi"\n', 1),
        flow("step s\n  route done(n)\n").replace("-> Int\n", '-> Int\nconst greeting = "hi"\n', 1),
        safe=True,
    ),
    Case(
        "signal-below-the-header",
        "syntax",
        flow("step s\n  route done(n)\n").replace("\nworker", "signal go: Bool\n\nworker", 1),
        flow("step s\n  route done(n)\n").replace("\nworker", "  signal go: Bool\n\nworker", 1),
        safe=True,
    ),
    Case(
        "counting-without-a-name",
        "syntax",
        flow(
            "step s\n  loop m = n counting\n    add(a: m, b: 1) -> m\n    until m > 9\n    max 4\n  outcome out: otherwise, route done(m)\n"
        ),
        flow(
            "step s\n  loop m = n counting rounds\n    add(a: m, b: 1) -> m\n    until m > 9\n    max 4\n  outcome out: otherwise, route done(m)\n"
        ),
        safe=False,
    ),
]

WORKLOOP = """\
//! A workloop written for one fix.
workloop sweep
  every 10m
  input dir: String
  carry seen: Int = 0
  report board: type Board
  invariant serving: type Board
    tolerance 3 windows
    confirms start
  retention 7d

type Board { swept: Int }

worker sweeper
  action sweep(dir: String) -> Int

detached follow_up(dir: String)

step sweep_dir
  sweep(dir: dir) -> swept
  answer board(swept: swept)
  hatch follow_up(dir: dir) key dir{binding}
  route start(seen: swept)

retire
  sweep(dir: dir)
"""

CASES.append(
    Case(
        "hatch-binding",
        "hatch-binding",
        WORKLOOP.replace("{binding}", " -> started"),
        WORKLOOP.replace("{binding}", ""),
        safe=True,
    )
)


def _problems(text: str) -> Counter[tuple[str, str]]:
    return Counter((p.code, p.message) for p in findings(snap_of(text)))


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_the_fix_writes_what_was_meant(case: Case) -> None:
    snap = snap_of(case.before)
    diags = diagnostics(snap)
    target = next((d for d in diags if d.code == case.code), None)
    assert target is not None, [(d.code, d.message) for d in diags]
    actions = [
        a for a in code_actions(snap, URI, target.range, diags) if a.diagnostics and target in a.diagnostics
    ]
    action = next((a for a in actions if case.title in a.title), None)
    assert action is not None, f"no fix for {case.code}: {[a.title for a in actions]}"
    assert action.kind == lsp.CodeActionKind.QuickFix
    fixed = apply_workspace_edit(case.before, action.edit, URI)
    assert fixed == case.after
    before, after = _problems(case.before), _problems(fixed)
    assert after[(str(target.code), target.message)] < before[(str(target.code), target.message)]
    assert not after - before, sorted(after - before)
    assert not syntax_broken(snap_of(fixed))
    # the fix's own word on trust
    fix = next(f for f in fixes_for(snap, problem_of(snap, target), strict=True) if f.title == action.title)
    assert fix.safe is case.safe


@pytest.mark.parametrize("case", [c for c in CASES if not c.title], ids=[c.id for c in CASES if not c.title])
def test_check_fix_applies_it(case: Case) -> None:
    """`awl check --fix` applies the same fix: unasked when it is safe, with `--unsafe-fixes` otherwise."""
    asked = fix_text(case.before, _analyse, unsafe=False)
    assert (asked.text == case.after) is case.safe
    assert fix_text(case.before, _analyse, unsafe=True).text == case.after


def _analyse(text: str) -> tuple:
    snap = analyse_text(text)
    return snap, findings(snap)


def test_the_engine_refuses_each_document_and_accepts_its_fix(tmp_path: Path) -> None:
    if not REFERENCE.is_file():
        reason = f"awl-reference not found at {REFERENCE} (set AWL_REFERENCE)"
        if os.environ.get("AWL_REQUIRE_REFERENCE") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    judged = [c for c in CASES if in_reference_language(c.before)]
    files: dict[str, tuple[Path, Path]] = {}
    for case in judged:
        folder = tmp_path / case.id
        (folder / "before").mkdir(parents=True)
        (folder / "after").mkdir()
        files[case.id] = (folder / "before" / "t.awl", folder / "after" / "t.awl")
        files[case.id][0].write_text(case.before, encoding="utf-8")
        files[case.id][1].write_text(case.after, encoding="utf-8")
    verdicts = reference_verdicts([p for pair in files.values() for p in pair])
    wrong = []
    for case in judged:
        before, after = (verdicts[p] for p in files[case.id])
        if before.ok:
            wrong.append(f"{case.id}: the engine accepts the document as written")
        if not after.ok:
            wrong.append(
                f"{case.id}: the engine refuses the fixed document: line {after.line}: {after.message}"
            )
    assert len(judged) >= len(CASES) - 2
    assert not wrong, "\n".join(wrong)


@dataclass(frozen=True)
class Left:
    """A diagnostic whose fix would guess wrong or leave a new problem: nothing is offered."""

    id: str
    code: str
    text: str


LEFT = [
    Left(
        "unreachable-step-last-to-read-a-type",
        "unreachable-step",
        flow(
            "type Spare { x: Int }\n\nstep s\n  route done(n)\n\nstep spare\n  Spare(x: n) -> k\n  route done(k.x)\n"
        ),
    ),
    Left(
        "unreachable-step-whose-binding-is-read",
        "unreachable-step",
        flow(
            "step s\n  route done(n)\n\nstep spare\n  add(a: n, b: 1) -> k\n  route t\n\nstep t\n  route done(k)\n"
        ),
    ),
    Left(
        "chain-through-an-action",
        "pipe-unterminated",
        flow("step s\n  n |> twice\n  route done(n)\n").replace(
            "-> Int\n", "-> Int\n  action twice(x: Int) -> Int\n", 1
        ),
    ),
    Left(
        "parentheses-that-group",
        "parentheses",
        flow(
            "step s\n  outcome big: when n > 1 and (n < 5 or n > 9), route done(n)\n  outcome small: otherwise, route done(0)\n"
        ),
    ),
    Left(
        "distribute-with-an-on-failure",
        "distribute-alone",
        flow(
            "step open\n  add(a: n, b: 1) -> m\n  distribute x in [m, n]\n  on failure\n    route done(0)\n\n"
            "step work\n  add(a: x, b: 1) -> y\n\nstep close\n  collect y -> ys\n  ys |> count -> k\n  route done(k)\n"
        ),
    ),
    Left(
        "a-declaration-with-more-of-the-worker-below",
        "syntax",
        flow("step s\n  route done(n)\n").replace(
            "-> Int\n", '-> Int\n  const greeting = "hi"\n  action sub(a: Int) -> Int\n', 1
        ),
    ),
]


@pytest.mark.parametrize("left", LEFT, ids=[c.id for c in LEFT])
def test_no_fix_where_it_would_guess_wrong(left: Left) -> None:
    snap = snap_of(left.text)
    found = [p for p in findings(snap) if p.code == left.code]
    assert found, [(p.code, p.message) for p in findings(snap)]
    assert not [f for p in found for f in fixes_for(snap, p, strict=True)]
