"""Completion slots: the fine-grained places where a keyword may legally be typed next.

`SLOTS` is the single source of truth: each slot lists its keywords in the order a
completion list should offer them, and every `KeywordEntry.slots` is derived from it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Slot:
    """One completion context: where the cursor is, and which keywords may start there."""

    name: str
    help: str
    keywords: tuple[str, ...]


def _slot(name: str, help_text: str, words: str) -> Slot:
    return Slot(name, help_text, tuple(words.split()))


SLOTS: dict[str, Slot] = {
    slot.name: slot
    for slot in (
        _slot(
            "top-level",
            "start of a line at column 0",
            "workflow workloop const type worker child detached subflow step retire",
        ),
        _slot("workflow-header", "indented clause under `workflow NAME`", "timeout input signal outcome"),
        _slot(
            "workloop-header",
            "indented clause under `workloop NAME`",
            "every on input signal carry report invariant retention",
        ),
        _slot("invariant-body", "indented clause under `invariant n: type T`", "tolerance confirms"),
        _slot("tolerance", "after `tolerance`", "unconfirmed"),
        _slot("tolerance-count", "after `tolerance N`", "windows"),
        _slot("tolerance-unconfirmed", "after `tolerance unconfirmed`", "for"),
        _slot("worker-body", "indented line under `worker NAME`", "action"),
        _slot("action-config", "indented config line under an `action`", "node timeout retry"),
        _slot("retry-schedule", "after `retry N`", "every backoff"),
        _slot("step-header", "after `step NAME`", "after"),
        _slot(
            "step-body",
            "start of a line in a step body",
            "spawn hatch answer wait sleep fork loop distribute sequence collect step on route outcome max",
        ),
        _slot("on-step", "after `on` in a step body", "failure"),
        _slot(
            "loop-body",
            "start of a line in a `loop` body",
            "spawn hatch answer wait sleep fork loop until max",
        ),
        _slot("fork-body", "start of a line in a `fork` body", "spawn hatch"),
        _slot("fork-header", "after `fork x` (then after `fork x in EXPR`)", "in sequential"),
        _slot("loop-header", "after `loop x = SEED`", "counting"),
        _slot("join", "the line closing a `fork` body", "join"),
        _slot("wait-tail", "after `wait SIGNAL`", "timeout"),
        _slot("visits-tail", "after `max N` closing a step's outcomes", "visits"),
        _slot("hatch-tail", "after `hatch detached(args)`", "key"),
        _slot("route-target", "after `route`", "start"),
        _slot("outcome-guard", "after `outcome n:` in a step", "if else when otherwise"),
        _slot("header-outcome-route", "after `route` in a header outcome", "success failure"),
        _slot("header-outcome-type", "after `outcome n:` in a header", "type"),
        _slot("expression", "where an expression may start", "not true false workflow json schema"),
        _slot("after-expression", "after a complete expression", "and or is"),
        _slot("is-test", "after `is`", "empty present absent"),
        _slot("pipe-stage", "after `|>`", "filter map sort count any all route"),
        _slot("schema-door", "after `schema` in an expression", "of"),
        _slot("type", "where a type is expected", "Bool Int Float String Nil Dir"),
    )
}


def slots_of(keyword: str) -> tuple[str, ...]:
    """Every slot that offers `keyword`, in `SLOTS` order."""
    return tuple(name for name, slot in SLOTS.items() if keyword in slot.keywords)
