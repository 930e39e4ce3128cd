"""Type rules (`rules_types`, `rules_types_stmt`): one failing and one passing document per rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from awl_lsp.checks import Severity, run_checks
from awl_lsp.model import ModelBuilder
from awl_lsp.syntax.parser import parse

HEAD = """\
//! fixture
workflow t
  input c: Cand
  input items: [Item]
  input name: String
  signal ack: Ack
  outcome done: type Out, route success
  outcome said: type String, route failure

type Cand { name: String, score: Int, bonus: Int, ready: Bool, note: String? }
type Item { title: String, blocking: Bool }
type Ack  { who: String }
type Out  { text: String, count: Int }

worker w
  action stamp(text: String) -> Out
  action pair(text: String, other: String) -> Out
  action fetch(name: String) -> [Item]

step s
"""
FIRST = HEAD.count("\n") + 1  # 1-based line of the first body line


def errors(source: str, path: Path | None = None) -> list[tuple[int, str, str]]:
    src = source.encode()
    tree = parse(src)
    probs = run_checks(ModelBuilder().build(tree, src), tree, src, path, path.parent if path else None)
    return [(p.range[0] + 1, p.code, p.message) for p in probs if p.severity is Severity.ERROR]


def body(*lines: str) -> str:
    return HEAD + "".join(f"  {line}\n" for line in lines)


BAD = [
    (
        "and-operand",
        [
            "outcome a: if c.score and c.ready, route done(text: name, count: 1)",
            "outcome b: else, route said(name)",
        ],
        0,
        "and",
        "type-bool",
    ),
    (
        "not-operand",
        ["outcome a: if not c.score, route said(name)", "outcome b: else, route said(name)"],
        0,
        "not",
        "type-bool",
    ),
    (
        "guard-bool",
        ["outcome a: if c.name, route said(name)", "outcome b: else, route said(name)"],
        0,
        "guard",
        "type-bool",
    ),
    (
        "plus-int",
        ["outcome a: if c.score + c.bonus > 3, route said(name)", "outcome b: else, route said(name)"],
        0,
        "+",
        "plus-mismatch",
    ),
    (
        "compare",
        ['outcome a: if c.score < "high", route said(name)', "outcome b: else, route said(name)"],
        0,
        "<",
        "compare-mismatch",
    ),
    (
        "is-empty",
        ["outcome a: if c.score is empty, route said(name)", "outcome b: else, route said(name)"],
        0,
        "is empty",
        "is-empty",
    ),
    (
        "is-present",
        ["outcome a: if c.name is present, route said(name)", "outcome b: else, route said(name)"],
        0,
        "is present",
        "is-present",
    ),
    (
        "filter-pred",
        ["items |> filter(.title) -> kept", "route said(name)"],
        0,
        "predicate must be Bool",
        "type-bool",
    ),
    (
        "all-pred",
        ["items |> all(.title) -> kept", "route said(name)"],
        0,
        "predicate must be Bool",
        "type-bool",
    ),
    (
        "any-list",
        ["name |> any(true) -> kept", "route said(name)"],
        0,
        "needs a List collection",
        "combinator-list",
    ),
    ("count-arg", ["items |> count(.title) -> n", "route said(name)"], 0, "count", "count-argument"),
    ("map-field", ["items |> map(.nope) -> n", "route said(name)"], 0, "nope", "unknown-field"),
    ("field", ["route said(c.volume)"], 0, "volume", "unknown-field"),
    ("index-non-list", ["route said(name[0])"], 0, "index", "index-non-list"),
    ("index-computed", ["c |> .score -> i", "route said(items[i].title)"], 1, "index", "index-literal"),
    ("workflow-bare", ["route said(workflow)"], 0, "builtin namespace, not a value", "workflow-bare"),
    ("workflow-field", ["route said(workflow.nope)"], 0, "unknown workflow builtin", "workflow-field"),
    ("bare-accessor", [".title -> t", "route said(name)"], 0, ".title", "relative-field"),
    ("arg-type", ["stamp(text: 42) -> o", "o |> route done"], 0, "String", "type-mismatch"),
    ("pipe-stage", ["items |> count |> stamp |> route done"], 0, "Int", "pipe-stage-type"),
    ("pipe-route", ["name |> fetch |> route done"], 0, "[Item]", "route-payload"),
    ("payload-missing", ["route done(text: name)"], 0, "count", "route-missing-field"),
    ("payload-field", ["route done(text: name, count: name)"], 0, "Int", "type-mismatch"),
    ("payload-value", ["route said(3)"], 0, "String", "type-mismatch"),
    ("bare-route", ["stamp(text: name) -> result", "route done"], 1, "done", "route-no-payload"),
    ("null", ["route done(text: null, count: 1)"], 0, "null", "null-value"),
    # the engine rejects `null` wherever a value is read: a pipe's head, a list, a comparison, a field base
    ("null-pipe-head", ["null |> stamp -> o", "o |> route done"], 0, "null", "null-value"),
    ("null-in-list", ["[name, null] -> names", "route said(names[0])"], 0, "null", "null-value"),
    ("null-field-base", ["null.title -> t", "route said(t)"], 0, "null", "null-value"),
    (
        "null-compared",
        ["outcome a: if name == null, route said(name)", "outcome b: else, route said(name)"],
        0,
        "null",
        "null-value",
    ),
    # … even where a step bound something under that name
    ("null-bound", ["name -> null", "null |> stamp -> o", "o |> route done"], 1, "null", "null-value"),
    (
        "unguarded",
        [
            "wait ack timeout 5m -> reply",
            "outcome a: if reply is present, route said(reply.who)",
            "outcome b: else, route said(reply.who)",
        ],
        2,
        "reply",
        "optional-unguarded",
    ),
    ("unguarded-arg", ["stamp(text: c.note) -> o", "o |> route done"], 0, "note", "optional-into-plain"),
    # the engine narrows a name under a plain `x is present` outcome guard, never a path like `c.note`
    (
        "guarded-path-payload",
        ["outcome a: if c.note is present, route said(c.note)", "outcome b: else, route said(name)"],
        0,
        "c.note",
        "optional-into-plain",
    ),
    (
        "optional-compared",
        [
            'outcome a: if c.note is absent or c.note == "x", route said(name)',
            "outcome b: else, route said(name)",
        ],
        0,
        "optional",
        "compare-optional",
    ),
    (
        "else-after-absent",
        [
            "c |> .note -> note",
            "outcome a: if note is absent, route said(name)",
            "outcome b: else, route said(note)",
        ],
        2,
        "note",
        "optional-into-plain",
    ),
    (
        "compound-guard-route",
        [
            "wait ack timeout 5m -> reply",
            'outcome a: if reply is present and name == "x", route said(reply.who)',
            "outcome b: else, route said(name)",
        ],
        1,
        "reply",
        "optional-unguarded",
    ),
    (
        "int-vs-float",
        ["outcome a: if c.score > 1.5, route said(name)", "outcome b: else, route said(name)"],
        0,
        "orders two Ints or two Floats",
        "compare-mismatch",
    ),
    (
        "records-compared",
        ["outcome a: if c == c, route said(name)", "outcome b: else, route said(name)"],
        0,
        "only plain values",
        "compare-mismatch",
    ),
    (
        "filter-expression",
        ["items |> filter(.title == name) -> picked", "route said(name)"],
        0,
        "field accessor",
        "combinator-accessor",
    ),
    ("pipe-dangling", ["items |> filter(.blocking)", "route said(name)"], 0, "pipe", "pipe-unterminated"),
    (
        "fork-list",
        ["fork x in c", "  stamp(text: name)", "join -> all", "route said(name)"],
        0,
        "needs a list",
        "fork-non-list",
    ),
]


@pytest.mark.parametrize(("lines", "offset", "word", "code"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_rule_reports(lines: list[str], offset: int, word: str, code: str) -> None:
    found = errors(body(*lines))
    line = FIRST + offset
    assert any(ln == line and c == code and word.lower() in m.lower() for ln, c, m in found), found


GOOD = [
    ["outcome a: if c.ready and c.score >= 3, route said(name)", "outcome b: else, route said(name)"],
    [
        "c |> .note -> note",
        "outcome a: if note is present, route said(note)",
        "outcome b: else, route said(name)",
    ],
    [
        "wait ack timeout 5m -> reply",
        'outcome a: if reply is present and reply.who == "x", route said(name)',
        "outcome b: else, route said(name)",
    ],
    ["outcome a: if c.note is absent, route said(name)", "outcome b: else, route said(name)"],
    [
        "items |> filter(.blocking) |> map(.title) -> titles",
        'items |> any(.blocking and .title == "x") -> b',
        "items |> count -> n",
        "route said(titles[0] + name + workflow.id)",
    ],
    ["name |> stamp -> out", "out |> route done"],
    ["stamp(text: name) -> done", "route done"],
    [
        "wait ack timeout 5m -> reply",
        "outcome a: if reply is present, route said(reply.who)",
        "outcome b: else, route said(name)",
    ],
    [
        "fork item in items",
        "  stamp(text: item.title)",
        "join -> outs",
        "outs |> count -> n",
        "sleep 30s",
        "route done(text: name, count: n)",
    ],
    ['route said("""raw""")'],
    # binding a result under the name `null` is accepted (only reading it is not)
    ["stamp(text: name) -> null", "route said(name)"],
]


@pytest.mark.parametrize("lines", GOOD)
def test_valid_bodies_are_quiet(lines: list[str]) -> None:
    assert errors(body(*lines)) == []


ENUM_DOC = """\
//! fixture
workflow t
  input level: Level
  input levels: [Level]
  input task: Task
  outcome done: type String, route success

