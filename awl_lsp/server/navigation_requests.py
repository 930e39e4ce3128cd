"""The navigation requests of the flow and its types, wired to their features:

- `textDocument/prepareCallHierarchy`, `callHierarchy/incomingCalls`, `callHierarchy/outgoingCalls`
  (`features.call_hierarchy_workspace`): what leads into a step, outcome, subflow or workflow and
  where it leads, across the documents of the workspace;
- `textDocument/typeDefinition` (`features.type_definition`): from a value to its type's
  declaration, in a schema file too;
- `textDocument/documentLink` (`features.document_links`): the files `schema("…")` imports name.

Requests that cross documents wait for the workspace index (as definition does); the rest answer
from the document alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from awl_lsp.server.cancellable_requests import cancellable_request
from awl_lsp.server.document_table import DocumentTable

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot


def register(server: DocumentTable) -> None:
    """The navigation requests, on `server` (their capabilities follow from the registration)."""
    prepare = lsp.CallHierarchyOptions()
    server.feature(lsp.TEXT_DOCUMENT_PREPARE_CALL_HIERARCHY, prepare)(cancellable_request(on_prepare_calls))
    server.feature(lsp.CALL_HIERARCHY_INCOMING_CALLS)(cancellable_request(on_incoming_calls))
    server.feature(lsp.CALL_HIERARCHY_OUTGOING_CALLS)(cancellable_request(on_outgoing_calls))
    server.feature(lsp.TEXT_DOCUMENT_TYPE_DEFINITION)(cancellable_request(on_type_definition))
    links = lsp.DocumentLinkOptions(resolve_provider=False)
    server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_LINK, links)(cancellable_request(on_document_links))


async def _workspace(ls: DocumentTable, wait: bool = True):  # noqa: ANN202 — a Workspace, or None
    """The workspace the call hierarchy reads (waiting for the first index only when `wait`)."""
    from awl_lsp.features.call_hierarchy_workspace import Workspace

    index = await ls.session.wait_ready() if wait else ls.session.index
    if index is None:
        return None

    def open_document(path: Path) -> tuple[str, Snapshot] | None:
        for uri, doc in list(ls.documents.items()):
            if doc.path is not None and doc.path.resolve() == path:
                snap = ls.snapshot(uri)
                return (uri, snap) if snap is not None else None
        return None

    return Workspace(index, ls.encoding, open_document)


async def on_prepare_calls(
    ls: DocumentTable, params: lsp.CallHierarchyPrepareParams
) -> list[lsp.CallHierarchyItem] | None:
    from awl_lsp.features.call_hierarchy_workspace import crosses, prepare

    uri = params.text_document.uri
    snap = ls.snapshot(uri)
    if snap is None:
        return None
    ws = await _workspace(ls, crosses(snap, position=params.position))
    return prepare(snap, uri, params.position, ws)


async def _item_document(ls: DocumentTable, item: lsp.CallHierarchyItem):  # noqa: ANN202
    """(the document the item lies in: its URI and snapshot, or None; the workspace, or None)."""
    from awl_lsp.features.call_hierarchy_workspace import crosses

    snap = ls.snapshot(item.uri)
    if snap is not None:
        return (item.uri, snap), await _workspace(ls, crosses(snap, item=item))
    ws = await _workspace(ls)  # (a document not open: read from the index)
    return (ws.at_uri(item.uri) if ws is not None else None), ws


async def on_incoming_calls(
    ls: DocumentTable, params: lsp.CallHierarchyIncomingCallsParams
) -> list[lsp.CallHierarchyIncomingCall]:
    from awl_lsp.features.call_hierarchy_workspace import incoming_calls

    found, ws = await _item_document(ls, params.item)
    return incoming_calls(found[1], found[0], params.item, ws) if found is not None else []


async def on_outgoing_calls(
    ls: DocumentTable, params: lsp.CallHierarchyOutgoingCallsParams
) -> list[lsp.CallHierarchyOutgoingCall]:
    from awl_lsp.features.call_hierarchy_workspace import outgoing_calls

    found, ws = await _item_document(ls, params.item)
    return outgoing_calls(found[1], found[0], params.item, ws) if found is not None else []


def on_type_definition(ls: DocumentTable, params: lsp.TypeDefinitionParams) -> lsp.Location | None:
    from awl_lsp.features.type_definition import type_definition

    uri = params.text_document.uri
    snap = ls.snapshot(uri)
    return type_definition(snap, params.position, uri) if snap is not None else None


def on_document_links(ls: DocumentTable, params: lsp.DocumentLinkParams) -> list[lsp.DocumentLink]:
    from awl_lsp.features.document_links import document_links

    snap = ls.snapshot(params.text_document.uri)
    return document_links(snap, ls.folders()) if snap is not None else []
