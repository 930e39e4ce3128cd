"""`awl fmt [--check] [--diff] PATH…`: rewrite in place, report, diff; exit codes 0 / 1 / 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

UGLY = (
    "//! n\n"
    "workflow w\n"
    "  outcome done: type R, route success\n"
    "  input a:String\n"
    "type R {a: String}\n"
    "step s\n"
    "  a|>route done   // kept\n"
)
PRETTY = (
    "//! n\n"
    "workflow w\n"
    "  input a: String\n"
    "  outcome done: type R, route success\n"
    "type R { a: String }\n"
    "step s\n"
    "  a |> route done // kept\n"
)
BROKEN = "//! n\nworkflow w\n  input a: String\nstep s\n  a |> (\n"


def awl(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "awl_lsp", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


def _tree(tmp_path: Path) -> tuple[Path, Path, Path]:
    (tmp_path / "sub").mkdir()
    ugly = tmp_path / "sub" / "ugly.awl"
    pretty = tmp_path / "pretty.awl"
    ugly.write_text(UGLY)
    pretty.write_text(PRETTY)
    (tmp_path / "notes.txt").write_text("not awl")
    return tmp_path, ugly, pretty


def test_fmt_rewrites_files_in_place_recursing_into_folders(tmp_path: Path) -> None:
    folder, ugly, pretty = _tree(tmp_path)
    result = awl("fmt", str(folder))
    assert result.returncode == 0, result.stderr
    assert ugly.read_text() == PRETTY and pretty.read_text() == PRETTY
    assert (tmp_path / "notes.txt").read_text() == "not awl"
    assert awl("fmt", "--check", str(folder)).returncode == 0  # idempotent


def test_fmt_check_lists_files_that_would_change_and_changes_nothing(tmp_path: Path) -> None:
    folder, ugly, pretty = _tree(tmp_path)
    result = awl("fmt", "--check", str(folder))
    assert result.returncode == 1
    assert result.stdout.splitlines() == [str(ugly)]
    assert ugly.read_text() == UGLY
    assert awl("fmt", "--check", str(pretty)).returncode == 0


def test_fmt_diff_prints_a_unified_diff_and_changes_nothing(tmp_path: Path) -> None:
    _, ugly, _ = _tree(tmp_path)
    result = awl("fmt", "--diff", str(ugly))
    assert result.returncode == 1
    assert result.stdout.startswith(f"--- {ugly}\n+++ {ugly} (formatted)\n@@")
    assert "-  input a:String\n" in result.stdout and "+  input a: String\n" in result.stdout
    assert "+  a |> route done // kept\n" in result.stdout
    assert ugly.read_text() == UGLY


def test_fmt_leaves_unparsable_files_alone_with_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.awl"
    bad.write_text(BROKEN)
    good = tmp_path / "good.awl"
    good.write_text(UGLY)
    result = awl("fmt", str(tmp_path))
    assert result.returncode == 1
    assert f"{bad}: not formatted: the file has syntax errors" in result.stderr
    assert bad.read_text() == BROKEN
    assert good.read_text() == PRETTY  # the other files are still formatted


def test_fmt_usage_and_io_errors_exit_2(tmp_path: Path) -> None:
    assert awl("fmt").returncode == 2
    missing = awl("fmt", str(tmp_path / "nope.awl"))
    assert missing.returncode == 2 and "no such file" in missing.stderr
    binary = tmp_path / "bin.awl"
    binary.write_bytes(b"\xff\xfe\x00")
    result = awl("fmt", str(binary))
    assert result.returncode == 2 and "not UTF-8" in result.stderr
