"""Callees: what an argument list fills — a call's parameters, a `spawn`/`hatch` target's, the fields
of the record an `answer`, a `route` payload or a record construction builds.

Shared by signature help (the parameter list shown while typing) and the quick fixes (the missing
arguments they add, with a value of each parameter's type). Reads the model only: no protocol types.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from awl_lsp.model import Kind, Symbol

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot


@dataclass
class Param:
    name: str
    type: str | None = None
    doc: str = ""
    optional: bool = False  # may be left out (an optional field of a record payload)
    positional: bool = False  # a scalar route payload: `route done(value)`

    @property
    def label(self) -> str:
        if self.positional:
            return self.type or self.name
        return f"{self.name}: {self.type}" if self.type else self.name


@dataclass
class Callee:
    """What an argument list fills: `how` is call | spawn | hatch | answer | route."""

    how: str
    name: str
    params: list[Param] = field(default_factory=list)
    returns: str | None = None
    doc: str = ""
    detail: str = ""


def _member_doc(member: Symbol, owner: Symbol | None) -> str:
    """A field's or parameter's own `///` doc (the model gives one-line members their owner's doc)."""
    if owner is not None and member.selection[0] == owner.selection[0]:
        return ""
    return member.doc


def _record_params(snap: Snapshot, type_name: str | None, optional_ok: bool) -> list[Param] | None:
    if not type_name:
        return None
    owner = snap.model.type_symbol(type_name.rstrip("?"))
    if owner is None or owner.extra.get("form") != "record_body":
        return None
    return [
        Param(f.name, f.type, _member_doc(f, owner), optional_ok and (f.type or "").endswith("?"))
        for f in snap.model.fields_of(type_name)
    ]


def _carry_type(snap: Snapshot, carry: Symbol) -> str | None:
    if carry.type:
        return carry.type
    try:
        from awl_lsp.features.typing import type_env as _env

        env = _env(snap)
        t = env.type_of_symbol(carry) if env is not None else None
    except Exception:  # noqa: BLE001 — signature help must not fail because inference did
        return None
    return None if t is None or t.unknown else str(t)


def _route_outcome(snap: Snapshot, name: str, row: int, col: int) -> Symbol | None:
    outcomes = snap.model.lookup(Kind.OUTCOME, name)
    subflow = snap.model.enclosing(row, col, Kind.SUBFLOW)
    scope = f"subflow:{subflow.name}" if subflow is not None else ""
    return next((o for o in outcomes if o.scope == scope), None) or (outcomes[0] if outcomes else None)


def expected_parameters(snap: Snapshot, how: str, name: str, row: int, col: int) -> Callee | None:
    """The parameters an argument list of `how name(…)` at (row, col) should fill, or None."""
    model = snap.model
    if how == "route":
        if name == "start":
            carries = model.of_kind(Kind.CARRY)
            params = [Param(c.name, _carry_type(snap, c), c.doc, optional=True) for c in carries]
            return Callee(how, name, params, doc="Ends the iteration; the arguments rebind carries.")
        out = _route_outcome(snap, name, row, col)
        if out is None:
            return None
        fields = _record_params(snap, out.type, optional_ok=True)
        if fields is None:
            params = [Param("value", out.type, positional=True)] if out.type else []
            return Callee(how, name, params, doc=out.doc, detail=out.detail)
        return Callee(how, name, fields, doc=out.doc, detail=out.detail)
    if how == "answer":
        report = model.first(Kind.REPORT, name)
        if report is None:
            return None
        fields = _record_params(snap, report.type, optional_ok=True) or []
        return Callee(how, name, fields, doc=report.doc, detail=report.detail)
    if how == "hatch":
        target = model.first(Kind.DETACHED, name)
    elif how == "spawn":
        target = model.first(Kind.CHILD, name) or model.callable(name)
    else:
        target = model.callable(name)
    if target is None:
        fields = _record_params(snap, name, optional_ok=True) if how == "call" else None
        if fields is None:
            return None
        type_sym = model.type_symbol(name)
        return Callee(how, name, fields, doc=type_sym.doc if type_sym else "", detail=f"type {name}")
    params = [Param(p.name, p.type, _member_doc(p, target)) for p in model.parameters_of(target)]
    returns = target.type if target.kind in (Kind.ACTION, Kind.CHILD) else None
    return Callee(how, name, params, returns, target.doc, target.detail)
