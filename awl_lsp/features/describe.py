"""How a declaration reads in hover and completion: a signature block, its docs, and its parts."""

from __future__ import annotations

from awl_lsp.model import Kind, SemanticModel, Symbol

_LABEL = {
    Kind.WORKFLOW: "workflow",
    Kind.WORKLOOP: "workloop",
    Kind.INPUT: "input",
    Kind.SIGNAL: "signal",
    Kind.OUTCOME: "outcome",
    Kind.CARRY: "carry",
    Kind.REPORT: "report",
    Kind.INVARIANT: "invariant",
    Kind.CONST: "const",
    Kind.TYPE: "type",
    Kind.FIELD: "field",
    Kind.VARIANT: "enum variant",
    Kind.WORKER: "worker",
    Kind.ACTION: "action",
    Kind.PARAMETER: "parameter",
    Kind.CHILD: "child workflow",
    Kind.DETACHED: "detached workflow",
    Kind.SUBFLOW: "subflow",
    Kind.STEP: "step",
    Kind.STEP_OUTCOME: "step outcome",
    Kind.BINDING: "binding",
    Kind.RETIRE: "retire block",
}


def label(sym: Symbol) -> str:
    return _LABEL.get(sym.kind, sym.kind.value)


def signature(sym: Symbol, model: SemanticModel, binding_type: str | None = None) -> str:
    """One or more lines of AWL that show what the symbol is."""
    k = sym.kind
    if k is Kind.TYPE:
        fields = [c for c in sym.children if c.kind is Kind.FIELD]
        if fields:
            body = "\n".join(f"  {f.name}: {f.type}," for f in fields)
            return f"type {sym.name} {{\n{body}\n}}"
        return sym.detail or f"type {sym.name}"
    if k is Kind.FIELD:
        return f"{sym.container}.{sym.name}: {sym.type}"
    if k is Kind.PARAMETER:
        return f"{sym.name}: {sym.type}" if sym.type else sym.name
    if k is Kind.WORKER:
        actions = [c.detail for c in sym.children if c.kind is Kind.ACTION]
        return "\n".join([f"worker {sym.name}"] + [f"  {a}" for a in actions])
    if k is Kind.BINDING:
        t = binding_type or sym.type
        how = sym.extra.get("how", "binding")
        return (
            f"{sym.name}: {t}  // {how} in step {sym.container}"
            if t
            else f"{sym.name}  // {how} in step {sym.container}"
        )
    if k in (Kind.WORKFLOW, Kind.WORKLOOP):
        clauses = [f"  {c.detail}" for c in sym.children]
        return "\n".join([sym.detail] + clauses)
    return sym.detail or f"{label(sym)} {sym.name}"


def markdown(sym: Symbol, model: SemanticModel, binding_type: str | None = None) -> str:
    parts = [f"```awl\n{signature(sym, model, binding_type)}\n```", f"*{label(sym)}*" + _where(sym)]
    if sym.doc:
        parts.append(sym.doc)
    extra = _details(sym, model)
    if extra:
        parts.append(extra)
    return "\n\n".join(parts)


def plaintext(sym: Symbol, model: SemanticModel, binding_type: str | None = None) -> str:
    parts = [signature(sym, model, binding_type), label(sym) + _where(sym)]
    if sym.doc:
        parts.append(sym.doc)
    extra = _details(sym, model)
    if extra:
        parts.append(extra.replace("`", ""))
    return "\n\n".join(parts)


def _where(sym: Symbol) -> str:
    if sym.kind is Kind.ACTION and sym.container:
        return f" of worker `{sym.container}`"
    if sym.kind is Kind.PARAMETER and sym.container:
        return f" of `{sym.container}`"
    if sym.kind is Kind.STEP and sym.container:
        return f" inside `{sym.container}`"
    return ""


def _details(sym: Symbol, model: SemanticModel) -> str:
    k = sym.kind
    if k in (Kind.ACTION, Kind.CHILD, Kind.DETACHED, Kind.SUBFLOW) and sym.type:
        fields = model.fields_of(sym.type)
        if fields:
            return f"returns `{sym.type}` {{ " + ", ".join(f"`{f.name}: {f.type}`" for f in fields) + " }"
    if k in (Kind.INPUT, Kind.CARRY, Kind.REPORT, Kind.INVARIANT, Kind.OUTCOME, Kind.SIGNAL, Kind.FIELD):
        fields = model.fields_of(sym.type)
        if fields:
            return f"`{sym.type}` has " + ", ".join(f"`{f.name}: {f.type}`" for f in fields)
    if k is Kind.DETACHED:
        return "Started with `hatch` (and a mandatory `key`); it outlives the iteration and returns nothing."
    if k is Kind.STEP:
        outs = [c.name for c in sym.children if c.kind is Kind.STEP_OUTCOME]
        if outs:
            return "outcomes: " + ", ".join(f"`{o}`" for o in outs)
    return ""
