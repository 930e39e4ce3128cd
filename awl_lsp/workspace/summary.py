"""What one document offers other documents and expects of them, read from its semantic model.

A `DocumentSummary` names the flow the document declares (a workflow or workloop with its inputs
and outcomes) and the contracts it declares for others (`detached name(…)`, `child name(…) -> T`),
with the places where it uses them (`hatch`, `spawn`, child calls). Record types the flow's inputs,
outcomes and contracts mention are kept as field lists, so contracts can compare types by shape.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

from awl_lsp.model import Kind, RefKind, SemanticModel, Symbol
from awl_lsp.model.facts import ItemFacts
from awl_lsp.syntax.alignment import common_ends
from awl_lsp.syntax.offsets import Offsets

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
    records: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)  # type -> fields
    # the non-local symbols and the places of uses, built when first read (workspace symbol search,
    # references): per item, its part in `summarize` (its symbols and calls as read) and how far
    # the item had moved at this version, so a publish does not move every one
    # (two lists side by side, not a tuple per item: a publish makes no garbage-collected object per item)
    pieces: tuple[list[tuple], Offsets | list[int]] = field(default=([], []), repr=False)
    _symbols: tuple[SymbolRow, ...] | None = field(default=None, repr=False)
    _uses: dict[str, list[Range]] | None = field(default=None, repr=False)

    @property
    def symbols(self) -> tuple[SymbolRow, ...]:
        """(name, kind, selection, container) of every non-local symbol, in document order."""
        self.settle()
        return self._symbols  # type: ignore[return-value]

    @property
    def uses(self) -> dict[str, list[Range]]:
        """Contract name -> the hatch/spawn/call places that name it, in document order."""
        self.settle()
        return self._uses  # type: ignore[return-value]

    def settle(self) -> None:
        """Build the symbols and uses now (once) and let go of the parts they were built from."""
        if self._symbols is not None and self._uses is not None:
            return
        pieces = list(zip(*self.pieces, strict=True))
        self._symbols = tuple(
            (name, kind, _down(r, now - part[5]) if now != part[5] else r, container)
            for part, now in pieces
            for name, kind, r, container in part[3]
        )
        uses: dict[str, list[Range]] = {}
        names = {c.name for c in self.contracts}
        if names:
            for part, now in pieces:
                for name, r in part[2]:
                    if name in names:
                        uses.setdefault(name, []).append(_down(r, now - part[5]) if now != part[5] else r)
        self._uses = uses
        self.pieces = ([], [])

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


def type_shape(type_text: str, summary: DocumentSummary) -> tuple[object, str]:
    """What a type means across documents: a record's fields (sorted), otherwise its text, with
    its list and optional wrappers."""
    text = type_text.strip()
    suffix = ""
    while text.endswith("?") or (text.startswith("[") and text.endswith("]")):
        if text.endswith("?"):
            suffix += "?"
            text = text[:-1].strip()
        else:
            suffix += "[]"
            text = text[1:-1].strip()
    fields = summary.records.get(text)
    return (tuple(sorted(fields)) if fields is not None else text, suffix)


def interface(s: DocumentSummary) -> tuple:
    """What a contract can see of a flow: its kind, its inputs and its success results (records by
    their fields). Two documents with one interface are the same workflow to every contract."""
    return (
        s.flow_kind,
        tuple(sorted((i.name, type_shape(i.type, s)) for i in s.inputs)),
        tuple(sorted(repr(type_shape(o.type, s)) for o in s.outcomes if o.route == "success" and o.type)),
    )


_LOCAL = frozenset({Kind.BINDING, Kind.PARAMETER, Kind.RETIRE})


def _param(sym: Symbol) -> FlowParam:
    return FlowParam(sym.name, " ".join((sym.type or "").split()), sym.selection)


def summarize(model: SemanticModel, cache: dict | None = None) -> DocumentSummary:
    """The summary of a model. With `cache` (kept by the caller between versions of one document),
    each item's part is read again only when the item is new; a moved item's part stays as read and
    is moved when used. The items are lined up with the last version's (the same objects at either
    end), so a keystroke costs the items it touched, not a pass over the document."""
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
    parted = _parts_since(items, cache) if cache is not None and "items" in cache else None
    if parted is None:
        parted = _parts(items, cache)
    found, rows, declaring, typing, records = parted
    contracts: list[Contract] = []
    for i in _positions(items, declaring):
        part = found[i]
        moved = rows[i] - part[5]
        contracts.extend(_moved(part[1], moved) if moved else part[1])
    if records is None:
        records = {}
        for i in _positions(items, typing):
            records.update(found[i][4])  # (a later declaration of a name wins, as it always did)
        if cache is not None:
            cache["records"] = records
    out.records = records  # (shared with the next versions' summaries while no record type changes)
    out.pieces = (found, rows)  # (no part is None any more)
    out.contracts = tuple(contracts)
    if cache is None:  # a summary for good (a document not open): its symbols now, no parts (and facts) kept
        out.settle()
    return out


_ROWS = attrgetter("anchor.rows")
# a part: (facts, contracts, calls, symbols, records, the anchor rows its ranges were read at), and
# what the parts of a version give: its parts and rows in item order, the items with contracts and
# those with record types, the record table (None: to be joined again)
_Parted = tuple[list[Any], Offsets, set[ItemFacts], set[ItemFacts], dict | None]


def _parts(items: list[ItemFacts], cache: dict | None) -> _Parted:
    """Every item's part, from `cache`'s parts of the items it has seen (a pass over the items)."""
    rows = list(map(_ROWS, items))  # how far each item moved since its facts were read
    parts: dict[ItemFacts, tuple] = cache.get("parts", {}) if cache is not None else {}
    # the items with contracts, and those with record types (few, or at least few Python steps)
    declaring: set[ItemFacts] = cache.get("declaring", set()) if cache is not None else set()
    typing: set[ItemFacts] = cache.get("typing", set()) if cache is not None else set()
    records: dict | None = cache.get("records") if cache is not None else None
    # (parts keyed by the facts themselves, compared by identity: no int made per item)
    found: list[Any] = list(map(parts.get, items))
    if None in found:
        declaring, typing = set(declaring), set(typing)
        for i in [i for i, part in enumerate(found) if part is None]:
            facts = items[i]
            part = (facts, *_item_part(facts), rows[i])
            found[i] = part
            if part[1]:
                declaring.add(facts)
            if part[4]:
                typing.add(facts)
                records = None  # (a new record type: the table is joined again)
    at = Offsets(rows)
    if cache is not None:
        kept = cache["parts"] = dict(zip(items, found, strict=True))
        declaring = declaring & kept.keys()
        if len(typing) != len(still := typing & kept.keys()):
            records = None  # (a record type gone)
        typing = still
        cache.update(declaring=declaring, typing=typing, items=items, found=found, rows=at)
    return found, at, declaring, typing, records


def _parts_since(items: list[ItemFacts], cache: dict) -> _Parted | None:
    """Every item's part, from the last version's: the items kept at either end keep their parts
    (those below the edit moved alike, by what the first of them moved), the run between them is
    looked up or read. None when the ends did not move as that says (then `_parts` reads all)."""
    last: list[ItemFacts] = cache["items"]
    old_found: list[Any] = cache["found"]
    old_rows: Offsets = cache["rows"]
    old_n, n = len(last), len(items)
    p, s = common_ends(last, items)
    shift = items[n - s].anchor.rows - old_rows[old_n - s] if s else 0
    if (p and items[p - 1].anchor.rows != old_rows[p - 1]) or (
        s and items[-1].anchor.rows - old_rows[-1] != shift
    ):
        return None
    parts: dict[ItemFacts, tuple] = cache["parts"]
    declaring: set[ItemFacts] = cache["declaring"]
    typing: set[ItemFacts] = cache["typing"]
    records: dict | None = cache.get("records")
    came = items[p : n - s]
    stay = set(came)
    for facts in last[p : old_n - s]:
        if facts not in stay:
            parts.pop(facts, None)
            declaring.discard(facts)
            if facts in typing:
                typing.discard(facts)
                records = None  # (a record type gone)
    mid_rows = list(map(_ROWS, came))
    mid: list[Any] = list(map(parts.get, came))
    for i, part in enumerate(mid):
        if part is None:
            facts = came[i]
            part = mid[i] = parts[facts] = (facts, *_item_part(facts), mid_rows[i])
            if part[1]:
                declaring.add(facts)
            if part[4]:
                typing.add(facts)
                records = None  # (a new record type: the table is joined again)
    found = old_found[:p] + mid + old_found[old_n - s :]
    rows = old_rows.replaced(p, old_n - s, mid_rows, shift)
    cache.update(items=items, found=found, rows=rows)
    return found, rows, declaring, typing, records


def _positions(items: list[ItemFacts], some: set[ItemFacts]) -> list[int]:
    """Where the items of `some` stand in `items`, in document order."""
    if len(some) > 8:
        where = dict(zip(items, range(len(items)), strict=True))
        return sorted(map(where.__getitem__, some))
    return sorted(map(items.index, some))


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
    # (the references filed by kind; an item with both kinds reads them in document order)
    hatches, called = facts.references_of(RefKind.HATCH), facts.references_of(RefKind.CALL)
    both = facts.references_of(RefKind.HATCH, RefKind.CALL) if hatches and called else hatches or called
    calls = [(r.name, r.range) for r in both]
    # (`_value_`: the member's value as a plain attribute — `.value` is a slower descriptor)
    symbols = [(s.name, s.kind._value_, s.selection, s.container) for s in facts.flat if s.kind not in _LOCAL]
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


def _moved(contracts: list[Contract], rows: int) -> list[Contract]:
    """An item's contracts `rows` lines further down (what `ItemFacts.shift` does to the facts)."""
    return [
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
