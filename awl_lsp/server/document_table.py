"""The server's table of open documents and where they live.

`DocumentTable` is the part of the language server every handler reads: the open documents by the
URI the editor gave them (`documents`), which of them were used recently (`recent`: the others are
compacted), the workspace session (`session`), the position encoding agreed at initialize, and the
workspace's folders and the URI of a file in it. It knows nothing of diagnostics: publishing
(`awl_lsp.server.publishing`) builds on it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp
from pygls.uris import to_fs_path

from awl_lsp.server import memory
from awl_lsp.server.protocol import RobustLanguageServer
from awl_lsp.server.session import WorkspaceSession

if TYPE_CHECKING:  # (the analysis is loaded after `initialize` is answered: `awl_lsp.server.warm`)
    from awl_lsp.features.documents import OpenDocument
    from awl_lsp.features.snapshot import Snapshot
    from awl_lsp.syntax import Encoding


class DocumentTable(RobustLanguageServer):
    """A language server holding the open documents and the workspace they belong to."""

    def __init__(self, name: str, version: str, **kwargs: Any) -> None:  # noqa: ANN401 — pygls's options
        incremental = lsp.TextDocumentSyncKind.Incremental  # (changes arrive as ranged edits)
        super().__init__(name, version, text_document_sync_kind=incremental, **kwargs)
        self.documents: dict[str, OpenDocument] = {}
        self.session = WorkspaceSession()
        self.recent = memory.RecentDocuments()  # documents in use keep their derived caches

    @property
    def encoding(self) -> Encoding:
        from awl_lsp.syntax import Encoding

        try:
            value = str(self.workspace.position_encoding or "utf-16")
        except Exception:  # noqa: BLE001 — before initialize
            value = "utf-16"
        return Encoding(value) if value in {e.value for e in Encoding} else Encoding.UTF16

    @property
    def dims_unused(self) -> bool:
        """Does the client dim what carries the `Unnecessary` tag (so an unused name is a hint)?"""
        from awl_lsp.features.diagnostics import dims_unused

        try:
            caps = self.client_capabilities
        except Exception:  # noqa: BLE001 — before initialize
            return False
        return dims_unused(caps)

    def workspace_root(self) -> Path | None:
        try:
            root = self.workspace.root_path
        except Exception:  # noqa: BLE001
            return None
        return Path(root) if root else None

    def folders(self) -> list[Path]:
        try:
            folders = list(self.workspace.folders.values())
        except Exception:  # noqa: BLE001 — before initialize
            folders = []
        local = [to_fs_path(f.uri) for f in folders if f.uri.startswith("file:")]
        paths = [Path(p) for p in local if p is not None]
        root = self.workspace_root()
        return paths or ([root] if root is not None else [])

    def uri_of(self, path: Path) -> str:
        """The URI the editor uses for a file (open documents keep the client's spelling)."""
        for uri, doc in self.documents.items():
            if doc.path is not None and doc.path.resolve() == path:
                return uri
        return path.as_uri()

    def can_merge_changes(self, uri: str, version: int) -> bool:
        """May a burst of changes to `uri` starting at `version` be applied as one (see
        `Dispatcher.handle_all`)? Only when the first would be applied anyway."""
        doc = self.documents.get(uri)
        return doc is not None and doc.out_of_sync is None and (doc.version is None or version > doc.version)

    def snapshot(self, uri: str) -> Snapshot | None:
        """The newest version of an open document (None if it is not open); it counts as used now."""
        doc = self.documents.get(uri)
        if doc is None:
            return None
        if self.recent.touch(uri, self.documents):
            memory.trim()  # what the compacted document dropped
        return doc.snapshot
