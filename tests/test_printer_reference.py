"""`awl fmt` prints what the engine prints: a differential test against the reference printer.

Every workflow of the shared corpus (`$AWL_CORPUS`, read at run time, never copied) and our own
documents under `tests/data/fmt/workflows` and the valid workflows of `tests/data/spec` go through
`awl-reference fmt` (`$AWL_REFERENCE`, default `<repo>/../shared/bin/awl-reference`) and through
our printer, in their written form and in perturbed copies (`fmt_perturb`: collapsed spaces, extra
spaces, broken alignment, comment indentation and blank lines, continuation lines pulled back or
joined), and seeded single-line mutants of them (`AWL_FMT_MUTANTS`, default 120; `AWL_FMT_SEED`,
default 8). Where the reference accepts a copy, the two outputs must be byte-identical. The
equality figure is printed.

Without the reference or the corpus the differential tests skip and say which input is missing;
`AWL_REQUIRE_REFERENCE=1` / `AWL_REQUIRE_CORPUS=1` make that a failure. Idempotence needs neither.
"""

from __future__ import annotations

import os
import random
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from fmt_perturb import PERTURBATIONS, mutate

from awl_lsp.features.printer import canonical_text

REPO = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("AWL_CORPUS") or REPO.parent / "shared" / "corpus").resolve()
REFERENCE = Path(os.environ.get("AWL_REFERENCE") or REPO.parent / "shared" / "bin" / "awl-reference")
OWN = REPO / "tests" / "data" / "fmt" / "workflows"
SPEC = REPO / "tests" / "data" / "spec"  # the documents written from LANGUAGE.md (test_spec_documents.py)


def _skip_or_fail(reason: str, flag: str) -> None:
    if os.environ.get(flag) == "1":
        pytest.fail(reason)
    pytest.skip(reason)


def _reference() -> Path:
    if not (REFERENCE.is_file() and os.access(REFERENCE, os.X_OK)):
        reason = f"reference front end not found at {REFERENCE} (set AWL_REFERENCE)"
        _skip_or_fail(reason, "AWL_REQUIRE_REFERENCE")
    return REFERENCE


def corpus_workflows() -> list[Path]:
    """The corpus's valid workflows; none when the corpus is absent (the corpus test says so)."""
    if not CORPUS.is_dir():
        if os.environ.get("AWL_REQUIRE_CORPUS") == "1":
            pytest.fail(f"AWL corpus not found at {CORPUS} (set AWL_CORPUS)")
        return []
    return sorted(p for p in (CORPUS / "rev2").glob("*/valid/*.awl"))


def own_workflows() -> list[Path]:
    """Our printer documents, and the valid spec documents the engine can judge (not workloops, not
    the newer `if`/`else` spellings)."""
    spec = [p for p in SPEC.glob("*/valid/*.awl") if p.parts[-3] not in ("workloops", "newer")]
    return sorted(OWN.glob("*.awl")) + sorted(spec)


def variants(text: str) -> dict[str, str]:
    return {"original": text} | {name: perturb(text) for name, perturb in PERTURBATIONS.items()}


@dataclass
class Case:
    source: str  # "corpus" or "own"
    path: Path
    variant: str
    text: str
    reference: str | None  # None: the reference does not accept this copy
    ours: str | None


