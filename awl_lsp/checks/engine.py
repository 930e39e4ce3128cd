"""Running the rules: item rules once per changed item, document-wide rules over compact summaries.

`CheckCache` remembers, for every top-level item of the previous run, its text, its problems, the
summary the document-wide rules read, the declarations it exports and the names its rules looked
up (`ItemContext.deps`). The next run lines the items up with the previous ones (common prefix and
suffix): the changed run in the middle decides which exported declarations changed, and every
other item keeps its problems — moved by its row delta — unless it looked up one of those names.
A throwaway cache gives the same results from scratch, so `run_checks` always goes through here.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from pathlib import Path

from tree_sitter import Node, Query, QueryCursor

from awl_lsp.checks.base import (
    BROKEN_OUTCOMES,
    FLOW_ITEM,
    FLOW_KIND,
    MODEL_FLOW,
    CheckContext,
    DocFacts,
    Item,
    ItemContext,
    Problem,
    kind_token,
)
from awl_lsp.checks.deps import RecordingModel
from awl_lsp.checks.replay import SAME, FactsProbe, ItemMap, NodeProbe, Replay, shape
from awl_lsp.checks.rules_support import FLOW_TYPES, broken_outcome_names
from awl_lsp.checks.summary import ItemSummary, summarize
from awl_lsp.checks.tallies import Resolved, Tally, resolved, tally
from awl_lsp.model import Kind
from awl_lsp.model.builder import NOT_ITEMS, common_ends, export_key, item_keys
from awl_lsp.model.facts import ItemFacts, plain_scope
from awl_lsp.model.schema_types import ItemTypes, TypeTable, item_types
from awl_lsp.model.types import TypeEnv
from awl_lsp.syntax.parser import LANGUAGE
from awl_lsp.syntax.problems import moved

# node types the item rules and summaries ask for, captured in one query per item
CAPTURED = (
    "ERROR",
    "action_declaration",
    "answer_statement",
    "arguments",
    "binding",
    "call_config",
    "call_expression",
    "guard",
    "hatch_statement",
    "header",
    "json_literal",
    "list_type",
    "loop_statement",
    "narration",
    "on_failure",
    "pipe_expression",
    "route_statement",
    "schema_body",
    "schema_import",
    "sleep_statement",
    "spawn_statement",
    "step_declaration",
    "step_outcome",
    "unexpected_block",
    "unknown_clause",
    "unknown_declaration",
    "unknown_setting",
    "wait_statement",
)
CAPTURED_SET = frozenset(CAPTURED)
_QUERY = Query(LANGUAGE, "\n".join(f"({t}) @{t}" for t in CAPTURED))
# kinds whose type inference reads their item's expressions (a carry only without a declared type)
_TEXT_KINDS = frozenset({Kind.BINDING, Kind.CARRY, Kind.CONST})


def item_nodes(item: Node) -> dict[str, list[Node]]:
    """The item's nodes by type (the item itself included), in document order."""
    found = QueryCursor(_QUERY).captures(item)
    for nodes in found.values():
        nodes.sort(key=lambda n: (n.start_byte, -n.end_byte))
    return found


def exports(facts: ItemFacts, key: bytes, env: TypeEnv | None = None) -> dict[str, tuple]:
    """What an item declares, as other items' rules can see it: name -> (kind, digest hash), in order.

    Digested by meaning — kind, scope, declared type and, for a binding, its inferred type (with
    `env`, whose look-ups are recorded as the item's dependencies) — not by the item's text, so
    typing inside a step changes its exports only when one of its bindings changes type. Consts
    and untyped carries are digested with their item's text (their values are read elsewhere).
    """
    out: dict[str, list[tuple]] = {}
    for s in facts.flat:
        meaning: object = None
        if s.kind is Kind.BINDING:
            meaning = env.type_of_symbol(s) if env is not None else key
        elif s.kind in _TEXT_KINDS and not (s.kind is Kind.CARRY and s.type):
            meaning = key
        d = (
            s.kind,
            plain_scope(s.scope),
            s.container,
            s.type,
            tuple(sorted(s.extra.items())),
            tuple((c.kind, c.name, c.type) for c in s.children),
            meaning,
        )
        out.setdefault(export_key(s), []).append((s.kind, hash(d)))  # kept per item: a hash is enough
    return {name: tuple(ds) for name, ds in out.items()}


def _changed_exports(old: list[dict[str, tuple]], new: list[dict[str, tuple]]) -> set[str]:
    before: dict[str, list[tuple]] = {}
    after: dict[str, list[tuple]] = {}
    for side, parts in ((before, old), (after, new)):
        for part in parts:
            for name, digests in part.items():
                side.setdefault(name, []).extend(digests)
    changed = set()
    for name in before.keys() | after.keys():
        a, b = before.get(name), after.get(name)
        if a != b:
            changed.add(name)
            for d in (a or []) + (b or []):
                changed.add(kind_token(d[0]))
    return changed


