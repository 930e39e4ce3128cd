"""One version: awl_lsp.__version__ is the source (pyproject reads it); every other manifest agrees."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

from awl_lsp import __version__

ROOT = Path(__file__).resolve().parents[1]


def test_pyproject_takes_the_version_from_the_package() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "awl_lsp.__version__"}


def test_editor_manifests_carry_the_same_version() -> None:
    for manifest in ("vscode-extension/package.json", "tree-sitter-awl/package.json"):
        assert json.loads((ROOT / manifest).read_text(encoding="utf-8"))["version"] == __version__, manifest
    elisp = (ROOT / "editors/emacs/awl-mode.el").read_text(encoding="utf-8")
    found = re.search(r"^;; Version: (\S+)$", elisp, re.M)
    assert found is not None and found.group(1) == __version__


def test_cli_reports_it() -> None:
    cmd = [sys.executable, "-m", "awl_lsp", "--version"]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == f"awl-lsp {__version__}"
