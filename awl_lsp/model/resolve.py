"""Resolution: which declaration each reference names (the rules of `SemanticModel` look-ups).

Steps and routes resolve within their subflow (or the flow), values through the scope chain —
innermost scope first, and within it the last definition above the use — then inputs, carries,
consts and enum variants; arguments to the callee's parameters, or to the fields of the outcome,
report or record type they fill. Every name consulted goes into `deps`, which is what lets a new
version of the document keep an unchanged item's resolutions.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Any

from awl_lsp.model.symbols import Kind, Reference, RefKind, Symbol

# enum members read once (a member read through its class is a Python-level call on 3.11)
_K_CARRY = Kind.CARRY
_K_DETACHED = Kind.DETACHED
_K_OUTCOME = Kind.OUTCOME
_K_REPORT = Kind.REPORT
_K_SIGNAL = Kind.SIGNAL
_K_STEP = Kind.STEP
_K_STEP_OUTCOME = Kind.STEP_OUTCOME
_K_TYPE = Kind.TYPE
_R_ANSWER = RefKind.ANSWER
_R_ARGUMENT = RefKind.ARGUMENT
_R_CALL = RefKind.CALL
_R_COLLECT = RefKind.COLLECT
_R_FIELD = RefKind.FIELD
_R_HATCH = RefKind.HATCH
_R_ROUTE = RefKind.ROUTE
_R_SIGNAL = RefKind.SIGNAL
_R_STEP = RefKind.STEP
_R_TYPE = RefKind.TYPE
_R_VALUE = RefKind.VALUE

# a name bound more often than this in one scope is looked up by bisection (`resolve_value`)
BISECT_FROM = 8

_NO_NAMES: dict[str, list[Symbol]] = {}
_UNSEEN: Any = object()
_NO_SYMBOLS: list[Symbol] = []
_VALUE_DECLS = (Kind.INPUT, Kind.CARRY, Kind.CONST, Kind.VARIANT)
# the usual reference kinds, read once (an enum member's look-up on its class is not free)
_VALUE, _COLLECT, _ARGUMENT, _TYPE, _CALL, _FIELD = (
    _R_VALUE,
    _R_COLLECT,
    _R_ARGUMENT,
    _R_TYPE,
    _R_CALL,
    _R_FIELD,
)
_CALLABLE_ORDER = (Kind.ACTION, Kind.CHILD, Kind.SUBFLOW)  # what a call names, first found first
_PARAMETER = Kind.PARAMETER


class Resolution:
    """Mixed into `SemanticModel`, whose indexes (`_by_kind`, `_values`) it reads."""

    _by_kind: dict[Kind, dict[str, list[Symbol]]]
    _values: dict[str, dict[str, list[Symbol]]]
    _chains: dict[str, tuple[str, ...]]

    def first(self, kind: Kind, name: str, scope: str | None = None) -> Symbol | None:  # pragma: no cover
        raise NotImplementedError

    def fields_of(self, type_name: str | None) -> list[Symbol]:  # pragma: no cover
        raise NotImplementedError

    def parameters_of(self, sym: Symbol | None) -> list[Symbol]:  # pragma: no cover
        raise NotImplementedError

    def _resolve_all(
        self,
        refs: list[Reference],
        deps: set[str],
        calls: dict[str, Any] | None = None,
        flows: dict[str, Symbol | None] | None = None,
    ) -> None:
        """Point each reference at the declaration it names (`_resolve`, with the usual kinds' look-ups
        done in line: this runs for every reference of a document it opens); every name consulted
        goes into `deps`. `calls` and `flows` (dicts for a whole pass over the items, while the
        declarations stay as they are) keep, per argument context, the callee a plain call names
        and its parameters by name, and per name no binding or parameter has, the flow value
        (input, carry, const or variant) it names."""
        add = deps.add
        resolve = self._resolve
        value_at = self.resolve_value
        values = self._values
        types = self._by_kind.get(_K_TYPE, _NO_NAMES)
        if calls is None:
            calls = {}
        if flows is None:
            flows = {}
        for ref in refs:
            k = ref.kind
            if k is _VALUE or k is _COLLECT:
                name = ref.name
                add(name)
                if values.get(name):
                    r = ref._range  # type: ignore[attr-defined]  # (what `ref.range` gives, without the call)
                    ref.target = value_at(name, ref.scope, r[0] + ref._at.rows, r[1])  # type: ignore[attr-defined]
                else:  # (what `resolve_value` gives a name no binding or parameter has)
                    target = flows.get(name, _UNSEEN)
                    if target is _UNSEEN:
                        target = flows[name] = self._flow_value(name)
                    ref.target = target
            elif k is _TYPE:
                name = ref.name
                add(name)
                found = types.get(name)
                ref.target = found[0] if found else None
            elif k is _FIELD:
                add(ref.name)
                ref.target = None
            elif k is _ARGUMENT:
                context = ref.context
                call = calls.get(context, _UNSEEN)
                if call is _UNSEEN:
                    call = calls[context] = self._call_parameters(context)
                if call is None:
                    ref.target = resolve(ref, deps)
                else:  # (what `_resolve_argument` gives for an argument of a call with a callee)
                    name = ref.name
                    add(name)
                    add(call[0])
                    ref.target = call[1].get(name)
            else:
                ref.target = resolve(ref, deps)

    def _call_parameters(self, context: str) -> tuple[str, dict[str, Symbol]] | None:
        """For an argument's context naming a call (`call:f`) whose callee `f` is declared: `f`, and
        the first of its parameters of each name. None for any other context."""
        how, _, callee = context.partition(":")
        if how in ("route", "answer", "hatch"):
            return None
        target = self.callable(callee)
        if target is None:
            return None
        parameters: dict[str, Symbol] = {}
        for p in target.children:
            if p.kind is _PARAMETER and p.name not in parameters:
                parameters[p.name] = p
        return callee, parameters

    def _resolve(self, ref: Reference, deps: set[str]) -> Symbol | None:
        """The declaration `ref` names; every name consulted goes into `deps`."""
        k = ref.kind
        name = ref.name
        deps.add(name)
        if k is _VALUE or k is _COLLECT:
            r = ref.range
            return self.resolve_value(name, ref.scope, r[0], r[1])
        if k is _ARGUMENT:
            return self._resolve_argument(ref, deps)
        if k is _TYPE:
            return self.first(_K_TYPE, name)
        if k is _CALL:
            return self.callable(name) or self.first(_K_TYPE, name)
        if k is _R_SIGNAL:
            return self.first(_K_SIGNAL, name)
        if k is _R_HATCH:
            return self.first(_K_DETACHED, name)
        if k is _R_ANSWER:
            return self.first(_K_REPORT, name)
        if k is _R_STEP or k is _R_ROUTE:
            subflow = ref.scope.split("/")[0] if ref.scope.startswith("subflow:") else ""
            step = self.first(_K_STEP, name, subflow)
            if step is not None and step.scope == subflow:
                return step
            if k is _R_ROUTE:
                for out in self._by_kind.get(_K_OUTCOME, _NO_NAMES).get(name, _NO_SYMBOLS):
                    if out.scope == subflow:
                        return out
                for arm in self._by_kind.get(_K_STEP_OUTCOME, _NO_NAMES).get(name, _NO_SYMBOLS):
                    if arm.scope == subflow:
                        return arm
            return None
        return None

    def _chain(self, scope: str) -> tuple[str, ...]:
        """The scope keys visible from `scope`, innermost first."""
        chain = self._chains.get(scope)
        if chain is None:
            chain = self._chains[scope] = tuple(sorted(scope_chain(scope), key=len, reverse=True))
        return chain

    def resolve_value(self, name: str, scope: str, row: int, col: int = 1 << 30) -> Symbol | None:
        scopes = self._values.get(name)
        if scopes:
            chain = self._chains.get(scope)
            for key in self._chain(scope) if chain is None else chain:
                inner = scopes.get(key)
                if inner:
                    # the innermost scope wins; within it the last definition above the use, else the
                    # flow's input (const, …) of the name — a binding below rebinds it, its own error —
                    # else the first
                    if len(inner) > BISECT_FROM:  # (in document order: found by bisection)
                        i = bisect_left(inner, (row, col), key=_declared_at)
                        return inner[i - 1] if i else self._flow_value(name) or inner[0]
                    for s in reversed(inner):
                        sel = s._selection  # type: ignore[attr-defined]  # (`s.selection`, in line)
                        at = sel[0] + s._at.rows  # type: ignore[attr-defined]
                        if at < row or (at == row and sel[1] < col):
                            return s
                    return self._flow_value(name) or inner[0]
        return self._flow_value(name)

    def _flow_value(self, name: str) -> Symbol | None:
        """The first input, carry, const or enum variant of that name."""
        by_kind = self._by_kind
        for kind in _VALUE_DECLS:
            found = by_kind.get(kind, _NO_NAMES).get(name)
            if found:
                return found[0]
        return None

    def _field_of(self, type_name: str | None, name: str, deps: set[str]) -> Symbol | None:
        if not type_name:
            return None
        deps.add(type_name.rstrip("?"))
        return next((f for f in self.fields_of(type_name) if f.name == name), None)

    def _resolve_argument(self, ref: Reference, deps: set[str]) -> Symbol | None:
        how, _, callee = ref.context.partition(":")
        deps.add(callee)
        if how == "route":
            if callee == "start":
                return self.first(_K_CARRY, ref.name)
            out = self.first(_K_OUTCOME, callee)
            return self._field_of(out.type if out else None, ref.name, deps)
        if how == "answer":
            report = self.first(_K_REPORT, callee)
            return self._field_of(report.type if report else None, ref.name, deps)
        if how == "hatch":
            target = self.first(_K_DETACHED, callee)
        else:
            target = self.callable(callee)
            if target is None:
                return self._field_of(callee, ref.name, deps)
        if target is None:
            return None
        name = ref.name
        for p in target.children:  # (the first of `parameters_of(target)` with the name)
            if p.kind is _PARAMETER and p.name == name:
                return p
        return None

    def callable(self, name: str) -> Symbol | None:
        """The first action, child or subflow of that name."""
        by_kind = self._by_kind
        for kind in _CALLABLE_ORDER:
            found = by_kind.get(kind, _NO_NAMES).get(name)
            if found:
                return found[0]
        return None


def scope_chain(scope: str) -> set[str]:
    parts = scope.split("/") if scope else [""]
    chain = {""}
    acc = ""
    for i, part in enumerate(parts):
        acc = part if i == 0 else f"{acc}/{part}"
        chain.add(acc)
    return chain


def _declared_at(s: Symbol) -> tuple[int, int]:
    """Where a value's name is declared (`s.selection`'s start, in line)."""
    sel = s._selection  # type: ignore[attr-defined]
    return sel[0] + s._at.rows, sel[1]  # type: ignore[attr-defined]


__all__ = ["Resolution", "scope_chain"]
