"""Quick fixes on documents nobody wrote for them: valid documents with one mistake put in.

    .venv/bin/python bench/fix_mutations.py [--codes] [--show N] [--engine] [--sample SEED]

Takes every valid document of the corpus (`$AWL_CORPUS`), of `tests/data` and of `examples/`, and
for each line makes the mistakes a user makes — a call or a pipe stage renamed, a route target
renamed, a binding, an `else` arm, a final route, a header clause, a record field or the `retire`
block dropped — one mutant per mistake. Each mutant is checked on its own; for every error it
reports, every fix offered is applied and the mutant checked again, as `tests/test_safe_fixes.py`
does (`judge`). Prints, per mutation, how many of the errors get a fix, the total, and the fixes
that left their problem, brought a new one or broke the syntax (`--show N` lists the first N of
those; `--codes` adds the coverage per mutation and code).

`--engine` also gives the engine's front end (`$AWL_REFERENCE`) each workflow mutant of a document
it accepts, and the mutant with the preferred fix of each of its errors applied (one at a time),
and counts the fixed texts where the engine reports fewer errors than in the mutant (and of those,
none on the line of the error fixed; none at all). `--sample SEED` judges only the
fixed-seed sample `tests/test_fix_mutations.py` runs in `make test` (`sample`).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from awl_lsp.features.documents import analyse_text
from awl_lsp.features.findings import findings
from awl_lsp.features.fixes import Fix, apply_edits, fixes_for
from awl_lsp.features.fixes.apply import syntax_broken
from awl_lsp.syntax.problems import Problem, Severity

REPO = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("AWL_CORPUS") or REPO.parent / "shared" / "corpus").resolve()
REFERENCE = Path(os.environ.get("AWL_REFERENCE") or REPO.parent / "shared" / "bin" / "awl-reference")
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


@dataclass
class Judged:
    """One mutant, checked, and each fix of each of its errors applied alone."""

    errors: list[tuple[str, bool]] = field(default_factory=list)  # (code, a fix offered) per error
    wrong: list[str] = field(default_factory=list)  # fixes that made the mutant worse, said how
    fixed: list[tuple[int, str]] = field(default_factory=list)  # (row, text) a preferred fix made
    workflow: bool = False


def judge(path: Path, mistake: str, text: str, strict: bool = False) -> Judged:
    """Check the mutant; apply each fix offered for each error on its own and check again: the
    error must be gone, no problem (code and message) may appear that was not there, and a text
    that read must still read. `strict` raises what a fix raises (the tests)."""
    snap = analyse_text(text, path, path.parent)
    problems = findings(snap)
    before = Counter(_key(p) for p in problems)
    broken = syntax_broken(snap)
    out = Judged(workflow=snap.model.flow is not None and not snap.model.is_workloop)
    for p in problems:
        if p.severity is not Severity.ERROR:
            continue
        offered = fixes_for(snap, p, strict=strict)
        out.errors.append((p.code, bool(offered)))
        for fix in offered:
            new_text = apply_edits(text, fix.plain_edits())
            new = analyse_text(new_text, path, path.parent)
            after = Counter(_key(q) for q in findings(new))
            if after[_key(p)] >= before[_key(p)] or after - before or (syntax_broken(new) and not broken):
                brought = sorted(after - before)[:1]
                out.wrong.append(f"{path.name} ({mistake}): `{fix.title}` for {p.code}: {brought}")
            elif fix.preferred:
                out.fixed.append((_row_after(p.range[0], fix), new_text))
    return out


def _row_after(row: int, fix: Fix) -> int:
    """Where line `row` is once the fix is applied (lines its edits add or remove above it)."""
    for e in fix.plain_edits():
        if e.range[2] < row:
            row += e.text.count("\n") - (e.range[2] - e.range[0])
    return row


def sample(seed: int, per_mistake: int) -> list[tuple[Path, str, str]]:
    """A fixed-seed sample of the mutants: `per_mistake` of each kind of mistake (all of a kind that
    has fewer), drawn alike on every run."""
    by_mistake: dict[str, list[tuple[Path, str, str]]] = defaultdict(list)
    for path in documents():
        for mistake, text in mutants(path.read_text(encoding="utf-8")):
            by_mistake[mistake].append((path, mistake, text))
    rng = random.Random(seed)
    out: list[tuple[Path, str, str]] = []
    for mistake in sorted(by_mistake):
        found = by_mistake[mistake]
        out += rng.sample(found, min(per_mistake, len(found)))
    return out


def engine_errors(texts: list[str]) -> list[list[int]]:
    """For each text, the 1-based line of each error the engine's front end reports."""
    out: list[list[int]] = [[] for _ in texts]
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, text in enumerate(texts):
            path = Path(tmp) / f"m{i}.awl"
            path.write_text(text, encoding="utf-8")
            paths.append(path)
        for start in range(0, len(paths), 200):
            batch = [str(p) for p in paths[start : start + 200]]
            result = subprocess.run([str(REFERENCE), "check", *batch], capture_output=True, text=True)
            for line in result.stdout.splitlines():
                parts = line.split("\t")
                if len(parts) >= 3 and parts[0].startswith(tmp) and parts[1] != "OK" and parts[2].isdigit():
                    out[int(Path(parts[0]).stem[1:])].append(int(parts[2]))
    return out