type Level = Low | High
type Task { title: String, level: Level }

step s
"""


@pytest.mark.parametrize(
    ("line", "field"),
    [
        ("level.title -> x", "title"),  # a field of an enum-typed input
        ("level |> .title -> x", "title"),  # as a pipe stage
        ("levels |> map(.title) -> x", "title"),  # inside a combinator, over a list of enum values
        ("levels[0].title -> x", "title"),  # an indexed item
        ("task.level.title -> x", "title"),  # a record's enum-typed field
    ],
)
def test_enum_values_have_no_fields(line: str, field: str) -> None:
    doc = ENUM_DOC + f"  {line}\n  route done(x)\n"
    found = errors(doc)
    first = ENUM_DOC.count("\n") + 1
    assert any(ln == first and c == "enum-field" and f"`.{field}`" in m for ln, c, m in found), found


def test_enum_values_compared_and_record_fields_read_are_quiet() -> None:
    doc = ENUM_DOC + (
        "  task.title -> x\n"
        "  outcome a: if level == High and task.level == Low, route done(x)\n"
        "  outcome b: else, route done(task.title)\n"
    )
    assert errors(doc) == []


SHAPE_DOC = """\
//! fixture
workflow t
  input a: A
  outcome done: type String, route success

{types}

worker w
  action look(b: B) -> String

