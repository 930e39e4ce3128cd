"""Schema rules (`rules_schema`): imported files and inline `schema { … }` / `json { … }` bodies."""

from __future__ import annotations

from pathlib import Path

import pytest

from awl_lsp.checks import Severity, run_checks
from awl_lsp.model import ModelBuilder
from awl_lsp.syntax.parser import parse

DATA = Path(__file__).parent / "data" / "schemas"


def doc(type_line: str) -> str:
    return f"""\
//! schema fixture
workflow s
  input t: Thing
  outcome done: type String, route success

{type_line}

step one
  route done("x")
"""


def errors(source: str, path: Path | None = DATA / "doc.awl", workspace: Path | None = DATA) -> list[tuple]:
    src = source.encode()
    tree = parse(src)
    probs = run_checks(ModelBuilder().build(tree, src), tree, src, path, workspace)
    return [(p.range[0] + 1, p.code, p.message) for p in probs if p.severity is Severity.ERROR]


@pytest.mark.parametrize(
    ("file", "word", "code"),
    [
        ("nowhere.schema.json", "nowhere.schema.json", "schema-missing"),
        ("torn.schema.json", "torn.schema.json", "schema-json"),
        ("choice.schema.json", "oneOf", "schema-unsupported"),
        ("remote.schema.json", "$ref", "schema-unsupported"),
        ("nullish.schema.json", "null", "schema-unsupported"),
        ("dynamic.schema.json", "patternProperties", "schema-unsupported"),
        ("dynamic.schema.json", "anyOf", "schema-unsupported"),
        ("../../test_types.py", "outside the workspace", "schema-outside"),
    ],
)
def test_import_problems(file: str, word: str, code: str) -> None:
    found = errors(doc(f'type Thing = schema("{file}")'))
    assert any(ln == 6 and c == code and word in m for ln, c, m in found), found


def test_import_ok_and_types_read() -> None:
    assert errors(doc('type Thing = schema("ticket.schema.json")')) == []


def test_import_without_path_is_quiet() -> None:
    assert errors(doc('type Thing = schema("nowhere.schema.json")'), path=None, workspace=None) == []


def test_inline_bad_json_names_the_token() -> None:
    found = errors(doc('type Thing = schema {\n  "type": "object",\n  "required": wibble\n}'))
    assert any(
        ln == 8 and c == "json-invalid" and "wibble" in m and "not valid JSON" in m for ln, c, m in found
    )


def test_inline_unsupported_keyword_points_at_it() -> None:
    body = (
        'type Thing = schema {\n  "type": "object",\n  "properties": {\n    "v": { "oneOf": [] },\n'
        '    "gone": { "type": "null" }\n  }\n}'
    )
    found = errors(doc(body))
    assert any(ln == 9 and "oneOf" in m for ln, _, m in found), found
    assert any(ln == 10 and "null" in m for ln, _, m in found), found


def test_json_literal_validity() -> None:
    src = doc("type Thing { a: String }").replace(
        "\nstep one", 'const j = json {\n  "a": nope\n}\n\nstep one'
    )
    found = errors(src)
    assert any(c == "json-invalid" and "nope" in m and ln == 8 for ln, c, m in found), found
    ok = doc("type Thing { a: String }").replace("\nstep one", 'const j = json { "oneOf": [1] }\n\nstep one')
    assert errors(ok) == []


def test_inline_schema_ok() -> None:
    body = (
        'type Thing = schema {\n  "type": "object",\n  "required": ["not"],\n  "properties": {\n'
        '    "not": { "type": "number", "minimum": -1.5e3 }\n  }\n}'
    )
    assert errors(doc(body)) == []


@pytest.mark.parametrize(
    ("written", "bad"), [("Thing", False), ("[Thing]", True), ("Thing?", True), ("[Thing]?", True)]
)
def test_schema_of_names_one_type(written: str, bad: bool) -> None:
    found = errors(doc(f"type Thing {{ name: String }}\nconst thing_schema = schema of {written}"))
    codes = [code for _, code, _ in found]
    assert codes == (["schema-of-type"] if bad else []), found