@dataclass
class Agreement:
    """What the engine says of the preferred fixes of workflow mutants whose document it accepts."""

    fixes: int = 0
    fewer: int = 0  # the engine reports fewer errors once the fix is applied
    line_clear: int = 0  # … and none on the line of the error fixed
    accepted: int = 0  # … and none at all


def engine_agreement(mutated: list[tuple[Path, str, list[tuple[int, str]]]]) -> Agreement:
    """(document, mutant, its preferred fixes as (row, fixed text)) → what the engine says."""
    originals = sorted({path for path, _, _ in mutated})
    verdicts = engine_errors([p.read_text(encoding="utf-8") for p in originals])
    accepted = {path for path, lines in zip(originals, verdicts, strict=True) if not lines}
    kept = [m for m in mutated if m[0] in accepted]
    before = engine_errors([text for _, text, _ in kept])
    fixed = [
        (len(was), row, text) for was, (_, _, fixes) in zip(before, kept, strict=True) for row, text in fixes
    ]
    after = engine_errors([text for _, _, text in fixed])
    out = Agreement(fixes=len(fixed))
    for (was, row, _), now in zip(fixed, after, strict=True):
        if len(now) < was:
            out.fewer += 1
            out.line_clear += row + 1 not in now
            out.accepted += not now
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--codes", action="store_true", help="coverage per mutation and code")
    parser.add_argument("--show", type=int, default=0, metavar="N", help="list the first N unsafe fixes")
    parser.add_argument("--engine", action="store_true", help="ask the engine about the preferred fixes")
    parser.add_argument("--sample", type=int, metavar="SEED", help="only the fixed-seed sample of the tests")
    parser.add_argument("--per-mistake", type=int, default=40, help="mutants of each kind in the sample")
    args = parser.parse_args(argv)
    errors: Counter[tuple[str, str]] = Counter()
    fixed: Counter[tuple[str, str]] = Counter()
    wrong: list[str] = []
    per_mistake: dict[str, Counter[str]] = defaultdict(Counter)
    mutated: list[tuple[Path, str, list[tuple[int, str]]]] = []  # workflow mutants and their fixes
    paths = documents()
    chosen = (
        sample(args.sample, args.per_mistake)
        if args.sample is not None
        else [(p, m, t) for p in paths for m, t in mutants(p.read_text(encoding="utf-8"))]
    )
    for path, mistake, text in chosen:
        judged = judge(path, mistake, text)
        for code, offered in judged.errors:
            errors[(mistake, code)] += 1
            fixed[(mistake, code)] += offered
            per_mistake[mistake]["errors"] += 1
            per_mistake[mistake]["fixed"] += offered
        wrong += judged.wrong
        if judged.workflow and judged.fixed:
            mutated.append((path, text, judged.fixed))
    print(f"{len(paths)} valid documents, {len(chosen)} mutants")
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
    if args.engine:
        a = engine_agreement(mutated)
        n = max(a.fixes, 1)
        print(
            f"  the engine on {a.fixes} workflow mutants (of documents it accepts), one preferred fix each:"
        )
        print(f"    fewer errors once fixed: {a.fewer} ({100 * a.fewer / n:.1f} %)")
        print(
            f"    … and none on the line of the error fixed: {a.line_clear} ({100 * a.line_clear / n:.1f} %)"
        )
        print(f"    … and none at all: {a.accepted} ({100 * a.accepted / n:.1f} %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
