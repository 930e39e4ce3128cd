"""Where the features that answer LSP requests meet the protocol's positions.

A snapshot, the checks and the fixes speak the model's coordinates: (row, byte column) points and
`Range` tuples. The protocol speaks `lsp.Position`/`lsp.Range` counted in the client's encoding
(UTF-16 unless negotiated otherwise). These three functions convert between them, for the
features that build lsprotocol objects (hover, definition, symbols, code actions, diagnostics, …);
nothing the command line runs imports this module.
"""

from __future__ import annotations

from lsprotocol import types as lsp
from tree_sitter import Node

from awl_lsp.features.snapshot import Snapshot
from awl_lsp.model import Range


def point(snap: Snapshot, position: lsp.Position) -> tuple[int, int]:
    """The tree-sitter (row, byte column) of an LSP position in this snapshot's text."""
    return snap.doc.to_point(position.line, position.character)


def lsp_range(snap: Snapshot, r: Range) -> lsp.Range:
    """A model range as an LSP range, in the encoding negotiated with the client."""
    sl, sc = snap.doc.to_position((r[0], r[1]))
    el, ec = snap.doc.to_position((r[2], r[3]))
    return lsp.Range(lsp.Position(sl, sc), lsp.Position(el, ec))


def node_range(snap: Snapshot, node: Node) -> lsp.Range:
    """A syntax node's extent as an LSP range."""
    s, e = node.start_point, node.end_point
    return lsp_range(snap, (s.row, s.column, e.row, e.column))
