"""Inlay hints: the inferred type after each bound name (`-> batch: Batch`, fork items, loop bindings).

A hint is shown only where inference knows the whole type: anything unknown (or a duration, which
has no type name) gets no hint rather than a guess.
"""

from __future__ import annotations

from lsprotocol import types as lsp
from tree_sitter import Node

from awl_lsp.features.cadence import cadence_insights
from awl_lsp.features.lsp_positions import point
from awl_lsp.features.snapshot import Snapshot
from awl_lsp.model import Kind, Symbol
from awl_lsp.model.types import AwlType, TypeEnv


def type_text(t: AwlType | None) -> str | None:
    """AWL text for a fully known type (`Batch`, `[Message]`, `Approval?`), else None."""
    if t is None or t.kind in ("unknown", "duration"):
        return None
    if t.kind in ("list", "optional"):
        inner = type_text(t.element)
        if inner is None:
            return None
        return f"[{inner}]" if t.kind == "list" else f"{inner}?"
    return t.name if t.name and "." not in t.name else None


def _in_rows(sym: Symbol, first: int, last: int) -> bool:
    return first <= sym.selection[2] and sym.selection[0] <= last


def _cadence_hints(snap: Snapshot, first: int, last: int) -> list[lsp.InlayHint]:
    """`≈ 1h15m at every 25m` after a workloop's tolerance and retention clauses."""
    out: list[lsp.InlayHint] = []
    for item in snap.doc.root.named_children:
        header = item.child_by_field_name("header") if item.type == "workloop_declaration" else None
        if header is None or header.end_point.row < first or header.start_point.row > last:
            continue
        for insight in cadence_insights(header, snap.doc.source):
            row = insight.node.start_point.row
            if not first <= row <= last:
                continue
            line, char = snap.doc.to_position((row, _clause_end(insight.node)))
            out.append(
                lsp.InlayHint(
                    position=lsp.Position(line, char),
                    label=insight.text,
                    kind=None,
                    padding_left=True,
                    padding_right=False,
                )
            )
    return out


def _clause_end(clause: Node) -> int:
    """Byte column where the clause's text ends on its first line (before its line break)."""
    row = clause.start_point.row
    end = clause.start_point.column
    for child in clause.children:
        if child.end_point.row == row and child.end_byte > child.start_byte:
            end = max(end, child.end_point.column)
    return end


def inlay_hints(snap: Snapshot, rng: lsp.Range | None = None) -> list[lsp.InlayHint]:
    first, last = 0, snap.doc.lines.line_count
    if rng is not None:
        first, last = point(snap, rng.start)[0], point(snap, rng.end)[0]
    bindings = [s for s in snap.model.of_kind(Kind.BINDING) if _in_rows(s, first, last)]
    out: list[lsp.InlayHint] = _cadence_hints(snap, first, last)
    if not bindings:
        return out
    env = TypeEnv(snap.model, snap.doc.tree, snap.doc.source, snap.path, workspace=snap.workspace)
    for sym in bindings:
        if sym.extra.get("how") == "loop counter":
            continue  # `counting n` is always an Int; the hint would be noise
        try:
            text = type_text(env.type_of_symbol(sym))
        except Exception:  # noqa: BLE001 — a hint is never worth a failed request
            text = None
        if text is None:
            continue
        line, char = snap.doc.to_position((sym.selection[2], sym.selection[3]))
        out.append(
            lsp.InlayHint(
                position=lsp.Position(line, char),
                label=f": {text}",
                kind=lsp.InlayHintKind.Type,
                padding_left=False,
                padding_right=False,
            )
        )
    out.sort(key=lambda h: (h.position.line, h.position.character))
    return out
