"""AWL's own requests and commands, beyond the LSP: what the editor clients call by name.

- `awl/graph`: the flow graph of a document (for the clients' graph view);
- `awl/syntaxTree`: the server's current tree (a debugging view, and what tests compare);
- the `awl.guide` command: a keyword's full reference entry, the link a hover ends with.
"""

from __future__ import annotations

from lsprotocol import types as lsp

from awl_lsp.server.cancellable_requests import cancellable_request
from awl_lsp.server.document_table import DocumentTable


def register(server: DocumentTable) -> None:
    """The two requests and the command, on `server`."""
    server.feature("awl/graph")(cancellable_request(on_graph))
    server.feature("awl/syntaxTree")(cancellable_request(on_syntax_tree))
    server.command("awl.guide")(on_guide)


def _plain(value: object) -> object:
    """Custom requests' params as plain dicts (pygls hands them over as named tuples)."""
    if hasattr(value, "_asdict"):
        value = value._asdict()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def on_graph(ls: DocumentTable, params: object) -> dict | None:
    """The flow graph of the document's newest version (`awl graph --format json`'s shape), with the
    step under `position` (when given) named in `focus`, and the graph as Mermaid and DOT text."""
    from awl_lsp.features.graph_render import graph_view

    raw = _plain(params)
    if not isinstance(raw, dict):
        return None
    doc = raw.get("textDocument")
    uri = doc.get("uri") if isinstance(doc, dict) else None
    snap = ls.snapshot(uri) if isinstance(uri, str) else None
    if snap is None:
        return None
    position = raw.get("position")
    line = position.get("line") if isinstance(position, dict) else None
    return graph_view(snap, line if isinstance(line, int) else None)


def on_syntax_tree(ls: DocumentTable, params: object) -> dict | None:
    """The server's current tree as an S-expression (a debugging view, and what tests compare)."""
    doc = getattr(params, "textDocument", None) or getattr(params, "text_document", None)
    uri = getattr(doc, "uri", None) if doc is not None else None
    if uri is None and isinstance(params, dict):
        uri = params.get("textDocument", {}).get("uri")
    snap = ls.snapshot(uri) if uri else None
    if snap is None:
        return None
    return {"tree": str(snap.doc.root), "text": snap.doc.text}


def on_guide(ls: DocumentTable, *args: object) -> str | None:
    """The full keyword entry a hover links to (`awl guide WORD`): returned and shown to the user."""
    from awl_lsp.reference import UnknownKeywordError, render_guide

    word = args[0] if args and isinstance(args[0], str) else None
    try:
        text = render_guide(word)
    except UnknownKeywordError as exc:
        text = str(exc)
    ls.window_show_message(lsp.ShowMessageParams(type=lsp.MessageType.Info, message=text))
    return text
