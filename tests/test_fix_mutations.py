"""Every quick fix offered is safe on documents nobody wrote for them: a fixed-seed sample of the
mutation bench (`bench/fix_mutations.py`), the same mutants on every run.

The valid documents of the corpus (`$AWL_CORPUS`), of `tests/data` and of `examples/` each get one
user-like mistake at a time (a name misspelt, a binding, a clause, an arm or a route dropped); of
every kind of mistake the sample takes `PER_MISTAKE` mutants. For each error of a mutant, every
fix offered is applied on its own and the mutant checked again: the error must be gone, no problem
(code and message) may appear that was not there, and the text must still read. The editor offers
these fixes as quick fixes, and `awl check --fix --unsafe-fixes` applies the preferred ones.

Where the mutant is a workflow of a document the engine accepts, its front end
(`awl-reference check`) judges the preferred fixes too: once one is applied, the engine must
report fewer errors than in the mutant (each mutant holds one mistake, which may be reported as
more than one error).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from fix_mutations import CORPUS, REFERENCE, engine_agreement, judge, sample  # noqa: E402

SEED = 22
PER_MISTAKE = 40  # mutants of each kind of mistake
KINDS = 14  # kinds of mistake the bench makes


def _corpus() -> None:
    if not CORPUS.is_dir():
        reason = f"AWL corpus not found at {CORPUS} (set AWL_CORPUS)"
        if os.environ.get("AWL_REQUIRE_CORPUS") == "1":
            pytest.fail(reason)
        pytest.skip(reason)


@pytest.fixture(scope="module")
def judged() -> list:
    _corpus()
    chosen = sample(SEED, PER_MISTAKE)
    return [(path, mistake, text, judge(path, mistake, text, strict=True)) for path, mistake, text in chosen]


def test_no_fix_offered_on_a_mutant_makes_it_worse(judged: list) -> None:
    kinds = {mistake for _, mistake, _, _ in judged}
    assert len(kinds) == KINDS, sorted(kinds)
    errors = [offered for *_, j in judged for _, offered in j.errors]
    wrong = [line for *_, j in judged for line in j.wrong]
    print(
        f"\n{len(judged)} mutants, {len(kinds)} kinds of mistake: {sum(errors)} / {len(errors)} errors "
        f"with a fix, {len(wrong)} fixes that make a mutant worse"
    )
    assert not wrong, "\n".join(wrong)
    assert sum(errors) >= 0.85 * len(errors)  # (the whole bench: 88 %)


def test_the_engine_agrees_with_the_preferred_fixes(judged: list) -> None:
    if not (REFERENCE.is_file() and os.access(REFERENCE, os.X_OK)):
        reason = f"the engine's reference front end is not at {REFERENCE} (set AWL_REFERENCE)"
        if os.environ.get("AWL_REQUIRE_REFERENCE") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    mutated = [(path, text, j.fixed) for path, _, text, j in judged if j.workflow and j.fixed]
    agreed = engine_agreement(mutated)
    print(
        f"\nthe engine on {agreed.fixes} preferred fixes of workflow mutants: fewer errors after "
        f"{agreed.fewer}, none on the line fixed {agreed.line_clear}, none at all {agreed.accepted}"
    )
    assert agreed.fixes >= 100
    assert agreed.fewer >= 0.97 * agreed.fixes  # (the whole bench: 99.4 %)
