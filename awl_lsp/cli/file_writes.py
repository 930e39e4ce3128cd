"""Writing a user's file (`awl fmt`, `awl check --fix`) so that no byte of it is ever lost.

`write_text` puts the new text in a temporary file next to the original (same folder, so same file
system), flushes it to disk, gives it the original's permission bits (and owner, where allowed),
and only then renames it over the original — one atomic step. A file the user may not write is
refused, as writing it in place would be. A failure before that (a full disk, an interrupted run, a folder
that refuses new files) leaves the original exactly as it was, and the temporary file is removed.
A symbolic link is followed: the file it points to is replaced, the link stays a link.

The text keeps the original's form: its encoding (UTF-8, with its byte order mark when it had
one) and its line breaks (a file whose lines all end in CRLF gets CRLF throughout, whatever line
breaks the new text uses).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from pathlib import Path
from typing import BinaryIO

_BOM = "\ufeff"


def in_form_of(original: bytes, text: str) -> bytes:
    """`text` encoded as the original is: UTF-8, its byte order mark and CRLF line breaks kept."""
    if original.startswith(_BOM.encode("utf-8")) and not text.startswith(_BOM):
        text = _BOM + text
    crlf = original.count(b"\r\n")
    if crlf and crlf == original.count(b"\n"):
        text = text.replace("\r\n", "\n").replace("\n", "\r\n")
    return text.encode("utf-8")


def _write_all(out: BinaryIO, data: bytes) -> None:
    """Write every byte (a seam for the tests that make a write fail half-way)."""
    out.write(data)


def write_text(path: Path, text: str) -> None:
    """Replace the content of the file at `path` by `text`, atomically (see the module docstring).

    Raises OSError when the file cannot be replaced; the original is then unchanged."""
    target = Path(os.path.realpath(path))
    info = target.stat()
    if not os.access(target, os.W_OK):  # a rename would replace it all the same: refuse as a write would
        raise PermissionError(errno.EACCES, "the file is read-only", str(path))
    data = in_form_of(target.read_bytes(), text)
    fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            _write_all(out, data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, stat.S_IMODE(info.st_mode))
        if hasattr(os, "chown") and (info.st_uid, info.st_gid) != (os.getuid(), os.getgid()):
            with contextlib.suppress(OSError):  # only a privileged user may give the file back
                os.chown(temporary, info.st_uid, info.st_gid)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _sync_folder(target.parent)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (where the system lets a folder be synced)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
