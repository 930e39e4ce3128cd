"""Call hierarchy over one document's flow: what leads into a step, an outcome, a subflow or the flow,
and where each leads.

The calls are the flow graph's edges (`features.graph`): routes, outcome arms, `on failure` routes,
`route start`, `after` (the step waited on leads into the one that waits), falling through into
the next step, and hatch/spawn/child/subflow calls. Three entries the graph leaves implicit are
added here as calls too, so every step that can run has a caller: the flow enters its first step
(a workloop's iteration does so through `start`, which is the workloop itself here), a subflow its
first step, and a step its first substep.

Each call's `fromRanges` are the exact words it is written at: the target of a route, the step
named in an `after` (which sits in the step that waits), the callee of a call; a fall-through or an
entry is written nowhere, so its range is the name of the step that falls or is entered.

Items are the graph's nodes (steps, substeps, outcomes, subflows, contracts, `retire`) and the
flow (`FLOW`); `data` names the node, so the follow-up requests find it again. Contracts lead into
the workflows they start in other documents: that is `call_hierarchy_workspace`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lsprotocol import types as lsp

from awl_lsp.features.graph import FlowGraph, GraphNode, flow_graph
from awl_lsp.features.lsp_positions import lsp_range, point
from awl_lsp.features.snapshot import Snapshot
from awl_lsp.features.symbols import _KIND
from awl_lsp.model import Kind, Range, RefKind, Symbol
from awl_lsp.model.symbols import contains

FLOW = "<flow>"  # the item of the document's workflow or workloop (no graph node is named so)
CONTRACTS = ("detached", "child")  # graph node kinds that stand for a workflow elsewhere
_NAVIGABLE = (RefKind.ROUTE, RefKind.STEP, RefKind.CALL, RefKind.HATCH)


@dataclass
class Call:
    """An edge of the call graph between two items of one document."""

    source: str
    target: str
    kind: str  # the graph's edge kind, or "entry"
    spans: list[Range]
    line: int  # (1-based) where the graph places it: a fall-through on the falling step's last line


@dataclass
class FlowCalls:
    """One snapshot's call graph: the items by id and the calls into and out of each."""

    graph: FlowGraph
    nodes: dict[str, GraphNode]
    by_symbol: dict[int, str]  # id(symbol) -> item id
    into: dict[str, list[Call]] = field(default_factory=dict)
    out_of: dict[str, list[Call]] = field(default_factory=dict)

    def add(self, call: Call) -> None:
        self.into.setdefault(call.target, []).append(call)
        self.out_of.setdefault(call.source, []).append(call)


def flow_calls(snap: Snapshot) -> FlowCalls:
    """The call graph of the snapshot (built once per snapshot)."""
    return snap.derived("call-hierarchy", _build)


def _build(snap: Snapshot) -> FlowCalls:
    graph = flow_graph(snap)
    nodes = {n.id: n for n in graph.nodes}
    calls = FlowCalls(graph, nodes, {id(n.symbol): n.id for n in graph.nodes if n.symbol is not None})
    flow = snap.model.flow
    if flow is not None:
        calls.by_symbol[id(flow)] = FLOW
    starts = {n.id for n in graph.nodes if n.kind == "start"}  # a workloop's iteration: the flow

    def item(node_id: str) -> str:
        return FLOW if node_id in starts else node_id

    for e in graph.edges:
        calls.add(Call(item(e.source), item(e.target), e.kind, list(e.spans), e.line))
    entered: set[str | None] = set()
    for n in graph.nodes:  # (document order: a container's first step comes first)
        if n.kind != "step" or n.parent in entered:
            continue
        entered.add(n.parent)
        span = n.symbol.selection if n.symbol is not None else None
        if n.parent is not None:
            calls.add(Call(n.parent, n.id, "entry", [span] if span else [], n.line))
        elif flow is not None and not starts:  # (a workloop enters it through `start`: an edge already)
            calls.add(Call(FLOW, n.id, "entry", [flow.selection], n.line))
    return calls


# ---- items
def symbol_of(snap: Snapshot, item_id: str) -> Symbol | None:
    if item_id == FLOW:
        return snap.model.flow
    node = flow_calls(snap).nodes.get(item_id)
    return node.symbol if node is not None else None


