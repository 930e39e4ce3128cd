"""Navigation across documents: from a `detached`/`child` declaration, a `hatch`, `spawn` or child
call to the workflow it binds to; references and rename of a workflow across the documents that
bind to it; workspace symbols over every indexed document, fuzzy-matched.

Which workflow a name binds to is the index's one resolution (`WorkspaceIndex.resolve_flow`: the
document itself, then the nearest folder), so a copy of a workflow elsewhere is neither a definition
nor renamed with it, and a call site that binds to another copy is not renamed either.

Each function returns locations as `(uri, (line, character, end line, end character))` through the
index's entries, so documents that are not open are reached too.
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types as lsp
from tree_sitter import Node

from awl_lsp.features.lsp_positions import point
from awl_lsp.features.snapshot import Snapshot
from awl_lsp.features.symbols import _KIND
from awl_lsp.model import Kind, RefKind, Symbol
from awl_lsp.syntax import Encoding
from awl_lsp.workspace import WorkspaceIndex
from awl_lsp.workspace.index import Entry

_CONTRACT_KINDS = (Kind.DETACHED, Kind.CHILD)


def _loc(entry: Entry, r: tuple[int, int, int, int], encoding: Encoding) -> lsp.Location:
    sl, sc, el, ec = entry.lsp_range(r, encoding)
    return lsp.Location(entry.uri, lsp.Range(lsp.Position(sl, sc), lsp.Position(el, ec)))


def schema_file_at(snap: Snapshot, position: lsp.Position, roots: list) -> lsp.Location | None:
    """From `schema("file.json")` to the file (when it lies inside the workspace folders)."""
    from awl_lsp.workspace import inside

    row, col = point(snap, position)
    node: Node | None = snap.node_at(row, col)
    while node is not None and node.type != "schema_import":
        if node.type in ("type_declaration", "source_file"):
            return None
        node = node.parent
    path_node = node.child_by_field_name("path") if node is not None else None
    if path_node is None or snap.path is None:
        return None
    target = (snap.path.parent / snap.text(path_node).strip('"')).resolve()
    allowed = roots or ([snap.workspace] if snap.workspace else [snap.path.parent])
    if not inside(target, [Path(r) for r in allowed]) or not target.is_file():
        return None
    return lsp.Location(target.as_uri(), lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)))


def flow_name_at(snap: Snapshot, position: lsp.Position) -> tuple[str, Symbol | None] | None:
    """The workflow name the cursor names, across documents: a contract's or the flow's own name, or a
    hatch/spawn/child call of a contract. The symbol is the local declaration, if any."""
    row, col = point(snap, position)
    ref = snap.model.reference_at(row, col)
    if ref is not None and ref.kind in (RefKind.HATCH, RefKind.CALL):
        target = ref.target
        if target is not None and target.kind in _CONTRACT_KINDS:
            return target.name, target
        return None
    sym = snap.model.symbol_at(row, col)
    if sym is not None and (sym.kind in _CONTRACT_KINDS or sym.kind in (Kind.WORKFLOW, Kind.WORKLOOP)):
        return sym.name, sym
    return None


def _origin(snap: Snapshot) -> Path | None:
    return snap.path.resolve() if snap.path is not None else None


def bound_workflows(
    snap: Snapshot, position: lsp.Position, index: WorkspaceIndex
) -> tuple[str, list[Path]] | None:
    """The workflow name at the cursor and the documents (resolved paths) it stands for there: on a
    workflow's own declaration, this document; on a contract or its use, the nearest declarations
    of the name (`WorkspaceIndex.resolve_flow`; several only when equally near). None off a name."""
    found = flow_name_at(snap, position)
    if found is None:
        return None
    name, sym = found
    origin = _origin(snap)
    if sym is not None and sym.kind in (Kind.WORKFLOW, Kind.WORKLOOP):
        return name, [origin] if origin is not None else []
    return name, [e.path for e in index.resolve_flow(name, origin).tied]


def workflow_definitions(
    snap: Snapshot, position: lsp.Position, uri: str, index: WorkspaceIndex, encoding: Encoding
) -> list[lsp.Location]:
    """Where the workflow named at the cursor is declared: the document it binds to (every one of
    the equally near, when several are), when that is another document."""
    found = flow_name_at(snap, position)
    if found is None or (found[1] is not None and found[1].kind in (Kind.WORKFLOW, Kind.WORKLOOP)):
        return []
    origin = _origin(snap)
    return [
        _loc(e, e.summary.flow_selection, encoding)
        for e in index.resolve_flow(found[0], origin).tied
        if e.summary.flow_selection is not None and e.path != origin
    ]


def _binding_places(
    snap: Snapshot, position: lsp.Position, index: WorkspaceIndex, declarations: bool
) -> tuple[str, list[tuple[Entry, list[tuple[int, int, int, int]]]]] | None:
    """The name at the cursor and, per other document, the places that name the same workflow:
    the declarations it binds to (with `declarations`), and the contracts binding to them (their
    declarations with `declarations`, and their hatches, spawns and calls). A contract whose
    workflow is in no document: every contract of that name."""
    found = bound_workflows(snap, position, index)
    if found is None:
        return None
    name, targets = found
    origin = _origin(snap)
    places: dict[Path, tuple[Entry, list[tuple[int, int, int, int]]]] = {}

    def add(e: Entry, ranges: list[tuple[int, int, int, int]]) -> None:
        if e.path == origin or not ranges:
            return
        kept = places.setdefault(e.path, (e, []))[1]
        for r in ranges:
            if r not in kept:
                kept.append(r)

    callers: dict[Path, Entry] = {}
    for path in targets:
        target = index.entry(path)
        if target is not None and declarations and target.summary.flow_selection is not None:
            add(target, [target.summary.flow_selection])
        callers.update((e.path, e) for e in index.callers_of(name, path))
    if not targets and not index.flows_named(name):
        callers.update((e.path, e) for e in index.declaring(name))
    for e in sorted(callers.values(), key=lambda e: str(e.path)):
        c = e.summary.contract(name)
        if c is not None:
            add(e, ([c.selection] if declarations else []) + list(e.summary.uses.get(name, [])))
    return name, list(places.values())


def workflow_references(
    snap: Snapshot,
    position: lsp.Position,
    uri: str,
    index: WorkspaceIndex,
    encoding: Encoding,
    include_declaration: bool,
) -> list[lsp.Location]:
    """Every place in other documents that names the workflow at the cursor: its declaration (when
    asked), the `detached`/`child` declarations that bind to it (when asked) and their hatches,
    spawns and calls. A copy of the workflow elsewhere, and the contracts binding to that copy,
    are another workflow's."""
    found = _binding_places(snap, position, index, include_declaration)
    if found is None:
        return []
    return [_loc(e, r, encoding) for e, ranges in found[1] for r in ranges]


