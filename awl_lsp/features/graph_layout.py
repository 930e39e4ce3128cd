"""A small layered (Sugiyama-style) layout that draws a `FlowGraph` as SVG with no system program.

Layers by longest path over the edges with back edges (cycles: routes back, the workloop's return to
`start`) reversed; a few barycentre sweeps order each layer; nodes sit on a grid, edges are cubic
curves with arrowheads, substeps get their parent's cluster rectangle drawn behind them.
"""

from __future__ import annotations

from html import escape

from awl_lsp.features.graph import FlowGraph

_W, _H, _GAP_X, _GAP_Y, _PAD = 170, 44, 40, 70, 30
_FILL = {
    "step": "#eef3fb",
    "outcome": "#e8f6ec",
    "start": "#fdf3e1",
    "detached": "#f4ecfa",
    "child": "#f4ecfa",
    "subflow": "#f4ecfa",
    "retire": "#f2f2f2",
}
_DASHED = {"after", "failure", "hatch", "spawn", "call"}


def _layers(ids: list[str], pairs: list[tuple[str, str]]) -> dict[str, int]:
    succ: dict[str, list[str]] = {i: [] for i in ids}
    for a, b in pairs:
        if a != b and b not in succ[a]:
            succ[a].append(b)
    # depth-first order; edges to a node still on the stack are back edges and are left out
    state: dict[str, int] = {}
    order: list[str] = []
    forward: dict[str, list[str]] = {i: [] for i in ids}
    for root in ids:
        if root in state:
            continue
        stack: list[tuple[str, int]] = [(root, 0)]
        state[root] = 1
        while stack:
            node, k = stack.pop()
            if k < len(succ[node]):
                stack.append((node, k + 1))
                nxt = succ[node][k]
                if state.get(nxt) == 1:
                    continue
                forward[node].append(nxt)
                if nxt not in state:
                    state[nxt] = 1
                    stack.append((nxt, 0))
            else:
                state[node] = 2
                order.append(node)
    layer = {i: 0 for i in ids}
    for node in reversed(order):  # topological order of the forward edges
        for nxt in forward[node]:
            layer[nxt] = max(layer[nxt], layer[node] + 1)
    return layer


def _order(ids: list[str], pairs: list[tuple[str, str]], layer: dict[str, int]) -> list[list[str]]:
    rows: list[list[str]] = [[] for _ in range(max(layer.values(), default=0) + 1)]
    for nid in ids:
        rows[layer[nid]].append(nid)
    preds: dict[str, list[str]] = {}
    for a, b in pairs:
        if layer[a] < layer[b]:
            preds.setdefault(b, []).append(a)
    for _ in range(4):
        pos = {nid: i for row in rows for i, nid in enumerate(row)}
        for row in rows[1:]:
            row.sort(key=lambda nid: _mean(pos, preds[nid]) if preds.get(nid) else pos[nid])
    return rows


def _mean(pos: dict[str, int], ids: list[str]) -> float:
    return sum(pos[i] for i in ids) / len(ids)


class _Layout:
    """Compound layered layout: a node with children is a box holding its own node and their layout."""

    def __init__(self, graph: FlowGraph) -> None:
        self.graph = graph
        self.parent = {n.id: n.parent for n in graph.nodes}
        self.kind = {n.id: n.kind for n in graph.nodes}
        self.kids: dict[str | None, list[str]] = {}
        for n in graph.nodes:
            self.kids.setdefault(n.parent, []).append(n.id)
        self.box: dict[str, tuple[float, float, float, float]] = {}  # node -> x, y, w, h (relative)
        self.cluster: dict[str, tuple[float, float, float, float]] = {}

    def ancestor_in(self, nid: str, level: str | None) -> str | None:
        while nid is not None and self.parent.get(nid) != level:
            nid = self.parent.get(nid)  # type: ignore[assignment]
        return nid

    def size(self, nid: str) -> tuple[float, float]:
        if nid not in self.kids:
            return _W, _H
        w, h = self.layout(nid)
        return max(_W, w) + 20, _H + 20 + h + 10

    def layout(self, level: str | None) -> tuple[float, float]:
        ids = self.kids.get(level, [])
        pairs = []
        for e in self.graph.edges:
            a, b = self.ancestor_in(e.source, level), self.ancestor_in(e.target, level)
            if a is not None and b is not None and a != b:
                pairs.append((a, b))
        layer = _layers(ids, pairs)
        apart = [nid for nid in ids if self.kind[nid] == "retire"]
        for nid in apart:  # the wind-down block sits apart, below the flow
            layer[nid] = max((layer[i] for i in ids if i not in apart), default=-1) + 1
        rows = _order(ids, pairs, layer)
        sizes = {nid: self.size(nid) for nid in ids}
        widths = [sum(sizes[n][0] for n in row) + _GAP_X * (len(row) - 1) for row in rows]
        width = max(widths, default=0)
        y = 0.0
        for row, row_w in zip(rows, widths, strict=True):
            x = (width - row_w) / 2
            row_h = max((sizes[n][1] for n in row), default=0)
            for nid in row:
                w, h = sizes[nid]
                self.box[nid] = (x, y, w, h)
                x += w + _GAP_X
            y += row_h + _GAP_Y
        return width, max(y - _GAP_Y, 0)

    def place(self, level: str | None, ox: float, oy: float, out: dict[str, tuple[float, float]]) -> None:
        for nid in self.kids.get(level, []):
            x, y, w, h = self.box[nid]
            if nid in self.kids:
                self.cluster[nid] = (ox + x, oy + y, w, h)
                out[nid] = (ox + x + (w - _W) / 2, oy + y + 10)
                inner_w = w - 20
                sub_w = max((self.box[k][0] + self.box[k][2] for k in self.kids[nid]), default=0)
                self.place(nid, ox + x + 10 + (inner_w - sub_w) / 2, oy + y + _H + 20, out)
            else:
                out[nid] = (ox + x, oy + y)


