"""Text forms of a `FlowGraph`: Graphviz DOT, Mermaid flowcharts and SVG.

SVG comes from Graphviz (`dot -Tsvg`) when `dot` is on PATH; otherwise from `layered_svg`, a small
layered layout of our own (longest-path layers, barycentre ordering), so `awl graph --format svg`
needs no system program. Substeps are drawn inside their parent step's cluster.
"""

from __future__ import annotations

import html
import shutil
import subprocess

from awl_lsp.features.graph import FlowGraph, GraphNode, flow_graph
from awl_lsp.features.snapshot import Snapshot
from awl_lsp.model import Kind

# node kind -> (DOT shape, Mermaid open/close brackets)
_SHAPES = {
    "step": ("box", "[", "]"),
    "outcome": ("doubleoctagon", "{{", "}}"),
    "start": ("circle", "((", "))"),
    "detached": ("component", "[/", "/]"),
    "child": ("component", "[[", "]]"),
    "subflow": ("box3d", "[[", "]]"),
    "retire": ("note", ">", "]"),
}
_DOT_STYLE = {
    "next": "",
    "after": "style=dashed",
    "route": "",
    "outcome": "",
    "failure": 'style=dashed, color="#c0392b"',
    "hatch": "style=dotted, arrowhead=vee",
    "spawn": "style=dotted, arrowhead=vee",
    "call": "style=dotted",
}
_MERMAID_ARROW = {"after": "-.->", "failure": "-.->", "hatch": "-.->", "spawn": "-.->", "call": "-.->"}


def _children(graph: FlowGraph) -> dict[str | None, list[GraphNode]]:
    out: dict[str | None, list[GraphNode]] = {}
    for n in graph.nodes:
        out.setdefault(n.parent, []).append(n)
    return out


def _dot_id(node_id: str) -> str:
    return '"' + node_id.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _dot_label(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def to_dot(graph: FlowGraph) -> str:
    kids = _children(graph)
    lines = [
        f"digraph {_dot_id(graph.flow or 'awl')} {{",
        "  rankdir=TB;",
        '  fontname="sans-serif";',
        '  node [fontname="sans-serif"];',
        '  edge [fontname="sans-serif", fontsize=10];',
    ]

    def emit(parent: str | None, indent: str) -> None:
        for n in kids.get(parent, []):
            shape = _SHAPES.get(n.kind, ("box", "[", "]"))[0]
            label = f"{n.kind} {n.name}" if n.kind in ("detached", "child", "subflow") else n.name
            if n.id in kids:
                lines.append(f"{indent}subgraph {_dot_id('cluster_' + n.id)} {{")
                lines.append(f"{indent}  label={_dot_label(label)};")
                lines.append(f"{indent}  {_dot_id(n.id)} [shape={shape}, label={_dot_label(label)}];")
                emit(n.id, indent + "  ")
                lines.append(f"{indent}}}")
            else:
                lines.append(f"{indent}{_dot_id(n.id)} [shape={shape}, label={_dot_label(label)}];")

    emit(None, "  ")
    for e in graph.edges:
        label = f"label={_dot_label(e.label)}" if e.label else ""
        attrs = [a for a in (_DOT_STYLE.get(e.kind, ""), label) if a]
        suffix = f" [{', '.join(attrs)}]" if attrs else ""
        lines.append(f"  {_dot_id(e.source)} -> {_dot_id(e.target)}{suffix};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _mermaid_id(graph: FlowGraph) -> dict[str, str]:
    return {n.id: f"n{i}" for i, n in enumerate(graph.nodes)}


def _mermaid_text(text: str) -> str:
    return '"' + html.escape(text, quote=True).replace("#", "#35;") + '"'


def to_mermaid(graph: FlowGraph) -> str:
    ids = _mermaid_id(graph)
    kids = _children(graph)
    lines = ["flowchart TD"]

    def emit(parent: str | None, indent: str) -> None:
        for n in kids.get(parent, []):
            _, open_, close = _SHAPES.get(n.kind, ("box", "[", "]"))
            label = f"{n.kind} {n.name}" if n.kind in ("detached", "child", "subflow") else n.name
            node = f"{indent}{ids[n.id]}{open_}{_mermaid_text(label)}{close}"
            if n.id in kids:
                lines.append(f"{indent}subgraph {ids[n.id]}_group[{_mermaid_text(label)}]")
                lines.append("  " + node)
                emit(n.id, indent + "  ")
                lines.append(f"{indent}end")
            else:
                lines.append(node)

    emit(None, "  ")
    for e in graph.edges:
        arrow = _MERMAID_ARROW.get(e.kind, "-->")
        label = e.label or (e.kind if e.kind not in ("next", "route", "outcome") else "")
        mid = f"|{_mermaid_text(label)}|" if label else ""
        lines.append(f"  {ids[e.source]} {arrow}{mid} {ids[e.target]}")
    return "\n".join(lines) + "\n"


def to_svg(graph: FlowGraph) -> tuple[str, str]:
    """The SVG drawing and which engine laid it out (`graphviz` or `awl`)."""
    dot = shutil.which("dot")
    if dot is not None:
        try:
            done = subprocess.run(
                [dot, "-Tsvg"], input=to_dot(graph), capture_output=True, text=True, timeout=30, check=True
            )
            return done.stdout, "graphviz"
        except (OSError, subprocess.SubprocessError):
            pass
    from awl_lsp.features.graph_layout import layered_svg

    return layered_svg(graph), "awl"


def graph_view(snap: Snapshot, row: int | None = None) -> dict:
    """What an editor's graph view needs: the graph as JSON, the innermost step at `row` (0-based)
    as `focus`, the Mermaid and DOT texts and an SVG drawing."""
    graph = flow_graph(snap)
    out = graph.to_json()
    if row is not None:
        focus = None
        best: tuple[int, int] | None = None
        for sym in snap.model.all_symbols:
            if sym.kind is Kind.STEP and sym.range[0] <= row <= sym.range[2]:
                span = (sym.range[2] - sym.range[0], -sym.range[0])
                node = next((n for n in graph.nodes if n.kind == "step" and n.line == sym.range[0] + 1), None)
                if node is not None and (best is None or span < best):
                    best, focus = span, node.id
        out["focus"] = focus
    out["mermaid"] = to_mermaid(graph)
    out["dot"] = to_dot(graph)
    from awl_lsp.features.graph_layout import layered_svg

    out["svg"] = layered_svg(graph)  # our own layout: the same drawing on every machine, no subprocess
    return out