step s
  look(b: a) -> r
  route done(r)
"""


@pytest.mark.parametrize(
    "types",
    [
        "type A { x: String, y: Int }\ntype B { y: Int, x: String }",  # same fields, other order
        "type A { x: IA }\ntype B { x: IB }\ntype IA { v: String }\ntype IB { v: String }",  # nested
        "type A { x: [String], n: Int? }\ntype B { x: [String], n: Int? }",
        "type A = P | Q\ntype B = Q | P",  # enums with the same variants
    ],
)
def test_types_of_the_same_shape_are_one_type(types: str) -> None:
    assert errors(SHAPE_DOC.format(types=types)) == []


@pytest.mark.parametrize(
    "types",
    [
        "type A { x: String, y: Int }\ntype B { y: Int, z: String }",  # a field renamed
        "type A { x: String }\ntype B { x: String? }",  # optional on one side only
        "type A { x: Int }\ntype B { x: Float }",  # no widening inside a record either
        "type A { x: String }\ntype B { x: String, y: String }",  # a field more
        "type A { x: IA }\ntype B { x: IB }\ntype IA { v: String }\ntype IB { w: String }",
        "type A = P | Q\ntype B = P | R",
    ],
)
def test_types_of_another_shape_do_not_fit(types: str) -> None:
    found = errors(SHAPE_DOC.format(types=types))
    line = SHAPE_DOC.format(types=types).splitlines().index("  look(b: a) -> r") + 1
    assert any(ln == line and c == "type-mismatch" and "expects B" in m for ln, c, m in found), found


DEFS_DOC = """\
//! fixture
workflow t
  input cfg: Cfg
  outcome done: type String, route success

type Cfg = schema {
  "type": "object",
  "required": ["items"],
  "properties": { "items": { "type": "array", "items": { "$ref": "#/$defs/Lens" } } },
  "$defs": {
    "Lens": { "type": "object", "required": ["name"], "properties": { "name": { "type": "string" } } }
  }
}
type Lens { LENS }

worker w
  action look(lens: Lens) -> String

step s
  fork lens in cfg.items
    look(lens: lens)
  join -> outs
  route done("x")
"""


def test_a_schema_def_is_its_own_type_beside_a_record_of_the_same_name() -> None:
    # the schema's `$defs/Lens` and the declared record `Lens` are two types: they fit while their
    # shapes agree, and a record field renamed makes the schema's items no longer fit
    assert errors(DEFS_DOC.replace("LENS", "name: String")) == []
    found = errors(DEFS_DOC.replace("LENS", "title: String"))
    line = DEFS_DOC.splitlines().index("    look(lens: lens)") + 1
    assert any(ln == line and c == "type-mismatch" and "$defs.Lens" in m for ln, c, m in found), found
