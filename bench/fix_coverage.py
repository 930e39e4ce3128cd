"""Quick-fix coverage: of the errors on every invalid document we have, how many get a fix.

    .venv/bin/python bench/fix_coverage.py [--codes] [--fail-under PCT] [FOLDER…]

Reads every `*.awl` under an `invalid/` folder of the corpus (`$AWL_CORPUS`, default
`../shared/corpus`) and of `tests/` (or of the folders given), checks each document on its own
(as the editor does), and counts its errors: those for which at least one fix is offered (what
the editor shows), and those whose preferred fix is safe (what `awl check --fix` applies unasked).
Prints one line per set of documents and the total, as errors and as codes (a code counts as
covered when one of its errors has a fix); `--codes` adds one line per code, least covered first.
`--fail-under PCT` exits 1 when fewer than PCT % of all errors have a fix.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from awl_lsp.checks import Severity
from awl_lsp.features.documents import analyse_text
from awl_lsp.features.findings import findings
from awl_lsp.features.fixes import fixes_for

REPO = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("AWL_CORPUS") or REPO.parent / "shared" / "corpus").resolve()


@dataclass
class Coverage:
    documents: int = 0
    errors: Counter[str] = field(default_factory=Counter)  # per code
    fixed: Counter[str] = field(default_factory=Counter)  # errors with at least one fix offered
    safe: Counter[str] = field(default_factory=Counter)  # errors whose preferred fix is safe

    def add(self, other: Coverage) -> None:
        self.documents += other.documents
        self.errors += other.errors
        self.fixed += other.fixed
        self.safe += other.safe

    def line(self, label: str) -> str:
        e, f, s = sum(self.errors.values()), sum(self.fixed.values()), sum(self.safe.values())
        codes = len(self.errors)
        covered = sum(1 for c in self.errors if self.fixed[c])
        return (
            f"{label:<28} {self.documents:>5} docs  {f:>4} / {e:<4} errors with a fix {_pct(f, e):>6}"
            f"  ({s} safe for --fix)   {covered:>3} / {codes:<3} codes {_pct(covered, codes):>6}"
        )


def _pct(n: int, total: int) -> str:
    return f"{100 * n / total:.1f} %" if total else "-"


def invalid_documents(root: Path) -> list[Path]:
    """The `*.awl` files below `root` in a folder named `invalid` (`root` itself may be one)."""
    return sorted(p for p in root.rglob("*.awl") if "invalid" in p.relative_to(root.parent).parts[:-1])


def coverage(paths: list[Path]) -> Coverage:
    out = Coverage(documents=len(paths))
    for path in paths:
        snap = analyse_text(path.read_text(encoding="utf-8"), path.resolve(), path.resolve().parent)
        for problem in findings(snap):
            if problem.severity is not Severity.ERROR:
                continue
            fixes = fixes_for(snap, problem)
            out.errors[problem.code] += 1
            out.fixed[problem.code] += bool(fixes)
            out.safe[problem.code] += any(f.preferred and f.safe for f in fixes)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="*", type=Path)
    parser.add_argument("--codes", action="store_true", help="one line per code, least covered first")
    parser.add_argument("--fail-under", type=float, metavar="PCT")
    args = parser.parse_args(argv)
    sets = [(str(f), f) for f in args.folders] or [("corpus", CORPUS), ("tests", REPO / "tests")]
    total = Coverage()
    for label, root in sets:
        if not root.is_dir():
            print(f"{label:<28} (not found: {root}; set AWL_CORPUS)")
            continue
        found = coverage(invalid_documents(root))
        print(found.line(label))
        total.add(found)
    print(total.line("all"))
    if args.codes:
        print(f"\n{'code':<28} {'errors':>6} {'fixed':>6} {'safe':>6}")
        for code in sorted(
            total.errors, key=lambda c: (total.fixed[c] / total.errors[c], -total.errors[c], c)
        ):
            print(f"{code:<28} {total.errors[code]:>6} {total.fixed[code]:>6} {total.safe[code]:>6}")
    errors, fixed = sum(total.errors.values()), sum(total.fixed.values())
    if args.fail_under is not None and (not errors or 100 * fixed / errors < args.fail_under):
        print(f"coverage {_pct(fixed, errors)} is under {args.fail_under} %", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
