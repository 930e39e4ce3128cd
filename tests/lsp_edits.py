"""Test helpers for edit-producing features: apply LSP text edits / workspace edits to a text."""

from __future__ import annotations

from lsprotocol import types as lsp

from awl_lsp.syntax.positions import Encoding, LineIndex


def apply_edits(text: str, edits: list[lsp.TextEdit], encoding: Encoding = Encoding.UTF16) -> str:
    """Apply non-overlapping edits (any order), the way an editor does."""
    index = LineIndex(text)
    spans = []
    for e in edits:
        start = index.offset(e.range.start.line, e.range.start.character, encoding)
        end = index.offset(e.range.end.line, e.range.end.character, encoding)
        spans.append((start, end, e.new_text))
    spans.sort(key=lambda s: (s[0], s[1]))
    for (_, a_end, _), (b_start, _, _) in zip(spans, spans[1:], strict=False):
        assert a_end <= b_start, "edits overlap"
    for start, end, new in reversed(spans):
        text = text[:start] + new + text[end:]
    return text


def apply_workspace_edit(text: str, edit: lsp.WorkspaceEdit, uri: str) -> str:
    assert edit.changes is not None and set(edit.changes) == {uri}
    return apply_edits(text, list(edit.changes[uri]))
