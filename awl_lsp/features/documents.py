"""Open documents and their analysis: text → tree (incremental) → semantic model → `Snapshot`.

The server and the CLI both go through here, so they see AWL the same way. An edit updates only
the text and the tree (cheap, in order); the semantic model is built lazily, when something first
asks for the newest `snapshot`, so a burst of keystrokes builds one model, not one per key, and
nothing is ever analysed for a version that is already stale. Each open document
keeps a `ModelBuilder` (per-item facts and resolutions) and a `CheckCache` (per-item problems);
each snapshot hands the checker that cache (`Snapshot.checks`), so checking a new version re-checks
only what the edit touched. The model knows nothing of it: the layers below never point up.
The builder is told which source bytes changed since the model before
(`changes_since`), so it looks at the items around them only.

A snapshot is a value: its text, line index and tree (a copy, see `SyntaxDocument.frozen`) and its
model stay what they were after newer edits. A new model normally takes over the last one's facts
and tables and moves them in place (cheap: what it costs follows the edit); it does so only when
no snapshot of the last model is in use any more (the document keeps a weak reference to the last
snapshot it handed out). While one is — a request holding it across an `await` — the builder
leaves that model alone and builds the new one from copies (`held_builds` counts those builds).

A change whose range lies past the end of the text means the editor's text and ours differ: the
document is marked `out_of_sync` and takes no more range edits until a full-text change arrives
(applying them would only spread the damage).
"""

from __future__ import annotations

import logging
import weakref
from pathlib import Path

from awl_lsp.checks import CheckCache
from awl_lsp.features.snapshot import Snapshot
from awl_lsp.model import ModelBuilder, SemanticModel
from awl_lsp.syntax import EditOutOfRange, Encoding, SyntaxDocument, TextEdit

log = logging.getLogger("awl_lsp.features.documents")

SPARE_DOCUMENT = "spare-document"  # `analyse_text`'s document, in its snapshot's memo


class OutOfSync(ValueError):
    """Range edits for a document whose text is known to differ from the editor's."""


class OpenDocument:
    def __init__(
        self,
        text: str,
        version: int | None,
        path: Path | None,
        workspace: Path | None,
        encoding: Encoding = Encoding.UTF16,
    ) -> None:
        self.version = version
        self.syntax = SyntaxDocument(text, encoding)
        self.builder = ModelBuilder()
        self.checks = CheckCache()
        self.path = path
        self.workspace = workspace
        self._snapshot: Snapshot | None = None
        self.shared: dict[str, object] = {}  # features' per-document caches (see `Snapshot.shared`)
        self.analysed = 0  # how many models were built (one per version something asked about)
        self.held_builds = 0  # … of them while an older snapshot was still in use (see `_build`)
        self.out_of_sync: str | None = None
        self._built: int | None = None  # the syntax revision the builder's last model describes
        self._handed: weakref.ref[Snapshot] | None = None  # the last snapshot made (see `_build`)

    @property
    def snapshot(self) -> Snapshot:
        """The newest version, analysed on first use (and then kept until the next edit)."""
        snap = self._snapshot
        if snap is None:
            model = self._build()
            snap = self._snapshot = Snapshot(
                self.syntax.frozen(),
                model,
                self.path,
                self.workspace,
                self.version,
                shared=self.shared,
                checks=self.checks,
            )
            self._handed = weakref.ref(snap)
            self.analysed += 1
        return snap

    def _build(self) -> SemanticModel:
        changes = self.syntax.changes_since(self._built)  # the bytes edited since the last build
        self._built = self.syntax.revision
        # A snapshot handed out before is still alive (this document no longer holds it): someone
        # may read it after this build, so the builder must leave its model as it is.
        held = self._handed is not None and self._handed() is not None
        if held:
            self.held_builds += 1
            log.debug("%s: an older snapshot is in use; the new model is built from copies", self.path)
        try:
            return self.builder.build(self.syntax.tree, self.syntax.source, changes, keep=held)
        except Exception:  # a reuse bug must not freeze the document: start the model afresh
            log.exception("incremental model build failed; rebuilding from scratch")
            self.builder, self.checks = ModelBuilder(), CheckCache()
            self.shared.clear()
            return self.builder.build(self.syntax.tree, self.syntax.source)

    def compact(self) -> None:
        """Not in use for a while: keep the text, the tree and the model's facts; drop what can be
        derived again (the analysed snapshot, check results, features' caches), so a hundred open
        documents cost little more than their text. The next use re-derives it (the model from the
        builder's facts, checks and features in full once)."""
        last = getattr(self.builder, "_model", None)  # the model the next one is built from
        if self._snapshot is not None:
            self._snapshot.checks = None  # (a request still holding it checks without a cache)
        for model in (last, self._snapshot.model if self._snapshot is not None else None):
            if model is None:
                continue
            refs = getattr(model, "_item_refs", None)  # references by range, indexed on demand
            if isinstance(refs, dict):
                refs.clear()
        self.checks = CheckCache()
        serial = self.shared.get("semantic-tokens-serial")  # result ids keep counting up
        self.shared.clear()
        if serial is not None:
            self.shared["semantic-tokens-serial"] = serial
        self._snapshot = None

    def invalidate(self) -> None:
        """Something outside the text changed (a schema file): analyse the newest version again."""
        self._snapshot = None

    @property
    def analysed_current(self) -> bool:
        """Has the newest version been analysed already?"""
        return self._snapshot is not None

    def replace(self, text: str, version: int | None) -> None:
        self.syntax.replace(text)
        self.version = version
        self.out_of_sync = None
        self._snapshot = None

    def edit(self, edits: list[TextEdit], version: int | None) -> None:
        """Apply range edits; OutOfSync / EditOutOfRange when they cannot be applied faithfully."""
        if self.out_of_sync is not None:
            raise OutOfSync(f"range edits ignored until the editor sends the full text ({self.out_of_sync})")
        try:
            self.syntax.apply(edits)
        except EditOutOfRange as exc:
            self.out_of_sync = str(exc)
            raise
        finally:
            self.version = version
            self._snapshot = None


def analyse_text(text: str, path: Path | None = None, workspace: Path | None = None) -> Snapshot:
    """One-shot analysis (the CLI): parse, index, ready for features and checks.

    The document the snapshot was made from has no other use: it stays with the snapshot
    (`memo[SPARE_DOCUMENT]`), where trying a fix (`features.fixes.trial`) edits and re-checks it
    incrementally instead of analysing the whole text again."""
    doc = OpenDocument(text, None, path, workspace)
    snap = doc.snapshot
    doc._snapshot = None  # (the snapshot holds the document, not the other way round)
    snap.memo[SPARE_DOCUMENT] = doc
    return snap
