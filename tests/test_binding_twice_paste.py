"""Single assignment after pasting and deleting steps: a step that binds an input, or a name another
step binds, is reported exactly as a fresh check of the text reports it, and no longer once it is
gone (the flow rule looks only at names bound twice or inputs, kept up to date per item)."""

from __future__ import annotations

import sys
from pathlib import Path

from awl_lsp.features.diagnostics import findings
from awl_lsp.features.documents import OpenDocument
from awl_lsp.syntax import TextEdit

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from generate import document  # noqa: E402

STEP = (
    "step pasted_{0}\n"
    "  fetch_1(region: region, cursor: cursor) -> {1}\n"
    "  outcome done_{0}: else, route stage_1\n\n"
)
STEPS = [STEP.format("a", "region"), STEP.format("b", "item_2"), STEP.format("c", "fresh_name")]


def _twice(doc: OpenDocument) -> list[tuple[int, str]]:
    return sorted((p.range[0], p.message) for p in findings(doc.snapshot) if p.code == "binding-twice")


def _fresh(text: str) -> list[tuple[int, str]]:
    return _twice(OpenDocument(text, 1, None, None))


def test_pasted_rebindings_come_and_go_as_a_fresh_check_says() -> None:
    doc = OpenDocument(document(300), 1, None, None)
    assert _twice(doc) == []
    version = 1
    rows: list[int] = []
    for step in STEPS:
        row = doc.syntax.text.split("\n").index("step stage_3")
        version += 1
        doc.edit([TextEdit(row, 0, row, 0, step)], version)
        rows.append(row)
        assert _twice(doc) == _fresh(doc.syntax.text)
    messages = [m for _, m in _twice(doc)]
    assert any("`region` is an input" in m for m in messages)
    assert any("`item_2` is already bound" in m for m in messages)
    assert not any("fresh_name" in m for m in messages)
    for step in STEPS:  # each removed again
        row = doc.syntax.text.split("\n").index(step.split("\n")[0])
        version += 1
        doc.edit([TextEdit(row, 0, row + step.count("\n"), 0, "")], version)
        assert _twice(doc) == _fresh(doc.syntax.text)
    assert _twice(doc) == []
