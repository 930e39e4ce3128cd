"""The project's .pre-commit-hooks.yaml, run by the real pre-commit on a temporary git repository.

`pre-commit try-repo <a git snapshot of this project>` installs the package the way a user's
pre-commit does (a fresh environment, the C extension built from the checkout) and runs the hook on
the files of a throwaway repository. The `awl-fmt` hook rewrites an unformatted file (and so stops
the commit) and leaves a formatted one.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).parent / "data" / "cli"


def _hooks() -> list[dict]:
    yaml = pytest.importorskip("yaml", reason="PyYAML (a dependency of pre-commit) is not installed")
    return yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))


def test_hooks_file_declares_check_and_fmt_for_awl_files() -> None:
    hooks = {h["id"]: h for h in _hooks()}
    assert set(hooks) == {"awl-check", "awl-fmt"}
    for hook in hooks.values():
        assert hook["language"] == "python" and hook["files"] == r"\.awl$"
    assert hooks["awl-check"]["entry"].split()[:2] == ["awl", "check"]
    assert hooks["awl-fmt"]["entry"].split()[:2] == ["awl", "fmt"]


def _project_as_git_repo(tmp_path: Path, env: dict[str, str]) -> Path:
    """This project's sources as a one-commit git repository, as pre-commit clones a hook repo
    (the clone itself may be an export without .git; build outputs are left behind)."""
    dst = tmp_path / "awl-lsp"
    skip = shutil.ignore_patterns(
        ".git",
        ".venv",
        "node_modules",
        "build",
        "dist",
        "*.egg-info",
        "artifacts",
        ".e2e",
        "bundled",
        "__pycache__",
        "*.so",
        "*.vsix",
        ".pytest_cache",
        ".ruff_cache",
        ".mypy_cache",
        "parser",
    )
    shutil.copytree(ROOT, dst, symlinks=True, ignore=skip)
    git = [
        "git",
        "-c",
        "user.name=awl tests",
        "-c",
        "user.email=tests@awl.invalid",
        "-c",
        "commit.gpgsign=false",
    ]
    subprocess.run([*git, "init", "-q"], cwd=dst, check=True, env=env)
    subprocess.run([*git, "add", "-A"], cwd=dst, check=True, env=env)
    subprocess.run([*git, "commit", "-q", "-m", "snapshot"], cwd=dst, check=True, env=env)
    return dst


def _run_hook(tmp_path: Path, repo: Path, hook: str) -> tuple[int, str]:
    """`pre-commit try-repo <this project> HOOK --all-files` in `repo` (made a git repository):
    the exit status and everything printed."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed (pre-commit needs it)")
    pytest.importorskip("pre_commit", reason="pre-commit (test extra) is not installed")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"), "NO_COLOR": "1"}
    env.pop("VIRTUAL_ENV", None)
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True, env=env)
    subprocess.run(["git", "add", "."], cwd=repo, check=True, env=env)
    project = str(_project_as_git_repo(tmp_path, env))
    cmd = [sys.executable, "-m", "pre_commit", "try-repo", project, hook, "--all-files", "--color=never"]
    result = subprocess.run(cmd, cwd=repo, capture_output=True, text=True, timeout=600, env=env)
    return result.returncode, result.stdout + result.stderr


def test_awl_check_hook_fails_on_the_broken_file_only(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "flows").mkdir(parents=True)
    shutil.copy(DATA / "clean.awl", repo / "flows" / "clean.awl")
    shutil.copy(DATA / "broken.awl", repo / "flows" / "broken.awl")
    (repo / "notes.txt").write_text("not awl\n", encoding="utf-8")
    status, out = _run_hook(tmp_path, repo, "awl-check")
    assert status == 1, out
    assert "awl check" in out and "Failed" in out
    assert "flows/broken.awl:13:" in out and "nowhere" in out
    assert "clean.awl" not in out.split("hook id: awl-check", 1)[1]


def test_awl_fmt_hook_rewrites_an_unformatted_file_and_passes_a_formatted_one(tmp_path: Path) -> None:
    from awl_lsp.features.printer import canonical_text

    clean = (DATA / "clean.awl").read_text(encoding="utf-8")
    canonical = canonical_text(clean)
    assert canonical is not None
    messy = canonical.replace("type Pong {", "type  Pong   {", 1)
    messy = messy.replace("pong(who: who)", "pong( who:who )", 1)
    assert messy != canonical and canonical_text(messy) == canonical
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "good.awl").write_text(canonical, encoding="utf-8")
    (repo / "messy.awl").write_text(messy, encoding="utf-8")
    status, out = _run_hook(tmp_path, repo, "awl-fmt")
    assert status == 1, out  # it changed a file: the commit stops so the change can be staged
    assert "files were modified by this hook" in out
    assert (repo / "messy.awl").read_text(encoding="utf-8") == canonical
    assert (repo / "good.awl").read_text(encoding="utf-8") == canonical