def _table_changes(old: TypeTable | None, new: TypeTable) -> set[str]:
    if old is None:
        return set()
    changed = set()
    for a, b in ((old.records, new.records), (old.enums, new.enums)):
        for name in a.keys() | b.keys():
            if a.get(name) != b.get(name):
                changed.add(name)
    return changed


@dataclass(eq=False)
class _Entry:
    key: bytes
    row: int  # the item's first row when `problems` were computed
    problems: list[Problem]
    deps: frozenset[str]
    facts: ItemFacts  # the facts the item was checked with (its exports are read from them)
    summary: ItemSummary
    tally: Tally
    types: ItemTypes | None
    volatile: bool  # reads a schema file: checked on every run
    row_numbers: bool  # a message names a line number: checked again when the item moves
    item: Item | None = None  # as the document-wide rules saw it last
    resolved_by: frozenset[str] | None = None  # the model's resolution `item.resolved` was read from
    exports: dict[str, tuple] | None = None
    kind: str = ""  # the item's node type
    seen: tuple[frozenset[str], Resolved] | None = None  # the resolution the document-wide rules last saw
    gap: int = 0  # lines of its key above its first row (comments, blank lines)

    def exported(self) -> dict[str, tuple]:
        if self.exports is None:  # (always set when checked; kept for entries built elsewhere)
            self.exports = exports(self.facts, self.key)
        return self.exports


_serials = itertools.count()


