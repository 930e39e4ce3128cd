"""`awl check --fix [--diff] [--unsafe-fixes]`: what it applies, what it reports, what it never touches;
`--format json` carries each finding's fixes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from helpers import example

WORKLOOP = example("inbox_sweep.awl")
# A missing `]` hides the `tolerance 3` of the same declaration until it is mended: two passes.
TWO_PASSES = WORKLOOP.replace(
    "  input inbox: String\n", "  input inbox: String\n  input tags: [String\n"
).replace("tolerance unconfirmed for 1h", "tolerance 3")
FIXED = TWO_PASSES.replace("[String\n", "[String]\n").replace("tolerance 3\n", "tolerance 3 windows\n")
# Only an unsafe fix: a misspelt call ("Change to `list_new`" is a guess).
MISSPELT = WORKLOOP.replace("  list_new(inbox", "  list_nwe(inbox", 1)


def awl(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "awl_lsp", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


def test_fix_applies_the_safe_fixes_until_nothing_more_applies(tmp_path: Path) -> None:
    path = tmp_path / "sweep.awl"
    path.write_text(TWO_PASSES)
    result = awl("check", "--fix", str(path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert path.read_text() == FIXED
    assert "fixed 2: Insert `]`, Add `windows`" in result.stderr
    assert "0 error(s), 0 warning(s) remain; 2 problem(s) in 1 file(s) fixed" in result.stderr
    assert result.stdout == ""  # nothing remains to report
    again = awl("check", "--fix", str(path))
    assert again.returncode == 0 and "0 problem(s) in 0 file(s) fixed" in again.stderr


def test_diff_prints_the_fixes_and_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "sweep.awl"
    path.write_text(TWO_PASSES)
    result = awl("check", "--diff", str(path))
    assert result.returncode == 1  # a file would change
    assert path.read_text() == TWO_PASSES
    assert result.stdout.startswith(f"--- {path}\n+++ {path} (fixed)\n")
    assert "-  input tags: [String\n+  input tags: [String]\n" in result.stdout
    assert "-    tolerance 3\n+    tolerance 3 windows\n" in result.stdout
    assert "would be fixed (nothing written)" in result.stderr
    clean = tmp_path / "clean.awl"
    clean.write_text(FIXED)
    nothing = awl("check", "--diff", str(clean))
    assert nothing.returncode == 0 and nothing.stdout == ""


def test_unsafe_fixes_apply_only_when_asked(tmp_path: Path) -> None:
    path = tmp_path / "sweep.awl"
    path.write_text(MISSPELT)
    result = awl("check", "--fix", str(path))
    assert result.returncode == 1 and path.read_text() == MISSPELT
    assert "unknown" in result.stdout and "(1 more with `--unsafe-fixes`)" in result.stderr
    result = awl("check", "--fix", "--unsafe-fixes", str(path))
    assert result.returncode == 0, result.stdout
    assert path.read_text() == WORKLOOP
    assert "fixed 1: Change to `list_new`" in result.stderr


def test_a_file_whose_syntax_errors_no_fix_mends_is_never_touched(tmp_path: Path) -> None:
    # the `]` could be inserted, but `a |> (` stays broken: the file is left byte for byte as it was
    text = TWO_PASSES.replace("  route start(last_seen: batch.newest)", "  batch |> (")
    path = tmp_path / "sweep.awl"
    path.write_bytes(text.encode())
    result = awl("check", "--fix", "--unsafe-fixes", str(path))
    assert result.returncode == 1
    assert path.read_bytes() == text.encode()
    assert "not fixed: it has syntax errors the fixes do not mend" in result.stderr


def test_json_carries_each_findings_fixes_at_the_findings_positions(tmp_path: Path) -> None:
    path = tmp_path / "sweep.awl"
    path.write_text(MISSPELT.replace("tolerance unconfirmed for 1h", "tolerance 3"))
    result = awl("check", "--format", "json", str(path))
    assert result.returncode == 1
    records = {r["code"]: r for r in json.loads(result.stdout)}
    call, tolerance = records["unknown-call"], records["tolerance"]
    (fix,) = call["fixes"]
    assert fix == {
        "title": "Change to `list_new`",
        "preferred": True,
        "safe": False,
        "edits": [
            {
                "line": call["line"],
                "column": call["column"],
                "end_line": call["end_line"],
                "end_column": call["end_column"],
                "text": "list_new",
            }
        ],
    }
    (windows,) = tolerance["fixes"]
    assert windows["title"] == "Add `windows`" and windows["safe"] and windows["preferred"]
    (insert,) = windows["edits"]
    line = path.read_text().splitlines()[insert["line"] - 1]
    assert line[: insert["column"] - 1] == "    tolerance 3" and insert["text"] == " windows"
    assert (insert["line"], insert["column"]) == (insert["end_line"], insert["end_column"])


def test_sarif_carries_the_fixes_as_artifact_changes(tmp_path: Path) -> None:
    path = tmp_path / "sweep.awl"
    path.write_text(MISSPELT)
    log = json.loads(awl("check", "--format", "sarif", str(path)).stdout)
    (result,) = [r for r in log["runs"][0]["results"] if r["ruleId"] == "unknown-call"]
    (fix,) = result["fixes"]
    assert fix["description"]["text"] == "Change to `list_new`"
    (change,) = fix["artifactChanges"]
    (replacement,) = change["replacements"]
    assert replacement["insertedContent"]["text"] == "list_new"
    assert (
        replacement["deletedRegion"]["startLine"]
        == result["locations"][0]["physicalLocation"]["region"]["startLine"]
    )


def test_a_copy_of_the_workflow_in_the_folder_does_not_block_its_conventional_rename(tmp_path: Path) -> None:
    # `ReleaseNotes` → `release_notes` is the conventional spelling; another document of the folder
    # declaring `release_notes` too is no problem (a name binds where it is used, not per folder),
    # so the rename applies and the folder checks clean
    release = example("release_notes.awl")
    (tmp_path / "release_notes.awl").write_text(release)
    camel = release.replace("workflow release_notes", "workflow ReleaseNotes")
    (tmp_path / "camel.awl").write_text(camel)
    result = awl("check", "--fix", "--unsafe-fixes", str(tmp_path))
    assert (tmp_path / "camel.awl").read_text() == release, result.stderr
    assert "not fixed" not in result.stderr
    assert awl("check", str(tmp_path)).returncode == 0
