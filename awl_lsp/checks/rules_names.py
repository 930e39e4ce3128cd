"""Name rules: naming conventions, keywords used as names, and duplicate declarations.

- Type names and enum variants are TitleCase; every other declared name (the flow, inputs,
  signals, outcomes, carries, fields, actions, parameters, bindings, …) is snake_case. Steps,
  outcome arms and workers are snake_case by convention only (a warning): the engine takes any.
- A word that opens a declaration or a statement (`step`, `input`, `route`, …) cannot be a name; in a
  workflow neither can a word that continues a construct (`after`, `when`, `true`, `all`, …), and a
  value named like a pipe combinator or a config key (`map`, `count`, `retry`, …) cannot be read.
- Each name is declared once in its namespace: header clauses per kind, types, fields of a type,
  variants of an enum, callables (actions across all workers, children, detached, subflows),
  steps per scope, outcomes per step, parameters per callable. The second declaration is reported.
"""

from __future__ import annotations

import re
from collections import defaultdict

from awl_lsp.checks.across import repeated
from awl_lsp.checks.base import CheckContext, ItemContext, Related, Severity
from awl_lsp.checks.rules_support import (
    RESERVED_NAMES,
    SNAKE,
    TITLE,
    WORKFLOW_RESERVED_BINDING_NAMES,
    WORKFLOW_RESERVED_NAMES,
)
from awl_lsp.model import Kind, RefKind, Symbol

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
# names the engine takes in any case (`step doIt`, `worker Shop`, `outcome Yes: …`): snake_case is
# their convention, so another spelling is a warning, not an error
_CONVENTION_ONLY = frozenset({Kind.STEP, Kind.STEP_OUTCOME, Kind.WORKER})
# names the engine takes where they are declared but cannot read where they are used (a type, a
# field, an action): in a workflow the first use is the error
_AT_FIRST_USE = frozenset({Kind.TYPE, Kind.FIELD, Kind.ACTION})
_LABEL = {Kind.VARIANT: "enum variant", Kind.STEP_OUTCOME: "outcome", Kind.TYPE: "type name"}
_CALLABLES = (Kind.ACTION, Kind.CHILD, Kind.DETACHED, Kind.SUBFLOW)
_VALUE_REF = RefKind.VALUE  # (read once: an enum member is a class look-up)
_BINDING, _RETIRE = Kind.BINDING, Kind.RETIRE  # (read once: an enum member is a class look-up)


def check_item(ctx: ItemContext) -> None:
    _conventions(ctx)
    if not ctx.model.is_workloop:
        _combinator_reads(ctx)


# words an expression reads as the keyword they are: combinators, config keys, `is …` tests
_COMBINATORS = frozenset(
    {
        "filter",
        "map",
        "sort",
        "count",
        "retry",
        "every",
        "backoff",
        "node",
        "timeout",
        "empty",
        "present",
        "absent",
    }
)


def _combinator_reads(ctx: ItemContext) -> None:
    """In a workflow expression a combinator's name is the combinator: a value of that name (an
    input `map`, a step's `count`) can be declared but never read."""
    for ref in ctx.refs_of(_VALUE_REF):
        if ref.name in _COMBINATORS:
            ctx.error(
                ref.range,
                f"`{ref.name}` is a keyword in an expression, not a value: rename what is called "
                f"`{ref.name}` (e.g. `{ref.name}_value`) and read it by that name",
                "combinator-name-read",
            )


def check(ctx: CheckContext) -> None:
    _duplicates(ctx)
    if not ctx.model.is_workloop:
        _type_names(ctx)


def _type_names(ctx: CheckContext) -> None:
    """A type name that is not TitleCase cannot be written where a type goes, nor a field or an
    action name that is not snake_case where it is read or called: the engine stops at the first
    use, so that is where it is reported. An unused type or field is reported where it is declared;
    an unused action is only a convention warning there (the engine takes it)."""
    said: set[tuple[int, int, int, int]] = set()  # two types' fields of one name share their uses
    for sym in ctx.model.of_kind(*_AT_FIRST_USE):
        title = sym.kind is Kind.TYPE
        if (TITLE if title else SNAKE).match(sym.name) or sym.name in RESERVED_NAMES:
            continue
        better = to_title(sym.name) if title else to_snake(sym.name)
        what = f"{label(sym.kind)} `{sym.name}`"
        uses = [r.range for r in ctx.model.references_to(sym) if r.kind is not RefKind.STEP]
        if sym.kind is Kind.FIELD:  # `x.Name`: field reads are matched by name, not resolved
            uses += [r.range for r in ctx.model.references if r.kind is RefKind.FIELD and r.name == sym.name]
        if uses:
            first = min(uses, key=lambda r: r[:2])
            if first in said:
                continue
            said.add(first)
            ctx.error(
                first,
                f"{what} must be {'TitleCase' if title else 'snake_case'}, e.g. `{better}`: it cannot "
                "be written here as it is",
                "naming",
                {"rename": better, "kind": sym.kind.value, "name": sym.name},
            )
        elif sym.kind is not Kind.ACTION:
            form = "TitleCase" if title else "snake_case"
            ctx.error(sym.selection, f"{what} must be {form}, e.g. `{better}`", "naming", {"rename": better})
        else:
            message = f"{what} is conventionally snake_case: `{better}`"
            ctx.report(sym.selection, message, "naming", Severity.WARNING, {"rename": better})


