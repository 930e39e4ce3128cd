"""The syntax-message sweep: every line of the project's and the corpus's documents cut short after
each of its tokens, and the syntax messages those broken documents get.

A message is *generic* when it does not say what was expected where the line stopped: an
`unexpected …` or `incomplete … line` with nothing after it, or a `missing …` that names only the
kind of token the parser stood in ("a name") for a place that wants something more specific.
`tests/test_messages_expected.py` runs it over the documents and asserts there are none; by hand:
    .venv/bin/python tests/message_sweep.py [--show N]
"""

from __future__ import annotations

import os
import re
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("AWL_CORPUS") or REPO.parent / "shared" / "corpus").resolve()
_TOKEN = re.compile(r'"(?:\\.|[^"\\])*"?|[A-Za-z_][A-Za-z0-9_]*|\d+[smhd]?|\|>|->|==|!=|<=|>=|\S')
_CODE = re.compile(r"`[^`]*`")
# messages that say nothing about what was expected
_GENERIC = (
    re.compile(r"^unexpected `[^`]*`( after `[^`]*`)?$"),
    re.compile(r"^incomplete `[^`]*` line: `[^`]*`$"),
    re.compile(
        r"^missing (a name|a number|a string|a type) after `(every|retention|timeout|sleep|for|key|in)`"
    ),
)


def documents() -> list[Path]:
    """The documents the sweep cuts: the project's own examples and test documents, and the corpus."""
    own = sorted((REPO / "tests" / "data").rglob("*.awl")) + sorted((REPO / "examples").rglob("*.awl"))
    corpus = sorted(CORPUS.rglob("*.awl")) if CORPUS.is_dir() else []
    return own + corpus


def variants(text: str) -> Iterator[tuple[int, str]]:
    """(row, text) of each document whose line `row` is cut right after one of its tokens."""
    lines = text.split("\n")
    for row, line in enumerate(lines):
        body = line.strip()
        if not body or body.startswith("//"):
            continue
        tokens = list(_TOKEN.finditer(line))
        for m in tokens[:-1]:
            yield row, "\n".join([*lines[:row], line[: m.end()], *lines[row + 1 :]])


def is_generic(message: str) -> bool:
    return any(p.search(message) for p in _GENERIC)


def sweep(paths: list[Path]) -> tuple[int, Counter[str], dict[str, str]]:
    """(documents made, syntax messages by shape, one example per shape)."""
    from awl_lsp.syntax import parse
    from awl_lsp.syntax.errors import syntax_problems

    shapes: Counter[str] = Counter()
    examples: dict[str, str] = {}
    made = 0
    for path in paths:
        text = path.read_text(encoding="utf-8")
        for row, variant in variants(text):
            made += 1
            source = variant.encode("utf-8")
            for p in syntax_problems(parse(source), source, variant):
                if p.code not in ("syntax", "missing"):
                    continue
                shape = _CODE.sub("`…`", p.message)
                shapes[shape] += 1
                examples.setdefault(shape, f"{path.name}:{row + 1}: {p.message}")
    return made, shapes, examples


def main(argv: list[str]) -> int:
    show = int(argv[argv.index("--show") + 1]) if "--show" in argv else 40
    made, shapes, examples = sweep(documents())
    generic = {s: n for s, n in shapes.items() if is_generic(examples[s].split(": ", 1)[1])}
    print(f"{made} cut documents, {sum(shapes.values())} syntax messages in {len(shapes)} shapes")
    print(f"generic: {sum(generic.values())} messages in {len(generic)} shapes")
    for shape, n in sorted(generic.items(), key=lambda x: -x[1])[:show]:
        print(f"  {n:6}  {examples[shape]}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    raise SystemExit(main(sys.argv[1:]))
