"""Shared helpers for feature tests: analyse a document and find positions by text."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types as lsp

from awl_lsp.documents import analyse_text
from awl_lsp.features.snapshot import Snapshot

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


def example(name: str) -> str:
    return (EXAMPLES / name).read_text(encoding="utf-8")


def snap_of(text: str) -> Snapshot:
    return analyse_text(text)


def pos(text: str, needle: str, offset: int = 0) -> lsp.Position:
    index = text.index(needle) + offset
    return lsp.Position(text.count("\n", 0, index), index - (text.rfind("\n", 0, index) + 1))