class CheckCache:
    """Per-document memory of item check results (owned by `OpenDocument`, next to its ModelBuilder)."""

    def __init__(self) -> None:
        self._entries: list[_Entry] = []
        self._keys: list[bytes] = []
        self._where: tuple[Path | None, Path | None] | None = None
        self._doc: tuple | None = None  # (flow kind, broken outcomes, model says workloop)
        self._flow_entry: _Entry | None = None  # the entry of the first flow item
        self._table: TypeTable | None = None
        self._replay: Replay | None = None  # the document-wide rules' last problems
        self.last_checked = 0  # items whose rules ran in the last run
        self.last_reused = 0
        self.last_replayed = False  # the last run reused the document-wide problems

    def run(self, ctx: CheckContext, rules: list) -> None:
        """Fill `ctx.problems` with every rule's problems (item rules first, then document-wide)."""
        model, source = ctx.model, ctx.source
        nodes, doc = _top_level(ctx)
        if len(model.items) != len(nodes):
            raise ValueError("the semantic model does not belong to this tree")
        keys = model.item_keys
        if keys is None or len(keys) != len(nodes):
            keys = item_keys(source, nodes)
        if self._where != (ctx.path, ctx.workspace):
            self._entries, self._keys, self._doc, self._table, self._replay = [], [], None, None, None
            self._where = (ctx.path, ctx.workspace)
        old, count = self._entries, len(nodes)
        p, s = common_ends(self._keys, keys) if old else (0, 0)
        previous: list[_Entry | None] = [*old[:p], *([None] * (count - p - s)), *old[len(old) - s :]]
        suffix_row = old[len(old) - s].row if s else 0  # (reused entries are moved below)

        # 1. the type table (declared records and enums), from each item's own types
        types: list[ItemTypes | None] = [e.types if e is not None else None for e in previous]
        types_changed = not old or any(e.types is not None for e in old[p : len(old) - s])
        for i, prev in enumerate(previous):
            if prev is None or prev.volatile:
                types[i] = item_types(nodes[i], source, ctx.path, ctx.workspace)
                types_changed = types_changed or types[i] is not None
        changed: set[str] = set()
        table = self._table
        if table is None or types_changed:
            table = TypeTable.assemble(types)
            changed |= _table_changes(self._table, table)

        # 2. the items the edit touched are checked first: their exports (by meaning) say what changed
        item_rules = [r for r in rules if callable(getattr(r, "check_item", None))]
        env = TypeEnv(model, ctx.tree, source, ctx.path, table, ctx.workspace)
        entries: list[_Entry | None] = [None] * count
        for i, prev in enumerate(previous):
            if prev is None or prev.volatile:
                entry = self._check_item(ctx, item_rules, nodes, i, keys[i], doc, env)
                entry.types = types[i]
                entries[i] = entry
        checked = sum(e is not None for e in entries)
        if old:
            old_mid = [e.exported() for e in old[p : len(old) - s]]
            new_mid = [e.exported() for e in entries[p : count - s] if e is not None]
            changed |= _changed_exports(old_mid, new_mid)
            for i, prev in enumerate(previous):
                new = entries[i]
                if prev is not None and new is not None:  # volatile, in place
                    changed |= _changed_exports([prev.exported()], [new.exported()])
        flow_old = None if doc.flow_index is None else previous[doc.flow_index]
        signature = (doc.flow.type if doc.flow is not None else None, doc.broken_outcomes, model.is_workloop)
        if self._doc is not None:
            tokens = (FLOW_KIND, BROKEN_OUTCOMES, MODEL_FLOW)
            changed.update(t for t, a, b in zip(tokens, self._doc, signature, strict=True) if a != b)
            if flow_old is not self._flow_entry or (flow_old is None and doc.flow is not None):
                changed.add(FLOW_ITEM)

        # 3. every other item keeps its problems unless something it looked up changed
        rechecked: list[int] = []
        for i, n in enumerate(nodes):
            prev = previous[i]
            if entries[i] is not None or prev is None:
                continue
            row = n.start_point.row
            if (row == prev.row or not prev.row_numbers) and changed.isdisjoint(prev.deps):
                if row != prev.row:
                    delta = row - prev.row
                    prev.problems = [_moved(pr, delta) for pr in prev.problems]
                    prev.row = prev.summary.anchor.row = row
                entries[i] = prev
                continue
            entry = self._check_item(ctx, item_rules, nodes, i, keys[i], doc, env)
            entry.types = types[i]
            entries[i] = entry
            rechecked.append(i)
            checked += 1
        env.reset(None)
        done = [e for e in entries if e is not None]
        assert len(done) == count
        self._entries, self._keys, self._table, self._doc = done, keys, table, signature
        self._flow_entry = done[doc.flow_index] if doc.flow_index is not None else None
        self.last_checked, self.last_reused = checked, count - checked

        for e in done:
            ctx.problems.extend(e.problems)

        # 4. document-wide rules over the summaries (their last problems, moved, when what they read
        # is the same as before)
        outside = _signature(ctx, nodes, doc)
        wide = None
        last = self._replay
        if (
            last is not None
            and len(old) == count
            and changed.isdisjoint(_DOC_TOKENS)
            and last.signature == outside
        ):
            compared = sorted({*range(p, count - s), *rechecked})
            delta = done[count - s].row - suffix_row if s else 0
            wide = _replayed(last, old, done, compared, p, s, delta, model.item_deps)
        self.last_replayed = wide is not None
        if wide is None:
            wide = self._run_wide(ctx, rules, nodes, doc, done, outside)
        ctx.problems.extend(wide)

    def _run_wide(
        self,
        ctx: CheckContext,
        rules: list,
        nodes: list[Node],
        doc: DocFacts,
        done: list[_Entry],
        signature: tuple,
    ) -> list[Problem]:
        """Run the document-wide rules, remembering what they reported and which nodes they read."""
        model = ctx.model
        deps = model.item_deps
        reads: set[int] = set()
        ref_reads: set[int] = set()
        items = [_item(done[i], n, model.items[i], deps[i]) for i, n in enumerate(nodes)]
        for i, it in enumerate(items):
            done[i].seen = (deps[i], it.resolved)
            it.node = NodeProbe(it.node, i, reads)  # type: ignore[assignment]
            it.facts = FactsProbe(it.facts, i, ref_reads)  # type: ignore[assignment]
        ctx.items = items
        ctx.doc = replace(doc, flow=items[doc.flow_index].node) if doc.flow_index is not None else doc
        kept, ctx.problems = ctx.problems, []
        for rule in rules:
            check = getattr(rule, "check", None)
            if callable(check):
                check(ctx)
        wide, ctx.problems = ctx.problems, kept
        self._replay = Replay.record(wide, [e.row - e.gap for e in done], reads, ref_reads, signature)
        return wide

    def _check_item(
        self,
        ctx: CheckContext,
        rules: list,
        nodes: list[Node],
        index: int,
        key: bytes,
        doc: DocFacts,
        env: TypeEnv,
    ) -> _Entry:
        node = nodes[index]
        deps: set[str] = set()
        found = item_nodes(node)
        ictx = ItemContext(
            RecordingModel(ctx.model, deps),  # type: ignore[arg-type]
            ctx.tree,
            ctx.source,
            ctx.path,
            ctx.workspace,
            doc=doc,
            node=node,
            facts=ctx.model.items[index],
            nodes=found,
            captured=CAPTURED_SET,
            deps=deps,
            type_env=env,
        )
        env.reset(deps)
        for rule in rules:
            rule.check_item(ictx)
        facts = ctx.model.items[index]
        exported = exports(facts, key, env)  # the inference it needs is recorded in `deps` too
        return _Entry(
            key=key,
            row=node.start_point.row,
            problems=ictx.problems,
            deps=frozenset(deps),
            facts=facts,
            summary=summarize(node, found, ctx.source, facts),
            tally=tally(facts, str(next(_serials))),
            types=None,
            volatile=bool(found.get("schema_import")),
            row_numbers=ictx.row_numbers,
            exports=exported,
            kind=node.type,
            gap=_gap(ctx.source, nodes, index),
        )


