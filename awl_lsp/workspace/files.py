"""Finding and reading workspace files safely.

Only files inside the workspace folders are read: paths are resolved (symlinks included) and refused
before any read when they land outside. Files over `MAX_FILE_BYTES`, with a NUL byte, or not UTF-8
are skipped with a reason, never half-read. Hidden folders and `node_modules` are not searched.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path

MAX_FILE_BYTES = 2 * 1024 * 1024
_SKIPPED_DIRS = frozenset({"node_modules", "__pycache__"})


def inside(path: Path, roots: Iterable[Path]) -> bool:
    """Whether `path`, resolved (symlinks followed), lies inside one of the resolved `roots`."""
    try:
        real = path.resolve(strict=False)
    except (OSError, RuntimeError):
        return False
    for root in roots:
        try:
            real.relative_to(root.resolve(strict=False))
            return True
        except (ValueError, OSError, RuntimeError):
            continue
    return False


def awl_files(roots: Iterable[Path], suffix: str = ".awl") -> Iterator[Path]:
    """Every `*.awl` file under the roots (sorted per folder), symlinked escapes left out."""
    roots = [r for r in roots if r.is_dir()]
    seen: set[Path] = set()
    for root in roots:
        for folder, dirs, files in os.walk(root, followlinks=False):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIPPED_DIRS)
            for name in sorted(files):
                if not name.endswith(suffix):
                    continue
                path = Path(folder) / name
                if not inside(path, roots):
                    continue
                real = path.resolve()
                if real not in seen:
                    seen.add(real)
                    yield path


def read_document(path: Path, roots: Iterable[Path], limit: int = MAX_FILE_BYTES) -> tuple[str | None, str]:
    """(text, "") or (None, why it was not read): outside the workspace, too large, binary, not UTF-8."""
    if not inside(path, roots):
        return None, "lies outside the workspace folders"
    try:
        size = path.stat().st_size
        if size > limit:
            return None, f"is larger than {limit // (1024 * 1024)} MiB"
        data = path.read_bytes()
    except OSError as exc:
        return None, f"cannot be read ({exc.strerror or exc})"
    return document_text(data, limit)


def document_text(data: bytes, limit: int = MAX_FILE_BYTES) -> tuple[str | None, str]:
    """(text, "") or (None, why it is not a document) for a file's bytes: too large, binary, not UTF-8."""
    if len(data) > limit:
        return None, f"is larger than {limit // (1024 * 1024)} MiB"
    if b"\0" in data:
        return None, "is binary (it holds a NUL byte)"
    try:
        return data.decode("utf-8"), ""
    except UnicodeDecodeError:
        return None, "is not UTF-8 text"