def workflow_rename_edits(
    snap: Snapshot, position: lsp.Position, uri: str, index: WorkspaceIndex, encoding: Encoding, new_name: str
) -> dict[str, list[lsp.TextEdit]]:
    """Edits in other documents that renaming the workflow at the cursor needs (its declaration, the
    contracts that bind to it, their uses). The current document's own edits are the caller's; a
    contract for a workflow deployed from elsewhere is renamed here only."""
    found = _binding_places(snap, position, index, True)
    if found is None or not index.flows_named(found[0]):
        return {}
    return {
        e.uri: [lsp.TextEdit(_loc(e, r, encoding).range, new_name) for r in ranges] for e, ranges in found[1]
    }


def with_definitions_elsewhere(
    here: lsp.Location | None, elsewhere: list[lsp.Location], position: lsp.Position
) -> lsp.Location | list[lsp.Location] | None:
    """A definition answer with the workspace's: on a `detached`/`child` declaration, the workflow
    it names; on a hatch or call, both the declaration here and the workflow."""
    if not elsewhere:
        return here
    at_declaration = here is not None and here.range.start.line == position.line
    return elsewhere if at_declaration else [loc for loc in (here, *elsewhere) if loc is not None]


def with_edits_elsewhere(edit: lsp.WorkspaceEdit, more: dict[str, list[lsp.TextEdit]]) -> lsp.WorkspaceEdit:
    """A rename's edits in this document joined with those in the workflows' other documents."""
    if not more:
        return edit
    changes = dict(edit.changes or {})
    changes.update(more)
    return lsp.WorkspaceEdit(changes=changes)


def fuzzy_score(query: str, name: str) -> int | None:
    """A match score (higher is better) when the query's letters appear in order in the name, else None."""
    if not query:
        return 0
    q, n = query.lower(), name.lower()
    if q == n:
        return 1000
    score, at, prev = 0, 0, -2
    for ch in q:
        i = n.find(ch, at)
        if i < 0:
            return None
        score += 10 if i == prev + 1 else 1  # runs of letters count most
        if i == 0 or n[i - 1] == "_":
            score += 5  # a word's first letter
        prev, at = i, i + 1
    if n.startswith(q):
        score += 100
    return score - len(n) // 8


def indexed_symbols(
    index: WorkspaceIndex, query: str, encoding: Encoding, limit: int = 500
) -> list[lsp.WorkspaceSymbol]:
    """Declarations of every indexed document (open ones at their newest text), fuzzy-matched."""
    scored: list[tuple[int, str, lsp.WorkspaceSymbol]] = []
    for e in index.entries.values():
        for name, kind, selection, container in e.summary.symbols:
            score = fuzzy_score(query.strip(), name)
            if score is None:
                continue
            symbol = lsp.WorkspaceSymbol(
                name=name,
                kind=_KIND.get(Kind(kind), lsp.SymbolKind.Variable),
                location=_loc(e, selection, encoding),
                container_name=container or None,
            )
            scored.append((score, name, symbol))
    scored.sort(key=lambda t: (-t[0], t[1]))
    return [s for _, _, s in scored[:limit]]