def _top_level(ctx: CheckContext) -> tuple[list[Node], DocFacts]:
    """The top-level items (as the model counts them) and the document facts read from them."""
    nodes: list[Node] = []
    doc = DocFacts()
    for n in ctx.tree.root_node.named_children:
        t = n.type
        if t in NOT_ITEMS:
            if t == "narration":
                doc.narration.append(n)
            continue
        if doc.flow is None and t in FLOW_TYPES:
            doc.flow, doc.flow_index = n, len(nodes)
        nodes.append(n)
    doc.broken_outcomes = broken_outcome_names(ctx, doc.flow)
    return nodes, doc


# document facts (dependency tokens) the document-wide rules read besides the items
_DOC_TOKENS = frozenset({FLOW_KIND, BROKEN_OUTCOMES, MODEL_FLOW, FLOW_ITEM})


def _gap(source: bytes, nodes: list[Node], index: int) -> int:
    """The lines of an item's key (see `item_keys`) above the item's first row."""
    prev_end = nodes[index - 1].end_byte if index else 0
    start = source.rfind(b"\n", 0, prev_end) + 1
    return source.count(b"\n", start, nodes[index].start_byte)


def _signature(ctx: CheckContext, nodes: list[Node], doc: DocFacts) -> tuple:
    """What the document-wide rules read outside the items: whether the tree has errors, the text
    after the last item, the top-level narration and which item is the flow."""
    tail = ctx.source[nodes[-1].end_byte :] if nodes else ctx.source
    narration = tuple((n.start_point.row, n.start_point.column) for n in doc.narration)
    return (ctx.tree.root_node.has_error, tail, narration, doc.flow_index)


def _replayed(
    last: Replay,
    old: list[_Entry],
    done: list[_Entry],
    compared: list[int],
    p: int,
    s: int,
    delta: int,
    deps: list[frozenset[str]],
) -> list[Problem] | None:
    """The last document-wide problems moved to this version, when every item that changed has the
    shape it had (see `replay`) and every other item resolves as it did; None when the rules must run."""
    maps: dict[int, ItemMap] = {}
    for i in compared:
        o, e = old[i], done[i]
        m = ItemMap(o.key, o.row - o.gap, e.key, e.row - e.gap)
        maps[i] = m
        if o.key == e.key and o.facts is e.facts:
            continue  # the same text and facts, checked again: its resolution is compared below
        if (i in last.reads and o.key != e.key) or o.seen is None:
            return None
        refs = i in last.ref_reads
        now = _resolution(e)
        before = shape(o.kind, o.facts, o.summary, m, refs, o.seen[1])
        if before is None or before != shape(e.kind, e.facts, e.summary, SAME, refs, now):
            return None
        e.seen = (deps[i], now)
    for i, e in enumerate(done):  # references resolved afresh since the rules last saw them
        seen = e.seen
        if seen is None or seen[0] is not deps[i]:
            now = _resolution(e)
            if seen is None or now != seen[1] or i in last.ref_reads:
                return None
            e.seen = (deps[i], now)
    moved = last.moved(maps, p, s, len(done), delta)
    if moved is not None:
        last.problems = [(q, j, rel) for q, (_, j, rel) in zip(moved, last.problems, strict=True)]
    return moved


def _resolution(e: _Entry) -> Resolved:
    """What `_item` would compute for the entry's `Item.resolved` from its facts as they are."""
    starts = None
    if e.kind != "step_declaration":
        row = e.summary.anchor.row
        starts = [(st.step_rel[0] + row, st.step_rel[1]) for st in e.summary.steps]
    return resolved(e.facts, starts)


def _item(e: _Entry, node: Node, facts: ItemFacts, resolution: frozenset[str]) -> Item:
    """The item as document-wide rules see it; its resolution-dependent tallies refreshed if needed."""
    item = e.item
    if item is None or e.resolved_by is not resolution:
        starts = None
        if node.type != "step_declaration":
            row = e.summary.anchor.row
            starts = [(st.step_rel[0] + row, st.step_rel[1]) for st in e.summary.steps]
        e.resolved_by = resolution
        item = e.item = Item(node, facts, e.summary, e.tally, resolved(facts, starts))
    else:
        item.node, item.facts = node, facts
    return item


def _moved(p: Problem, rows: int) -> Problem:
    return moved(p, rows)


__all__ = ["CAPTURED", "CheckCache", "exports", "item_nodes"]
