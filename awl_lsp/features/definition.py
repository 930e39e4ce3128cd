"""Go to definition, references, highlights and rename.

Names resolve through the model; `x.f` fields through type inference; `route start` / `confirms
start` lead to the workloop header (a new iteration starts there). `prepare_rename` refuses what
cannot be renamed: keywords, builtins, `start`, and names the new text would collide with or that
are not valid identifiers of their kind.
"""

from __future__ import annotations

from lsprotocol import types as lsp

from awl_lsp.checks.rules_support import RESERVED_NAMES, SNAKE, TITLE
from awl_lsp.features.lsp_positions import lsp_range, point
from awl_lsp.features.snapshot import Snapshot
from awl_lsp.features.typing import field_at
from awl_lsp.model import BUILTIN_TYPES, Kind, Range, Symbol


def target_at(snap: Snapshot, position: lsp.Position) -> Symbol | None:
    row, col = point(snap, position)
    ref = snap.model.reference_at(row, col)
    if ref is not None and ref.target is not None:
        return ref.target
    sym = snap.model.symbol_at(row, col)
    if sym is not None:
        return sym
    node = snap.node_at(row, col)
    if node.type == "identifier":
        return field_at(snap, node)
    if node.type == "start" and snap.model.is_workloop:
        return snap.model.flow  # `route start` begins the next iteration at the header
    return None


def definition(snap: Snapshot, position: lsp.Position, uri: str) -> lsp.Location | None:
    sym = target_at(snap, position)
    if sym is None:
        return None
    return lsp.Location(uri, lsp_range(snap, sym.selection))


def references(
    snap: Snapshot, position: lsp.Position, uri: str, include_declaration: bool
) -> list[lsp.Location]:
    sym = target_at(snap, position)
    if sym is None:
        return []
    out = [lsp.Location(uri, lsp_range(snap, r.range)) for r in snap.model.references_to(sym)]
    if include_declaration:
        out.insert(0, lsp.Location(uri, lsp_range(snap, sym.selection)))
    return out


def highlights(snap: Snapshot, position: lsp.Position) -> list[lsp.DocumentHighlight]:
    sym = target_at(snap, position)
    if sym is None:
        return []
    out = [lsp.DocumentHighlight(lsp_range(snap, sym.selection), lsp.DocumentHighlightKind.Write)]
    out += [
        lsp.DocumentHighlight(lsp_range(snap, r.range), lsp.DocumentHighlightKind.Read)
        for r in snap.model.references_to(sym)
    ]
    return out


_NOT_NAMES = RESERVED_NAMES | {"true", "false", "not", "and", "or", "is", "in", "start"}


def _renamable(snap: Snapshot, position: lsp.Position) -> tuple[Symbol, Range] | None:
    """The symbol under the cursor and the range of the name there, if it can be renamed."""
    row, col = point(snap, position)
    node = snap.node_at(row, col)
    if node.type not in ("identifier", "type_identifier"):
        return None  # keywords, `start`, literals, punctuation
    sym = target_at(snap, position)
    if sym is None or sym.kind is Kind.RETIRE or sym.name in BUILTIN_TYPES:
        return None
    s, e = node.start_point, node.end_point
    return sym, (s.row, s.column, e.row, e.column)


def prepare_rename(snap: Snapshot, position: lsp.Position) -> lsp.PrepareRenameResult | None:
    """The range of the renamable name under the cursor (None: nothing to rename there)."""
    found = _renamable(snap, position)
    if found is None:
        return None
    sym, rng = found
    return lsp.PrepareRenamePlaceholder(range=lsp_range(snap, rng), placeholder=sym.name)


def rename_problem(snap: Snapshot, sym: Symbol, new_name: str) -> str | None:
    """Why `sym` may not become `new_name` (None: it may)."""
    title = sym.kind in (Kind.TYPE, Kind.VARIANT)
    if not (TITLE if title else SNAKE).match(new_name):
        return f"`{new_name}` is not a valid {'TitleCase' if title else 'snake_case'} name"
    if new_name in _NOT_NAMES or new_name in BUILTIN_TYPES:
        return f"`{new_name}` is an AWL keyword"
    for other in snap.model.all_symbols:
        if other is not sym and other.name == new_name and _same_space(other, sym):
            return f"`{new_name}` is already declared ({other.kind.value})"
    return None


def _same_space(a: Symbol, b: Symbol) -> bool:
    """Would two symbols of these kinds clash if they shared a name?"""
    if a.kind in (Kind.FIELD, Kind.PARAMETER, Kind.STEP_OUTCOME) or b.kind in (
        Kind.FIELD,
        Kind.PARAMETER,
        Kind.STEP_OUTCOME,
    ):
        return a.kind is b.kind and a.container == b.container
    if a.kind is Kind.BINDING or b.kind is Kind.BINDING:
        return a.container == b.container or a.kind is not Kind.BINDING or b.kind is not Kind.BINDING
    return True


def rename(snap: Snapshot, position: lsp.Position, uri: str, new_name: str) -> lsp.WorkspaceEdit | None:
    """Every occurrence renamed; raises ValueError when the new name is invalid or collides."""
    found = _renamable(snap, position)
    if found is None:
        return None
    sym = found[0]
    problem = rename_problem(snap, sym, new_name)
    if problem is not None:
        raise ValueError(problem)
    edits = [lsp.TextEdit(lsp_range(snap, sym.selection), new_name)]
    edits += [lsp.TextEdit(lsp_range(snap, r.range), new_name) for r in snap.model.references_to(sym)]
    return lsp.WorkspaceEdit(changes={uri: edits})
