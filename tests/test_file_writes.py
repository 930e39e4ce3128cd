"""Writing a user's file (`awl fmt`, `awl check --fix`): atomic, the original intact on any failure,
its permissions, line breaks and byte order mark kept."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import BinaryIO

import pytest

from awl_lsp.cli import file_writes
from awl_lsp.cli import main as cli

UGLY = (
    "//! n\nworkflow w\n  outcome done: type R, route success\n  input a:String\ntype R {a: String}\n"
    "step s\n  a|>route done\n"
)
PRETTY = (
    "//! n\nworkflow w\n  input a: String\n  outcome done: type R, route success\ntype R { a: String }\n"
    "step s\n  a |> route done\n"
)
# One safe fix (the missing `]`) and nothing else wrong once it is in.
UNCLOSED = (
    "//! n\nworkflow w\n  input a: [String\n  outcome done: type R, route success\ntype R { a: [String] }\n"
    "step s\n  route done(a: a)\n"
)
CLOSED = UNCLOSED.replace("[String\n", "[String]\n")


def _crlf(text: str) -> str:
    return text.replace("\n", "\r\n")


def _half_then_disk_full(out: BinaryIO, data: bytes) -> None:
    out.write(data[: len(data) // 2])
    raise OSError(errno.ENOSPC, "No space left on device")


@pytest.mark.parametrize(("command", "before"), [(["fmt"], UGLY), (["check", "--fix"], UNCLOSED)])
def test_a_write_that_fails_half_way_leaves_the_original_byte_identical(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: list[str],
    before: str,
) -> None:
    path = tmp_path / "doc.awl"
    path.write_bytes(before.encode())
    monkeypatch.setattr(file_writes, "_write_all", _half_then_disk_full)
    status = cli.main([*command, str(path)])
    assert status == 2
    assert path.read_bytes() == before.encode()
    assert "No space left on device" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["doc.awl"]  # no temporary file left


def test_an_interrupted_rename_leaves_the_original(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "doc.awl"
    path.write_text(UGLY)

    def interrupted(src: str, dst: str) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(file_writes.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        file_writes.write_text(path, PRETTY)
    assert path.read_text() == UGLY
    assert sorted(p.name for p in tmp_path.iterdir()) == ["doc.awl"]


def test_a_folder_that_refuses_new_files_leaves_the_original(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "doc.awl"
    path.write_text(UGLY)

    def refused(*args: object, **kwargs: object) -> tuple[int, str]:
        raise PermissionError(errno.EACCES, "Permission denied", str(tmp_path))

    monkeypatch.setattr(file_writes.tempfile, "mkstemp", refused)  # what a read-only folder does
    assert cli.main(["fmt", str(path)]) == 2
    assert path.read_text() == UGLY
    assert "Permission denied" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("command", "before", "after"), [(["fmt"], UGLY, PRETTY), (["check", "--fix"], UNCLOSED, CLOSED)]
)
def test_crlf_mode_and_byte_order_mark_are_kept(
    tmp_path: Path, command: list[str], before: str, after: str
) -> None:
    crlf, bom = tmp_path / "crlf.awl", tmp_path / "bom.awl"
    crlf.write_bytes(_crlf(before).encode())
    bom.write_bytes(b"\xef\xbb\xbf" + before.encode())
    os.chmod(crlf, 0o640)
    os.chmod(bom, 0o755)
    assert cli.main([*command, str(crlf)]) == 0
    assert cli.main([*command, str(bom)]) == 0  # one at a time: each declares workflow `w`
    assert crlf.read_bytes() == _crlf(after).encode()
    assert bom.read_bytes() == b"\xef\xbb\xbf" + after.encode()
    assert stat.S_IMODE(crlf.stat().st_mode) == 0o640
    assert stat.S_IMODE(bom.stat().st_mode) == 0o755


def test_a_symbolic_link_stays_a_link_to_the_rewritten_file(tmp_path: Path) -> None:
    real = tmp_path / "real.awl"
    real.write_text(UGLY)
    link = tmp_path / "link.awl"
    link.symlink_to(real)
    file_writes.write_text(link, PRETTY)
    assert link.is_symlink() and real.read_text() == PRETTY


def test_new_line_breaks_follow_the_file() -> None:
    assert file_writes.in_form_of(b"a\r\nb\r\n", "a\nb\nc\n") == b"a\r\nb\r\nc\r\n"
    assert file_writes.in_form_of(b"a\nb\r\n", "a\nb\n") == b"a\nb\n"  # mixed: the text as it is
    assert file_writes.in_form_of(b"\xef\xbb\xbfa\n", "b\n") == b"\xef\xbb\xbfb\n"


def test_a_read_only_file_is_refused_not_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "doc.awl"
    path.write_text(UGLY)
    os.chmod(path, 0o444)
    real_access = os.access
    # (the tests may run as root, whom no permission bit stops: ask as an ordinary user would)
    monkeypatch.setattr(
        file_writes.os, "access", lambda p, mode: not (mode & os.W_OK) and real_access(p, mode)
    )
    assert cli.main(["fmt", str(path)]) == 2
    assert path.read_text() == UGLY and stat.S_IMODE(path.stat().st_mode) == 0o444
    assert "read-only" in capsys.readouterr().err
