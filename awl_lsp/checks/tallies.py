"""Per-item tallies for the document-wide name rules, so those rules never walk every symbol.

`Tally` is what an item declares and reads, by name, computed once when the item is checked (it
depends on the item's text only). `Resolved` is what depends on how the item's references resolved;
the engine refreshes it whenever the model resolved the item afresh.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass

from awl_lsp.model import Kind, RefKind
from awl_lsp.model.facts import ItemFacts

_HEADER = frozenset({Kind.INPUT, Kind.SIGNAL, Kind.OUTCOME, Kind.CARRY, Kind.REPORT, Kind.INVARIANT})
_CALLABLES = frozenset({Kind.ACTION, Kind.CHILD, Kind.DETACHED, Kind.SUBFLOW})
BINDING_HOWS = frozenset({"binding", "join", "wait", "collect"})  # bindings that should be read
_NONE: frozenset = frozenset()  # shared: an empty frozenset is 216 bytes, and most tallies are empty


def _frozen(items: Iterable[str]) -> frozenset[str]:
    found = frozenset(items)
    return found if found else _NONE


_LOOP_HOWS = ("loop", "loop counter")


# namespace of each kind's duplicates: category (see rules_names) and what the key is made of
_NAMESPACE = {
    **{k: ("0", k.value, "scope") for k in _HEADER},
    Kind.TYPE: ("1", "type", ""),
    Kind.STEP: ("1", "step", "scope"),
    **{k: ("1", "callable", "") for k in _CALLABLES},
    Kind.FIELD: ("2", "field", "container"),
    Kind.VARIANT: ("2", "variant", "container"),
    Kind.PARAMETER: ("3", "", "container scope"),
}
# Step outcome names may repeat: the engine accepts two arms with one name (`outcome ok: if …` twice).
# So may worker names: a worker only groups actions (the actions' names must differ).
# (each kind's key prefix made once: a tally makes a key for every symbol of its item)
_KEY_OF = {
    kind: (f"{category}\x1f{word}", "container" in parts, "scope" in parts)
    for kind, (category, word, parts) in _NAMESPACE.items()
}


def duplicate_key(sym: object, private: str) -> str | None:
    """The namespace key two declarations must not share (see rules_names), or None."""
    space = _KEY_OF.get(sym.kind)  # type: ignore[attr-defined]
    if space is None:
        return None
    key, by_container, by_scope = space
    if by_container:
        key += f"\x1f{sym.container!r}"  # type: ignore[attr-defined]
    if by_scope:
        scope = sym.scope  # type: ignore[attr-defined]
        key += f"\x1f{scope}#{private}" if "@" in scope else f"\x1f{scope}"  # fork scopes: item-private
    return f"{key}\x1f{sym.name}"  # type: ignore[attr-defined]


def binding_key(sym: object, private: str) -> str:
    scope = sym.scope  # type: ignore[attr-defined]
    if "@" in scope:
        scope += "#" + private
    return f"{sym.container!r}\x1f{scope}\x1f{sym.name}"  # type: ignore[attr-defined]


@dataclass(slots=True)
class Tally:
    duplicate_keys: tuple[str | None, ...]  # per symbol of the item (facts.flat order)
    duplicates: frozenset[str]
    duplicated: frozenset[str]  # keys the item itself declares twice
    rebind_keys: tuple[str | None, ...]  # per symbol: bindings that may not be bound twice
    rebinds: frozenset[str]
    rebound: frozenset[str]  # keys the item itself binds twice
    loop_keys: frozenset[str]  # loop bindings (their names may be rebound)
    reads: frozenset[str]  # names read in expressions
    type_uses: frozenset[str]  # names used as types or called
    hatched: frozenset[str]
    detached: frozenset[str]
    types: frozenset[str]
    should_read: frozenset[str]  # bindings that are an error to leave unread


def tally(facts: ItemFacts, private: str) -> Tally:
    dup: list[str | None] = []
    rebind: list[str | None] = []
    loops: set[str] = set()
    detached: set[str] = set()
    types: set[str] = set()
    should_read: set[str] = set()
    for s in facts.flat:
        dup.append(duplicate_key(s, private))
        key = None
        if s.kind is Kind.BINDING:
            how = s.extra.get("how")
            if how in _LOOP_HOWS:
                loops.add(binding_key(s, private))
            else:
                key = binding_key(s, private)
            if how in BINDING_HOWS:
                should_read.add(s.name)
        elif s.kind is Kind.DETACHED:
            detached.add(s.name)
        elif s.kind is Kind.TYPE:
            types.add(s.name)
        rebind.append(key)
    reads: set[str] = set()
    type_uses: set[str] = set()
    hatched: set[str] = set()
    for r in facts.references:
        k = r.kind
        if k is RefKind.VALUE or k is RefKind.COLLECT:
            reads.add(r.name)
        elif k is RefKind.TYPE or k is RefKind.CALL:
            type_uses.add(r.name)
        elif k is RefKind.HATCH:
            hatched.add(r.name)
    return Tally(
        tuple(dup),
        _frozen(d for d in dup if d is not None),
        _twice(dup),
        tuple(rebind),
        _frozen(r for r in rebind if r is not None),
        _twice(rebind),
        _frozen(loops),
        _frozen(reads),
        _frozen(type_uses),
        _frozen(hatched),
        _frozen(detached),
        _frozen(types),
        _frozen(should_read),
    )


def _twice(keys: list[str | None]) -> frozenset[str]:
    seen: set[str] = set()
    twice: set[str] = set()
    for k in keys:
        if k is not None:
            if k in seen:
                twice.add(k)
            seen.add(k)
    return _frozen(twice)


@dataclass(slots=True)
class Resolved:
    variant_types: frozenset[str]  # the enums whose variants the item's references name
    cross_reads: tuple[int, ...]  # references reading a binding made outside their own step


def resolved(facts: ItemFacts, step_starts: list[tuple[int, int]] | None) -> Resolved:
    """`step_starts`: the item's top-level steps' first points (None when the item is one step)."""
    variants: set[str] = set()
    reads: list[int] = []
    own: set[int] | None = None
    for k, r in enumerate(facts.references):
        t = r.target
        if t is None:
            continue
        if t.kind is Kind.VARIANT:
            variants.add(t.container)  # type: ignore[arg-type]
        elif t.kind is Kind.BINDING and (r.kind is RefKind.VALUE or r.kind is RefKind.COLLECT):
            if step_starts is None:
                if own is None:
                    own = {id(s) for s in facts.flat}
                if id(t) not in own:
                    reads.append(k)
            elif _step(step_starts, r.range) != _step(step_starts, t.range):
                reads.append(k)
    return Resolved(_frozen(variants), tuple(reads))


def _step(starts: list[tuple[int, int]], r: tuple[int, int, int, int]) -> int:
    return bisect_right(starts, (r[0], r[1])) - 1
