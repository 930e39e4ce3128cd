"""One top-level item checked: what its rules find, and the entry the check cache keeps of it.

`ItemRun` holds what every item of one run is checked with (the context, the item rules, the items'
nodes and keys, the document facts, the type environment). For one item it gives
- `findings`: the item rules' problems, the names they looked up (recorded by the framework: the
  model is a recording view, `awl_lsp.checks.deps`; the type inference records into the same set),
  whether a message names a line, and the item's exports (what it declares, by meaning);
- `entry`: the `Entry` the cache keeps — what the document-wide rules read of the item (its summary,
  tally and resolution) and what the next run lines items up by — without the findings;
- `check`: both, the findings added to the entry (`add_findings`).

A first run may make the entries in one process and the findings in two (`awl_lsp.checks.parallel`):
the entry and the findings of an item do not depend on each other.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from tree_sitter import Node

from awl_lsp.checks.across import Counting
from awl_lsp.checks.base import CheckContext, DocFacts, Item, ItemContext, Problem
from awl_lsp.checks.deps import RecordingModel
from awl_lsp.checks.exports import CAPTURED_SET, exports, item_nodes
from awl_lsp.checks.probes import TallyProbe
from awl_lsp.checks.summary import ItemSummary, summarize
from awl_lsp.checks.tallies import Resolved, Tally, resolved, tally
from awl_lsp.model.facts import ItemFacts
from awl_lsp.model.schema_types import ItemTypes
from awl_lsp.model.types import TypeEnv


@dataclass(eq=False)
class Entry:
    """What the check cache remembers of one item (see `awl_lsp.checks.engine`)."""

    key: bytes
    row: int  # the item's first row when `problems` were computed (moved lazily when published)
    problems: list[Problem]
    deps: frozenset[str]
    facts: ItemFacts  # the facts the item was checked with (its exports are read from them)
    summary: ItemSummary
    tally: Tally
    types: ItemTypes | None
    volatile: bool  # reads a schema file or the item above it: checked on every run
    row_numbers: bool  # a message names a line number: checked again on every edit
    item: Item | None = None  # as the document-wide rules saw it last
    resolved_by: frozenset[str] | None = None  # the model's resolution `item.resolved` was read from
    exports: dict[str, tuple] | None = None
    kind: str = ""  # the item's node type
    gap: int = 0  # lines of its key above its first row (comments, blank lines)
    span: int = 0  # its last row minus its first
    seen: Resolved | None = None  # its resolution as the document-wide rules last saw it
    shown: list[Problem] | None = None  # `problems` as published (softened, names annotated), at `row`
    shown_in: int = -1  # the declarations epoch `shown` was annotated in

    def exported(self) -> dict[str, tuple]:
        if self.exports is None:  # (always set when checked; kept for entries built elsewhere)
            self.exports = exports(self.facts, self.key)
        return self.exports


# what an item's rules found: problems, the names looked up, whether a message names a line, exports
Findings = tuple[list[Problem], set[str], bool, dict[str, tuple]]

_serials = itertools.count()
# a message naming a line (noticed here, so a rule need not say so with `ctx.row_numbers`)
_LINE_NUMBER = re.compile(r"\bline \d")


class ItemRun:
    """What every item of one run is checked with; `check(i)` checks item `i`."""

    def __init__(
        self,
        ctx: CheckContext,
        rules: list[Callable[[ItemContext], None]],
        nodes: Sequence[Node],
        keys: list[bytes],
        doc: DocFacts,
        env: TypeEnv,
        counting: Counting,
    ) -> None:
        self.ctx, self.rules, self.nodes, self.keys = ctx, rules, nodes, keys
        self.doc, self.env = doc, env
        self.counting = counting  # the gatherings' counting flag the tallies' probes report to

    def findings(self, index: int, found: dict[str, list[Node]]) -> Findings:
        """Item `index`'s rules and exports (`found`: its nodes by type, `item_nodes`)."""
        ctx, env = self.ctx, self.env
        deps: set[str] = set()
        facts = ctx.model.items[index]
        ictx = ItemContext(
            RecordingModel(ctx.model, deps),  # type: ignore[arg-type]
            ctx.tree,
            ctx.source,
            ctx.path,
            ctx.workspace,
            doc=self.doc,
            node=self.nodes[index],
            facts=facts,
            nodes=found,
            captured=CAPTURED_SET,
            deps=deps,
            type_env=env,
        )
        env.reset(deps)
        for check in self.rules:  # (each rule's `check_item`)
            check(ictx)
        problems = ictx.problems
        row_numbers = ictx.row_numbers or any(_LINE_NUMBER.search(pr.message) for pr in problems)
        exported = exports(facts, self.keys[index], env)  # the inference it needs is recorded in `deps` too
        return problems, deps, row_numbers, exported

    def entry(self, index: int, found: dict[str, list[Node]]) -> Entry:
        """Item `index`'s entry without its findings (`add_findings`)."""
        ctx, nodes = self.ctx, self.nodes
        node = nodes[index]
        facts = ctx.model.items[index]
        start, end = node.start_point.row, node.end_point.row
        entry = Entry(
            key=self.keys[index],
            row=start,
            problems=[],
            deps=frozenset(),
            facts=facts,
            summary=summarize(node, found, ctx.source, facts),
            tally=tally(facts, str(next(_serials)), partial(TallyProbe, counting=self.counting)),
            types=None,
            volatile=bool(
                found.get("schema_import") or found.get("unknown_declaration")
            ),  # (reads the item above)
            row_numbers=False,
            kind=node.type,
            gap=_gap(ctx.source, nodes, index),
            span=end - start,
        )
        resolutions = ctx.model.item_deps
        if index < len(resolutions):  # the item as document-wide rules see it, while its facts are at hand
            seen_item(entry, facts, resolutions[index])
        return entry

    def check(self, index: int) -> Entry:
        """Item `index` checked: its entry with its findings."""
        found = item_nodes(self.nodes[index])
        findings = self.findings(index, found)
        entry = self.entry(index, found)
        add_findings(entry, *findings)
        return entry


def add_findings(
    e: Entry, problems: list[Problem], deps: set[str], row_numbers: bool, exported: dict[str, tuple]
) -> None:
    """What an item's rules found (in this process or another), added to its entry."""
    e.problems = problems
    e.deps = frozenset(deps)
    e.row_numbers = row_numbers
    e.exports = exported


def seen_item(e: Entry, facts: ItemFacts, resolution: frozenset[str]) -> Item:
    """The item as document-wide rules see it (its node set by the caller); its
    resolution-dependent tallies refreshed if needed (the summary's anchor up to date)."""
    item = e.item
    if item is None or e.resolved_by is not resolution:
        starts = None
        if e.kind != "step_declaration":
            row = e.summary.anchor.row
            starts = [(st.step_rel[0] + row, st.step_rel[1]) for st in e.summary.steps]
        e.resolved_by = resolution
        item = e.item = Item(None, facts, e.summary, e.tally, resolved(facts, starts))  # type: ignore[arg-type]
    return item


def _gap(source: bytes, nodes: Sequence[Node], index: int) -> int:
    """The lines of an item's key (see `item_keys`) above the item's first row."""
    prev_end = nodes[index - 1].end_byte if index else 0
    start = source.rfind(b"\n", 0, prev_end) + 1
    return source.count(b"\n", start, nodes[index].start_byte)


__all__ = ["Entry", "Findings", "ItemRun", "add_findings", "seen_item"]
