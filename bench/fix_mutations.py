"""Quick fixes on documents nobody wrote for them: valid documents with one mistake put in.

    .venv/bin/python bench/fix_mutations.py [--codes] [--show N]

Takes every valid document of the corpus (`$AWL_CORPUS`), of `tests/data` and of `examples/`, and
for each line makes the mistakes a user makes — a call or a pipe stage renamed, a route target
renamed, a binding, an `else` arm, a final route, a header clause, a record field or the `retire`
block dropped — one mutant per mistake. Each mutant is checked on its own; for every error it
reports, every fix offered is applied and the mutant checked again, as `tests/test_safe_fixes.py`
does. Prints, per mutation, how many of the errors get a fix, the total, and the fixes that left
their problem, brought a new one or broke the syntax (`--show N` lists the first N of those;
`--codes` adds the coverage per mutation and code).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path

from awl_lsp.documents import analyse_text
from awl_lsp.features.findings import findings
from awl_lsp.features.fixes import apply_edits, fixes_for
from awl_lsp.features.fixes.apply import syntax_broken
from awl_lsp.syntax.problems import Problem, Severity

REPO = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("AWL_CORPUS") or REPO.parent / "shared" / "corpus").resolve()
_PROVISIONAL = re.compile(r" \(provisional: [^)]*\)$")
_STATEMENT_WORDS = ("outcome", "route", "hatch", "spawn", "answer", "action", "wait", "fork", "loop")
_COMBINATORS = ("route", "filter", "map", "sort", "count", "any", "all")
_HEADER_WORDS = ("every ", "carry ", "report ", "signal ", "input ", "outcome ")


def documents() -> list[Path]:
    found = [p for p in CORPUS.glob("*/*/valid/*.awl")] + list(CORPUS.glob("*/valid/*.awl"))
    found += list((REPO / "tests" / "data").rglob("valid/*.awl")) + list((REPO / "examples").glob("*.awl"))
    return sorted(found)


def _with(lines: list[str], i: int, new: list[str]) -> str:
    return "\n".join(lines[:i] + new + lines[i + 1 :])


def mutants(text: str) -> Iterator[tuple[str, str]]:
    """(mistake, mutated text) for each line of the document where the mistake can be made."""
    lines = text.split("\n")
    header = False  # inside the flow's header (its clauses, up to the first top-level item)
    for i, line in enumerate(lines):
        s = line.strip()
        if line.startswith(("workflow ", "workloop ")):
            header = True
        elif line[:1].isalpha():
            header = False
        call = re.match(r"^(\s+)(?:[a-z_.]+ \|> )?([a-z_]+)\(", line)
        if call and not s.startswith(_STATEMENT_WORDS):
            yield (
                "call renamed",
                _with(lines, i, [line.replace(call.group(2) + "(", "zq_" + call.group(2) + "(", 1)]),
            )
        stage = re.search(r"\|> ([a-z_]+)\b(?!\()", line)
        if stage and stage.group(1) not in _COMBINATORS:
            yield (
                "stage renamed",
                _with(lines, i, [line.replace("|> " + stage.group(1), "|> zq_" + stage.group(1), 1)]),
            )
        if re.search(r" -> [a-z_]+\s*$", line) and not s.startswith(
            ("action", "child", "join", "wait", "collect")
        ):
            yield "binding dropped", _with(lines, i, [re.sub(r" -> [a-z_]+\s*$", "", line)])
        if re.match(r"\s+outcome \w+: (else|otherwise),", line):
            last = i + 1 if i + 1 < len(lines) and lines[i + 1].strip().startswith("route") else i
            yield "else arm dropped", "\n".join(lines[:i] + lines[last + 1 :])
        if line.startswith("  route ") and not s.startswith("route start"):
            yield "route dropped", "\n".join(lines[:i] + lines[i + 1 :])
        if header and s.startswith(_HEADER_WORDS) and line.startswith("  ") and not line.startswith("   "):
            yield f"`{s.split()[0]}` clause dropped", "\n".join(lines[:i] + lines[i + 1 :])
        if line.startswith("retire"):
            end = i + 1
            while end < len(lines) and (lines[end].startswith("  ") or not lines[end].strip()):
                end += 1
            yield "retire dropped", "\n".join(lines[:i] + lines[end:])
        record = re.match(r"^type \w+ \{ (\w+): [^,}]+, ", line)
        if record:
            yield (
                "field renamed",
                _with(lines, i, [line.replace(record.group(1) + ":", "zq_" + record.group(1) + ":", 1)]),
            )
        route = re.search(r"route ([a-z_]+)", line)
        if route and route.group(1) != "start":
            yield (
                "route target renamed",
                _with(lines, i, [line.replace("route " + route.group(1), "route zq_" + route.group(1), 1)]),
            )


def _key(p: Problem) -> tuple[str, str]:
    return p.code, _PROVISIONAL.sub("", p.message)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--codes", action="store_true", help="coverage per mutation and code")
    parser.add_argument("--show", type=int, default=0, metavar="N", help="list the first N unsafe fixes")
    args = parser.parse_args(argv)
    errors: Counter[tuple[str, str]] = Counter()
    fixed: Counter[tuple[str, str]] = Counter()
    wrong: list[str] = []
    per_mistake: dict[str, Counter[str]] = defaultdict(Counter)
    paths = documents()
    count = 0
    for path in paths:
        for mistake, text in mutants(path.read_text(encoding="utf-8")):
            count += 1
            snap = analyse_text(text, path, path.parent)
            problems = findings(snap)
            before = Counter(_key(p) for p in problems)
            for p in problems:
                if p.severity is not Severity.ERROR:
                    continue
                offered = fixes_for(snap, p)
                errors[(mistake, p.code)] += 1
                fixed[(mistake, p.code)] += bool(offered)
                per_mistake[mistake]["errors"] += 1
                per_mistake[mistake]["fixed"] += bool(offered)
                for fix in offered:
                    new = analyse_text(apply_edits(text, fix.plain_edits()), path, path.parent)
                    after = Counter(_key(q) for q in findings(new))
                    if (
                        after[_key(p)] >= before[_key(p)]
                        or after - before
                        or (syntax_broken(new) and not syntax_broken(snap))
                    ):
                        brought = sorted(after - before)[:1]
                        wrong.append(f"{path.name} ({mistake}): `{fix.title}` for {p.code}: {brought}")
    print(f"{len(paths)} valid documents, {count} mutants")
    for mistake, c in sorted(per_mistake.items()):
        print(f"  {mistake:<26} {c['fixed']:>5} / {c['errors']:<5} errors with a fix")
    total, with_fix = sum(errors.values()), sum(fixed.values())
    print(
        f"  {'all':<26} {with_fix:>5} / {total:<5} errors with a fix ({100 * with_fix / max(total, 1):.1f} %)"
    )
    print(f"  fixes that left their problem, brought another or broke the syntax: {len(wrong)}")
    if args.codes:
        for (mistake, code), n in sorted(errors.items()):
            print(f"    {mistake:<26} {code:<26} {fixed[(mistake, code)]:>5} / {n}")
    for line in wrong[: args.show]:
        print("    " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
