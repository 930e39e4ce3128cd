"""Flow rules (`rules_flow`, `rules_flow_regions`): one failing and one passing document per rule."""

from __future__ import annotations

import pytest

from awl_lsp.checks import Severity, run_checks
from awl_lsp.model import ModelBuilder
from awl_lsp.syntax.parser import parse

HEAD = """\
//! fixture
workflow f
  input items: [String]
  input cap: Int
  outcome done: type String, route success

type Level = Low | High
type Poll  { done: Bool, level: Level }

worker w
  action work(item: String) -> String
  action poll(prior: Poll) -> Poll
"""
START = HEAD.count("\n") + 1


def errors(body: str) -> list[tuple[int, str, str]]:
    src = (HEAD + body).encode()
    tree = parse(src)
    probs = run_checks(ModelBuilder().build(tree, src), tree, src)
    return [(p.range[0] + 1 - START, p.code, p.message) for p in probs if p.severity is Severity.ERROR]


LOOP = (
    "step s\n  loop p = Poll(done: false, level: Low) counting n\n{inner}\n"
    '  outcome ok: if p.done, route done("y")\n'
)
BAD = [
    (
        "else-not-last",
        'step s\n  work(item: "a") -> x\n  outcome a: else, route done(x)\n'
        '  outcome b: if x == "", route done(x)\n',
        2,
        "else",
        "else-not-last",
    ),
    (
        "not-exhaustive",
        'step s\n  work(item: "a") -> x\n  outcome a: if x == "", route done(x)\n',
        0,
        "exhaust",
        "outcomes-exhaustive",
    ),
    (
        "enum-uncovered",
        "step s\n  poll(prior: Poll(done: true, level: Low)) -> p\n"
        '  outcome a: if p.level == Low, route done("l")\n',
        0,
        "High",
        "outcomes-exhaustive",
    ),
    (
        "loop-unbounded",
        LOOP.format(inner="    poll(prior: p) -> p\n    until p.done")
        + '  outcome no: else, route done("n")\n',
        1,
        "unbounded",
        "loop-max",
    ),
    (
        "loop-route",
        LOOP.format(inner='    poll(prior: p) -> p\n    route done("x")\n    until p.done\n    max cap')
        + '  outcome no: else, route done("n")\n',
        3,
        "`loop` body",
        "loop-route",
    ),
    (
        "loop-rebind",
        LOOP.format(inner="    poll(prior: p) -> q\n    until p.done\n    max cap")
        + '  outcome no: else, route done("n")\n',
        1,
        "rebind",
        "loop-rebind",
    ),
    (
        "loop-counting",
        "step s\n  loop p = Poll(done: false, level: Low) counting p\n    poll(prior: p) -> p\n"
        '    until p.done\n    max cap\n  outcome no: else, route done("n")\n',
        1,
        "counting",
        "loop-counter-shadow",
    ),
    (
        "loop-exhaustion",
        "step s\n  loop p = Poll(done: false, level: Low)\n    poll(prior: p) -> p\n"
        '    until p.done\n    max cap\nstep t\n  route done("x")\n',
        1,
        "exhaust",
        "loop-exhaustion",
    ),
    (
        "cycle",
        'step a\n  work(item: "a") -> x\nstep b\n  outcome again: if x == "", route a\n'
        "  outcome fine: else, route done(x)\n",
        3,
        "cycle",
        "route-cycle",
    ),
    (
        "decoy",
        'step a\n  work(item: "a") -> x\nstep b\n  outcome again: if x == "", route a\n'
        "  outcome fine: else, route c\nstep c\n  outcome z: else, route done(x)\n  max 2 visits\n",
        3,
        "not a cycle bound",
        "route-cycle",
    ),
    (
        "after-cycle",
        'step a after b\n  work(item: "a") -> x\nstep b after a\n  route done("x")\n',
        0,
        "cycle",
        "after-cycle",
    ),
    (
        "unreachable",
        'step a\n  route done("x")\nstep orphan\n  route done("y")\n',
        2,
        "orphan",
        "unreachable-step",
    ),
    ("falls-off", 'step a\n  work(item: "a") -> x\n', 0, "route", "falls-off-end"),
    (
        "on-failure",
        'step a\n  work(item: "a") -> x\n  on failure\n    work(item: "b")\n  route done(x)\n',
        2,
        "route",
        "on-failure-route",
    ),
    (
        "substep-parent",
        'step p\n  step inner\n    route other\n  outcome z: else, route done("x")\n'
        'step other\n  route done("y")\n',
        2,
        "parent",
        "substep-route",
    ),
    (
        "distribute-alone",
        "step w\n  distribute i in items\n  work(item: i) -> n\nstep g\n  collect n -> ns\n"
        '  route done("x")\n',
        1,
        "is its step's only line",
        "distribute-alone",
    ),
    (
        "never-collected",
        "step w\n  distribute i in items\nstep b\n  work(item: i) -> n\n  route done(n)\n",
        1,
        "never reaches a `collect`",
        "region-unclosed",
    ),
    (
        "collect-first",
        "step w\n  distribute i in items\nstep b\n  work(item: i) -> n\nstep g\n"
        '  work(item: "x") -> e\n  collect n -> ns\n  route done(e)\n',
        6,
        "`collect` opens its step",
        "collect-first",
    ),
    (
        "collect-no-region",
        'step g\n  collect n -> ns\n  route done("x")\n',
        1,
        "closes no region",
        "collect-no-region",
    ),
    (
        "region-enter",
        "step a\n  outcome j: if cap > 1, route b\n  outcome k: else, route w\nstep w\n"
        "  distribute i in items\nstep b after w\n  work(item: i) -> n\n"
        'step g\n  collect n -> ns\n  route done("x")\n',
        1,
        "enters the per-item region",
        "region-enter",
    ),
    (
        "region-leave",
        "step w\n  distribute i in items\nstep b\n  work(item: i) -> n\n"
        '  outcome s: if n == "", route out\n  outcome k: else, route g\n'
        "step g\n  collect n -> ns\nstep out\n"
        '  route done("x")\n',
        4,
        "leaves the per-item region",
        "region-leave",
    ),
    (
        "not-definite",
        "step a\n  outcome l: if cap > 1, route b\n  outcome s: else, route c\nstep b\n"
        '  work(item: "a") -> t\n  route c\nstep c\n  t |> work |> route done\n',
        7,
        "t",
        "binding-not-definite",
    ),
    ("unknown-binding", "step a\n  work(item: ghost) -> x\n  route done(x)\n", 1, "ghost", "unknown-binding"),
    (
        # an outcome arm of a step is no route target (a step, or an outcome of the flow, is)
        "route-to-arm",
        'step a\n  work(item: "a") -> x\n  route fine\nstep b\n  work(item: "b") -> y\n'
        '  outcome fine: if y == "", route done("y")\n  outcome other: else, route done("n")\n',
        2,
        "fine",
        "route-target",
    ),
    (
        "substep-route-to-another-steps-arm",
        'step a\n  step inner\n    work(item: "a") -> x\n    route far\n'
        '  outcome fine: if cap > 1, route b\n  outcome other: else, route done("n")\n'
        'step b\n  work(item: "b") -> y\n  outcome far: if y == "", route done("y")\n'
        '  outcome near: else, route done("n")\n',
        3,
        "far",
        "substep-route",
    ),
    (
        # the step may fail at `work` itself, before `x` is bound: its `on failure` cannot read `x`
        "failure-reads-step-binding",
        'step a\n  work(item: "a") -> x\n  on failure\n    work(item: x)\n    route done("f")\n'
        "  route done(x)\n",
        3,
        "x",
        "failure-reads-step-binding",
    ),
    (
        # a pass may end before `w` is bound: after the loop only `p` and `n` are sure to be set
        "loop-local-escapes",
        "step s\n  loop p = Poll(done: false, level: Low) counting n\n    poll(prior: p) -> p\n"
        '    work(item: "a") -> w\n    until p.done\n    max cap\n  work(item: w) -> v\n'
        '  outcome ok: if p.done, route done(v)\n  outcome no: else, route done("n")\n',
        6,
        "`w` is bound inside the loop body",
        "loop-local-escapes",
    ),
    (
        "loop-local-escapes-in-guard",
        LOOP.format(inner='    poll(prior: p) -> p\n    work(item: "a") -> w\n    until p.done\n    max cap')
        + '  outcome no: if w == "", route done("n")\n'
        + '  outcome other: else, route done("o")\n',
        7,
        "only `p` and `n`",
        "loop-local-escapes",
    ),
    (
        # nor in a later step: a pass may end before the line that binds `w`
        "loop-local-read-in-later-step",
        "step s\n  loop p = Poll(done: false, level: Low) counting n\n    poll(prior: p) -> p\n"
        '    work(item: "a") -> w\n    until p.done\n    max cap\n'
        '  outcome ok: if p.done, route t\n  outcome no: else, route done("n")\n'
        "step t\n  route done(w)\n",
        9,
        "`w` is bound only inside a loop body (in `s`)",
        "loop-local-escapes",
    ),
    (
        # the seed is read before the first pass: the loop's own value is not set yet
        "loop-seed-local",
        "step s\n  loop p = p counting n\n    poll(prior: p) -> p\n    until p.done\n    max cap\n"
        '  outcome ok: if p.done, route done("y")\n  outcome no: else, route done("n")\n',
        1,
        "`p` is bound by this loop",
        "loop-seed-local",
    ),
    (
        "loop-seed-reads-body",
        "step s\n  loop p = q\n    poll(prior: p) -> q\n    poll(prior: q) -> p\n    until p.done\n"
        '    max cap\n  outcome ok: if p.done, route done("y")\n  outcome no: else, route done("n")\n',
        1,
        "seed",
        "loop-seed-local",
    ),
]


