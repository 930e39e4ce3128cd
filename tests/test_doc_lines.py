"""`///` lines document the declaration right below them, wherever they stand: first line of the
file, between items, inside a worker — and a declaration without one has no doc (the model build
skips the doc query for items with no `///` line near them)."""

from __future__ import annotations

from awl_lsp.features.documents import OpenDocument
from awl_lsp.model import Kind
from awl_lsp.syntax import TextEdit

TEXT = """/// The first record.
/// Two lines.
type First { id: String }
type Plain { id: String }

worker pool
  /// Fetches one.
  action fetch(id: String) -> First
  action bare(id: String) -> First
/// Right after the worker.
type Last { id: String }
"""


def _docs(text: str) -> dict[str, str]:
    model = OpenDocument(text, 1, None, None).snapshot.model
    return {s.name: s.doc for s in model.all_symbols if s.kind in (Kind.TYPE, Kind.ACTION)}


def test_doc_lines_attach_to_the_declaration_below() -> None:
    docs = _docs(TEXT)
    assert docs["First"] == "The first record.\nTwo lines."
    assert docs["Plain"] == ""
    assert docs["fetch"] == "Fetches one."
    assert docs["bare"] == ""
    assert docs["Last"] == "Right after the worker."


def test_doc_lines_survive_an_edit_elsewhere() -> None:
    doc = OpenDocument(TEXT, 1, None, None)
    assert doc.snapshot.model is not None
    col = len("type Plain { id: ")
    doc.edit([TextEdit(3, col, 3, col + len("String"), "Int")], 2)
    edited = {s.name: s.doc for s in doc.snapshot.model.all_symbols}
    fresh = _all_docs(doc.syntax.text)
    assert edited == fresh
    assert edited["First"] == "The first record.\nTwo lines."


def _all_docs(text: str) -> dict[str, str]:
    return {s.name: s.doc for s in OpenDocument(text, 1, None, None).snapshot.model.all_symbols}
