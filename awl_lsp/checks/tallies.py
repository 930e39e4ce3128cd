"""Per-item tallies for the document-wide name rules, so those rules never walk every symbol.

`Tally` is what an item declares and reads, by name, computed once when the item is checked (it
depends on the item's text only). `Resolved` is what depends on how the item's references resolved;
the engine refreshes it whenever the model resolved the item afresh.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from awl_lsp.model import Kind, Reference, RefKind
from awl_lsp.model.facts import ItemFacts

_HEADER = frozenset({Kind.INPUT, Kind.SIGNAL, Kind.OUTCOME, Kind.CARRY, Kind.REPORT, Kind.INVARIANT})
_CALLABLES = frozenset({Kind.ACTION, Kind.CHILD, Kind.DETACHED, Kind.SUBFLOW})
BINDING_HOWS = frozenset({"binding", "join", "wait", "collect"})  # bindings that should be read
_NONE: frozenset = frozenset()  # shared: an empty frozenset is 216 bytes, and most tallies are empty


def _frozen(items: Iterable[str]) -> frozenset[str]:
    found = frozenset(items)
    return found if found else _NONE


_LOOP_HOWS = ("loop", "loop counter")
# (enum members read once: `Kind.BINDING` is an attribute look-up on the enum class each time)
_BINDING, _DETACHED, _TYPE, _VARIANT = Kind.BINDING, Kind.DETACHED, Kind.TYPE, Kind.VARIANT
_VALUE, _COLLECT, _TYPE_REF, _CALL, _HATCH, _ROUTE = (
    RefKind.VALUE,
    RefKind.COLLECT,
    RefKind.TYPE,
    RefKind.CALL,
    RefKind.HATCH,
    RefKind.ROUTE,
)


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
    reads: frozenset[str]  # names read in expressions, and route targets (a bare route sends one)
    type_uses: frozenset[str]  # names used as types or called
    hatched: frozenset[str]
    detached: frozenset[str]
    types: frozenset[str]
    should_read: frozenset[str]  # bindings that are an error to leave unread


def tally(facts: ItemFacts, private: str, make: Callable[..., Tally] | None = None) -> Tally:
    """The item's tally (`make`: the class, or a factory taking its fields, to make it with)."""
    dup: list[str | None] = []  # per symbol
    rebind: list[str | None] = []  # per symbol
    dups: list[str] = []  # the keys of both, without the Nones
    rebinds: list[str] = []
    loops: set[str] = set()
    detached: set[str] = set()
    types: set[str] = set()
    should_read: set[str] = set()
    key_of = _KEY_OF.get
    for s in facts.flat:
        kind = s.kind
        # the namespace key two declarations must not share (see rules_names), or None: the kind's
        # prefix, then its container and scope as the kind asks (fork scopes: item-private), the name
        space = key_of(kind)
        if space is None:
            dup.append(None)
        else:
            key, by_container, by_scope = space
            if by_container:
                key += f"\x1f{s.container!r}"
            if by_scope:
                scope = s.scope
                key += f"\x1f{scope}#{private}" if "@" in scope else f"\x1f{scope}"
            key = f"{key}\x1f{s.name}"
            dup.append(key)
            dups.append(key)
        if kind is _BINDING:
            how = s.extra.get("how")
            if how in _LOOP_HOWS:
                loops.add(binding_key(s, private))
                rebind.append(None)
            else:
                key = binding_key(s, private)
                rebind.append(key)
                rebinds.append(key)
            if how in BINDING_HOWS:
                should_read.add(s.name)
            continue
        if kind is _DETACHED:
            detached.add(s.name)
        elif kind is _TYPE:
            types.add(s.name)
        rebind.append(None)
    reads: set[str] = set()
    type_uses: set[str] = set()
    hatched: set[str] = set()
    # (a bare `route o` sends the binding named `o`: a route's target name counts as read)
    into_of = {
        _VALUE: reads,
        _COLLECT: reads,
        _ROUTE: reads,
        _TYPE_REF: type_uses,
        _CALL: type_uses,
        _HATCH: hatched,
    }.get
    for r in facts.references:
        into = into_of(r.kind)
        if into is not None:
            into.add(r.name)
    duplicates, rebound = _frozen(dups), _frozen(rebinds)
    return (make or Tally)(
        tuple(dup),
        duplicates,
        _twice(dups) if len(duplicates) != len(dups) else _NONE,
        tuple(rebind),
        rebound,
        _twice(rebinds) if len(rebound) != len(rebinds) else _NONE,
        _frozen(loops),
        _frozen(reads),
        _frozen(type_uses),
        _frozen(hatched),
        _frozen(detached),
        _frozen(types),
        _frozen(should_read),
    )


def _twice(keys: list[str]) -> frozenset[str]:
    seen: set[str] = set()
    twice: set[str] = set()
    for k in keys:
        if k in seen:
            twice.add(k)
        seen.add(k)
    return _frozen(twice)


@dataclass(slots=True)
class Resolved:
    variant_types: frozenset[str]  # the enums whose variants the item's references name
    # references reading a binding made outside their own step, or in the very line that reads it
    cross_reads: tuple[int, ...]


def resolved(facts: ItemFacts, step_starts: list[tuple[int, int]] | None) -> Resolved:
    """`step_starts`: the item's top-level steps' first points (None when the item is one step)."""
    variants: set[str] = set()
    reads: list[int] = []
    own: set[int] | None = None
    for k, r in enumerate(facts.references):
        t = r.target
        if t is None:
            continue
        kind = t.kind
        if kind is _VARIANT:
            variants.add(t.container)  # type: ignore[arg-type]
        elif kind is _BINDING and (r.kind is _VALUE or r.kind is _COLLECT):
            at, where = r.range, t.range
            # (a read in the very line of its binding: the row settles it for almost every read)
            inside = where[0] <= at[0] <= where[2] and own_line(r)
            if step_starts is None:
                if own is None:
                    own = set(map(id, facts.flat))
                if inside or id(t) not in own:
                    reads.append(k)
            elif inside or _step(step_starts, at) != _step(step_starts, where):
                reads.append(k)
    return Resolved(_frozen(variants), tuple(reads) if reads else ())


_HANDS_OUT = frozenset({"distribute", "sequence"})  # the item bindings of a region's opener


def own_line(r: Reference) -> bool:
    """Does the value read `r` lie in the line that makes the binding it resolved to (a call or pipe
    reading the name it binds, which the model resolves there when nothing binds it earlier; a
    `distribute`/`sequence` reading its own item name as the list)?"""
    t = r.target
    if t is None:
        return False
    at, name, where = r.range, t.selection, t.range
    if t.extra.get("how") in _HANDS_OUT:  # `distribute item in …`: no item is handed out before
        return (where[0], where[1]) <= (at[0], at[1]) <= (where[2], where[3])  # its list is read
    if (at[0], at[1]) >= (name[0], name[1]):
        return False  # (the usual read: below the name it reads)
    return (where[0], where[1]) <= (at[0], at[1]) and t.extra.get("how") == "binding"


def _step(starts: list[tuple[int, int]], r: tuple[int, int, int, int]) -> int:
    return bisect_right(starts, (r[0], r[1])) - 1
