"""How `awl check` prints its findings: text, JSON, GitHub workflow commands and SARIF 2.1.0.

Owns the record a finding becomes on the command line (1-based lines, columns counted in Unicode
code points, end exclusive), with the fixes offered for it (their edits in the same positions) —
plain named tuples, cheap to make and to send between processes — and the four renderings of a
list of them. Pure functions: the CLI collects records and prints what one of these returns.
JSON carries every fix (`title`, `preferred`, `safe`, `edits`); SARIF carries them as `fixes`
with `artifactChanges`; text and GitHub annotations carry none.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import NamedTuple

from awl_lsp import __version__

FORMATS = ("text", "json", "github", "sarif")
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


class EditRecord(NamedTuple):
    """Replace the text from (line, column) to (end_line, end_column) — exclusive — by `text`."""

    line: int
    column: int
    end_line: int
    end_column: int
    text: str


class FixRecord(NamedTuple):
    """A fix for a finding: what `awl check --fix` would apply when preferred and safe (or with
    `--unsafe-fixes`, when preferred)."""

    title: str
    preferred: bool
    safe: bool
    edits: tuple[EditRecord, ...]


class Record(NamedTuple):
    """One finding in one file, as the command line reports it."""

    file: str
    line: int
    column: int
    end_line: int
    end_column: int
    severity: str  # "error" | "warning" | "info"
    code: str
    message: str
    fixes: tuple[FixRecord, ...] = ()

    def to_json(self) -> dict:
        """The record as `--format json` prints it: its fields by name, the fixes' too."""
        fixes = [{**f._asdict(), "edits": [e._asdict() for e in f.edits]} for f in self.fixes]
        return {**self._asdict(), "fixes": fixes}


def render(fmt: str, records: list[Record]) -> str:
    """The whole standard output of `awl check --format FMT` for these records ("" for none in text)."""
    if fmt == "json":
        return json.dumps([r.to_json() for r in records], indent=2, ensure_ascii=False)
    if fmt == "github":
        return "\n".join(github_annotation(r) for r in records)
    if fmt == "sarif":
        return json.dumps(sarif_log(records), indent=2, ensure_ascii=False)
    return "\n".join(f"{r.file}:{r.line}:{r.column}: {r.severity}: {r.message}" for r in records)


# GitHub Actions workflow commands ------------------------------------------------------------

_GITHUB_LEVEL = {"error": "error", "warning": "warning", "info": "notice"}


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_annotation(r: Record) -> str:
    """`::error file=…,line=…,col=…,endLine=…,endColumn=…,title=…::message` for one record."""
    props = {
        "file": r.file,
        "line": str(r.line),
        "col": str(r.column),
        "endLine": str(r.end_line),
        "endColumn": str(r.end_column),
        "title": f"awl {r.code}" if r.code else "awl",
    }
    joined = ",".join(f"{k}={_escape_property(v)}" for k, v in props.items())
    return f"::{_GITHUB_LEVEL.get(r.severity, 'notice')} {joined}::{_escape_data(r.message)}"


def github_io_error(file: str | None, message: str) -> str:
    """An annotation for a path `awl check` could not read (missing, not UTF-8)."""
    where = f"file={_escape_property(file)}," if file else ""
    return f"::error {where}title=awl::{_escape_data(message)}"


# SARIF 2.1.0 ---------------------------------------------------------------------------------

_SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def _artifact_uri(file: str) -> tuple[str, bool]:
    """A URI for the file: relative to the current folder when inside it (so code scanning can
    map it onto the repository), else an absolute file URI. The flag says whether it is relative."""
    path = Path(file).resolve()
    try:
        rel = path.relative_to(Path(os.getcwd()).resolve())
    except ValueError:
        return path.as_uri(), False
    return rel.as_posix(), True


def _sarif_region(line: int, column: int, end_line: int, end_column: int) -> dict:
    return {"startLine": line, "startColumn": column, "endLine": end_line, "endColumn": end_column}


def _sarif_fix(fix: FixRecord, location: dict) -> dict:
    replacements = [
        {
            "deletedRegion": _sarif_region(e.line, e.column, e.end_line, e.end_column),
            "insertedContent": {"text": e.text},
        }
        for e in fix.edits
    ]
    return {
        "description": {"text": fix.title},
        "artifactChanges": [{"artifactLocation": location, "replacements": replacements}],
        "properties": {"preferred": fix.preferred, "safe": fix.safe},
    }


def sarif_log(records: list[Record]) -> dict:
    """A SARIF 2.1.0 log with one run of the `awl` tool; one rule per finding code."""
    codes = sorted({r.code for r in records})
    rule_index = {code: i for i, code in enumerate(codes)}
    results = []
    for r in records:
        uri, relative = _artifact_uri(r.file)
        location: dict = {"uri": uri}
        if relative:
            location["uriBaseId"] = "%SRCROOT%"
        result = {
            "ruleId": r.code,
            "ruleIndex": rule_index[r.code],
            "level": _SARIF_LEVEL.get(r.severity, "note"),
            "message": {"text": r.message},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": location,
                        "region": _sarif_region(r.line, r.column, r.end_line, r.end_column),
                    }
                }
            ],
        }
        if r.fixes:
            result["fixes"] = [_sarif_fix(f, location) for f in r.fixes]
        results.append(result)
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "awl",
                        "version": __version__,
                        "rules": [
                            {"id": c, "name": c, "shortDescription": {"text": f"AWL check {c}"}}
                            for c in codes
                        ],
                    }
                },
                "originalUriBaseIds": {"%SRCROOT%": {"uri": Path(os.getcwd()).resolve().as_uri() + "/"}},
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }
