"""Document symbols: the hierarchical outline (flow and its clauses, types and fields, workers and
actions, steps and substeps, subflows)."""

from __future__ import annotations

from lsprotocol import types as lsp

from awl_lsp.features.snapshot import Snapshot
from awl_lsp.model import Kind, Symbol

_KIND = {
    Kind.WORKFLOW: lsp.SymbolKind.Module,
    Kind.WORKLOOP: lsp.SymbolKind.Module,
    Kind.INPUT: lsp.SymbolKind.Variable,
    Kind.SIGNAL: lsp.SymbolKind.Event,
    Kind.OUTCOME: lsp.SymbolKind.EnumMember,
    Kind.CARRY: lsp.SymbolKind.Variable,
    Kind.REPORT: lsp.SymbolKind.Property,
    Kind.INVARIANT: lsp.SymbolKind.Property,
    Kind.CONST: lsp.SymbolKind.Constant,
    Kind.TYPE: lsp.SymbolKind.Struct,
    Kind.FIELD: lsp.SymbolKind.Field,
    Kind.VARIANT: lsp.SymbolKind.EnumMember,
    Kind.WORKER: lsp.SymbolKind.Class,
    Kind.ACTION: lsp.SymbolKind.Method,
    Kind.PARAMETER: lsp.SymbolKind.Variable,
    Kind.CHILD: lsp.SymbolKind.Function,
    Kind.DETACHED: lsp.SymbolKind.Function,
    Kind.SUBFLOW: lsp.SymbolKind.Function,
    Kind.STEP: lsp.SymbolKind.Function,
    Kind.STEP_OUTCOME: lsp.SymbolKind.EnumMember,
    Kind.RETIRE: lsp.SymbolKind.Function,
}
_HIDDEN = {Kind.PARAMETER, Kind.BINDING}


def _symbol(snap: Snapshot, sym: Symbol) -> lsp.DocumentSymbol:
    children = [_symbol(snap, c) for c in sym.children if c.kind not in _HIDDEN]
    detail = sym.type if sym.kind in (Kind.INPUT, Kind.CARRY, Kind.FIELD, Kind.SIGNAL) else sym.detail
    return lsp.DocumentSymbol(
        name=sym.name,
        kind=_KIND.get(sym.kind, lsp.SymbolKind.Variable),
        range=snap.lsp_range(sym.range),
        selection_range=snap.lsp_range(sym.selection),
        detail=detail or None,
        children=children or None,
    )


def document_symbols(snap: Snapshot) -> list[lsp.DocumentSymbol]:
    return [_symbol(snap, s) for s in snap.model.symbols]