@pytest.mark.parametrize(("body", "offset", "word", "code"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_rule_reports(body: str, offset: int, word: str, code: str) -> None:
    found = errors(body)
    assert any(ln == offset and c == code and word.lower() in m.lower() for ln, c, m in found), found


def test_a_substeps_failure_block_reading_its_own_binding_is_a_warning() -> None:
    """The engine does not check a substep's `on failure` block (it fails only when it runs): the
    same finding is shown there as a warning."""
    body = (
        'step a\n  work(item: "a") -> x\n  step inner\n    work(item: x) -> y\n    on failure\n'
        '      work(item: y)\n      route done("f")\n  route done(x)\n'
    )
    src = (HEAD + body).encode()
    tree = parse(src)
    found = run_checks(ModelBuilder().build(tree, src), tree, src)
    codes = [(p.range[0] + 1 - START, p.code, p.severity) for p in found]
    assert (5, "failure-reads-step-binding", Severity.WARNING) in codes, codes
    assert not [c for c in codes if c[2] is Severity.ERROR], codes


def test_what_the_engine_cannot_parse_is_an_error_in_a_substeps_failure_block_too() -> None:
    """The engine's parser reads a substep's `on failure` block like any other: an argument without
    a value, or a comment inside brackets, there stays an error."""
    for line, code in (
        ("      work(item: )\n", "argument-value"),
        ('      work(item: "x" // why\n      )\n', "comment-in-brackets"),
        ("      route\n", "route-no-target"),
    ):
        body = (
            'step a\n  step inner\n    work(item: "a") -> x\n    route fine\n    on failure\n'
            + line
            + '      route fine\n  outcome fine: if cap > 1, route done("y")\n'
            '  outcome other: else, route done("n")\n'
        )
        src = (HEAD + body).encode()
        tree = parse(src)
        found = run_checks(ModelBuilder().build(tree, src), tree, src)
        assert [p.code for p in found if p.severity is Severity.ERROR] == [code], found


GOOD = [
    # bounded cycle, enum totality, loop with exhaustion arm, on failure ending in a route
    'step a\n  work(item: "a") -> x\nstep b\n  outcome again: if x == "", route a\n'
    "  outcome fine: else, route done(x)\n  max 3 visits\n",
    "step s\n  poll(prior: Poll(done: true, level: Low)) -> p\n"
    '  outcome a: if p.level == Low, route done("l")\n'
    '  outcome b: if p.level == High, route done("h")\n',
    LOOP.format(inner="    poll(prior: p) -> p\n    until p.done\n    max cap")
    + '  outcome no: else, route done("n")\n',
    # a loop's threaded value and counter are read after it; what its body binds, inside it
    "step s\n  poll(prior: Poll(done: false, level: Low)) -> first\n  loop p = first counting n\n"
    '    work(item: "a") -> w\n    poll(prior: p) -> p\n    work(item: w) -> again\n'
    '    until p.done and again == w\n    max cap\n  work(item: "b") -> later\n'
    '  outcome ok: if n > 1, route done(later)\n  outcome no: else, route done("n")\n',
    # a later step reads what a loop leaves: its threaded value and its counter
    "step s\n  loop p = Poll(done: false, level: Low) counting n\n    poll(prior: p) -> p\n"
    '    work(item: "a") -> w\n    until p.done and w != ""\n    max cap\n'
    '  outcome ok: if p.done, route t\n  outcome no: else, route done("n")\n'
    'step t\n  outcome big: if n > 2, route done("many")\n  outcome small: if p.done, route done("few")\n'
    '  outcome other: else, route done("none")\n',
    'step a\n  work(item: "a") -> x\n  on failure\n    work(item: "b")\n'
    '    route done("f")\n  route done(x)\n',
    # a substep routes to an outcome arm of its parent step
    'step a\n  step inner\n    work(item: "a") -> x\n    route fine\n'
    '  outcome fine: if cap > 1, route done("y")\n  outcome other: else, route done("n")\n',
    # an `on failure` block reads what earlier steps bound, and what it binds itself
    'step a\n  work(item: "a") -> x\nstep b\n  work(item: x) -> y\n  on failure\n'
    '    work(item: x) -> z\n    work(item: z)\n    route done("f")\n  route done(y)\n',
    # a substep's `on failure` reads what its step bound before the substep
    'step a\n  work(item: "a") -> x\n  step inner\n    work(item: x) -> y\n    on failure\n'
    '      work(item: x)\n      route done("f")\n  route done(x)\n',
    # after diamond: both branches' bindings reach the join
    'step r\n  work(item: "r") -> root\nstep left after r\n  work(item: root) -> l\nstep right after r\n'
    "  work(item: root) -> rr\nstep merge after left, right\n  route done(l + rr)\n",
    # a region with a tolerant collect and a decision step routing to the close
    "step w\n  distribute i in items\nstep b\n  work(item: i) -> n\nstep d\n  outcome c: else, route g\n"
    'step g\n  collect n? -> ns\n  ns |> count -> k\n  route done("x")\n',
    # substeps routing to a sibling and to the parent's outcome
    'step p\n  step one\n    work(item: "a") -> raw\n    outcome a: if raw == "", route two\n'
    "    outcome b: else, route hollow\n  step two\n    work(item: raw) -> clean\n"
    '  outcome ok: if clean == "", route done(clean)\n  outcome hollow: else, route done("h")\n',
]


@pytest.mark.parametrize("body", GOOD)
def test_valid_flows_are_quiet(body: str) -> None:
    assert errors(body) == []
