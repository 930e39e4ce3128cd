"""Hover: keyword docs from the keyword reference, and what a name refers to (with its `///` docs)."""

from __future__ import annotations

from lsprotocol import types as lsp
from tree_sitter import Node

from awl_lsp.features import describe
from awl_lsp.features.lsp_positions import lsp_range, node_range, point
from awl_lsp.features.snapshot import Snapshot
from awl_lsp.features.typing import binding_type, field_at
from awl_lsp.reference import entry

_KEYWORD_NODES = {"start", "boolean", "outcome_kind"}


def keyword_at(snap: Snapshot, node: Node) -> str | None:
    """The keyword under the cursor, if the token is one (anonymous keyword tokens, `start`, …)."""
    if node.type == "type_identifier":
        word = snap.text(node)
        return word if entry(word) is not None and word[:1].isupper() else None
    if node.is_named and node.type not in _KEYWORD_NODES:
        return None
    word = snap.text(node)
    if not word or not (word[0].isalpha()):
        return None
    return word if entry(word) is not None else None


def hover(snap: Snapshot, position: lsp.Position, markdown: bool = True) -> lsp.Hover | None:
    row, col = point(snap, position)
    node = snap.node_at(row, col)
    kind = lsp.MarkupKind.Markdown if markdown else lsp.MarkupKind.PlainText
    word = keyword_at(snap, node)
    if word is not None:
        e = entry(word)
        if e is not None:
            text = e.hover_markdown() if markdown else e.hover_plaintext()
            return lsp.Hover(lsp.MarkupContent(kind, text), node_range(snap, node))
    model = snap.model
    ref = model.reference_at(row, col)
    sym = ref.target if ref is not None else None
    rng = ref.range if ref is not None else None
    if sym is None:
        sym = model.symbol_at(row, col)
        rng = sym.selection if sym is not None else rng
    if sym is None and node.type == "identifier":
        sym = field_at(snap, node)
        rng = (node.start_point.row, node.start_point.column, node.end_point.row, node.end_point.column)
    if sym is None or rng is None:
        return None
    btype = binding_type(snap, sym)
    tt = describe.TreeText(snap.doc.root, snap.doc.source)
    if markdown:
        text = describe.markdown(sym, model, btype, tt)
    else:
        text = describe.plaintext(sym, model, btype, tt)
    return lsp.Hover(lsp.MarkupContent(kind, text), lsp_range(snap, rng))
