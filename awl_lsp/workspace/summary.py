"""What one document offers other documents and expects of them, read from its semantic model.

A `DocumentSummary` names the flow the document declares (a workflow or workloop with its inputs
and outcomes) and the contracts it declares for others (`detached name(…)`, `child name(…) -> T`),
with the places where it uses them (`hatch`, `spawn`, child calls). Record types the flow's inputs,
outcomes and contracts mention are kept as field lists, so contracts can compare types by shape.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from awl_lsp.model import Kind, RefKind, SemanticModel, Symbol

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


@dataclass
class DocumentSummary:
    flow_kind: str | None = None  # "workflow", "workloop" or None
    flow_name: str | None = None
    flow_selection: Range | None = None
    inputs: tuple[FlowParam, ...] = ()
    outcomes: tuple[Outcome, ...] = ()
    contracts: tuple[Contract, ...] = ()
    uses: dict[str, list[Range]] = field(default_factory=dict)  # contract name -> hatch/spawn/call places
    records: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)  # type -> fields
    symbols: tuple[tuple[str, str, Range, str | None], ...] = ()  # (name, kind, selection, container)

    def contract(self, name: str) -> Contract | None:
        return next((c for c in self.contracts if c.name == name), None)


_LOCAL = frozenset({Kind.BINDING, Kind.PARAMETER, Kind.RETIRE})


def _param(sym: Symbol) -> FlowParam:
    return FlowParam(sym.name, " ".join((sym.type or "").split()), sym.selection)


def summarize(model: SemanticModel) -> DocumentSummary:
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
    contracts = []
    for sym in model.symbols:
        if sym.kind in (Kind.DETACHED, Kind.CHILD):
            params = tuple(_param(p) for p in sym.children if p.kind is Kind.PARAMETER)
            contracts.append(Contract(sym.kind.value, sym.name, params, sym.type, sym.range, sym.selection))
    out.contracts = tuple(contracts)
    names = {c.name for c in contracts}
    for ref in model.references:
        if ref.kind in (RefKind.HATCH, RefKind.CALL) and ref.name in names:
            out.uses.setdefault(ref.name, []).append(ref.range)
    out.symbols = tuple(
        (s.name, s.kind.value, s.selection, s.container) for s in model.all_symbols if s.kind not in _LOCAL
    )
    for sym in model.of_kind(Kind.TYPE):
        if sym.extra.get("form") == "record_body":
            out.records[sym.name] = tuple(
                (f.name, " ".join((f.type or "").split())) for f in sym.children if f.kind is Kind.FIELD
            )
    return out
