"""Placeholder values: what a quick fix or a completion writes for an argument the user must still fill.

A placeholder is a value of the parameter's type, so the inserted text checks cleanly and the user
only has to overwrite it: `""`, `0`, `0.0`, `false`, `[]`, an enum's first variant, or a record
construction with placeholders for its required fields. A value in scope with the parameter's own
name is used as it is (`domain: domain` only when a `domain` exists — never a self-reference to
nothing). Types with no writable value (schema types, unknown names) give None.
"""

from __future__ import annotations

from awl_lsp.model import Kind, SemanticModel

_SCALARS = {"String": '""', "Int": "0", "Float": "0.0", "Bool": "false", "Dir": '""'}


def value_for(model: SemanticModel, type_text: str | None, depth: int = 0) -> str | None:
    """A literal of the type written `type_text`, or None when none can be written."""
    if not type_text or depth > 3:
        return None
    t = type_text.strip()
    if t.startswith("[") and t.endswith("]"):
        return "[]"
    if t.endswith("?"):
        return value_for(model, t[:-1], depth)
    if t in _SCALARS:
        return _SCALARS[t]
    sym = model.type_symbol(t)
    if sym is None:
        return None
    variants = [c.name for c in sym.children if c.kind is Kind.VARIANT]
    if variants:
        return variants[0]
    if sym.extra.get("form") != "record_body":
        return None
    parts: list[str] = []
    for f in sym.children:
        if f.kind is not Kind.FIELD or (f.type or "").endswith("?"):
            continue
        value = value_for(model, f.type, depth + 1)
        if value is None:
            return None
        parts.append(f"{f.name}: {value}")
    return f"{t}({', '.join(parts)})"


def names_in_scope(model: SemanticModel, row: int, scope: str) -> set[str]:
    """The value names an argument at `row` could pass (bindings only once they are bound)."""
    return {
        s.name for s in model.visible_values(row, scope) if s.kind is not Kind.BINDING or s.selection[0] < row
    }


def argument_value(
    model: SemanticModel,
    name: str,
    type_text: str | None,
    row: int,
    scope: str,
    visible: set[str] | None = None,
) -> str | None:
    """What to pass for parameter `name`: a same-named value in scope, else a placeholder literal.
    `visible` (from `names_in_scope`) saves the look-up when many arguments are filled at once."""
    names = visible if visible is not None else names_in_scope(model, row, scope)
    if name in names:
        return name
    return value_for(model, type_text)
