"""Running the rules: item rules once per changed item, document-wide rules over compact summaries.

`CheckCache` remembers, for every top-level item of the previous run, its text, its problems, the
summary the document-wide rules read, the declarations it exports and the names its rules looked
up (`ItemContext.deps`). The next run lines the items up with the previous ones (common prefix and
suffix): the changed run in the middle decides which exported declarations changed, and every
other item keeps its problems unless it looked up one of those names. A run visits only the
items it checks and the few it keeps lists of (checked every run, naming line numbers, holding
problems): problems move with their item when published, and are softened and annotated with
close names once per declarations epoch. The document-wide rules' problems are reused, moved,
when nothing they read changed (`awl_lsp.checks.replay`). One item is checked by
`awl_lsp.checks.item_check`; a long document's first run may be split between two processes
(`awl_lsp.checks.parallel`).
A throwaway cache gives the same results from scratch, so `run_checks` always goes through here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import compress
from operator import attrgetter, not_
from pathlib import Path

from tree_sitter import Node

from awl_lsp.checks import parallel
from awl_lsp.checks.across import Across
from awl_lsp.checks.base import (
    BROKEN_OUTCOMES,
    FLOW_ITEM,
    FLOW_KIND,
    MODEL_FLOW,
    CheckContext,
    DocFacts,
    Item,
    Problem,
)
from awl_lsp.checks.exports import CAPTURED, changed_exports, exports, item_nodes, table_changes
from awl_lsp.checks.item_check import Entry, ItemRun, seen_item
from awl_lsp.checks.probes import FactsProbe, NodeProbe, TallyProbe
from awl_lsp.checks.replay import Replay, replay_wide
from awl_lsp.checks.rules_support import FLOW_TYPES, broken_outcome_names
from awl_lsp.checks.suggest import annotate
from awl_lsp.checks.top_nodes import TopNodes
from awl_lsp.checks.unchecked import soften_unchecked
from awl_lsp.model.builder import item_keys
from awl_lsp.model.schema_types import TypeTable, item_types
from awl_lsp.model.types import TypeEnv
from awl_lsp.syntax.alignment import common_ends
from awl_lsp.syntax.problems import moved

_DEPS = attrgetter("deps")


class CheckCache:
    """Per-document memory of item check results (owned by `OpenDocument`, next to its ModelBuilder).

    Besides the entries in document order it keeps the few indexes a run must visit whatever the
    edit: entries checked on every run (`volatile`), entries whose messages name lines (checked
    again when they move) and entries with problems (moved when published). Every other entry is
    left alone by a run that does not touch it — its row is brought up to date only when needed.
    """

    def __init__(self) -> None:
        self._entries: list[Entry] = []
        self._keys: list[bytes] = []
        self._where: tuple[Path | None, Path | None] | None = None
        self._doc: tuple | None = None  # (flow kind, broken outcomes, model says workloop)
        self._flow_entry: Entry | None = None  # the entry of the first flow item
        self._table: TypeTable | None = None
        self._replay: Replay | None = None  # the document-wide rules' last problems
        self._across = Across()  # what the document-wide rules gathered across the items
        self._deps: list[frozenset[str]] = []  # the model's item resolutions in the last run
        self._last_end = 0  # the last item's last row in the last run
        self._marked: dict[str, list[int]] = {"volatile": [], "numbered": [], "troubled": []}
        self._epoch = 0  # counts the runs in which some declaration changed (annotations depend on them)
        self.last_checked = 0  # items whose rules ran in the last run
        self.last_reused = 0
        self.last_replayed = False  # the last run reused the document-wide problems

    def run(self, ctx: CheckContext, rules: list) -> None:
        """Fill `ctx.problems` with every rule's problems (item rules first, then document-wide)."""
        model, source = ctx.model, ctx.source
        nodes: Sequence[Node] | None = model.item_nodes
        if nodes is None or len(nodes) != len(model.items):
            nodes = TopNodes(ctx.tree.root_node, model.items)  # (found as needed: a key reads a few)
        keys = model.item_keys
        if keys is None or len(keys) != len(nodes):
            keys = item_keys(source, list(nodes))
        doc = _doc_facts(ctx, nodes)
        if self._where != (ctx.path, ctx.workspace):
            self.__init__()  # type: ignore[misc]
            self._where = (ctx.path, ctx.workspace)
        old, count = self._entries, len(nodes)
        p, s = common_ends(self._keys, keys) if old else (0, 0)
        end_old, end_new, offset = len(old) - s, count - s, count - len(old)
        delta = nodes[-1].end_point.row - self._last_end if s else 0  # rows the unchanged end moved
        marked = {
            name: [j if j < p else j + offset for j in js if j < p or j >= end_old]
            for name, js in self._marked.items()
        }
        entries: list[Entry] = [*old[:p], *([None] * (end_new - p)), *old[end_old:]]  # type: ignore[list-item]
        if isinstance(nodes, TopNodes) and (end_new - p) * 2 > count:
            nodes = nodes.whole()  # most items are checked: their nodes in one pass, not one search each

        def before(i: int) -> Entry | None:
            """The entry item `i` had in the last run (None in the changed middle)."""
            return old[i] if i < p else old[i - offset] if i >= end_new else None

        # 1. the type table (declared records and enums), from each item's own types
        fresh = sorted({*range(p, end_new), *marked["volatile"]})
        types = {i: item_types(nodes[i], source, ctx.path, ctx.workspace) for i in fresh}
        types_changed = not old or any(e.types is not None for e in old[p:end_old])
        types_changed = types_changed or any(t is not None for t in types.values())
        changed: set[str] = set()
        table = self._table
        if table is None or types_changed:
            table = TypeTable.assemble([types[i] if i in types else e.types for i, e in enumerate(entries)])
            changed |= table_changes(self._table, table)

        # 2. the items the edit touched are checked first: their exports (by meaning) say what changed
        item_rules = [r.check_item for r in rules if callable(getattr(r, "check_item", None))]
        env = TypeEnv(model, ctx.tree, source, ctx.path, table, ctx.workspace)
        run = ItemRun(ctx, item_rules, nodes, keys, doc, env, self._across.flag)
        early: list[Problem] | None = None  # the document-wide rules' problems, if they ran already
        if not old and fresh and parallel.splits(len(fresh), nodes[-1].end_point.row):
            # a first run: a child process checks items from the bottom up; the document-wide rules
            # run meanwhile (they read the items' entries, made first, not their problems)
            def wide_rules() -> None:
                nonlocal early
                early = self._run_wide(ctx, rules, nodes, entries, doc, _signature(ctx, nodes, doc))

            if not parallel.check_apart(run, fresh, entries, wide_rules):
                early = None
                for i in fresh:
                    entries[i] = run.check(i)
        else:
            for i in fresh:
                entries[i] = run.check(i)
        for i in fresh:
            entries[i].types = types[i]
        if old:
            old_mid = [e.exported() for e in old[p:end_old]]
            changed |= changed_exports(old_mid, [e.exported() for e in entries[p:end_new]])
            for i in marked["volatile"]:  # checked again in place
                prev = before(i)
                if prev is not None:
                    changed |= changed_exports([prev.exported()], [entries[i].exported()])
        flow_old = None if doc.flow_index is None else before(doc.flow_index)
        signature = (doc.flow.type if doc.flow is not None else None, doc.broken_outcomes, model.is_workloop)
        if self._doc is not None:
            tokens = (FLOW_KIND, BROKEN_OUTCOMES, MODEL_FLOW)
            changed.update(t for t, a, b in zip(tokens, self._doc, signature, strict=True) if a != b)
            if flow_old is not self._flow_entry or (flow_old is None and doc.flow is not None):
                changed.add(FLOW_ITEM)

        # 3. every other item keeps its problems unless something it looked up changed, or one of its
        # messages names a line number (which may be another item's, moved)
        again: set[int] = set()
        if changed and old:
            done = set(fresh)
            # (the items' dependencies tested in C: `compress` keeps the indexes of those that meet)
            meets = map(not_, map(changed.isdisjoint, map(_DEPS, entries)))
            for i in compress(range(count), meets):
                if (i < p or i >= end_new) and i not in done:
                    again.add(i)
        if fresh or delta:  # a message naming a line may name one in another item, moved or changed
            again.update(i for i in marked["numbered"] if entries[i] is before(i))
        rechecked = sorted(again)
        for i in rechecked:
            entries[i] = run.check(i)
            entries[i].types = types.get(i, before(i).types)  # type: ignore[union-attr]
        env.reset(None)
        visited = sorted({*fresh, *rechecked})
        for name, test in (
            ("volatile", lambda e: e.volatile),
            ("numbered", lambda e: e.row_numbers),
            ("troubled", lambda e: bool(e.problems)),
        ):
            kept = [i for i in marked[name] if entries[i] is before(i)]
            marked[name] = sorted({*kept, *(i for i in visited if test(entries[i]))})
        self._entries, self._keys, self._table, self._doc = entries, keys, table, signature
        self._flow_entry = entries[doc.flow_index] if doc.flow_index is not None else None
        self._marked, self._last_end = marked, nodes[-1].end_point.row if nodes else 0
        self.last_checked, self.last_reused = len(visited), count - len(visited)
        if changed:
            self._epoch += 1
        for i in marked["troubled"]:
            ctx.problems.extend(self._publish(ctx, entries[i], nodes[i]))

        # 4. document-wide rules over the summaries (their last problems, moved, when what they read
        # is the same as before)
        outside = _signature(ctx, nodes, doc)
        wide = None
        last, across = self._replay, self._across
        if (
            last is not None
            and len(old) == count
            and changed.isdisjoint(_DOC_TOKENS)
            and last.signature[0] == outside
            and last.signature[1] in (None, ctx.tree.root_node.has_error)
        ):
            wide = replay_wide(
                last, old, self._entries, nodes, visited, p, s, delta, self._deps, model.item_deps, across
            )
        self._deps = model.item_deps
        self.last_replayed = wide is not None
        if early is not None:  # (run beside the child's item rules: `_check_apart`)
            wide = early
        elif wide is None:
            wide = self._run_wide(ctx, rules, nodes, self._entries, doc, outside)
        ctx.problems.extend(wide)

    def _publish(self, ctx: CheckContext, e: Entry, node: Node) -> list[Problem]:
        """The entry's problems as published, at the item's row now: moved (and remembered so) when
        it moved; softened and annotated with close names once per declarations epoch."""
        row = node.start_point.row
        if row != e.row:
            e.problems = [moved(pr, row - e.row) for pr in e.problems]
            if e.shown is not None:
                e.shown = [moved(pr, row - e.row) for pr in e.shown]
            e.row = row
        if e.shown is None or e.shown_in != self._epoch:
            softened = soften_unchecked(e.problems, node, ctx.source)
            e.shown = annotate(ctx.model, ctx.tree, ctx.source, softened, ctx.path)
            e.shown_in = self._epoch
        return e.shown

    def _run_wide(
        self,
        ctx: CheckContext,
        rules: list,
        nodes: Sequence[Node],
        entries: list[Entry],
        doc: DocFacts,
        signature: tuple,
    ) -> list[Problem]:
        """Run the document-wide rules, remembering what they reported and which nodes they read."""
        model = ctx.model
        deps = model.item_deps
        reads: set[int] = set()
        ref_reads: set[int] = set()
        flag_reads: set[int] = set()
        tally_reads: list[TallyProbe] = []
        items: list[Item] = []
        key_rows: list[int] = []
        facts, starts = model.items, model.item_starts  # (the items' rows, without a node point each)
        for i, (n, e) in enumerate(zip(nodes, entries, strict=True)):
            anchor = e.summary.anchor
            row = anchor.row = starts[i]
            anchor.index, anchor.reads = i, flag_reads
            key_rows.append(row - e.gap)
            it = e.item
            if it is None or e.resolved_by is not deps[i]:
                it = seen_item(e, facts[i], deps[i])
            e.seen = it.resolved
            probe: object = it.node
            if type(probe) is NodeProbe:  # the item's probes from the last run, aimed at this one
                probe.aim(n, i, reads)
                it.facts.aim(facts[i], i, ref_reads)  # type: ignore[attr-defined]
            else:
                it.node = NodeProbe(n, i, reads)  # type: ignore[assignment]
                it.facts = FactsProbe(facts[i], i, ref_reads)  # type: ignore[assignment]
            tally_reads.append(it.tally)  # type: ignore[arg-type]
            items.append(it)
        ctx.items = items
        self._across.update(items)
        ctx.across = self._across
        # (the item rules' `doc` is left as it is: a first run's item rules may still be running)
        flow = items[doc.flow_index].node if doc.flow_index is not None else doc.flow
        ctx.doc = replace(doc, flow=flow, narration=_top_narration(ctx))
        kept, ctx.problems = ctx.problems, []
        ctx.read_has_error = None
        for rule in rules:
            check = getattr(rule, "check", None)
            if callable(check):
                check(ctx)
        wide, ctx.problems = ctx.problems, kept
        wide = soften_unchecked(wide, ctx.tree, ctx.source)
        # (whether the tree has an error is a document fact only when a rule read it)
        self._replay = Replay.record(
            wide, key_rows, reads, ref_reads, (signature, ctx.read_has_error), flag_reads, tally_reads
        )
        return wide