def _reference_fmt(reference: Path, text: str, folder: Path, index: int) -> str | None:
    probe = folder / f"probe{index}.awl"
    probe.write_text(text, encoding="utf-8")
    done = subprocess.run([str(reference), "fmt", str(probe)], capture_output=True, timeout=60)
    return done.stdout.decode("utf-8") if done.returncode == 0 else None


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    reference = _reference()
    files = [("corpus", p) for p in corpus_workflows()] + [("own", p) for p in own_workflows()]
    jobs: list[tuple[str, Path, str, str]] = []
    for source, path in files:
        seen: set[str] = set()
        for name, text in variants(path.read_text(encoding="utf-8")).items():
            if text not in seen:  # a perturbation that changes nothing is not a new case
                seen.add(text)
                jobs.append((source, path, name, text))
    rng = random.Random(int(os.environ.get("AWL_FMT_SEED", "8")))
    texts = [(source, path, path.read_text(encoding="utf-8")) for source, path in files]
    for _ in range(int(os.environ.get("AWL_FMT_MUTANTS", "120"))):
        source, path, text = rng.choice(texts)
        jobs.append((source, path, "mutant", mutate(text, rng)))
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(max_workers=4) as pool:
        refs = list(
            pool.map(lambda ij: _reference_fmt(reference, ij[1][3], Path(tmp), ij[0]), enumerate(jobs))
        )
    return [Case(s, p, n, t, r, canonical_text(t)) for (s, p, n, t), r in zip(jobs, refs, strict=True)]


def _figure(cases: list[Case]) -> str:
    rows = ["awl fmt vs awl-reference fmt (byte-identical / copies the reference accepts):"]
    accepted = [c for c in cases if c.reference is not None]
    for source in ("corpus", "own"):
        for variant in ["original", *PERTURBATIONS, "mutant"]:
            mine = [c for c in accepted if (c.source, c.variant) == (source, variant)]
            same = sum(c.ours == c.reference for c in mine)
            rows.append(f"  {source:6} {variant:22} {same}/{len(mine)}")
    same = sum(c.ours == c.reference for c in accepted)
    rows.append(f"  all: {same}/{len(accepted)} ({len(cases) - len(accepted)} copies the reference refuses)")
    return "\n".join(rows)


def test_every_workflow_prints_as_the_engine_prints_it(
    cases: list[Case], capsys: pytest.CaptureFixture
) -> None:
    with capsys.disabled():
        print("\n" + _figure(cases))
    originals = [c for c in cases if c.variant == "original"]
    refused = [c.path.name for c in originals if c.reference is None]
    assert originals and not refused, f"the reference refused valid documents: {refused}"
    compared = [c for c in cases if c.reference is not None]
    differing = [f"{c.path.name} ({c.variant})" for c in compared if c.ours != c.reference]
    assert not differing, f"{len(differing)} differ from the reference: {differing[:10]}"


def test_every_corpus_workflow_is_compared(cases: list[Case]) -> None:
    if not CORPUS.is_dir():
        _skip_or_fail(f"AWL corpus not found at {CORPUS} (set AWL_CORPUS)", "AWL_REQUIRE_CORPUS")
    compared = {c.path for c in cases if c.source == "corpus" and c.variant == "original"}
    assert compared == set(corpus_workflows()) and len(compared) >= 90


def test_the_corpus_and_our_documents_cover_every_perturbation(cases: list[Case]) -> None:
    for variant in PERTURBATIONS:
        accepted = [c for c in cases if c.variant == variant and c.reference is not None]
        assert len(accepted) >= 1, f"no {variant} copy reaches the reference"
    # the canonical form is not the written form for most perturbed copies: they did change
    assert sum(c.text != c.reference for c in cases if c.reference is not None) >= 20


def _all_documents() -> list[Path]:
    paths = own_workflows() + sorted((REPO / "tests" / "data" / "fmt" / "workloops").glob("*.awl"))
    if CORPUS.is_dir():
        paths += sorted(CORPUS.glob("*/*/valid/*.awl")) + sorted(CORPUS.glob("workloop/valid/*.awl"))
    return paths


def test_printing_is_idempotent_on_every_document_and_copy() -> None:
    checked = 0
    for path in _all_documents():
        for name, text in variants(path.read_text(encoding="utf-8")).items():
            once = canonical_text(text)
            if once is None:
                continue
            checked += 1
            assert canonical_text(once) == once, f"{path.name} ({name}) changes when printed twice"
    assert checked >= 30
