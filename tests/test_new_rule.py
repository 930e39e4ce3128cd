"""`make new-rule` (tools/new_rule.py) in a copy of the tree: what it writes passes ruff, mypy and its tests.

The scaffold is run twice in a temporary copy of this clone (a workflow rule and a workloop rule):
both modules are registered in alphabetical place, the copy stays ruff and mypy clean, the registry
test and the generated tests pass (the invalid half as strict expected failures). Then one rule is
written for real: while its marks are still there the run fails (the expected failure passes), and
with them deleted everything passes.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
ENGINE = Path(os.environ.get("AWL_REFERENCE") or REPO.parent / "shared" / "bin" / "awl-reference").resolve()


def _copy_tree(target: Path) -> Path:
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("not a git clone: the tree to copy is what git tracks")
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"],
        cwd=REPO,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for rel in filter(None, listed.split("\0")):
        source = REPO / rel
        if source.is_file() and not rel.startswith(("vscode-extension/", "bench/")):
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / rel, follow_symlinks=False)
    return target


def _run(root: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "AWL_REFERENCE": str(ENGINE), "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run(
        [sys.executable, *args], cwd=root, env=env, capture_output=True, text=True, timeout=600, check=False
    )
    if check:
        assert done.returncode == 0, f"{' '.join(args)}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def _pytest(root: Path, *tests: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return _run(root, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs", *tests, check=check)


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = _copy_tree(tmp_path_factory.mktemp("tree"))
    _run(root, "tools/new_rule.py", "wait_named", "--node", "wait_statement")
    _run(root, "tools/new_rule.py", "sleep_in_loops", "--kind", "workloop", "--node", "sleep_statement")
    return root


def test_the_scaffold_writes_the_rule_its_registration_documents_and_test(tree: Path) -> None:
    for name in ("wait_named", "sleep_in_loops"):
        assert (tree / "awl_lsp" / "checks" / f"rules_{name}.py").is_file()
        assert (tree / "tests" / f"test_rules_{name}.py").is_file()
        data = tree / "tests" / "data" / "checks" / name
        assert sorted(p.relative_to(data).as_posix() for p in data.rglob("*")) == [
            "invalid",
            f"invalid/{name}.awl",
            f"invalid/{name}.expected",
            "valid",
            f"valid/{name}.awl",
        ]
    init = (tree / "awl_lsp" / "checks" / "__init__.py").read_text(encoding="utf-8")
    rules = init[init.index("RULES: list = [") :]
    order = [line.strip().split(",")[0] for line in rules.split("\n")[1:] if line.startswith("    rules_")]
    assert order == sorted(order) and {"rules_wait_named", "rules_sleep_in_loops"} <= set(order)
    assert init.count("    rules_wait_named,") == 2  # the import and the registry


def test_the_scaffold_refuses_a_taken_or_malformed_name(tree: Path) -> None:
    taken = _run(tree, "tools/new_rule.py", "wait_named", check=False)
    assert taken.returncode == 2 and "exists already" in taken.stderr
    bad = _run(tree, "tools/new_rule.py", "Wait-Named", check=False)
    assert bad.returncode == 2 and "snake_case" in bad.stderr


def test_the_scaffolded_tree_is_ruff_and_mypy_clean(tree: Path) -> None:
    _run(tree, "-m", "ruff", "check", "awl_lsp", "tests", "tools")
    _run(tree, "-m", "ruff", "format", "--check", "awl_lsp", "tests", "tools")
    _run(tree, "-m", "mypy", "--cache-dir", str(tree / ".mypy_cache"))


def test_the_scaffolded_tests_and_the_registry_test_pass(tree: Path) -> None:
    if not ENGINE.is_file() and os.environ.get("AWL_REQUIRE_REFERENCE") == "1":
        pytest.fail(f"AWL_REQUIRE_REFERENCE=1 but the engine's front end is not at {ENGINE}")
    done = _pytest(
        tree,
        "tests/test_checker_structure.py",
        "tests/test_rules_wait_named.py",
        "tests/test_rules_sleep_in_loops.py",
    )
    assert "xfailed" in done.stdout and "failed" not in done.stdout.replace("xfailed", "")
    probe = _run(tree, "-c", "import awl_lsp.checks as c; print(c.__file__)")
    assert probe.stdout.strip().startswith(str(tree))  # (the copy's package was the one tested)


def test_a_written_rule_fails_until_its_marks_go_and_then_passes(tree: Path) -> None:
    rule = tree / "awl_lsp" / "checks" / "rules_sleep_in_loops.py"
    text = rule.read_text(encoding="utf-8")
    report = '    ctx.error(node, "a workloop iteration should not `sleep`: arm the next with `every`", CODE)'
    rule.write_text(text.rstrip("\n") + "\n" + report + "\n", encoding="utf-8")
    invalid = tree / "tests" / "data" / "checks" / "sleep_in_loops" / "invalid" / "sleep_in_loops.awl"
    lines = invalid.read_text(encoding="utf-8").split("\n")
    at = next(i for i, line in enumerate(lines) if "// TODO" in line)
    lines[at] = "  sleep 30s"
    invalid.write_text("\n".join(lines), encoding="utf-8")
    invalid.with_suffix(".expected").write_text(f"CHECK\nsleep\n{at + 1}\n", encoding="utf-8")

    still_marked = _pytest(tree, "tests/test_rules_sleep_in_loops.py", check=False)
    assert still_marked.returncode != 0 and "XPASS(strict)" in still_marked.stdout

    test = tree / "tests" / "test_rules_sleep_in_loops.py"
    kept = [
        line
        for line in test.read_text(encoding="utf-8").split("\n")
        if not line.startswith(("SCAFFOLD = ", "pending = ", "@pending"))
    ]
    test.write_text("\n".join(kept), encoding="utf-8")
    _pytest(tree, "tests/test_rules_sleep_in_loops.py")
    _run(tree, "-m", "ruff", "check", str(test), str(rule))
