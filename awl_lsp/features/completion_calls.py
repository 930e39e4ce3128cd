"""A call offer's parts — its argument names and the placeholder each gets — kept per document.

`name(p: value, …)` needs each parameter's (or record field's) name and a value of its type
(`placeholders.value_for`), which reads type declarations: a few microseconds per offer, repeated
for the 200 offers sent after every key. What a call's parts depend on is its own declaration and
the document's type declarations, so they are kept in `Snapshot.shared` and reused while both are
equal (the type symbols compared as a whole, the callee by identity or value); a document with a
`schema` type (whose fields live in JSON, not in the declaration) keeps nothing. Which arguments
take a same-named value in scope is decided per request (the scope differs at every cursor).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from awl_lsp.features.completion_snippets import escape
from awl_lsp.features.placeholders import value_for
from awl_lsp.features.snapshot import Snapshot
from awl_lsp.model import Kind, Symbol

# type bodies whose fields or variants are all in the declaration (a schema's are in JSON)
_SELF_CONTAINED = frozenset({"record_body", "enum_body"})

Params = Callable[[Symbol], list[tuple[str, str | None]]]


@dataclass(slots=True)
class CallParts:
    """A callee's argument names and, for each, the placeholder value of its type (None: none)."""

    sym: Symbol
    names: tuple[str, ...]
    values: tuple[str | None, ...]
    texts: dict[tuple[bool, ...], str] = field(default_factory=dict)  # by which names are in scope


@dataclass(slots=True)
class _Kept:
    types: list[Symbol]  # the type declarations the parts were computed with
    parts: dict[tuple[Kind, str], CallParts] = field(default_factory=dict)


def call_parts(snap: Snapshot, sym: Symbol, params: Params) -> CallParts:
    """The parts of a call to `sym` (`params(sym)` lists its arguments' names and type texts)."""
    kept = _kept(snap)
    key = (sym.kind, sym.name)
    found = kept.parts.get(key) if kept is not None else None
    if found is not None and (found.sym is sym or found.sym == sym):
        return found
    model = snap.model
    listed = params(sym)
    made = CallParts(sym, tuple(n for n, _ in listed), tuple(value_for(model, t) for _, t in listed))
    if kept is not None:
        kept.parts[key] = made
    return made


def _kept(snap: Snapshot) -> _Kept | None:
    """This version's table of parts (the last version's while the type declarations are equal)."""
    memo = snap.memo.get("completion-calls")
    if memo is not None:
        return memo if isinstance(memo, _Kept) else None
    types = snap.model.of_kind(Kind.TYPE)
    last = snap.shared.get("completion-calls")
    kept: _Kept | None = None
    if isinstance(last, _Kept) and last.types == types:
        kept = last  # (types with the same declarations as when it was made: all self-contained)
    elif all(t.extra.get("form") in _SELF_CONTAINED for t in types):
        kept = _Kept(types)
    snap.shared["completion-calls"] = kept
    snap.memo["completion-calls"] = kept if kept is not None else False
    return kept


def call_text(parts: CallParts, in_scope: tuple[bool, ...]) -> str:
    """`name(p: ${1:value}, …)`: a same-named value where one is in scope (`in_scope`, one flag per
    argument), else the placeholder (an empty tab stop when no value of the type can be written)."""
    text = parts.texts.get(in_scope)
    if text is None:
        out = []
        for i, (n, value, named) in enumerate(zip(parts.names, parts.values, in_scope, strict=True), 1):
            if named:
                value = n
            out.append(f"{n}: ${{{i}:{escape(value)}}}" if value else f"{n}: ${i}")
        text = parts.texts[in_scope] = f"{parts.sym.name}({', '.join(out)})"
    return text
