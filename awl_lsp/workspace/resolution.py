"""Which document a workflow name binds to, seen from the document that names it.

A repository may hold several documents declaring one workflow name — the same example in
`docs/…/examples/` and in `examples/`, a copy beside a design note, `v1/` beside `v2/`, fixtures of
one name — and that is no problem by itself: deploying binds a name, the folders do not. It matters
only where a document names the workflow (a `detached` or `child` declaration, its `hatch`, `spawn`
and calls); there the candidates are ranked by how near they lie, and every cross-document feature
(contracts, definition, references, rename, call hierarchy) reads that one ranking, so the editor
and `awl check` agree:

1. the document itself, when it declares the name (a workflow that starts itself);
2. then fewest folders *up*: how many folders are climbed from the document's folder to the nearest
   folder both paths share (0 means the candidate lies in the document's folder or below it);
3. then fewest folders *down*: how many are descended from that shared folder to the candidate's
   folder (the same folder is 0 up, 0 down; a sibling folder 1 up, 1 down);
4. equally near candidates are *tied*, listed by their resolved path as text — never by the order
   documents were indexed or opened in.

The first tied candidate is the one a contract is checked against (`chosen`). The binding is
*local* when it lies in the document's folder or below it: that folder holds the program (the
engine's own examples keep a workflow and the children it starts side by side in one folder).
Tied candidates *agree* when they offer one interface: the same kind, the same inputs (records
compared by their fields) and the same success results.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Generic, Protocol, TypeVar

from awl_lsp.workspace.summary import DocumentSummary, interface


class Document(Protocol):
    """What the ranking reads of an indexed document (`WorkspaceIndex`'s entries)."""

    @property
    def path(self) -> Path: ...  # resolved

    @property
    def summary(self) -> DocumentSummary: ...


Doc = TypeVar("Doc", bound=Document)


@dataclass(frozen=True)
class Candidate(Generic[Doc]):
    """One document declaring the name, and how far it lies from the document naming it."""

    entry: Doc
    itself: bool  # the naming document declares the name itself
    up: int  # folders climbed from the naming document's folder to the folder both share
    down: int  # folders descended from there to this document's folder

    @property
    def rank(self) -> tuple[int, int, int]:
        return (0 if self.itself else 1, self.up, self.down)


@dataclass(frozen=True)
class Resolution(Generic[Doc]):
    """Every document declaring `name`, nearest first, as seen from `origin` (a resolved path, or
    None for a document with no file: then every candidate is equally near)."""

    name: str
    origin: Path | None
    candidates: tuple[Candidate[Doc], ...]

    @cached_property
    def tied(self) -> tuple[Doc, ...]:
        """The nearest candidates (equally near), by path."""
        if not self.candidates:
            return ()
        best = self.candidates[0].rank
        return tuple(c.entry for c in self.candidates if c.rank == best)

    @property
    def chosen(self) -> Doc | None:
        """The document a contract is checked against: the first of the nearest."""
        return self.candidates[0].entry if self.candidates else None

    @property
    def others(self) -> tuple[Doc, ...]:
        """The documents declaring the name that are not the chosen one, nearest first."""
        return tuple(c.entry for c in self.candidates[1:])

    @property
    def local(self) -> bool:
        """The chosen document lies in the naming document's folder or below it."""
        return bool(self.candidates) and (self.candidates[0].itself or self.candidates[0].up == 0)

    @cached_property
    def agree(self) -> bool:
        """The nearest candidates offer one interface (true for a single one)."""
        tied = self.tied
        return len(tied) < 2 or len({interface(e.summary) for e in tied}) == 1

    def binds(self, path: Path) -> bool:
        """Whether the name may bind to the document at `path` (resolved) from here: it is one of
        the nearest."""
        return any(e.path == path for e in self.tied)

    def where(self, entry: Doc) -> Candidate[Doc] | None:
        return next((c for c in self.candidates if c.entry.path == entry.path), None)


def distance(origin: Path, folder: Path) -> tuple[int, int]:
    """(up, down): folders climbed from `origin` to the folder it shares with `folder`, and
    folders descended from there to `folder` (both resolved folders)."""
    a, b = origin.parts, folder.parts
    shared = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        shared += 1
    return len(a) - shared, len(b) - shared


def resolve(name: str, origin: Path | None, declaring: Iterable[Doc]) -> Resolution[Doc]:
    """Rank the documents `declaring` the workflow `name` as seen from the document at `origin`."""
    found: list[Candidate[Doc]] = []
    for entry in declaring:
        if origin is None:
            found.append(Candidate(entry, False, 0, 0))
            continue
        up, down = distance(origin.parent, entry.path.parent)
        found.append(Candidate(entry, entry.path == origin, up, down))
    found.sort(key=lambda c: (c.rank, str(c.entry.path)))
    return Resolution(name, origin, tuple(found))


def shown(path: Path, origin: Path | None, roots: Iterable[Path] = ()) -> str:
    """`path` as a message names it: relative to the workspace folder holding it (as `awl check .`
    prints paths), else to the naming document's folder; POSIX slashes."""
    for root in roots:
        up, _ = distance(root, path.parent)
        if up == 0:
            return path.relative_to(root).as_posix()
    if origin is None:
        return path.as_posix()
    up, _ = distance(origin.parent, path.parent)
    shared = len(origin.parent.parts) - up
    if shared == 0:  # (another drive)
        return path.as_posix()
    return "/".join([".."] * up + list(path.parts[shared:]))
