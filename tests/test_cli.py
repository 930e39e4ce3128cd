"""The `awl` command line: check (text and JSON), parse, guide."""

from __future__ import annotations

import json
import subprocess
import sys

from helpers import EXAMPLES


def awl(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "awl_lsp", *args], capture_output=True, text=True, timeout=60
    )


def test_check_clean_file_exits_zero() -> None:
    result = awl("check", str(EXAMPLES / "inbox_sweep.awl"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == ""


def test_check_reports_errors_as_text_and_json() -> None:
    path = EXAMPLES / "broken_hatch.awl"
    text_lines = path.read_text().splitlines()
    line = next(i for i, t in enumerate(text_lines, 1) if "hatch fulfil" in t)
    result = awl("check", str(path))
    assert result.returncode == 1
    assert f"{path}:{line}:" in result.stdout and ": error: " in result.stdout and "key" in result.stdout
    result = awl("check", "--format", "json", str(path))
    records = json.loads(result.stdout)
    hit = next(r for r in records if r["line"] == line)
    keys = {"file", "line", "column", "end_line", "end_column", "severity", "code", "message", "fixes"}
    assert set(hit) == keys
    assert [f["title"] for f in hit["fixes"]] == ["Add `key order.id`"]
    assert hit["severity"] == "error" and hit["column"] >= 1


def test_check_missing_file_and_binary_file(tmp_path) -> None:  # noqa: ANN001
    assert awl("check", str(tmp_path / "nope.awl")).returncode == 2
    bad = tmp_path / "bad.awl"
    bad.write_bytes(b"\xff\xfe\x00workflow")
    result = awl("check", str(bad))
    assert result.returncode == 2 and "not UTF-8" in result.stderr


def test_parse_and_guide() -> None:
    result = awl("parse", str(EXAMPLES / "inbox_sweep.awl"))
    assert (
        result.returncode == 0
        and "workloop_declaration" in result.stdout
        and "hatch_statement" in result.stdout
    )
    result = awl("guide", "tolerance")
    assert result.returncode == 0 and "unconfirmed invariant alarms" in result.stdout
    result = awl("guide", "tolerence")
    assert result.returncode == 2 and "tolerance" in result.stderr
