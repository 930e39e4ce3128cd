"""Signature help inside argument lists: calls, `spawn`, `hatch`, `answer`, record construction, routes.

The open call at the cursor is found from the tree's tokens around the cursor (ERROR nodes'
children included, as completion reads them), so it works while the argument list is still being
typed and the tree is broken there. The callee is resolved through the model; its parameters (or
the record fields an `answer`/`route`/construction fills) come with their types, and the active
parameter is the named argument under the cursor, else the argument's index.

`expected_parameters` is shared with the code actions (filling in missing arguments).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lsprotocol import types as lsp

from awl_lsp.features.completion_tokens import Analysis
from awl_lsp.features.snapshot import Snapshot
from awl_lsp.model import Kind, Symbol

_LEADS = frozenset({"hatch", "answer", "spawn", "route"})
_DECLARING = frozenset({"action", "child", "detached", "subflow"})


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


@dataclass
class OpenCall:
    how: str
    name: str
    index: int  # commas before the cursor at the call's own depth
    arg_name: str | None  # the named argument the cursor is in, if it is named already


# ---------------------------------------------------------------------- callee resolution
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


# ---------------------------------------------------------------------- finding the open call
def open_call(snap: Snapshot, position: lsp.Position) -> OpenCall | None:
    """The innermost `name(` whose argument list the cursor is in, with its context keyword.

    Read from the tree's tokens (ERROR nodes' children included), as completion reads them, so a
    half-typed argument list still counts.
    """
    row, col = snap.point(position)
    analysis = Analysis(snap, row, col)
    toks = analysis.toks
    cursor_byte = snap.doc.lines.byte_starts[row] + col if row < len(snap.doc.lines.byte_starts) else 0
    upto = next((i for i, t in enumerate(toks) if t.start >= cursor_byte), len(toks))
    parens = [i for i in analysis.open_brackets(upto) if toks[i].text == "("]
    if not parens:
        return None
    paren = parens[-1]
    if paren == 0 or toks[paren - 1].node.type not in ("identifier", "start"):
        return None
    name = toks[paren - 1].text
    lead = toks[paren - 2].text if paren >= 2 and toks[paren - 2].row == toks[paren - 1].row else ""
    if lead in _DECLARING:
        return None  # a declaration's own parameter list
    how = lead if lead in _LEADS else "call"
    if name in ("filter", "map", "sort", "any", "all", "count") and how == "call":
        return None
    depth = toks[paren].depth + 1
    commas = [i for i in range(paren + 1, upto) if toks[i].text == "," and toks[i].depth == depth]
    first = (commas[-1] if commas else paren) + 1
    arg_name = None
    if first + 1 < upto and toks[first].node.type == "identifier" and toks[first + 1].text == ":":
        arg_name = toks[first].text
    return OpenCall(how, name, len(commas), arg_name)


# ---------------------------------------------------------------------- the answer
def _doc(text: str, markdown: bool) -> lsp.MarkupContent | str | None:
    """Documentation as Markdown, or as a plain string for clients that do not accept Markdown."""
    if not text:
        return None
    return lsp.MarkupContent(lsp.MarkupKind.Markdown, text) if markdown else text.replace("`", "")


def _signature(callee: Callee, markdown: bool = True) -> lsp.SignatureInformation:
    prefix = f"{callee.how} " if callee.how in ("hatch", "answer", "route", "spawn") else ""
    label = f"{prefix}{callee.name}("
    params: list[lsp.ParameterInformation] = []
    for i, p in enumerate(callee.params):
        if i:
            label += ", "
        start = len(label.encode("utf-16-le")) // 2
        label += p.label
        end = len(label.encode("utf-16-le")) // 2
        doc = p.doc or ("optional" if p.optional else "")
        params.append(
            lsp.ParameterInformation(
                label=(start, end),
                documentation=_doc(doc, markdown),
            )
        )
    label += ")"
    if callee.returns:
        label += f" -> {callee.returns}"
    if callee.how == "hatch":
        label += " key …"
    doc = callee.doc
    return lsp.SignatureInformation(
        label=label,
        documentation=_doc(doc, markdown),
        parameters=params,
    )


def active_index(callee: Callee, call: OpenCall) -> int:
    """The parameter the cursor is on: by name when the argument is named, else by position."""
    if call.arg_name is not None:
        names = [p.name for p in callee.params]
        return names.index(call.arg_name) if call.arg_name in names else len(names)
    return call.index


def signature_help(snap: Snapshot, position: lsp.Position, markdown: bool = True) -> lsp.SignatureHelp | None:
    """The signature of the call around the cursor; `markdown`: the client accepts Markdown docs."""
    call = open_call(snap, position)
    if call is None:
        return None
    row, col = snap.point(position)
    callee = expected_parameters(snap, call.how, call.name, row, col)
    if callee is None:
        return None
    info = _signature(callee, markdown)
    active = active_index(callee, call)
    info.active_parameter = active
    return lsp.SignatureHelp(signatures=[info], active_signature=0, active_parameter=active)
