"""The files the user names on the command line: which documents they are (`awl_paths`: folders
searched for `*.awl`), and their text, or why it is not text.

The counterpart of `file_writes`. A file is read whole and must be UTF-8; otherwise the reason
says where it stops being so (`not UTF-8 text (invalid start byte at byte 0)`), for the command to
report instead of a traceback. (Documents the workspace index reads on its own are read by
`workspace.files`, which also skips what is too large or binary.)
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path


def decode_source(data: bytes) -> str:
    """The text of a file's bytes; ValueError, saying where, when they are not UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"not UTF-8 text ({exc.reason} at byte {exc.start})") from exc


def read_source(path: Path) -> str:
    """The text of a file the user named; OSError when it cannot be read, ValueError when it is
    not UTF-8 text."""
    return decode_source(path.read_bytes())


def _skipped_folder(name: str) -> bool:
    return name.startswith(".") or name == "node_modules"


def awl_paths(paths: Iterable[str]) -> tuple[list[Path], list[str]]:
    """The files the user named: files as given, folders searched for `*.awl` (hidden folders and
    node_modules left out), each document once; and an error line for each path that is missing."""
    files: list[Path] = []
    errors: list[str] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            # Hidden folders (.git, .venv, …) and node_modules are not the user's documents.
            files.extend(
                f
                for f in sorted(p.rglob("*.awl"))
                if f.is_file() and not any(_skipped_folder(part) for part in f.relative_to(p).parts[:-1])
            )
        elif p.is_file():
            files.append(p)
        else:
            errors.append(f"awl: {raw}: no such file or directory")
    once: dict[Path, Path] = {}  # a document reached twice (a folder and a file in it) is checked once
    for f in files:
        once.setdefault(f.resolve(), f)
    return list(once.values()), errors
