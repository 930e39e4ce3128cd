"""`WorkspaceIndex`: a summary of every `.awl` document under the workspace folders, kept current.

Unopened documents are read from disk (safely: `files`) and summarised once per change on disk;
open documents are summarised from the editor's newest text instead, so an unsaved edit counts at
once. The index answers: which documents declare a workflow of this name, which one a document
naming it binds to (`resolve_flow`, the one resolution every cross-document feature uses:
`awl_lsp.workspace.resolution`), which documents declare contracts for it and which of those bind to
a given document (`callers_of`), and where a range of a document lies in LSP positions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from awl_lsp.model import ModelBuilder, SemanticModel
from awl_lsp.syntax import Encoding, SyntaxDocument
from awl_lsp.syntax.positions import LineIndex
from awl_lsp.workspace.files import awl_files, read_document
from awl_lsp.workspace.resolution import Resolution, resolve
from awl_lsp.workspace.summary import DocumentSummary, Range, summarize


@dataclass
class Entry:
    path: Path
    text: str
    summary: DocumentSummary
    is_open: bool = False
    stamp: tuple[int, int] | None = None  # (mtime_ns, size) of the file the text came from
    _lines: LineIndex | None = field(default=None, repr=False)

    @property
    def uri(self) -> str:
        return self.path.as_uri()

    def position(self, row: int, col: int, encoding: Encoding = Encoding.UTF16) -> tuple[int, int]:
        if self._lines is None:
            self._lines = LineIndex(self.text)
        return self._lines.point_to_position(row, col, encoding)

    def lsp_range(self, r: Range, encoding: Encoding = Encoding.UTF16) -> tuple[int, int, int, int]:
        sl, sc = self.position(r[0], r[1], encoding)
        el, ec = self.position(r[2], r[3], encoding)
        return sl, sc, el, ec


def _model_of(text: str) -> SemanticModel:
    doc = SyntaxDocument(text)
    return ModelBuilder().build(doc.tree, doc.source)


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


class WorkspaceIndex:
    def __init__(self, roots: Iterable[Path] = ()) -> None:
        self.roots: list[Path] = [Path(r).resolve() for r in roots]
        self.entries: dict[Path, Entry] = {}
        self.skipped: dict[Path, str] = {}  # files left out, with the reason
        self.generation = 0  # bumped whenever a summary that others may depend on changes
        # name -> the documents declaring that workflow (or workloop) / a contract for it
        self._flows: dict[str, dict[Path, Entry]] = {}
        self._contracts: dict[str, dict[Path, Entry]] = {}
        self._keys: dict[Path, Path] | None = None  # paths resolved while `resolving`

    @contextmanager
    def resolving(self) -> Iterator[None]:
        """Within it, each path is resolved once (the questions of one publish: its file system
        does not change under it); each question resolves its path again outside."""
        if self._keys is not None:
            yield
            return
        self._keys = {}
        try:
            yield
        finally:
            self._keys = None

    def key(self, path: Path) -> Path:
        """The resolved path a document is filed under (symlinks resolved: see `resolving`)."""
        keys = self._keys
        if keys is None:
            return path.resolve()
        found = keys.get(path)
        if found is None:
            found = keys[path] = path.resolve()
        return found

    # ---- building
    def scan(self, progress: Callable[[int, Path], None] | None = None) -> int:
        """Read every document under the roots (open ones keep their editor text)."""
        count = 0
        for path in awl_files(self.roots):
            count += 1
            if progress is not None:
                progress(count, path)
            key = path.resolve()
            if key in self.entries and self.entries[key].is_open:
                continue
            self.load(key)
        return count

    def scan_into(self, folder: Path) -> int:
        """Read every document under one folder (which must lie inside the roots)."""
        count = 0
        for path in awl_files([folder]):
            count += 1
            self.load(path)
        return count

    def load(self, path: Path) -> Entry | None:
        """(Re-)read one file from disk; None when it is missing, outside, too large or binary."""
        key = path.resolve()
        stamp = _stamp(key)
        old = self.entries.get(key)
        if old is not None and old.is_open:
            return old
        if old is not None and stamp is not None and old.stamp == stamp:
            return old
        text, why = read_document(key, self.roots)
        if text is None:
            self.skipped[key] = why
            self._drop(key)
            return None
        self.skipped.pop(key, None)
        return self._put(key, text, summarize(_model_of(text)), False, stamp)

    def put(self, key: Path, text: str, summary: DocumentSummary) -> Entry:
        """A document read from disk and summarised elsewhere (the command line's worker processes
        read with `files.document_text`, as `load` would), filed as `load` files it; `key` is its
        resolved path."""
        self.skipped.pop(key, None)
        return self._put(key, text, summary, False, _stamp(key))

    def update_open(
        self, path: Path, text: str, model: SemanticModel, summary: DocumentSummary | None = None
    ) -> Entry | None:
        """An open document's newest version (its editor text stands in for the file)."""
        key = self.key(path)
        if self.roots and not any(_under(key, r) for r in self.roots):
            return None
        return self._put(key, text, summary if summary is not None else summarize(model), True, None)

    def close(self, path: Path) -> None:
        """The editor closed it: the file on disk counts again (or nothing, if it is gone)."""
        key = path.resolve()
        entry = self.entries.get(key)
        if entry is not None:
            entry.is_open = False
            entry.stamp = None
        if key.exists():
            self.load(key)
        else:
            self._drop(key)

    def forget(self, path: Path) -> None:
        """A file was deleted on disk."""
        key = path.resolve()
        entry = self.entries.get(key)
        if entry is not None and not entry.is_open:
            self._drop(key)

    def _put(self, key: Path, text: str, summary: DocumentSummary, is_open: bool, stamp) -> Entry:  # noqa: ANN001
        old = self.entries.get(key)
        if old is None or not _same_meaning(old.summary, summary):
            self.generation += 1
        entry = Entry(key, text, summary, is_open, stamp)
        if old is not None:
            self._unfile(old)
        self.entries[key] = entry
        self._file(entry)
        return entry

    def _drop(self, key: Path) -> None:
        old = self.entries.pop(key, None)
        if old is not None:
            self._unfile(old)
            self.generation += 1

    def _file(self, entry: Entry) -> None:
        s = entry.summary
        if s.flow_name:
            self._flows.setdefault(s.flow_name, {})[entry.path] = entry
        for c in s.contracts:
            self._contracts.setdefault(c.name, {})[entry.path] = entry

    def _unfile(self, entry: Entry) -> None:
        s = entry.summary
        names = [(self._flows, s.flow_name)] if s.flow_name else []
        names += [(self._contracts, c.name) for c in s.contracts]
        for table, name in names:
            found = table.get(name)
            if found is not None and found.get(entry.path) is entry:
                del found[entry.path]
                if not found:
                    del table[name]

    # ---- questions
    def flows_named(self, name: str) -> list[Entry]:
        """Every document declaring a workflow or workloop `name` (by path)."""
        return sorted(self._flows.get(name, {}).values(), key=lambda e: str(e.path))

    def resolve_flow(self, name: str, from_path: Path | None) -> Resolution[Entry]:
        """The documents declaring workflow `name`, nearest first, as seen from the document at
        `from_path` (None: a document with no file). The one resolution contracts, definition,
        references, rename and call hierarchy use; see `awl_lsp.workspace.resolution`."""
        origin = self.key(from_path) if from_path is not None else None
        return resolve(name, origin, self._flows.get(name, {}).values())

    def declaring(self, name: str) -> list[Entry]:
        """Documents with a `detached`/`child` contract for `name` (by path)."""
        return sorted(self._contracts.get(name, {}).values(), key=lambda e: str(e.path))

    def callers_of(self, name: str, path: Path) -> list[Entry]:
        """The documents whose contract for workflow `name` binds to the document at `path` (it is
        one of the nearest declarations of that name from them), by path."""
        key = path.resolve()
        return [e for e in self.declaring(name) if self.resolve_flow(name, e.path).binds(key)]

    def entry(self, path: Path) -> Entry | None:
        return self.entries.get(self.key(path))


def _meaning(s: DocumentSummary) -> tuple:
    """What other documents' contract checks read of a summary, without positions: an edit that
    only moves lines (Enter above a declaration) re-checks nobody else. (The record types apart:
    see `_same_meaning`.)"""
    return (
        s.flow_kind,
        s.flow_name,
        tuple((i.name, i.type) for i in s.inputs),
        tuple((o.name, o.type, o.route) for o in s.outcomes),
        tuple((c.kind, c.name, tuple((p.name, p.type) for p in c.params), c.result) for c in s.contracts),
    )


def _same_meaning(a: DocumentSummary, b: DocumentSummary) -> bool:
    """Do two summaries mean the same to other documents (`_meaning`, and the record types — the
    same table when no record type changed between two versions of a document, compared without
    sorting a long document's thousand records on every keystroke)?"""
    return _meaning(a) == _meaning(b) and (a.records is b.records or a.records == b.records)


def _under(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root)
        return True
    except ValueError:
        return False
