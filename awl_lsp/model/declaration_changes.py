"""Which declarations a changed run of items changes, between two versions of a document.

`ModelBuilder` lines the items of a new version up with the old ones; for the run in the middle
that changed, `changed_declarations` names the declarations that differ (those whose readers must
be resolved again) and pairs the ones that stayed the same, so references to them can be
re-pointed. `export_key` is the name under which a declaration is seen by other items (a fork's
bindings under a key of their own, `LOCAL`), shared with the checks' dependency tracking.
"""

from __future__ import annotations

from awl_lsp.model.facts import ItemFacts, plain_scope
from awl_lsp.model.symbols import Kind, Symbol


def _digest(sym: Symbol) -> tuple:
    """What resolution can see of a declaration (its place among same-named ones aside)."""
    return (
        sym.kind,
        plain_scope(sym.scope),
        sym.container,
        sym.type,
        tuple((c.kind, c.name, c.type) for c in sym.children),
    )


LOCAL = "\0local:"


def export_key(sym: Symbol) -> str:
    """The name under which a declaration can change what other items see.

    A binding inside a fork body is visible only there (scope-aware resolution never reaches it
    from another item), so it goes under its own key: a fork's `part` in a pasted step does not
    re-resolve every other step's `part`. Scope-agnostic look-ups of bindings record both keys.
    """
    if sym.kind is Kind.BINDING and "fork@" in sym.scope:
        return LOCAL + sym.name
    return sym.name


def _by_name(items: list[ItemFacts]) -> dict[str, list[Symbol]]:
    out: dict[str, list[Symbol]] = {}
    for facts in items:
        for s in facts.flat:
            out.setdefault(export_key(s), []).append(s)
    return out


def changed_declarations(
    old: list[ItemFacts], new: list[ItemFacts], moved: dict[int, Symbol], paired: set[str] | None = None
) -> set[str]:
    """Names declared differently in `new` than in `old` (the changed run of items).

    Same-named declarations that stayed the same are paired in order in `moved`, so references
    to the old symbols can be re-pointed at the new ones.
    """
    before, after = _by_name(old), _by_name(new)
    changed: set[str] = set()
    for name in before.keys() | after.keys():
        a, b = before.get(name, []), after.get(name, [])
        if len(a) != len(b) or any(_digest(x) != _digest(y) for x, y in zip(a, b, strict=True)):
            changed.add(name)
            continue
        for x, y in zip(a, b, strict=True):
            if x is not y:
                moved[id(x)] = y
                if paired is not None:
                    paired.add(name)
    return changed


__all__ = ["LOCAL", "changed_declarations", "export_key"]