def label(kind: Kind) -> str:
    return _LABEL.get(kind, kind.value)


def to_snake(name: str) -> str:
    out = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name)
    return re.sub(r"_+", "_", out).lower().strip("_") or name.lower()


def to_title(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"_+", name) if part) or name


def _conventions(ctx: ItemContext) -> None:
    workflow = not ctx.model.is_workloop
    for sym in ctx.facts.flat:
        if sym.kind is _RETIRE:
            continue
        name = sym.name
        reserved = RESERVED_NAMES
        if workflow:
            reserved = WORKFLOW_RESERVED_BINDING_NAMES if _after_arrow(sym) else WORKFLOW_RESERVED_NAMES
        if name in reserved:
            what = label(sym.kind)
            ctx.error(
                sym.selection,
                f"`{name}` is a keyword and cannot name {_article(what)} {what}: choose another name "
                f"(e.g. `{name}_name`)",
                "keyword-name",
                {"name": name, "rename": f"{name}_name"},
            )
            continue
        if sym.kind in _AT_FIRST_USE and workflow:
            continue  # reported document-wide, where the name is first written
        if sym.kind in _TITLE_KINDS and not TITLE.match(name):
            better = to_title(name)
            what = label(sym.kind)
            message = f"{what} `{name}` must be TitleCase, e.g. `{better}`"
            ctx.error(sym.selection, message, "naming", {"rename": better})
        elif sym.kind in _SNAKE_KINDS and not SNAKE.match(name):
            better = to_snake(name)
            what = label(sym.kind)
            if sym.kind in _CONVENTION_ONLY:
                message = f"{what} `{name}` is conventionally snake_case: `{better}`"
                ctx.report(sym.selection, message, "naming", Severity.WARNING, {"rename": better})
                continue
            message = f"{what} `{name}` must be snake_case, e.g. `{better}`"
            ctx.error(sym.selection, message, "naming", {"rename": better})


def _after_arrow(sym: Symbol) -> bool:
    """A value bound with `-> name` (or `counting name`); an item name (`fork x in …`) is not."""
    return sym.kind is _BINDING and sym.extra.get("how") not in (
        "fork item",
        "loop",
        "distribute",
        "sequence",
    )


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
            # a repeated outcome arm or substep name runs (the engine accepts it) but is a slip: warn
            inner = dup.kind is first.kind and (
                dup.kind is Kind.STEP_OUTCOME
                or (dup.kind is Kind.STEP and bool(dup.container) and dup.scope != f"subflow:{dup.container}")
            )
            ctx.report(
                dup.selection,
                f"{what}{suffix}: each name is declared once",
                "duplicate",
                Severity.WARNING if inner else Severity.ERROR,
                {"name": dup.name},
                (Related(first.selection, f"`{first.name}` first declared here"),),
            )


_WHERE = {"2": " in type `{container}`", "3": " of `{container}`", "4": " in step `{container}`"}


def _duplicates(ctx: CheckContext) -> None:
    dups = repeated(ctx, "duplicates", lambda it: it.tally.duplicates, lambda it: it.tally.duplicated)
    if not dups:
        return
    groups: dict[str, dict[tuple, list[Symbol]]] = defaultdict(lambda: defaultdict(list))
    for it in ctx.items:
        if it.tally.duplicates.isdisjoint(dups):
            continue
        for sym, key in zip(it.facts.flat, it.tally.duplicate_keys, strict=True):
            if key is not None and key in dups:
                groups[key[0]][(key,)].append(sym)
    for category, found in sorted(groups.items()):
        _report_duplicates(ctx, found, _WHERE.get(category, ""))
