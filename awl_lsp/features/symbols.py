"""Document symbols: the hierarchical outline (flow and its clauses, types and fields, workers and
actions, steps and substeps, subflows).

Every detail reads the same way: what the symbol is, then its type — `input: String`,
`report: SweepStatus`, `action(inbox: String) -> Batch`, `type (record)`, `step`.
"""

from __future__ import annotations

from lsprotocol import types as lsp

from awl_lsp.features.describe import label
from awl_lsp.features.lsp_positions import lsp_range
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
    detail = outline_detail(sym)
    return lsp.DocumentSymbol(
        name=sym.name,
        kind=_KIND.get(sym.kind, lsp.SymbolKind.Variable),
        range=lsp_range(snap, sym.range),
        selection_range=lsp_range(snap, sym.selection),
        detail=detail or None,
        children=children or None,
    )


_CALLABLE = {Kind.ACTION, Kind.CHILD, Kind.DETACHED, Kind.SUBFLOW}
_FORMS = {"record_body": "record", "enum_body": "enum"}


def outline_detail(sym: Symbol) -> str:
    """The symbol's kind, then its type (or its parameters and result for what is called)."""
    what = label(sym)
    if sym.kind in _CALLABLE:
        params = ", ".join(
            f"{p.name}: {p.type}" if p.type else p.name for p in sym.children if p.kind is Kind.PARAMETER
        )
        result = f" -> {sym.type}" if sym.type and sym.kind in (Kind.ACTION, Kind.CHILD) else ""
        return f"{what}({params}){result}"
    if sym.kind is Kind.TYPE:
        form = _FORMS.get(sym.extra.get("form", ""), "schema" if "schema" in sym.detail else "")
        return f"{what} ({form})" if form else what
    return f"{what}: {sym.type}" if sym.type else what


def document_symbols(snap: Snapshot) -> list[lsp.DocumentSymbol]:
    return [_symbol(snap, s) for s in snap.model.symbols]
