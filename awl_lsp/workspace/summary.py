"""What one document offers other documents and expects of them, read from its semantic model.

A `DocumentSummary` names the flow the document declares (a workflow or workloop with its inputs
and outcomes) and the contracts it declares for others (`detached name(…)`, `child name(…) -> T`),
with the places where it uses them (`hatch`, `spawn`, child calls). Record types the flow's inputs,
outcomes and contracts mention are kept as field lists, so contracts can compare types by shape.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter

from awl_lsp.model import Kind, RefKind, SemanticModel, Symbol
from awl_lsp.model.facts import ItemFacts

Range = tuple[int, int, int, int]


@dataclass(frozen=True)
class FlowParam:
    name: str
    type: str  # as written, e.g. `String`, `[Item]`, `Note?`
    range: Range  # the name

    @property
    def optional(self) -> bool:
        return self.type.endswith("?")


@dataclass(frozen=True)
class Contract:
    """A `detached` or `child` declaration: what this document expects of another workflow."""

    kind: str  # "detached" or "child"
    name: str
    params: tuple[FlowParam, ...]
    result: str | None  # a child's `-> T`
    range: Range  # the whole declaration
    selection: Range  # its name


@dataclass(frozen=True)
class Outcome:
    name: str
    type: str | None
    route: str  # "success", "failure" or ""
    range: Range


SymbolRow = tuple[str, str, Range, str | None]  # (name, kind, selection, container)


@dataclass(eq=False)
class DocumentSummary:
    flow_kind: str | None = None  # "workflow", "workloop" or None
    flow_name: str | None = None
    flow_selection: Range | None = None
    inputs: tuple[FlowParam, ...] = ()
    outcomes: tuple[Outcome, ...] = ()
    contracts: tuple[Contract, ...] = ()
    uses: dict[str, list[Range]] = field(default_factory=dict)  # contract name -> hatch/spawn/call places
    records: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)  # type -> fields
    # the non-local symbols, built when first read (workspace symbol search): per item, its part in
    # `summarize` (its symbols as read) and how far the item had moved at this version, so a
    # publish does not move every one
    pieces: list[tuple[tuple, int]] = field(default_factory=list, repr=False)
    _symbols: tuple[SymbolRow, ...] | None = field(default=None, repr=False)

    @property
    def symbols(self) -> tuple[SymbolRow, ...]:
        """(name, kind, selection, container) of every non-local symbol, in document order."""
        return self.settle_symbols()

    def settle_symbols(self) -> tuple[SymbolRow, ...]:
        """Build the symbols now (once) and let go of the parts they were built from."""
        if self._symbols is None:
            self._symbols = tuple(
                (name, kind, _down(r, now - part[5]) if now != part[5] else r, container)
                for part, now in self.pieces
                for name, kind, r, container in part[3]
            )
            self.pieces = []
        return self._symbols

    def contract(self, name: str) -> Contract | None:
        return next((c for c in self.contracts if c.name == name), None)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DocumentSummary):
            return NotImplemented
        return _fields(self) == _fields(other)

    __hash__ = None  # type: ignore[assignment]  # (mutable, like the dataclass it was)


def _fields(s: DocumentSummary) -> tuple:
    return (
        s.flow_kind,
        s.flow_name,
        s.flow_selection,
        s.inputs,
        s.outcomes,
        s.contracts,
        s.uses,
        s.records,
        s.symbols,
    )


_LOCAL = frozenset({Kind.BINDING, Kind.PARAMETER, Kind.RETIRE})


def _param(sym: Symbol) -> FlowParam:
    return FlowParam(sym.name, " ".join((sym.type or "").split()), sym.selection)


def summarize(model: SemanticModel, cache: dict | None = None) -> DocumentSummary:
    """The summary of a model. With `cache` (kept by the caller between versions of one document),
    each item's part is read again only when the item is new; a moved item's part stays as read and
    is moved when used, so a keystroke costs what it touched plus a few C-level passes over the
    items (no Python step per item)."""
    out = DocumentSummary()
    flow = model.flow
    if flow is not None:
        out.flow_kind = flow.kind.value
        out.flow_name = flow.name
        out.flow_selection = flow.selection
        out.inputs = tuple(_param(c) for c in flow.children if c.kind is Kind.INPUT)
        out.outcomes = tuple(
            Outcome(c.name, c.type, (c.extra.get("route") or "").strip(), c.selection)
            for c in flow.children
            if c.kind is Kind.OUTCOME
        )
    items = model.items
    ids = list(map(id, items))
    rows = list(map(_ROWS, items))  # how far each item moved since its facts were read
    parts: dict[int, tuple] = cache.get("parts", {}) if cache is not None else {}
    special: set[int] = cache.get("special", set()) if cache is not None else set()
    # a part: (facts, contracts, calls, symbols, records, the anchor rows its ranges were read at);
    # the part holds its facts, so an id in `parts` is that item's for as long as the part is kept
    found = list(map(parts.get, ids))
    if None in found:
        special = set(special)
        for i in [i for i, part in enumerate(found) if part is None]:
            facts = items[i]
            part = found[i] = (facts, *_item_part(facts), rows[i])
            if part[1] or part[2] or part[4]:
                special.add(ids[i])
    if cache is not None:
        cache["parts"] = dict(zip(ids, found, strict=True))
        special &= cache["parts"].keys()
        cache["special"] = special
    contracts: list[Contract] = []
    calls: list[tuple[str, Range]] = []
    if special:
        where = {x: i for i, x in enumerate(ids)} if len(special) > 8 else None
        for i in sorted(where[x] if where is not None else ids.index(x) for x in special):
            part = found[i]
            moved = rows[i] - part[5]
            these, places = _moved(part[1], part[2], moved) if moved else (part[1], part[2])
            contracts.extend(these)
            calls.extend(places)
            out.records.update(part[4])  # (a later declaration of a name wins, as it always did)
    out.pieces = list(zip(found, rows, strict=True))
    if cache is None:  # a summary for good (a document not open): its symbols now, no parts (and facts) kept
        out.settle_symbols()
    out.contracts = tuple(contracts)
    names = {c.name for c in contracts}
    for name, place in calls:
        if name in names:
            out.uses.setdefault(name, []).append(place)
    return out


_ROWS = attrgetter("anchor.rows")


def _item_part(facts: ItemFacts) -> tuple[list, list, list, list]:
    """One item's contracts, hatch/call places, non-local symbols and record field lists."""
    contracts = [
        Contract(
            sym.kind.value,
            sym.name,
            tuple(_param(p) for p in sym.children if p.kind is Kind.PARAMETER),
            sym.type,
            sym.range,
            sym.selection,
        )
        for sym in facts.symbols
        if sym.kind in (Kind.DETACHED, Kind.CHILD)
    ]
    calls = [(r.name, r.range) for r in facts.references if r.kind is RefKind.HATCH or r.kind is RefKind.CALL]
    symbols = [(s.name, s.kind.value, s.selection, s.container) for s in facts.flat if s.kind not in _LOCAL]
    records = [
        (
            sym.name,
            tuple((f.name, " ".join((f.type or "").split())) for f in sym.children if f.kind is Kind.FIELD),
        )
        for sym in facts.flat
        if sym.kind is Kind.TYPE and sym.extra.get("form") == "record_body"
    ]
    return contracts, calls, symbols, records


def _down(r: Range, rows: int) -> Range:
    return (r[0] + rows, r[1], r[2] + rows, r[3])


def _moved(contracts: list[Contract], calls: list, rows: int) -> tuple[list, list]:
    """An item's contracts and calls `rows` lines further down (what `ItemFacts.shift` does to the facts)."""
    moved_contracts = [
        Contract(
            c.kind,
            c.name,
            tuple(FlowParam(p.name, p.type, _down(p.range, rows)) for p in c.params),
            c.result,
            _down(c.range, rows),
            _down(c.selection, rows),
        )
        for c in contracts
    ]
    moved_calls = [(name, _down(r, rows)) for name, r in calls]
    return moved_contracts, moved_calls
