"""The flow graph of one document: steps, outcomes, routes, calls and regions as nodes and edges.

`flow_graph(snapshot)` reads the semantic model (step symbols and their children, resolved route,
hatch and call references) and the step bodies' statements from the tree (which statement ends a
step, which sit under `on failure`, which open a fork, loop or region). Nothing is read from text.

The result is plain data (`FlowGraph.to_json()` is the documented `awl graph --format json`):

- nodes `{id, kind, name, line, parent}`; `kind` is `step`, `outcome` (a workflow or subflow
  outcome), `start` (the workloop's iteration terminal), `detached`, `child`, `subflow` or `retire`;
  `id` is the declared name (`start` for the terminal), made unique with its parent (`parent.name`)
  or kind (`outcome:name`) only when two would collide; `parent` is the enclosing step or subflow.
- edges `{from, to, kind, label, line}`; `kind` is `next` (fall-through), `after`, `route`,
  `outcome` (a step outcome's route, labelled `name: guard`), `failure` (a route under
  `on failure`), `hatch`, `spawn` or `call`.
- groups `{id, kind, step, line, end_line, nodes}`: the `fork`, `loop`, `distribute`/`sequence`
  regions of a step, with the substeps declared inside them.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import asdict, dataclass, field

from tree_sitter import Node

from awl_lsp.features.snapshot import Snapshot
from awl_lsp.model import Kind, Range, Reference, RefKind, Symbol

_REGIONS = {"fork_statement": "fork", "loop_statement": "loop", "distribute_statement": "region"}
_CALL_EDGES = {RefKind.HATCH: "hatch", RefKind.CALL: "call"}
_BLOCKS = ("block", "loop_body", "step_body")


@dataclass
class GraphNode:
    id: str
    kind: str
    name: str
    line: int
    parent: str | None = None
    symbol: Symbol | None = field(default=None, compare=False, repr=False)  # its declaration (not in JSON)


@dataclass
class GraphEdge:
    source: str
    target: str
    kind: str
    label: str = ""
    line: int = 0
    # where the edge is written: the target word of a route, the name in `after`, the callee of a
    # call; a fall-through is written nowhere, so it is the falling step's name (not in JSON)
    spans: list[Range] = field(default_factory=list, compare=False, repr=False)


@dataclass
class GraphGroup:
    id: str
    kind: str
    step: str
    line: int
    end_line: int
    nodes: list[str] = field(default_factory=list)


@dataclass
class FlowGraph:
    flow: str
    flow_kind: str
    nodes: list[GraphNode] = field(default_factory=list)
    edges: list[GraphEdge] = field(default_factory=list)
    groups: list[GraphGroup] = field(default_factory=list)

    def node(self, node_id: str) -> GraphNode | None:
        return next((n for n in self.nodes if n.id == node_id), None)

    def to_json(self) -> dict:
        return {
            "flow": self.flow,
            "kind": self.flow_kind,
            "nodes": [
                {"id": n.id, "kind": n.kind, "name": n.name, "line": n.line, "parent": n.parent}
                for n in self.nodes
            ],
            "edges": [
                {"from": e.source, "to": e.target, "kind": e.kind, "label": e.label, "line": e.line}
                for e in self.edges
            ],
            "groups": [asdict(g) for g in self.groups],
        }


class _Builder:
    def __init__(self, snap: Snapshot) -> None:
        self.snap = snap
        self.model = snap.model
        flow = self.model.flow
        self.graph = FlowGraph(flow.name if flow else "", flow.kind.value if flow else "")
        self.ids: dict[int, str] = {}  # id(symbol) -> node id
        self.taken: set[str] = set()
        self.targets: dict[str, str] = {}  # detached/child name -> node id
        self.edges: dict[tuple, GraphEdge] = {}  # (source, target, kind, label, line) -> the edge
        # the hatch and call references, in document order (a statement's are found by bisection)
        self.calls_in = sorted(
            (r for r in self.model.references if r.kind in _CALL_EDGES), key=lambda r: r.range[:2]
        )
        self.call_starts = [r.range[:2] for r in self.calls_in]

    # ---- nodes
    def add(self, sym: Symbol | None, kind: str, name: str, row: int, parent: str | None) -> str:
        node_id = name
        if node_id in self.taken:
            node_id = f"{parent}.{name}" if parent else f"{kind}:{name}"
        n = 2
        base = node_id
        while node_id in self.taken:
            node_id, n = f"{base}#{n}", n + 1
        self.taken.add(node_id)
        if sym is not None:
            self.ids[id(sym)] = node_id
        self.graph.nodes.append(GraphNode(node_id, kind, name, row + 1, parent, sym))
        return node_id

    def edge(self, source: str, target: str, kind: str, label: str, row: int, span: Range | None) -> None:
        key = (source, target, kind, label, row + 1)
        e = self.edges.get(key)
        if e is None:
            e = self.edges[key] = GraphEdge(source, target, kind, label, row + 1)
            self.graph.edges.append(e)
        if span is not None and span not in e.spans:
            e.spans.append(span)

    def node_of(self, sym: Symbol) -> Node | None:
        r = sym.range
        node = self.snap.doc.root.descendant_for_point_range((r[0], r[1]), (r[2], r[3]))
        while node is not None and node.type not in (
            "step_declaration",
            "subflow_declaration",
            "retire_block",
        ):
            node = node.parent
        return node

    # ---- the whole document
    def build(self) -> FlowGraph:
        model = self.model
        for sym in model.of_kind(Kind.OUTCOME):
            if sym.container is None or sym.container == self.graph.flow:
                self.add(sym, "outcome", sym.name, sym.range[0], None)
        if model.is_workloop:
            self.add(None, "start", "start", model.flow.range[0] if model.flow else 0, None)
        for kind in (Kind.DETACHED, Kind.CHILD):
            for sym in model.of_kind(kind):
                self.targets[sym.name] = self.add(sym, kind.value, sym.name, sym.range[0], None)
        top_steps: list[tuple[Symbol, Node]] = []
        for sym in model.symbols:
            if sym.kind is Kind.STEP:
                node = self.node_of(sym)
                if node is not None:
                    top_steps.append((sym, node))
                    self.declare(sym, None)
            elif sym.kind is Kind.SUBFLOW:
                sub = self.add(sym, "subflow", sym.name, sym.range[0], None)
                self.targets[sym.name] = sub
                for child in sym.children:
                    if child.kind is Kind.OUTCOME:
                        self.add(child, "outcome", child.name, child.range[0], sub)
                steps = [(c, n) for c in sym.children if c.kind is Kind.STEP and (n := self.node_of(c))]
                for c, _ in steps:
                    self.declare(c, sub)
                self.container(steps, sub)
            elif sym.kind is Kind.RETIRE:
                rid = self.add(sym, "retire", "retire", sym.range[0], None)
                node = self.node_of(sym)
                if node is not None:
                    self.body_edges(rid, sym, node, None)
        self.container(top_steps, None)
        return self.graph

    def declare(self, sym: Symbol, parent: str | None) -> None:
        sid = self.add(sym, "step", sym.name, sym.range[0], parent)
        for child in sym.children:
            if child.kind is Kind.STEP:
                self.declare(child, sid)

    def container(self, steps: list[tuple[Symbol, Node]], scope: str | None) -> None:
        """Edges of one container's steps: fall-through, `after`, and each step's own body."""
        for i, (sym, node) in enumerate(steps):
            sid = self.ids[id(sym)]
            falls = self.body_edges(sid, sym, node, scope)
            after = node.child_by_field_name("after")
            if after is not None:
                for dep in after.children_by_field_name("step"):
                    ref = self.model.reference_with(_range(dep), RefKind.STEP)
                    if ref is not None and ref.target is not None and id(ref.target) in self.ids:
                        source = self.ids[id(ref.target)]
                        self.edge(source, sid, "after", "", dep.start_point.row, _range(dep))
            if falls and i + 1 < len(steps):
                nxt_sym, nxt = steps[i + 1]
                if nxt.child_by_field_name("after") is None:
                    row = node.end_point.row - 1
                    self.edge(sid, self.ids[id(nxt_sym)], "next", "", row, sym.selection)
        if steps and self.model.is_workloop and scope is None:
            first = steps[0][0]
            flow = self.model.flow
            if "start" in self.taken and not _is_substep(steps[0][1]):
                span = flow.selection if flow is not None else None
                self.edge("start", self.ids[id(first)], "next", "", first.range[0], span)

    def body_edges(self, sid: str, owner: Symbol, node: Node, scope: str | None) -> bool:
        """Edges out of one step's (or the retire block's) own statements; True when it falls through."""
        body = node.child_by_field_name("body") if node.type != "retire_block" else node
        if body is None:
            return True
        substeps: list[tuple[Symbol, Node]] = []
        ends = self.statements(sid, owner, body, "", substeps, [])
        if substeps:
            self.container(substeps, sid)
        return not ends

    def statements(
        self, sid: str, owner: Symbol, block: Node, how: str, substeps: list, regions: list[GraphGroup]
    ) -> bool:
        """Walk a block's statements; True when the block ends the step (a route or outcomes)."""
        ends = False
        for st in block.named_children:
            t = st.type
            if t == "step_declaration":
                name = st.child_by_field_name("name")
                sub = self.model.symbol_at(name.start_point.row, name.start_point.column) if name else None
                if sub is not None and sub.kind is Kind.STEP and id(sub) in self.ids:
                    substeps.append((sub, st))
                    for g in regions:
                        g.nodes.append(self.ids[id(sub)])
                continue
            if t == "route_statement":
                self.route(sid, st, how or "route", "")
                ends = ends or not how
            elif t == "step_outcome":
                name = st.child_by_field_name("name")
                guard = st.child_by_field_name("guard")
                label = self.snap.text(name)
                if guard is not None:
                    label += ": " + " ".join(self.snap.text(guard).split())
                route = st.child_by_field_name("route")
                if route is not None:
                    self.route(sid, route, "outcome", label)
                ends = True
            elif t == "on_failure":
                inner = st.child_by_field_name("body")
                if inner is not None:
                    self.statements(sid, owner, inner, "failure", substeps, regions)
            elif t in _REGIONS:
                kind = _REGIONS[t]
                if t == "distribute_statement":
                    mode = st.child_by_field_name("mode")
                    kind = mode.type if mode is not None else "distribute"
                group = GraphGroup(
                    f"{sid}/{kind}@{st.start_point.row + 1}",
                    kind,
                    sid,
                    st.start_point.row + 1,
                    _end_line(st),
                )
                self.graph.groups.append(group)
                self.calls(sid, st, skip_blocks=True)
                for child in st.named_children:
                    if child.type in _BLOCKS:
                        self.statements(sid, owner, child, how, substeps, [*regions, group])
                continue
            self.calls(sid, st, skip_blocks=False)
        return ends

    def route(self, sid: str, st: Node, kind: str, label: str) -> None:
        target = st.child_by_field_name("target")
        if target is None or not target.named_children:
            return
        tnode = target.named_children[0]
        if tnode.type == "start":
            if "start" in self.taken:
                self.edge(sid, "start", kind, label, st.start_point.row, _range(tnode))
            return
        ref = self.model.reference_with(_range(tnode), RefKind.ROUTE)
        if ref is not None and ref.target is not None and id(ref.target) in self.ids:
            self.edge(sid, self.ids[id(ref.target)], kind, label, st.start_point.row, ref.range)

    def statement_calls(self, r: Range) -> list[Reference]:
        """The hatch and call references inside the range `r`, in document order."""
        out = []
        refs = self.calls_in
        for i in range(bisect_left(self.call_starts, r[:2]), len(refs)):
            at = refs[i].range
            if at[:2] > r[2:]:
                break
            if at[2:] <= r[2:]:
                out.append(refs[i])
        return out

    def calls(self, sid: str, st: Node, skip_blocks: bool) -> None:
        """`hatch`, `spawn` and child/subflow call edges for the references inside one statement."""
        for ref in self.statement_calls(_range(st)):
            if skip_blocks and _inside_block(st, ref.range):
                continue
            target = ref.target
            if target is None or target.kind not in (Kind.DETACHED, Kind.CHILD, Kind.SUBFLOW):
                continue
            kind = _CALL_EDGES[ref.kind]
            if st.type == "spawn_statement":
                kind = "spawn"
            node_id = self.targets.get(target.name)
            if node_id is not None:
                self.edge(sid, node_id, kind, "", ref.range[0], ref.range)


def _range(node: Node) -> tuple[int, int, int, int]:
    s, e = node.start_point, node.end_point
    return (s.row, s.column, e.row, e.column)


def _end_line(node: Node) -> int:
    e = node.end_point
    return e.row if e.column == 0 else e.row + 1


def _inside_block(st: Node, r: tuple[int, int, int, int]) -> bool:
    return any(
        c.type in _BLOCKS and _range(c)[:2] <= r[:2] and r[2:] <= _range(c)[2:] for c in st.named_children
    )


def _is_substep(node: Node) -> bool:
    return node.parent is not None and node.parent.type != "source_file"


def flow_graph(snap: Snapshot) -> FlowGraph:
    """The flow graph of the snapshot's document (empty when it declares no flow)."""
    return _Builder(snap).build()
