"""Scaffold a checker rule: `make new-rule NAME=word_word [KIND=workflow|workloop] [NODE=node_type]`.

    python tools/new_rule.py NAME [--kind workflow|workloop] [--node NODE] [--root DIR]

writes, in the clone (or DIR):

- `awl_lsp/checks/rules_NAME.py`: the rule module, from the template below: `check_item` walks the
  item's NODE nodes (default `step_declaration`) and hands each to `_check`, which reports nothing
  until you write it; its problems carry the code `NAME` with hyphens (`quiet_once` -> `quiet-once`);
- the module's registration in `awl_lsp/checks/__init__.py` (the import and `RULES`, in
  alphabetical place; move it when the rule must run before or after another);
- `tests/data/checks/NAME/valid/NAME.awl`, `invalid/NAME.awl` and its sidecar `invalid/NAME.expected`
  (stage / a word the message contains / 1-based line, the corpus's layout): a document of KIND
  that every check accepts, and the same document with a marked line where the fault goes;
- `tests/test_rules_NAME.py`: the valid documents have no error; each invalid one has its first
  error on its sidecar's line, with its word, and that error is this rule's; workflow documents
  get the same verdict from the engine's front end (`awl-reference`). The invalid half is marked
  as an expected failure (`SCAFFOLD = True`, strict) until the rule reports: then it fails, and
  you delete the mark.

The result passes ruff, mypy and its tests as written (`tests/test_new_rule.py` runs this in a
copy of the tree); CONTRIBUTING.md ("Add a rule") says what to fill in. A development tool:
nothing in the server or the CLI imports it.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
NAME = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$")

RULE = '''\
"""TODO: the rule family in a few words: what `rules_{name}` refuses, and why.

- TODO: one line per rule: what is refused, and what the author should write instead.

Every problem carries the code `{code}` and, where a quick fix can use it, structured `data`
(the name as written, what is missing: CONTRIBUTING.md, "Adding a fix").
"""

from __future__ import annotations

from tree_sitter import Node

from awl_lsp.checks.base import ItemContext

CODE = "{code}"
"""The code of this module's problems."""


def check_item(ctx: ItemContext) -> None:
    for node in ctx.descendants("{node}"):
        _check(ctx, node)


def _check(ctx: ItemContext, node: Node) -> None:
    """TODO: report what is wrong with `node`, in words that say what was expected there, e.g.
    ctx.error(node, "… is missing …: write …", CODE, {{"missing": "…"}})."""
'''

TEST = '''\
"""`rules_{name}` on its own documents, and as the engine's front end judges them.

`tests/data/checks/{name}/valid/*.awl` are free of errors; each `invalid/X.awl` has its first error on
the line its sidecar `X.expected` gives (stage / a word the message contains / 1-based line), and
that error is this rule's (`{code}`). Workflow documents also go to `awl-reference check`
(`$AWL_REFERENCE`), which must give the same verdict and line; without it that test skips, unless
`AWL_REQUIRE_REFERENCE=1`. (Made by `make new-rule`.)
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from differential.harness import REFERENCE, reference_verdicts
from differential.mutate import in_reference_language

from awl_lsp.checks.base import Problem, Severity
from awl_lsp.checks.rules_{name} import CODE
from awl_lsp.features.diagnostics import findings
from awl_lsp.features.documents import analyse_text

DATA = Path(__file__).resolve().parent / "data" / "checks" / "{name}"
VALID = sorted((DATA / "valid").glob("*.awl"))
INVALID = sorted((DATA / "invalid").glob("*.awl"))
SCAFFOLD = True  # TODO: delete these two lines and the `@pending` marks once the rule reports
pending = pytest.mark.xfail(SCAFFOLD, strict=True, reason="scaffold: the rule reports nothing yet")


def _errors(path: Path) -> list[Problem]:
    """The document's errors as `awl check` finds them, first first."""
    snap = analyse_text(path.read_text(encoding="utf-8"), path, path.parent)
    return sorted((f for f in findings(snap) if f.severity is Severity.ERROR), key=lambda f: f.range)


def _sidecar(path: Path) -> tuple[str, str, int]:
    stage, word, line = path.with_suffix(".expected").read_text(encoding="utf-8").splitlines()[:3]
    assert stage in ("PARSE", "CHECK"), f"{{path.name}}: stage {{stage!r}}"
    return stage, word, int(line)


def _engine(paths: list[Path]) -> dict[Path, tuple[bool, int | None]]:
    if not REFERENCE.is_file():
        reason = f"the engine's front end is not at {{REFERENCE}} (set AWL_REFERENCE)"
        if os.environ.get("AWL_REQUIRE_REFERENCE") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    known = [p for p in paths if in_reference_language(p.read_text(encoding="utf-8"))]
    if not known:
        pytest.skip("the engine's rev-2 front end knows no workloops (nor `if`/`else` arms): not asked")
    return {{p: (v.ok, v.line) for p, v in reference_verdicts(known, REFERENCE).items()}}