def _doc_facts(ctx: CheckContext, nodes: Sequence[Node]) -> DocFacts:
    """The document facts item rules read (the top-level narration is added for the document-wide
    rules when they run)."""
    doc = DocFacts()
    for i in range(len(nodes)):  # (by index: the flow is near the top, the rest need not be found)
        n = nodes[i]
        if n.type in FLOW_TYPES:
            doc.flow, doc.flow_index = n, i
            break
        if i == 8:
            rest = list(nodes)[i + 1 :]
            found = next((k for k, n in enumerate(rest) if n.type in FLOW_TYPES), None)
            if found is not None:
                doc.flow, doc.flow_index = rest[found], i + 1 + found
            break
    doc.broken_outcomes = broken_outcome_names(ctx, doc.flow)
    return doc


# document facts (dependency tokens) the document-wide rules read besides the items
_DOC_TOKENS = frozenset({FLOW_KIND, BROKEN_OUTCOMES, MODEL_FLOW, FLOW_ITEM})


def _top_narration(ctx: CheckContext) -> list[Node]:
    """The top-level `//!` lines, found from the text's few `//!` (not a pass over the items)."""
    root, source, out = ctx.tree.root_node, ctx.source, []
    at = source.find(b"//!")
    while at != -1:
        n = root.named_descendant_for_byte_range(at, at + 3)
        if n is not None and n.type == "narration" and n.start_byte == at and n.parent == root:
            out.append(n)
        at = source.find(b"//!", at + 3)
    return out


def _signature(ctx: CheckContext, nodes: Sequence[Node], doc: DocFacts) -> tuple:
    """What the document-wide rules read outside the items: the text after the last item and which
    item is the flow. (Top-level narration lies in the items' keys; whether the tree has an error
    anywhere is recorded with the problems when a rule asked, `CheckContext.tree_has_error`.)"""
    tail = ctx.source[nodes[-1].end_byte :] if nodes else ctx.source
    return (tail, doc.flow_index)


__all__ = ["CAPTURED", "CheckCache", "exports", "item_nodes"]  # (the last three from `exports`)
