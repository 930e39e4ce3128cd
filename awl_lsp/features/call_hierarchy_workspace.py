"""The call hierarchy requests, across documents: `prepare`, `incoming_calls`, `outgoing_calls`.

Within a document the calls are `call_hierarchy`'s. Across documents a `detached`/`child` contract
stands for the workflow it starts: a hatch, spawn or child call leads into that workflow's own
document (its item is the workflow there), and the incoming calls of a workflow include every
hatch, spawn and child call of it in the other documents of the workspace — each from the step
(or `retire` block) it is written in. Where no document of the workspace declares the workflow
(it is deployed from elsewhere), the contract's declaration here is the item.

Which document a contract's name leads to is the index's one resolution
(`WorkspaceIndex.resolve_flow`: the document itself, then the nearest folder; several documents
only when equally near), and the calls into a workflow are those of the documents whose contracts
bind to it (`WorkspaceIndex.callers_of`) — so a copy of the workflow elsewhere is not called.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from lsprotocol import types as lsp

from awl_lsp.features import call_hierarchy as ch
from awl_lsp.features.cancel import checkpoint
from awl_lsp.features.lsp_positions import lsp_range
from awl_lsp.features.snapshot import Snapshot
from awl_lsp.syntax import Encoding
from awl_lsp.workspace import WorkspaceIndex
from awl_lsp.workspace.index import Entry


def workflows_for(index: WorkspaceIndex, name: str, user: Path | None) -> list[Entry]:
    """The documents a contract named `name`, declared in the document at `user`, starts: the
    nearest declaring it (several only when equally near)."""
    return [e for e in index.resolve_flow(name, user).tied if e.summary.flow_selection is not None]


@dataclass
class Workspace:
    """What the requests read beyond the one document: the index, the position encoding, and the
    open documents (by resolved path: their URI as the editor spells it, and their snapshot)."""

    index: WorkspaceIndex
    encoding: Encoding
    open_document: Callable[[Path], tuple[str, Snapshot] | None]
    _read: dict[Path, tuple[str, Snapshot]] = field(default_factory=dict)

    def document(self, entry: Entry) -> tuple[str, Snapshot]:
        """An indexed document's URI and snapshot: the editor's when it is open, else its text
        analysed (once per request)."""
        found = self.open_document(entry.path)
        if found is not None:
            return found
        if entry.path not in self._read:
            from awl_lsp.features.documents import analyse_text

            root = self.index.roots[0] if self.index.roots else entry.path.parent
            snap = analyse_text(entry.text, entry.path, root)
            snap.doc.encoding = self.encoding
            self._read[entry.path] = (entry.uri, snap)
        return self._read[entry.path]

    def at_uri(self, uri: str) -> tuple[str, Snapshot] | None:
        """The document an item names (open or indexed)."""
        for entry in self.index.entries.values():
            if entry.uri == uri:
                return self.document(entry)
        return None

    def flow_items(self, name: str, user: Path | None) -> list[lsp.CallHierarchyItem]:
        """The items of the workflows a contract named `name` (in the document at `user`) starts."""
        out = []
        for entry in workflows_for(self.index, name, user):
            uri, snap = self.document(entry)
            found = ch.item(snap, uri, ch.FLOW)
            if found is not None:
                out.append(found)
        return out


def _contract(snap: Snapshot, item_id: str) -> str | None:
    """The workflow name an item stands for when it is a `detached`/`child` contract."""
    node = ch.flow_calls(snap).nodes.get(item_id)
    return node.name if node is not None and node.kind in ch.CONTRACTS else None


def crosses(
    snap: Snapshot, position: lsp.Position | None = None, item: lsp.CallHierarchyItem | None = None
) -> bool:
    """Does the request at `position` (or about `item`) read other documents: is it a contract, a
    workflow (its incoming calls), or a step that hatches, spawns or calls one?"""
    item_id = ch.item_id_at(snap, position) if position is not None else None
    if item is not None:
        item_id = ch.item_id_of(snap, item)
    if item_id is None:
        return False
    if item_id == ch.FLOW or _contract(snap, item_id) is not None:
        return True
    return any(_contract(snap, c.target) is not None for c in ch.flow_calls(snap).out_of.get(item_id, []))


def prepare(
    snap: Snapshot, uri: str, position: lsp.Position, ws: Workspace | None
) -> list[lsp.CallHierarchyItem] | None:
    """The item at the cursor; on a contract (its declaration, a hatch, spawn or call of it), the
    workflow it starts, when a document of the workspace declares it."""
    item_id = ch.item_id_at(snap, position)
    if item_id is None:
        return None
    name = _contract(snap, item_id)
    if name is not None and ws is not None:
        found = ws.flow_items(name, snap.path)
        if found:
            return found
    here = ch.item(snap, uri, item_id)
    return [here] if here is not None else None


def incoming_calls(
    snap: Snapshot, uri: str, item: lsp.CallHierarchyItem, ws: Workspace | None
) -> list[lsp.CallHierarchyIncomingCall]:
    item_id = ch.item_id_of(snap, item)
    if item_id is None:
        return []
    out = [
        lsp.CallHierarchyIncomingCall(from_=caller, from_ranges=ch.ranges(snap, spans))
        for source, spans in ch.incoming(snap, item_id)
        if (caller := ch.item(snap, uri, source)) is not None
    ]
    flow = snap.model.flow
    if item_id == ch.FLOW and flow is not None and ws is not None:
        out += _started_from_elsewhere(flow.name, snap.path, ws)
    return out


def _started_from_elsewhere(
    name: str, path: Path | None, ws: Workspace
) -> list[lsp.CallHierarchyIncomingCall]:
    """The hatches, spawns and child calls of workflow `name` (declared at `path`) in every document
    whose contract for it binds to that document, grouped by the step they are written in."""
    if path is None:
        return []  # (a document with no file: no name binds to it)
    out: list[lsp.CallHierarchyIncomingCall] = []
    for entry in ws.index.callers_of(name, path):
        checkpoint()  # (a document analysed per entry that starts it: the client may give up)
        if not entry.summary.uses.get(name):
            continue
        uri, other = ws.document(entry)
        calls = ch.flow_calls(other)
        contracts = [n.id for n in calls.nodes.values() if n.kind in ch.CONTRACTS and n.name == name]
        for node_id in contracts:
            for source, spans in ch.incoming(other, node_id):
                caller = ch.item(other, uri, source)
                if caller is not None:
                    out.append(
                        lsp.CallHierarchyIncomingCall(from_=caller, from_ranges=ch.ranges(other, spans))
                    )
    return out


def outgoing_calls(
    snap: Snapshot, uri: str, item: lsp.CallHierarchyItem, ws: Workspace | None
) -> list[lsp.CallHierarchyOutgoingCall]:
    item_id = ch.item_id_of(snap, item)
    if item_id is None:
        return []
    out: list[lsp.CallHierarchyOutgoingCall] = []
    name = _contract(snap, item_id)
    declared = ch.symbol_of(snap, item_id)
    if name is not None and declared is not None:
        # a contract that led nowhere else at `prepare`: the workflow, if the workspace has it now
        if ws is not None:
            span = [lsp_range(snap, declared.selection)]
            out += [
                lsp.CallHierarchyOutgoingCall(to=t, from_ranges=span) for t in ws.flow_items(name, snap.path)
            ]
        return out
    for target, spans in ch.outgoing(snap, item_id):
        ranges = ch.ranges(snap, spans)
        contract = _contract(snap, target)
        elsewhere = ws.flow_items(contract, snap.path) if contract is not None and ws is not None else []
        callees = elsewhere or [t for t in (ch.item(snap, uri, target),) if t is not None]
        out += [lsp.CallHierarchyOutgoingCall(to=callee, from_ranges=ranges) for callee in callees]
    return out
