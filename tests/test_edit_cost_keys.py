"""A keystroke on a long document costs what it touched: no list of every line or item is written
out, the model's document-wide lists are not joined, the workspace summary reads the item typed
in, and the document-wide rules are not run again — for a valid keystroke and for each keystroke
of the benchmark that breaks a line and mends it (the answers a fresh open's, see the incremental
tests)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from awl_lsp.features.diagnostics import diagnostics
from awl_lsp.features.documents import OpenDocument
from awl_lsp.features.workspace_diagnostics import document_summary
from awl_lsp.model import declaration_tables
from awl_lsp.syntax import TextEdit, offsets
from awl_lsp.workspace import summary

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from breaking import breaking_edits  # noqa: E402
from generate import document, typing  # noqa: E402

TEXT = document(5000)


def _keys() -> dict[str, list[tuple[int, int, int, int, str]]]:
    out = {name: list(pair) for name, pair in breaking_edits(TEXT).items()}
    out["a digit typed"] = list(typing(TEXT).edits["char"])
    out["Enter"] = list(typing(TEXT).edits["enter"])
    return out


@pytest.mark.parametrize("name", sorted(_keys()))
def test_a_keystroke_at_5000_lines_reads_only_what_it_touched(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    doc = OpenDocument(TEXT, 1, None, None)
    diagnostics(doc.snapshot)
    document_summary(doc.snapshot)
    written: list[int] = []
    joined: list[str] = []
    parts: list[object] = []
    real_list, real_joined = offsets.Offsets.to_list, declaration_tables.DeclarationTables._joined
    real_part = summary._item_part
    monkeypatch.setattr(offsets.Offsets, "to_list", lambda self: written.append(len(self)) or real_list(self))
    monkeypatch.setattr(
        declaration_tables.DeclarationTables,
        "_joined",
        lambda self, what, part: joined.append(what) or real_joined(self, what, part),
    )
    monkeypatch.setattr(summary, "_item_part", lambda facts: parts.append(facts) or real_part(facts))
    for edit in _keys()[name]:
        for seen in (written, joined, parts):
            seen.clear()
        doc.checks.last_replayed = False
        doc.checks.last_checked = -1  # (stays so when a text the engine cannot read is not checked)
        doc.edit([TextEdit(*edit)], (doc.version or 0) + 1)
        diagnostics(doc.snapshot)
        document_summary(doc.snapshot)
        assert not written, written  # (no list of every line or item written out)
        assert not joined, joined
        assert len(parts) <= 2, len(parts)
        assert doc.checks.last_checked <= 1 and (doc.checks.last_replayed or doc.checks.last_checked == -1)
    assert doc.syntax.text == TEXT