def _detail(snap: Snapshot, node: GraphNode | None, sym: Symbol) -> str:
    """What the item is, in a few words (the editor shows it beside the name)."""
    if node is None:  # the flow
        return sym.kind.value
    if node.kind == "step":
        parent = flow_calls(snap).nodes.get(node.parent) if node.parent else None
        if parent is None:
            return "step"
        return f"substep of {parent.name}" if parent.kind == "step" else f"step of subflow {parent.name}"
    if node.kind == "outcome":
        route = (sym.extra.get("route") or "").strip()
        owner = f"of subflow {node.parent}" if node.parent else "of the flow"
        return f"outcome {owner}" + (f", route {route}" if route else "")
    if node.kind in CONTRACTS:
        return f"{node.kind} workflow (declared here)"
    return {"retire": "retire block"}.get(node.kind, node.kind)


def item(snap: Snapshot, uri: str, item_id: str) -> lsp.CallHierarchyItem | None:
    """The call hierarchy item of one node of the snapshot's graph (or of the flow)."""
    sym = symbol_of(snap, item_id)
    if sym is None:
        return None
    node = None if item_id == FLOW else flow_calls(snap).nodes[item_id]
    return lsp.CallHierarchyItem(
        name=sym.name,
        kind=_KIND.get(sym.kind, lsp.SymbolKind.Function),
        uri=uri,
        range=lsp_range(snap, sym.range),
        selection_range=lsp_range(snap, sym.selection),
        detail=_detail(snap, node, sym),
        data={"awl": item_id},
    )


def item_id_at(snap: Snapshot, position: lsp.Position) -> str | None:
    """The item at the cursor: what a route, `after`, call or hatch names there, the step,
    outcome, subflow or flow declared there, or else the innermost step (or subflow, or the
    `retire` block) around the cursor, or the flow when the cursor is in its header."""
    calls = flow_calls(snap)
    model = snap.model
    row, col = point(snap, position)
    ref = model.reference_at(row, col)
    if ref is not None and ref.kind in _NAVIGABLE and ref.target is not None:
        found = calls.by_symbol.get(id(ref.target))
        if found is not None:
            return found
    node = snap.node_at(row, col)
    if node.type == "start" and model.is_workloop:
        return FLOW  # `route start` begins the next iteration: the workloop itself
    sym = model.symbol_at(row, col)
    if sym is not None and id(sym) in calls.by_symbol:
        return calls.by_symbol[id(sym)]
    around = model.enclosing(row, col, Kind.STEP, Kind.SUBFLOW, Kind.RETIRE)
    if around is not None and id(around) in calls.by_symbol:
        return calls.by_symbol[id(around)]
    if model.flow is not None and contains(model.flow.range, row, col):
        return FLOW
    return None


def item_id_of(snap: Snapshot, item: lsp.CallHierarchyItem) -> str | None:
    """The id of an item the editor hands back: the node its `data` names when it is still there
    under that name, else the node now declared at the item's name (the document changed)."""
    data = item.data
    wanted = data.get("awl") if isinstance(data, dict) else None
    if isinstance(wanted, str):
        sym = symbol_of(snap, wanted)
        if sym is not None and sym.name == item.name:
            return wanted
    found = item_id_at(snap, item.selection_range.start)
    sym = symbol_of(snap, found) if found is not None else None
    return found if sym is not None and sym.name == item.name else None


# ---- calls within the document
def _grouped(calls: list[Call], end: str) -> list[tuple[str, list[Range]]]:
    """Calls grouped by their other end (`source` or `target`), each group's ranges in document
    order, the groups in the order the calls are written (a fall-through last in its step)."""
    groups: dict[str, list[Range]] = {}
    first: dict[str, int] = {}
    for c in calls:
        other = getattr(c, end)
        spans = groups.setdefault(other, [])
        spans.extend(s for s in c.spans if s not in spans)
        first[other] = min(first.get(other, c.line), c.line)
    for spans in groups.values():
        spans.sort()
    return sorted(groups.items(), key=lambda kv: (first[kv[0]], kv[1][:1]))


def incoming(snap: Snapshot, item_id: str) -> list[tuple[str, list[Range]]]:
    """(caller item id, the ranges it calls at) of every call into the item."""
    return _grouped(flow_calls(snap).into.get(item_id, []), "source")


def outgoing(snap: Snapshot, item_id: str) -> list[tuple[str, list[Range]]]:
    """(callee item id, the ranges this item calls it at) of every call out of the item."""
    return _grouped(flow_calls(snap).out_of.get(item_id, []), "target")


def ranges(snap: Snapshot, spans: list[Range]) -> list[lsp.Range]:
    return [lsp_range(snap, r) for r in spans]
