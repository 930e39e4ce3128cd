"""Inlay hints: the inferred type after each bound name (`-> batch: Batch`, fork items, loop bindings).

A hint is shown only where inference knows the whole type: anything unknown (or a duration, which
has no type name) gets no hint rather than a guess.
"""

from __future__ import annotations

from lsprotocol import types as lsp

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


def inlay_hints(snap: Snapshot, rng: lsp.Range | None = None) -> list[lsp.InlayHint]:
    first, last = 0, snap.doc.lines.line_count
    if rng is not None:
        first, last = snap.point(rng.start)[0], snap.point(rng.end)[0]
    bindings = [s for s in snap.model.of_kind(Kind.BINDING) if _in_rows(s, first, last)]
    if not bindings:
        return []
    env = TypeEnv(snap.model, snap.doc.tree, snap.doc.source, snap.path, workspace=snap.workspace)
    out: list[lsp.InlayHint] = []
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
