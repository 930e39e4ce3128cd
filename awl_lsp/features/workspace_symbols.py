"""Workspace symbols: the declarations of every open document, matched by case-insensitive substring."""

from __future__ import annotations

from collections.abc import Iterable

from lsprotocol import types as lsp

from awl_lsp.features.lsp_positions import lsp_range
from awl_lsp.features.snapshot import Snapshot
from awl_lsp.features.symbols import _KIND
from awl_lsp.model import Kind

# names that are not worth a workspace-wide search: local values and the unnamed `retire` block
_SKIPPED = frozenset({Kind.BINDING, Kind.PARAMETER, Kind.RETIRE})


def workspace_symbols(documents: Iterable[tuple[str, Snapshot]], query: str) -> list[lsp.WorkspaceSymbol]:
    needle = query.strip().lower()
    out: list[lsp.WorkspaceSymbol] = []
    for uri, snap in documents:
        for sym in snap.model.all_symbols:
            if sym.kind in _SKIPPED or needle not in sym.name.lower():
                continue
            out.append(
                lsp.WorkspaceSymbol(
                    name=sym.name,
                    kind=_KIND.get(sym.kind, lsp.SymbolKind.Variable),
                    location=lsp.Location(uri, lsp_range(snap, sym.selection)),
                    container_name=sym.container or None,
                )
            )
    # exact and prefix matches first, then by name
    out.sort(key=lambda s: (s.name.lower() != needle, not s.name.lower().startswith(needle), s.name))
    return out
