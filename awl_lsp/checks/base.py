"""What every check receives and returns: a `CheckContext` (or an `ItemContext`) and `Problem`s.

Rule modules have up to two entry points: `check_item(ctx: ItemContext)` looks at one top-level
item (its results are cached per item by `awl_lsp.checks.engine`), `check(ctx: CheckContext)` at
the whole document, through the compact per-item summaries in `ctx.items`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from tree_sitter import Node, Tree

from awl_lsp.model import Range, Reference, RefKind, SemanticModel, Symbol
from awl_lsp.syntax.problems import Problem, Related, Severity

if TYPE_CHECKING:
    from awl_lsp.checks.across import Across
    from awl_lsp.checks.summary import ItemSummary
    from awl_lsp.checks.tallies import Resolved, Tally
    from awl_lsp.model.facts import ItemFacts
    from awl_lsp.model.types import TypeEnv


_MISSING = object()
_T = TypeVar("_T")


@dataclass(slots=True)
class Item:
    """One top-level item as the document-wide rules see it: node, facts, summary and tallies."""

    node: Node
    facts: ItemFacts
    summary: ItemSummary
    tally: Tally
    resolved: Resolved
    # what a document-wide rule worked out from this item alone, by rule (see `memo_of`): kept as
    # long as the engine keeps the item (its text, facts and resolution unchanged)
    partials: dict[str, object] = field(default_factory=dict)


def memo_of(item: Item, key: str, compute: Callable[[Item], _T]) -> _T:
    """`compute(item)` — a document-wide rule's partial result that reads this item only (its facts,
    summary, tally, resolution) — computed once per item the engine keeps, so a run after an edit
    computes it only for the items the edit made or changed."""
    found = item.partials.get(key, _MISSING)
    if found is _MISSING:
        # (what it reads of the item's tally is read by the rules, whoever asks for it first — a
        # gathering counting too: `replay.TallyProbe.attend`)
        attend = getattr(item.tally, "attend", None)
        found = item.partials[key] = compute(item) if attend is None else attend(compute, item)
    return found  # type: ignore[return-value]


@dataclass
class DocFacts:
    """Document-wide facts a few item rules depend on (each one a dependency token)."""

    flow: Node | None = None  # the first `workflow` / `workloop` item
    flow_index: int | None = None
    broken_outcomes: frozenset[str] = frozenset()  # header outcome names on broken lines
    narration: list[Node] = field(default_factory=list)  # top-level `//!` lines


@dataclass
class CheckContext:
    model: SemanticModel
    tree: Tree
    source: bytes
    path: Path | None = None  # the document's file, for `schema("…")` look-ups
    workspace: Path | None = None  # schema paths must stay inside it
    problems: list[Problem] = field(default_factory=list)
    items: list[Item] = field(default_factory=list)  # set by the engine for document-wide rules
    doc: DocFacts = field(default_factory=DocFacts)
    memo: dict[str, object] = field(default_factory=dict)  # results shared by rules within one run
    across: Across | None = None  # what the document-wide rules gather across items (see `across`)
    # whether the tree has an error anywhere, as a rule read it (None: no rule read it this run); the
    # document-wide rules' problems are reused across an edit that breaks or mends the syntax only
    # while none of them read it
    read_has_error: bool | None = None

    def tree_has_error(self) -> bool:
        """Whether the document's tree has a syntax error anywhere (the read is noted, see
        `read_has_error`)."""
        self.read_has_error = self.tree.root_node.has_error
        return self.read_has_error

    def text(self, node: Node | None) -> str:
        if node is None:
            return ""
        return self.source[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def error(
        self,
        where: Node | Range,
        message: str,
        code: str,
        data: dict[str, Any] | None = None,
        related: tuple[Related, ...] = (),
    ) -> None:
        self.report(where, message, code, Severity.ERROR, data, related)

    def warning(
        self,
        where: Node | Range,
        message: str,
        code: str,
        data: dict[str, Any] | None = None,
        related: tuple[Related, ...] = (),
    ) -> None:
        self.report(where, message, code, Severity.WARNING, data, related)

    def report(
        self,
        where: Node | Range,
        message: str,
        code: str,
        severity: Severity,
        data: dict[str, Any] | None = None,
        related: tuple[Related, ...] = (),
    ) -> None:
        """Record a problem; `data` is what its quick fixes need, `related` other places it names."""
        probed = getattr(where, "probed", None)  # a node seen through `replay.NodeProbe`
        if probed is not None:
            where = probed
        if isinstance(where, Node):
            s, e = where.start_point, where.end_point
            where = (s.row, s.column, e.row, e.column)
        self.problems.append(Problem(where, message, code, severity, data, related))

    def line_at(self, byte: int) -> str:
        """The text of the line holding `byte` (without its newline)."""
        src = self.source
        start = src.rfind(b"\n", 0, byte) + 1
        end = src.find(b"\n", byte)
        return src[start : len(src) if end == -1 else end].decode("utf-8", "replace")


# dependency tokens for facts that are not declarations (see ItemContext)
FLOW_KIND = "\0flow-kind"
FLOW_ITEM = "\0flow-item"
BROKEN_OUTCOMES = "\0broken-outcomes"
MODEL_FLOW = "\0model-flow"


def kind_token(kind: object) -> str:
    """The dependency token of a whole kind (`names(kind)`, `of_kind(kind)`)."""
    return f"\0kind:{getattr(kind, 'value', kind)}"


@dataclass
class ItemContext(CheckContext):
    """One top-level item: its node, facts and nodes by type; every outside look-up is recorded.

    `model` is a recording view (`awl_lsp.checks.deps.RecordingModel`): item rules reach the
    rest of the document only through it, `target`, `env` and the `flow_*` accessors, so `deps`
    lists every name (or token) the item's problems depend on.
    """

    node: Node = field(kw_only=True)  # always given by the engine
    facts: ItemFacts = field(kw_only=True)
    nodes: dict[str, list[Node]] = field(default_factory=dict)
    captured: frozenset[str] = frozenset()  # the types `nodes` holds every node of
    deps: set[str] = field(default_factory=set)
    summary: ItemSummary | None = None
    type_env: TypeEnv | None = None
    row_numbers: bool = False  # a message names an absolute line: the problems cannot just move

    def descendants(self, *types: str) -> list[Node]:
        """The item's nodes of these types (the item itself included), in document order."""
        nodes = self.nodes
        if len(types) == 1:  # (the usual question: answered without the loop below)
            these = nodes.get(types[0])
            if these is not None:
                return these if these else []
            if types[0] in self.captured:
                return []  # a type the query captures, and the item has none
        found: list[Node] | None = None
        mixed = False
        for t in types:
            these = nodes.get(t)
            if these is None:
                if t not in self.captured:  # one walk files every type the query did not capture
                    _walk_into(self.node, nodes, self.captured)
                    self.captured = _EVERY
                these = nodes.setdefault(t, [])
            if these:
                if found is None:
                    found = these
                else:
                    found, mixed = found + these, True
        if found is None:
            return []
        if mixed:
            found.sort(key=lambda n: (n.start_byte, -n.end_byte))
        return found

    @property
    def refs(self) -> list[Reference]:
        return self.facts.references if self.facts is not None else []

    def refs_of(self, *kinds: RefKind) -> list[Reference]:
        """The item's references of these kinds, in document order."""
        return self.facts.references_of(*kinds) if self.facts is not None else []

    def target(self, ref: Reference) -> Symbol | None:
        self.deps.add(ref.name)
        return ref.target

    def flow_kind(self) -> str | None:
        """The node type of the document's first flow item (None without one)."""
        self.deps.add(FLOW_KIND)
        return self.doc.flow.type if self.doc.flow is not None else None

    def is_flow_item(self) -> bool:
        """Is this item the document's first `workflow` / `workloop`?"""
        self.deps.add(FLOW_ITEM)
        return self.doc.flow is not None and self.node is not None and self.doc.flow.id == self.node.id

    def broken_outcomes(self) -> frozenset[str]:
        self.deps.add(BROKEN_OUTCOMES)
        return self.doc.broken_outcomes


class _Every(frozenset):
    """Every node type (after `_walk_into` has filed them all)."""

    def __contains__(self, item: object) -> bool:
        return True


_EVERY = _Every()


def _walk_into(root: Node | None, nodes: dict[str, list[Node]], captured: frozenset[str]) -> None:
    """File the nodes under `root` (itself included) of every type not in `captured`, in document order.

    Walked with a cursor: `Node.children` would cache a child list in every node it visits, and
    the item's node lives as long as its cached check results.
    """
    if root is None:
        return
    cursor = root.walk()
    while True:
        node = cursor.node
        t = node.type  # type: ignore[union-attr]
        if t not in captured:
            nodes.setdefault(t, []).append(node)  # type: ignore[arg-type]
        if cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return
