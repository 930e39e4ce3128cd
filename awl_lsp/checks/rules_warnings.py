"""Warnings for legal but suspicious declarations: an unused detached, an unused type, an unused binding.

Each is reported only when certain: a name counts as used when any reference anywhere in the
document names it, so a warning never fires on a document that reads the value in some way.
"""

from __future__ import annotations

from itertools import chain

from awl_lsp.checks.across import union
from awl_lsp.checks.base import CheckContext
from awl_lsp.checks.tallies import BINDING_HOWS
from awl_lsp.model import Kind


def check(ctx: CheckContext) -> None:
    items = ctx.items
    hatched = union(ctx, "hatched", lambda it: it.tally.hatched)
    type_uses = union(ctx, "type uses", lambda it: chain(it.tally.type_uses, it.resolved.variant_types))
    reads = union(ctx, "reads", lambda it: it.tally.reads)
    # (the names declared anywhere, gathered per item too: with none left unused, no item is visited)
    if (
        union(ctx, "detached declared", lambda it: it.tally.detached) <= hatched
        and union(ctx, "types declared", lambda it: it.tally.types) <= type_uses
        and union(ctx, "should read", lambda it: it.tally.should_read) <= reads
    ):
        return
    for it in items:
        t = it.tally
        if t.detached and not t.detached <= hatched:
            for sym in it.facts.flat:
                if sym.kind is Kind.DETACHED and sym.name not in hatched:
                    ctx.warning(
                        sym.selection,
                        f"detached `{sym.name}` is never hatched: remove it or `hatch {sym.name}(…) key …`",
                        "unused-detached",
                    )
        if t.types and not t.types <= type_uses:
            for sym in it.facts.flat:
                if sym.kind is Kind.TYPE and sym.name not in type_uses:
                    ctx.warning(sym.selection, f"type `{sym.name}` is never used", "unused-type")
        if t.should_read and not t.should_read <= reads:
            for sym in it.facts.flat:
                if (
                    sym.kind is Kind.BINDING
                    and sym.extra.get("how") in BINDING_HOWS
                    and sym.name not in reads
                ):
                    ctx.warning(
                        sym.selection,
                        f"binding `{sym.name}` is never read: drop `-> {sym.name}` or use the value",
                        "unused-binding",
                    )
