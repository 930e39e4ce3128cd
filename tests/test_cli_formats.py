"""`awl check` for CI: folders searched recursively, GitHub annotations, SARIF 2.1.0, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).parent / "data" / "cli"
CLEAN = (DATA / "clean.awl").read_text(encoding="utf-8")  # the reference front end: OK
BROKEN = (DATA / "broken.awl").read_text(encoding="utf-8")  # the reference: CHECK, line 13


def awl(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "awl_lsp", *args], capture_output=True, text=True, timeout=60, cwd=cwd
    )


def _tree(tmp_path: Path) -> Path:
    """A folder with a broken document two levels down, plus copies in places a search must skip."""
    root = tmp_path / "repo"
    (root / "flows" / "billing").mkdir(parents=True)
    (root / "flows" / "billing" / "payout.awl").write_text(BROKEN, encoding="utf-8")
    for hidden in (".git", "node_modules", ".venv"):
        (root / hidden).mkdir()
        (root / hidden / "copy.awl").write_text(BROKEN, encoding="utf-8")
    (root / "README.txt").write_text("not awl", encoding="utf-8")
    return root


def _json_records(root: Path) -> list[dict]:
    result = awl("check", "--format", "json", ".", cwd=root)
    assert result.returncode == 1, result.stderr
    return json.loads(result.stdout)


def test_check_recurses_into_folders_but_not_hidden_ones(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    records = _json_records(root)
    assert records, "the broken document two folders down was not checked"
    assert any(r["line"] == 13 and "nowhere" in r["message"] for r in records)
    assert {Path(r["file"]).as_posix() for r in records} == {"flows/billing/payout.awl"}
    result = awl("check", ".", cwd=root)
    assert "1 file(s) checked" in result.stderr


def test_github_format_is_one_workflow_command_per_finding(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    records = _json_records(root)
    result = awl("check", "--format", "github", ".", cwd=root)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert len(lines) == len(records)
    for line, r in zip(lines, records, strict=True):
        level = {"error": "error", "warning": "warning"}.get(r["severity"], "notice")
        head, _, message = line[2:].partition("::")
        assert line.startswith(f"::{level} file=flows/billing/payout.awl,")
        props = dict(kv.split("=", 1) for kv in head.split(" ", 1)[1].split(","))
        assert props["line"] == str(r["line"]) and props["col"] == str(r["column"])
        assert props["endLine"] == str(r["end_line"]) and props["endColumn"] == str(r["end_column"])
        assert props["title"] == f"awl {r['code']}".replace(":", "%3A").replace(",", "%2C")
        assert message == r["message"].replace("%", "%25")
    assert result.stderr == "", "annotations only: no summary line mixed in"


def test_github_format_escapes_newlines_and_separators() -> None:
    from awl_lsp.cli.check_report import Record, github_annotation

    line = github_annotation(Record("a,b:c.awl", 2, 3, 2, 9, "warning", "x", "50% done\nnext"))
    assert line == (
        "::warning file=a%2Cb%3Ac.awl,line=2,col=3,endLine=2,endColumn=9,title=awl x::50%25 done%0Anext"
    )
    assert "\n" not in line


def test_sarif_format_is_a_sarif_2_1_0_log(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    records = _json_records(root)
    result = awl("check", "--format", "sarif", ".", cwd=root)
    assert result.returncode == 1
    log = json.loads(result.stdout)
    assert log["version"] == "2.1.0" and log["$schema"].endswith("sarif-2.1.0.json")
    (run,) = log["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "awl" and driver["version"]
    rule_ids = [rule["id"] for rule in driver["rules"]]
    assert len(run["results"]) == len(records)
    for res, r in zip(run["results"], records, strict=True):
        assert res["ruleId"] == r["code"] and rule_ids[res["ruleIndex"]] == r["code"]
        assert res["level"] == {"error": "error", "warning": "warning"}.get(r["severity"], "note")
        assert res["message"]["text"] == r["message"]
        loc = res["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"] == {"uri": "flows/billing/payout.awl", "uriBaseId": "%SRCROOT%"}
        assert loc["region"] == {
            "startLine": r["line"],
            "startColumn": r["column"],
            "endLine": r["end_line"],
            "endColumn": r["end_column"],
        }
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == root.resolve().as_uri() + "/"


def test_clean_run_gives_empty_annotations_and_an_empty_sarif_log(tmp_path: Path) -> None:
    (tmp_path / "ok.awl").write_text(CLEAN, encoding="utf-8")
    clean = awl("check", "ok.awl", cwd=tmp_path)
    assert clean.returncode == 0, clean.stdout
    assert awl("check", "--format", "github", "ok.awl", cwd=tmp_path).stdout == ""
    sarif = awl("check", "--format", "sarif", "ok.awl", cwd=tmp_path)
    assert sarif.returncode == 0 and json.loads(sarif.stdout)["runs"][0]["results"] == []


def test_exit_codes_usage_and_io_are_two(tmp_path: Path) -> None:
    assert awl("check", "--format", "xml", str(tmp_path)).returncode == 2
    assert awl("check").returncode == 2
    (tmp_path / "ok.awl").write_text(CLEAN, encoding="utf-8")
    # One unreadable path among readable ones still makes the run fail as an I/O problem.
    result = awl("check", str(tmp_path / "ok.awl"), str(tmp_path / "gone.awl"))
    assert result.returncode == 2 and "gone.awl" in result.stderr
    assert "Exit status" in awl("check", "--help").stdout


def test_github_format_annotates_unreadable_paths(tmp_path: Path) -> None:
    (tmp_path / "latin1.awl").write_bytes(b"workflow caf\xe9\n")
    result = awl("check", "--format", "github", "latin1.awl", "gone.awl", cwd=tmp_path)
    assert result.returncode == 2
    lines = result.stdout.splitlines()
    assert "::error title=awl::awl: gone.awl: no such file or directory" in lines
    unreadable = [line for line in lines if line.startswith("::error file=latin1.awl,title=awl::")]
    assert len(unreadable) == 1 and "not UTF-8" in unreadable[0]