def layered_svg(graph: FlowGraph) -> str:
    if not graph.nodes:
        return '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>\n'
    lay = _Layout(graph)
    total_w, total_h = lay.layout(None)
    xy: dict[str, tuple[float, float]] = {}
    lay.place(None, _PAD, _PAD, xy)
    width, height = total_w + 2 * _PAD + 120, total_h + 2 * _PAD
    nodes = {n.id: n for n in graph.nodes}
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif" font-size="12">',
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
        'markerHeight="7" orient="auto-start-reverse">'
        '<path d="M0,0 L10,5 L0,10 z" fill="#555"/></marker></defs>',
    ]
    for cid, (x0, y0, w, h) in lay.cluster.items():
        out.append(
            f'<rect class="cluster" data-id="{escape(cid)}" x="{x0:.0f}" y="{y0:.0f}" '
            f'width="{w:.0f}" height="{h:.0f}" rx="8" fill="none" stroke="#aab" '
            'stroke-dasharray="4 3"/>'
        )
    for e in graph.edges:
        (sx, sy), (tx, ty) = xy[e.source], xy[e.target]
        x1, y1 = sx + _W / 2, sy + _H
        if e.source in lay.cluster:  # leave a step with substeps from the bottom of its cluster
            cx, cy, cw, ch = lay.cluster[e.source]
            if not (cy <= ty <= cy + ch):
                y1 = cy + ch
        x2, y2 = tx + _W / 2, ty
        if ty <= sy:  # back edge: leave from the side and come round
            x1, y1, x2, y2 = sx + _W, sy + _H / 2, tx + _W, ty + _H / 2
            bend = 60 + abs(sy - ty) / 4
            path = f"M{x1:.0f},{y1:.0f} C{x1 + bend:.0f},{y1:.0f} {x2 + bend:.0f},{y2:.0f} {x2:.0f},{y2:.0f}"
        else:
            mid = (y1 + y2) / 2
            path = f"M{x1:.0f},{y1:.0f} C{x1:.0f},{mid:.0f} {x2:.0f},{mid:.0f} {x2:.0f},{y2:.0f}"
        dash = ' stroke-dasharray="5 4"' if e.kind in _DASHED else ""
        colour = "#c0392b" if e.kind == "failure" else "#555"
        out.append(
            f'<path class="edge {e.kind}" d="{path}" fill="none" stroke="{colour}"{dash} '
            'marker-end="url(#arrow)"/>'
        )
        if e.label:
            lx, ly = (x1 + x2) / 2, (y1 + y2) / 2
            out.append(
                f'<text x="{lx:.0f}" y="{ly:.0f}" text-anchor="middle" font-size="10" '
                f'fill="#333">{escape(e.label)}</text>'
            )
    for nid, (x, y) in xy.items():
        n = nodes[nid]
        label = f"{n.kind} {n.name}" if n.kind in ("detached", "child", "subflow") else n.name
        rx = _H / 2 if n.kind in ("start", "outcome") else 6
        out.append(
            f'<g class="node {n.kind}" data-id="{escape(nid)}" data-line="{n.line}">'
            f'<rect x="{x:.0f}" y="{y:.0f}" width="{_W}" height="{_H}" rx="{rx:.0f}" '
            f'fill="{_FILL.get(n.kind, "#fff")}" stroke="#445"/>'
            f'<text x="{x + _W / 2:.0f}" y="{y + _H / 2 + 4:.0f}" text-anchor="middle">'
            f"{escape(label)}</text></g>"
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"
