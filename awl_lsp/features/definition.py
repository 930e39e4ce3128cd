"""Go to definition: names resolve through the model; `x.f` fields through type inference."""

from __future__ import annotations

from lsprotocol import types as lsp

from awl_lsp.features.snapshot import Snapshot
from awl_lsp.features.typing import field_at
from awl_lsp.model import Symbol


def target_at(snap: Snapshot, position: lsp.Position) -> Symbol | None:
    row, col = snap.point(position)
    ref = snap.model.reference_at(row, col)
    if ref is not None and ref.target is not None:
        return ref.target
    sym = snap.model.symbol_at(row, col)
    if sym is not None:
        return sym
    node = snap.node_at(row, col)
    if node.type == "identifier":
        return field_at(snap, node)
    return None


def definition(snap: Snapshot, position: lsp.Position, uri: str) -> lsp.Location | None:
    sym = target_at(snap, position)
    if sym is None:
        return None
    return lsp.Location(uri, snap.lsp_range(sym.selection))


def references(
    snap: Snapshot, position: lsp.Position, uri: str, include_declaration: bool
) -> list[lsp.Location]:
    sym = target_at(snap, position)
    if sym is None:
        return []
    out = [lsp.Location(uri, snap.lsp_range(r.range)) for r in snap.model.references_to(sym)]
    if include_declaration:
        out.insert(0, lsp.Location(uri, snap.lsp_range(sym.selection)))
    return out


def highlights(snap: Snapshot, position: lsp.Position) -> list[lsp.DocumentHighlight]:
    sym = target_at(snap, position)
    if sym is None:
        return []
    out = [lsp.DocumentHighlight(snap.lsp_range(sym.selection), lsp.DocumentHighlightKind.Write)]
    out += [
        lsp.DocumentHighlight(snap.lsp_range(r.range), lsp.DocumentHighlightKind.Read)
        for r in snap.model.references_to(sym)
    ]
    return out


def rename(snap: Snapshot, position: lsp.Position, uri: str, new_name: str) -> lsp.WorkspaceEdit | None:
    sym = target_at(snap, position)
    if sym is None or sym.kind.value == "retire":
        return None
    edits = [lsp.TextEdit(snap.lsp_range(sym.selection), new_name)]
    edits += [lsp.TextEdit(snap.lsp_range(r.range), new_name) for r in snap.model.references_to(sym)]
    return lsp.WorkspaceEdit(changes={uri: edits})
