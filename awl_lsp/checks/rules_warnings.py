"""Warnings for legal but suspicious declarations: an unused detached, an unused type, an unused binding.

Each is reported only when certain: a name counts as used when any reference anywhere in the
document names it, so a warning never fires on a document that reads the value in some way.
"""

from __future__ import annotations

from awl_lsp.checks.base import CheckContext
from awl_lsp.model import Kind, RefKind

_READS = frozenset({RefKind.VALUE, RefKind.COLLECT})
_BINDING_HOWS = frozenset({"binding", "join", "wait", "collect"})


def check(ctx: CheckContext) -> None:
    model = ctx.model
    refs = model.references
    hatched = {r.name for r in refs if r.kind is RefKind.HATCH}
    for sym in model.of_kind(Kind.DETACHED):
        if sym.name not in hatched:
            ctx.warning(
                sym.selection,
                f"detached `{sym.name}` is never hatched: remove it or `hatch {sym.name}(…) key …`",
                "unused-detached",
            )
    type_uses = {r.name for r in refs if r.kind in (RefKind.TYPE, RefKind.CALL)}
    type_uses |= {r.target.container for r in refs if r.target is not None and r.target.kind is Kind.VARIANT}
    for sym in model.of_kind(Kind.TYPE):
        if sym.name not in type_uses:
            ctx.warning(sym.selection, f"type `{sym.name}` is never used", "unused-type")
    reads = {r.name for r in refs if r.kind in _READS}
    for sym in model.of_kind(Kind.BINDING):
        if sym.extra.get("how") in _BINDING_HOWS and sym.name not in reads:
            ctx.warning(
                sym.selection,
                f"binding `{sym.name}` is never read: drop `-> {sym.name}` or use the value",
                "unused-binding",
            )
