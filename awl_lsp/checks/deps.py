"""`RecordingModel`: the semantic model as an item rule sees it, noting every name it looks up.

The check cache keeps an item's problems while none of the names its rules consulted were
declared differently; this view is how those names are collected. It offers only look-ups that
name what they look for (plus whole-kind look-ups, recorded as a kind token) — an item rule cannot
scan the whole document through it.
"""

from __future__ import annotations

from awl_lsp.checks.base import MODEL_FLOW, kind_token
from awl_lsp.model import Kind, SemanticModel, Symbol
from awl_lsp.model.builder import LOCAL

# enum members read once (a member read through its class is a Python-level call on 3.11)
_K_BINDING = Kind.BINDING


class RecordingModel:
    __slots__ = ("_model", "deps")

    def __init__(self, model: SemanticModel, deps: set[str]) -> None:
        self._model = model
        self.deps = deps

    @property
    def is_workloop(self) -> bool:
        self.deps.add(MODEL_FLOW)
        return self._model.is_workloop

    @property
    def flow(self) -> Symbol | None:
        self.deps.add(MODEL_FLOW)
        return self._model.flow

    def _named(self, kind: Kind, name: str) -> None:
        self.deps.add(name)
        if kind is _K_BINDING:  # a look-up by kind alone sees fork-local bindings too
            self.deps.add(LOCAL + name)

    def first(self, kind: Kind, name: str, scope: str | None = None) -> Symbol | None:
        self._named(kind, name)
        return self._model.first(kind, name, scope)

    def lookup(self, kind: Kind, name: str) -> list[Symbol]:
        self._named(kind, name)
        return self._model.lookup(kind, name)

    def lookup_in(self, kind: Kind, name: str, scope: str) -> list[Symbol]:
        self._named(kind, name)
        return self._model.lookup_in(kind, name, scope)

    def names(self, kind: Kind) -> list[str]:
        self.deps.add(kind_token(kind))
        return self._model.names(kind)

    def of_kind(self, *kinds: Kind) -> list[Symbol]:
        self.deps.update(kind_token(k) for k in kinds)
        return self._model.of_kind(*kinds)

    def callable(self, name: str) -> Symbol | None:
        self.deps.add(name)
        return self._model.callable(name)

    def type_symbol(self, name: str) -> Symbol | None:
        self.deps.add(name)
        return self._model.type_symbol(name)

    def fields_of(self, type_name: str | None) -> list[Symbol]:
        if type_name:
            self.deps.add(type_name.rstrip("?"))
        return self._model.fields_of(type_name)

    def parameters_of(self, sym: Symbol | None) -> list[Symbol]:
        return self._model.parameters_of(sym)

    def resolve_value(self, name: str, scope: str, row: int, col: int = 1 << 30) -> Symbol | None:
        self.deps.add(name)
        return self._model.resolve_value(name, scope, row, col)


__all__ = ["RecordingModel"]