def test_the_rule_has_documents() -> None:
    assert VALID and INVALID


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_a_valid_document_has_no_error(path: Path) -> None:
    assert [(e.range[0] + 1, e.message) for e in _errors(path)] == []


@pending
@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.stem)
def test_the_first_error_is_this_rules_on_the_sidecars_line(path: Path) -> None:
    _, word, line = _sidecar(path)
    errors = _errors(path)
    assert errors, f"no error; expected one on line {{line}}"
    first = errors[0]
    assert (first.range[0] + 1, first.code) == (line, CODE), first.message
    assert word.lower() in first.message.lower(), first.message


def test_the_engine_accepts_the_valid_documents() -> None:
    verdicts = _engine(VALID)
    assert {{p.name: v for p, v in verdicts.items() if v != (True, None)}} == {{}}


@pending
def test_the_engine_refuses_the_invalid_documents_on_the_same_line() -> None:
    verdicts = _engine(INVALID)
    wrong = {{p.name: v for p, v in verdicts.items() if v != (False, _sidecar(p)[2])}}
    assert wrong == {{}}
'''

DOCUMENTS = {
    "workflow": (
        "workflow {name}\n"
        "  input n: Int\n"
        "  outcome done: type Int, route success\n"
        "\n"
        "step first\n"
        "{line}"
        "  route done(n)\n"
    ),
    "workloop": ("workloop {name}\n  every 5m\n\nstep first\n{line}  route start\n\nretire\n  route start\n"),
}


class ScaffoldError(ValueError):
    """The scaffold cannot be written as asked."""


def _register(init: Path, module: str) -> None:
    """Insert `module` into the import block and the `RULES` list of checks/__init__.py."""
    lines = init.read_text(encoding="utf-8").split("\n")
    for opener in ("from awl_lsp.checks import (", "RULES: list = ["):
        start = lines.index(opener)
        end = next(i for i in range(start + 1, len(lines)) if lines[i] in (")", "]"))
        names = [(i, re.match(r"^    (rules_\w+),", lines[i])) for i in range(start + 1, end)]
        listed = [(i, m.group(1)) for i, m in names if m]
        if any(name == module for _, name in listed):
            raise ScaffoldError(f"{module} is registered already")
        at = next((i for i, name in listed if name > module), end)
        lines.insert(at, f"    {module},")
    init.write_text("\n".join(lines), encoding="utf-8")


def scaffold(
    name: str, kind: str = "workflow", node: str = "step_declaration", root: Path = REPO
) -> list[Path]:
    """Write the rule module, its registration, its documents and its test; the paths written."""
    if not NAME.match(name):
        raise ScaffoldError(f"{name!r} is not a snake_case name (like quiet_once)")
    if kind not in DOCUMENTS:
        raise ScaffoldError(f"kind {kind!r}: workflow or workloop")
    if not re.match(r"^[a-z_]+$", node):
        raise ScaffoldError(f"{node!r} is not a node type of the grammar (like step_declaration)")
    module = f"rules_{name}"
    code = name.replace("_", "-")
    rule = root / "awl_lsp" / "checks" / f"{module}.py"
    test = root / "tests" / f"test_{module}.py"
    data = root / "tests" / "data" / "checks" / name
    for path in (rule, test, data):
        if path.exists():
            raise ScaffoldError(f"{path.relative_to(root)} exists already")
    body = DOCUMENTS[kind]
    valid = f"//! TODO: what this document shows: {kind} text `{module}` accepts.\n"
    valid += body.format(name=name, line="")
    fault = f"  // TODO: the line {module} refuses (the sidecar gives its line and a word)\n"
    invalid = f"//! TODO: the valid document with the one line `{module}` refuses.\n"
    invalid += body.format(name=name, line=fault)
    fault_line = invalid.split("\n").index(fault.rstrip("\n")) + 1
    files = {
        rule: RULE.format(name=name, code=code, node=node),
        test: TEST.format(name=name, code=code),
        data / "valid" / f"{name}.awl": valid,
        data / "invalid" / f"{name}.awl": invalid,
        data / "invalid" / f"{name}.expected": f"CHECK\nTODO\n{fault_line}\n",
    }
    _register(root / "awl_lsp" / "checks" / "__init__.py", module)
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return [root / "awl_lsp" / "checks" / "__init__.py", *files]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n", 1)[0])
    parser.add_argument("name", help="snake_case: the module is rules_NAME, the code NAME with hyphens")
    parser.add_argument("--kind", default="workflow", choices=sorted(DOCUMENTS), help="the documents' flow")
    parser.add_argument("--node", default="step_declaration", help="the node type check_item walks")
    parser.add_argument("--root", type=Path, default=REPO, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    try:
        written = scaffold(args.name, args.kind, args.node, args.root)
    except ScaffoldError as error:
        print(f"new-rule: {error}", file=sys.stderr)
        return 2
    for path in written:
        print(f"wrote {path.relative_to(args.root)}")
    print(
        f"next: write _check in awl_lsp/checks/rules_{args.name}.py and the documents' TODO lines, then "
        f"delete SCAFFOLD in tests/test_rules_{args.name}.py (CONTRIBUTING.md, 'Add a rule')"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
