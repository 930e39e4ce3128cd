"""Name rules: naming conventions, keywords used as names, and duplicate declarations.

- Type names and enum variants are TitleCase; every other declared name (the flow, inputs,
  signals, outcomes, carries, fields, workers, actions, parameters, steps, bindings, …) is snake_case.
- A word that opens a declaration or a statement (`step`, `input`, `route`, …) cannot be a name.
- Each name is declared once in its namespace: header clauses per kind, types, fields of a type,
  variants of an enum, callables (actions across all workers, children, detached, subflows),
  steps per scope, outcomes per step, parameters per callable. The second declaration is reported.
"""

from __future__ import annotations

import re
from collections import defaultdict

from awl_lsp.checks.base import CheckContext
from awl_lsp.checks.rules_support import RESERVED_NAMES, SNAKE, TITLE
from awl_lsp.model import Kind, Symbol

_TITLE_KINDS = frozenset({Kind.TYPE, Kind.VARIANT})
_SNAKE_KINDS = frozenset(
    {
        Kind.WORKFLOW,
        Kind.WORKLOOP,
        Kind.INPUT,
        Kind.SIGNAL,
        Kind.OUTCOME,
        Kind.CARRY,
        Kind.REPORT,
        Kind.INVARIANT,
        Kind.CONST,
        Kind.FIELD,
        Kind.WORKER,
        Kind.ACTION,
        Kind.PARAMETER,
        Kind.CHILD,
        Kind.DETACHED,
        Kind.SUBFLOW,
        Kind.STEP,
        Kind.STEP_OUTCOME,
        Kind.BINDING,
    }
)
_LABEL = {Kind.VARIANT: "enum variant", Kind.STEP_OUTCOME: "outcome", Kind.TYPE: "type name"}
_CALLABLES = (Kind.ACTION, Kind.CHILD, Kind.DETACHED, Kind.SUBFLOW)


def check(ctx: CheckContext) -> None:
    _conventions(ctx)
    _duplicates(ctx)


def label(kind: Kind) -> str:
    return _LABEL.get(kind, kind.value)


def to_snake(name: str) -> str:
    out = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name)
    return re.sub(r"_+", "_", out).lower().strip("_") or name.lower()


def to_title(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"_+", name) if part) or name


def _conventions(ctx: CheckContext) -> None:
    for sym in ctx.model.all_symbols:
        if sym.kind is Kind.RETIRE:
            continue
        name = sym.name
        what = label(sym.kind)
        if name in RESERVED_NAMES:
            ctx.error(
                sym.selection,
                f"`{name}` is a keyword and cannot name {_article(what)} {what}: choose another name "
                f"(e.g. `{name}_name`)",
                "keyword-name",
            )
            continue
        if sym.kind in _TITLE_KINDS and not TITLE.match(name):
            ctx.error(sym.selection, f"{what} `{name}` must be TitleCase, e.g. `{to_title(name)}`", "naming")
        elif sym.kind in _SNAKE_KINDS and not SNAKE.match(name):
            ctx.error(sym.selection, f"{what} `{name}` must be snake_case, e.g. `{to_snake(name)}`", "naming")


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def _report_duplicates(ctx: CheckContext, groups: dict[tuple, list[Symbol]], where: str = "") -> None:
    for syms in groups.values():
        if len(syms) < 2:
            continue
        ordered = sorted(syms, key=lambda s: s.selection)
        first = ordered[0]
        for dup in ordered[1:]:
            if dup.kind is first.kind:
                what = f"duplicate {label(dup.kind)} `{dup.name}`"
            else:
                what = (
                    f"`{dup.name}` is already declared as {_article(label(first.kind))} {label(first.kind)}"
                )
            suffix = where.format(container=dup.container or "")
            ctx.error(
                dup.selection,
                f"{what}{suffix}: first declared on line {first.selection[0] + 1}; each name is "
                "declared once",
                "duplicate",
            )


def _duplicates(ctx: CheckContext) -> None:
    model = ctx.model
    header: dict[tuple, list[Symbol]] = defaultdict(list)
    for kind in (Kind.INPUT, Kind.SIGNAL, Kind.OUTCOME, Kind.CARRY, Kind.REPORT, Kind.INVARIANT):
        for sym in model.of_kind(kind):
            header[(kind, sym.scope, sym.name)].append(sym)
    _report_duplicates(ctx, header)

    simple: dict[tuple, list[Symbol]] = defaultdict(list)
    for kind in (Kind.TYPE, Kind.WORKER):
        for sym in model.of_kind(kind):
            simple[(kind, sym.name)].append(sym)
    for sym in model.of_kind(Kind.STEP):
        simple[(Kind.STEP, sym.scope, sym.name)].append(sym)
    for sym in model.of_kind(*_CALLABLES):
        simple[("callable", sym.name)].append(sym)
    _report_duplicates(ctx, simple)

    members: dict[tuple, list[Symbol]] = defaultdict(list)
    for sym in model.of_kind(Kind.FIELD, Kind.VARIANT):
        members[(sym.kind, sym.container, sym.name)].append(sym)
    _report_duplicates(ctx, members, " in type `{container}`")

    params: dict[tuple, list[Symbol]] = defaultdict(list)
    for sym in model.of_kind(Kind.PARAMETER):
        params[(sym.container, sym.scope, sym.name)].append(sym)
    _report_duplicates(ctx, params, " of `{container}`")

    outcomes: dict[tuple, list[Symbol]] = defaultdict(list)
    for sym in model.of_kind(Kind.STEP_OUTCOME):
        outcomes[(sym.container, sym.scope, sym.name)].append(sym)
    _report_duplicates(ctx, outcomes, " in step `{container}`")
