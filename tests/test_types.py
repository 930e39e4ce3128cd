"""Type inference (`awl_lsp.model.types`) on small documents."""

from __future__ import annotations

from pathlib import Path

import pytest

from awl_lsp.model import Kind, ModelBuilder
from awl_lsp.model.types import (
    INT,
    STRING,
    TypeEnv,
    assignable,
    fields_of_type,
    list_of,
    named,
    optional_of,
    parse_type_text,
    type_of_symbol,
)
from awl_lsp.syntax.parser import parse

DATA = Path(__file__).parent / "data" / "schemas"

DOC = """\
//! inference fixture
workflow infer
  input items: [Item]
  input name: String
  signal nod: Nod
  outcome done: type Out, route success

const banner = "hi " + "there"
const shape = schema of Item

type Item { title: String, weight: Int, urgent: Bool, note: String? }
type Nod  { ok: Bool }
type Out  { text: String }
type Level = Low | High

worker w
  action make(name: String) -> Item
  action judge(item: Item) -> Nod

step first
  make(name: name) -> made
  items |> filter(.urgent) -> urgent
  items |> map(.title) -> titles
  items |> count -> total
  items |> any(.urgent) -> some
  name |> make |> .weight -> weight
  made.note -> note
  items[0] -> head
  fork item in items
    judge(item: item)
  join -> verdicts
  loop current = made counting rounds
    make(name: current.title) -> current
    until current.urgent
    max 3
  wait nod timeout 5m -> reply
  route done(text: name)
"""


def env_for(source: str, path: Path | None = None) -> TypeEnv:
    src = source.encode()
    tree = parse(src)
    return TypeEnv(ModelBuilder().build(tree, src), tree, src, path)


def binding_types(env: TypeEnv) -> dict[str, str]:
    return {s.name: str(type_of_symbol(s, env)) for s in env.model.of_kind(Kind.BINDING)}


def test_parse_type_text() -> None:
    assert parse_type_text("[String]") == list_of(STRING)
    assert parse_type_text("Int?") == optional_of(INT)
    assert str(parse_type_text("[Item]?")) == "[Item]?"
    assert parse_type_text("").unknown


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("made", "Item"),
        ("urgent", "[Item]"),
        ("titles", "[String]"),
        ("total", "Int"),
        ("some", "Bool"),
        ("weight", "Int"),
        ("note", "String?"),
        ("head", "Item"),
        ("item", "Item"),
        ("verdicts", "[Nod]"),
        ("current", "Item"),
        ("rounds", "Int"),
        ("reply", "Nod?"),
    ],
)
def test_binding_types(name: str, expected: str) -> None:
    assert binding_types(env_for(DOC))[name] == expected


def test_consts_and_fields() -> None:
    env = env_for(DOC)
    banner = env.model.first(Kind.CONST, "banner")
    shape = env.model.first(Kind.CONST, "shape")
    assert banner is not None and shape is not None
    assert type_of_symbol(banner, env) == STRING
    assert type_of_symbol(shape, env) == STRING
    assert set(fields_of_type(named("Item"), env)) == {"title", "weight", "urgent", "note"}
    assert fields_of_type(STRING, env) == {}
    assert env.table.variants(named("Level")) == ["Low", "High"]


def test_assignable() -> None:
    table = env_for(DOC).table
    assert not assignable(INT, parse_type_text("Float"), table)  # the engine does not widen Int to Float
    assert not assignable(STRING, INT, table)
    assert assignable(optional_of(STRING), STRING, table)  # optionality is a separate (guarded) rule
    assert assignable(list_of(parse_type_text("Nope")), list_of(STRING), table)  # undeclared never mismatches
    assert not assignable(list_of(STRING), STRING, table)


def test_schema_import_types() -> None:
    doc = """\
//! schema fixture
workflow s
  input t: Ticket
  outcome done: type Ticket, route success

type Ticket = schema("ticket.schema.json")
type Inline = schema { "type": "object", "required": ["id"], "properties": { "id": { "type": "integer" } } }

step one
  t.owner.name -> who
  t.priority -> prio
  t |> .tags -> tags
  t |> route done
"""
    env = env_for(doc, DATA / "doc.awl")
    types = binding_types(env)
    assert types == {"who": "String", "prio": "Int?", "tags": "[String]"}
    assert env.fields_of_type(named("Inline")) == {"id": INT}


def test_unknown_is_quiet_and_broken_trees_do_not_crash() -> None:
    env = env_for("//! x\nworkflow w\n  input a: Missing\nstep s\n  a.b.c |> (( -> z\n  foo(x: ) -> y\n")
    assert all(t in ("unknown",) for t in binding_types(env).values())
