"""What `awl fmt` does to each file: print it in canonical form and rewrite it (atomically, see
`file_writes`), or with `--check`/`--diff` only say whether and how it would change.

`format_one` is the work on one file — a worker's job when there are many files (`file_jobs`): it
returns what to report, and the command prints the reports in the files' order, so one process or
many print the same.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path

from awl_lsp.cli.file_reads import read_source
from awl_lsp.features.printer import canonical_text


@dataclass(frozen=True)
class Formatted:
    path: Path
    error: str | None = None  # the file could not be read, or not written
    unformattable: bool = False  # syntax errors: left as it is
    changed: bool = False  # not in canonical form (and, when writing, rewritten)
    diff: str = ""  # --diff: the change as a unified diff


def format_one(mode: str, path: Path) -> Formatted:
    """Format one file; `mode` is "write", "check" or "diff"."""
    try:
        text = read_source(path)
    except (OSError, ValueError) as exc:
        return Formatted(path, error=str(exc))
    result = canonical_text(text)
    if result is None:
        return Formatted(path, unformattable=True)
    if result == text:
        return Formatted(path)
    if mode == "diff":
        lines = difflib.unified_diff(
            text.splitlines(keepends=True), result.splitlines(keepends=True), f"{path}", f"{path} (formatted)"
        )
        return Formatted(path, changed=True, diff="".join(lines))
    if mode == "write":
        from awl_lsp.cli.file_writes import write_text

        try:
            write_text(path, result)
        except OSError as exc:
            return Formatted(path, error=str(exc), changed=True)
    return Formatted(path, changed=True)
