"""Document links: the path of every `schema("…")` import, a link to the JSON file it names.

The path is resolved relative to the document's folder, as the analysis reads it, and by the same
rule as go to definition on it (`workspace_nav.schema_file_at`): a file inside the workspace
folders. A path naming no file (or one outside the workspace) gets no link — its diagnostic
(`schema-missing`, `schema-outside`) already says what is wrong, and a link that opens nothing
would only mislead. The link covers the path between the quotes.
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types as lsp

from awl_lsp.features.lsp_positions import lsp_range
from awl_lsp.features.snapshot import Snapshot
from awl_lsp.features.workspace_nav import schema_file_at
from awl_lsp.model import Kind


def document_links(snap: Snapshot, roots: list[Path]) -> list[lsp.DocumentLink]:
    out: list[lsp.DocumentLink] = []
    for sym in snap.model.of_kind(Kind.TYPE):
        if sym.extra.get("form") != "schema_import":
            continue
        r = sym.selection
        node = snap.doc.root.descendant_for_point_range((r[0], r[1]), (r[2], r[3]))
        while node is not None and node.type != "type_declaration":
            node = node.parent
        body = node.child_by_field_name("body") if node is not None else None
        path = body.child_by_field_name("path") if body is not None else None
        if path is None:
            continue
        start, end = path.start_point, path.end_point
        whole = (start.row, start.column, end.row, end.column)
        target = schema_file_at(snap, lsp_range(snap, whole).start, roots)
        if target is None:
            continue
        quoted = snap.text(path)
        closed = start.row == end.row and len(quoted) >= 2 and quoted[0] == quoted[-1] == '"'
        span = (start.row, start.column + 1, end.row, end.column - 1) if closed else whole
        name = quoted.strip('"')
        out.append(lsp.DocumentLink(lsp_range(snap, span), target=target.uri, tooltip=f"Open {name}"))
    return out
