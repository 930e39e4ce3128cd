"""The differential harness: our checker and the engine's own front end judge the same mutants.

Seeds are the project's own workflows (`tests/data/conformance/*.awl`) and the corpus's valid rev-2
workflows, read at run time from `$AWL_CORPUS` (never copied). Every mutant is written to a
temporary folder beside copies of its seed's neighbours (schema files), checked in-process by
`awl_lsp` exactly as `awl check` does, and in batches by `awl-reference check`. The comparison is
the verdict (accept / reject) and the first error line.

Run it by hand for triage (`--structural` for the structural mutations, `--nesting` for the nesting
ones, each reported on its own):
    .venv/bin/python tests/differential/harness.py --mutants 5000 --seed 7 --out /tmp/disagreements.txt
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from differential.mutate import Mutant, mutants  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
OWN_SEEDS = REPO / "tests" / "data" / "conformance"
CORPUS = Path(os.environ.get("AWL_CORPUS") or REPO.parent / "shared" / "corpus").resolve()
REFERENCE = Path(
    os.environ.get("AWL_REFERENCE") or REPO.parent / "shared" / "bin" / "awl-reference"
).resolve()
_BATCH = 200


@dataclass(frozen=True)
class Verdict:
    ok: bool
    line: int | None  # 1-based first error line
    message: str = ""


@dataclass(frozen=True)
class Outcome:
    mutant: Mutant
    ours: Verdict
    ref: Verdict

    @property
    def same_verdict(self) -> bool:
        return self.ours.ok == self.ref.ok

    @property
    def same_line(self) -> bool:
        return self.same_verdict and self.ours.line == self.ref.line


def seed_documents(include_corpus: bool = True) -> list[tuple[str, str, Path]]:
    """(name, text, folder its relative paths resolve in) of every seed workflow."""
    own = sorted(OWN_SEEDS.glob("*.awl"))
    out = [(f"own/{p.name}", p.read_text(encoding="utf-8"), p.parent) for p in own]
    if include_corpus and CORPUS.is_dir():
        for p in sorted(CORPUS.glob("rev2/**/valid/*.awl")):
            out.append((f"corpus/{p.relative_to(CORPUS)}", p.read_text(encoding="utf-8"), p.parent))
    return out


def reference_verdicts(files: list[Path], reference: Path = REFERENCE) -> dict[Path, Verdict]:
    """`awl-reference check` over many files (batched): its verdict and first error line for each."""
    out: dict[Path, Verdict] = {}
    for start in range(0, len(files), _BATCH):
        batch = files[start : start + _BATCH]
        run = subprocess.run(
            [str(reference), "check", *map(str, batch)], capture_output=True, text=True, timeout=120
        )
        for row in run.stdout.splitlines():
            parts = row.split("\t")
            if len(parts) < 2:
                continue
            path = Path(parts[0])
            if parts[1] == "OK":
                out[path] = Verdict(True, None)
            else:
                line = int(parts[2]) if len(parts) > 2 and parts[2].isdigit() else None
                seen = out.get(path)  # one row per error: the first error is the earliest line
                if seen is None or (line is not None and (seen.line is None or line < seen.line)):
                    out[path] = Verdict(False, line, f"{parts[1]}: {parts[3] if len(parts) > 3 else ''}")
        missing = [f for f in batch if f not in out]
        if missing:
            raise RuntimeError(f"awl-reference gave no verdict for {missing[0]}: {run.stderr[-400:]}")
    return out


def our_verdict(text: str, path: Path, workspace: Path) -> Verdict:
    """Our verdict, computed as `awl check` computes it (syntax problems and checker errors)."""
    from awl_lsp.checks import Severity
    from awl_lsp.features.diagnostics import findings
    from awl_lsp.features.documents import analyse_text

    snap = analyse_text(text, path, workspace)
    errors = [f for f in findings(snap) if f.severity is Severity.ERROR]
    if not errors:
        return Verdict(True, None)
    first = min(errors, key=lambda f: f.range)
    return Verdict(False, first.range[0] + 1, first.message)


def run(
    count: int,
    seed: int,
    include_corpus: bool = True,
    reference: Path = REFERENCE,
    structural: bool = False,
    nesting: bool = False,
) -> list[Outcome]:
    """Make `count` mutants from `seed` (single-line, `structural` or `nesting`) and judge each with
    both front ends."""
    seeds = seed_documents(include_corpus)
    folders = {name: folder for name, _, folder in seeds}
    made = mutants([(name, text) for name, text, _ in seeds], count, seed, structural, nesting)
    with tempfile.TemporaryDirectory(prefix="awl-diff-") as tmp:
        root = Path(tmp)
        places: dict[str, Path] = {}
        files: list[Path] = []
        for n, m in enumerate(made):
            folder = places.get(m.seed_name)
            if folder is None:  # one folder per seed, with its schemas
                folder = root / f"s{len(places)}"
                folder.mkdir()
                for neighbour in folders[m.seed_name].iterdir():  # copies: the workspace holds them
                    if neighbour.is_dir():
                        shutil.copytree(neighbour, folder / neighbour.name)
                    elif neighbour.suffix != ".awl":
                        shutil.copy(neighbour, folder / neighbour.name)
                places[m.seed_name] = folder
            f = folder / f"m{n}.awl"
            f.write_text(m.text, encoding="utf-8")
            files.append(f)
        ref = reference_verdicts(files, reference)
        return [
            Outcome(m, our_verdict(m.text, f, f.parent), ref[f]) for m, f in zip(made, files, strict=True)
        ]


def table(outcomes: list[Outcome], seed: int) -> str:
    """The agreement table: seed, mutants, verdict %, same-first-line %, and the kinds of disagreement."""
    n = len(outcomes) or 1
    verdict = sum(o.same_verdict for o in outcomes)
    line = sum(o.same_line for o in outcomes)
    misses = sum(o.ours.ok and not o.ref.ok for o in outcomes)
    false_alarms = sum(not o.ours.ok and o.ref.ok for o in outcomes)
    kinds = Counter(o.mutant.kind for o in outcomes if not o.same_line)
    return "\n".join(
        [
            "| seed | mutants | verdict agreement | same first line | missed | false alarms |",
            "|---|---|---|---|---|---|",
            f"| {seed} | {len(outcomes)} | {100 * verdict / n:.1f} % | {100 * line / n:.1f} % "
            f"| {misses} | {false_alarms} |",
            "disagreeing by mutation: " + (", ".join(f"{k} {v}" for k, v in sorted(kinds.items())) or "none"),
            "per mutation (verdict / same first line): " + _per_kind(outcomes),
        ]
    )


def _per_kind(outcomes: list[Outcome]) -> str:
    made = Counter(o.mutant.kind for o in outcomes)
    verdict = Counter(o.mutant.kind for o in outcomes if o.same_verdict)
    line = Counter(o.mutant.kind for o in outcomes if o.same_line)
    return ", ".join(f"{k} {verdict[k]}/{line[k]}/{n}" for k, n in sorted(made.items()))


def disagreements(outcomes: list[Outcome]) -> str:
    """Every disagreement, with the mutated line and both front ends' first errors, for triage."""
    blocks = []
    for o in outcomes:
        if o.same_line:
            continue
        m = o.mutant
        lines = m.text.split("\n")
        shown = o.ref.line or o.ours.line or m.line
        context = "\n".join(
            f"    {k + 1:4}| {lines[k]}" for k in range(max(0, shown - 3), min(len(lines), shown + 2))
        )
        blocks.append(
            f"== {m.seed_name} [{m.kind} at seed line {m.line}]\n"
            f"  reference: {'OK' if o.ref.ok else f'line {o.ref.line}: {o.ref.message}'}\n"
            f"  ours:      {'OK' if o.ours.ok else f'line {o.ours.line}: {o.ours.message}'}\n{context}"
        )
    return "\n".join(blocks)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutants", type=int, default=int(os.environ.get("AWL_DIFF_MUTANTS") or 1000))
    parser.add_argument("--seed", type=int, default=int(os.environ.get("AWL_DIFF_SEED") or 1))
    parser.add_argument("--out", type=Path, help="write the disagreements here")
    parser.add_argument("--own-only", action="store_true", help="seed with the project's documents only")
    parser.add_argument(
        "--dump", type=Path, help="write each mutant whose verdict differs here, as a whole document"
    )
    parser.add_argument(
        "--structural", action="store_true", help="the structural mutations (swapped tokens, keywords, …)"
    )
    parser.add_argument(
        "--nesting",
        action="store_true",
        help="the nesting mutations (steps moved into and out of blocks, routes and `after` re-pointed)",
    )
    args = parser.parse_args(argv)
    if not REFERENCE.is_file():
        print(f"awl-reference not found at {REFERENCE} (set AWL_REFERENCE)", file=sys.stderr)
        return 2
    outcomes = run(
        args.mutants,
        args.seed,
        include_corpus=not args.own_only,
        structural=args.structural,
        nesting=args.nesting,
    )
    print(table(outcomes, args.seed))
    text = disagreements(outcomes)
    if args.dump:
        args.dump.mkdir(parents=True, exist_ok=True)
        for n, o in enumerate(x for x in outcomes if not x.same_verdict):
            side = "missed" if o.ours.ok else "false-alarm"
            name = f"{args.seed}-{n:02d}-{side}-{Path(o.mutant.seed_name).stem}.awl"
            (args.dump / name).write_text(o.mutant.text, encoding="utf-8")
        print(f"mutants judged differently written to {args.dump}")
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
        print(f"disagreements written to {args.out}")
    else:
        print(text, file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
