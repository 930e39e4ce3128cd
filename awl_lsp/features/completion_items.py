"""Completion offers and the answer they make: an `Entry` is built into a `CompletionItem` only if
it is sent; `best` cuts a long list to what matches the typed word, nearest names first; a value's
inferred type is computed for the items sent, or later in `completionItem/resolve` (`resolve_value`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from lsprotocol import types as lsp

from awl_lsp.features.snapshot import Snapshot
from awl_lsp.features.typing import type_env
from awl_lsp.model import Kind, Symbol
from awl_lsp.model.types import AwlType

log = logging.getLogger("awl_lsp.completion")


# the item kind a declaration is offered as
SYMBOL_KINDS = {
    Kind.ACTION: lsp.CompletionItemKind.Function,
    Kind.CHILD: lsp.CompletionItemKind.Function,
    Kind.SUBFLOW: lsp.CompletionItemKind.Function,
    Kind.DETACHED: lsp.CompletionItemKind.Function,
    Kind.TYPE: lsp.CompletionItemKind.Class,
    Kind.FIELD: lsp.CompletionItemKind.Field,
    Kind.PARAMETER: lsp.CompletionItemKind.Variable,
    Kind.INPUT: lsp.CompletionItemKind.Variable,
    Kind.CARRY: lsp.CompletionItemKind.Variable,
    Kind.BINDING: lsp.CompletionItemKind.Variable,
    Kind.CONST: lsp.CompletionItemKind.Constant,
    Kind.SIGNAL: lsp.CompletionItemKind.Event,
    Kind.OUTCOME: lsp.CompletionItemKind.EnumMember,
    Kind.REPORT: lsp.CompletionItemKind.Interface,
    Kind.STEP: lsp.CompletionItemKind.Module,
    Kind.STEP_OUTCOME: lsp.CompletionItemKind.EnumMember,
    Kind.VARIANT: lsp.CompletionItemKind.EnumMember,
}


@dataclass(slots=True)
class Entry:
    """One offer, built into a `CompletionItem` only if it is shown: `make()` gives its detail,
    documentation, insert text and whether that is a snippet (the costly parts — a call's
    placeholders, a value's inferred type — are computed only for the items sent)."""

    label: str
    kind: lsp.CompletionItemKind
    make: Callable[[Entry], tuple[str, str, str | None, bool]]
    weight: int = 0  # when the list must be cut: lower first (a value's distance from the cursor)
    data: object = None
    source: object = None  # what `make` reads (a call offer's callee and how to list its arguments)


def best(entries: list[Entry], typed: str, limit: int) -> list[int]:
    """The indexes of the `limit` entries to send, in offer order: those that match what is typed
    (a prefix first, then the letters in order), the lightest (nearest) first."""
    typed = typed.lower()
    ranked = []
    for i, e in enumerate(entries):
        label = e.label.lower()
        if label.startswith(typed):
            ranked.append((0, e.weight, i))
        elif _subsequence(typed, label):
            ranked.append((1, e.weight, i))
    return sorted(i for *_, i in sorted(ranked)[:limit])


def value_detail(sym: Symbol, type_of: Callable[[Symbol], AwlType]) -> str:
    t = type_of(sym)
    shown = sym.type or ("" if t.unknown else str(t))
    return f"{sym.kind.value} {sym.name}: {shown}" if shown else f"{sym.kind.value} {sym.name}"


def _subsequence(typed: str, label: str) -> bool:
    """Are the letters of `typed` in `label`, in order (what editors' fuzzy filters accept)?"""
    at = 0
    for ch in typed:
        at = label.find(ch, at) + 1
        if at == 0:
            return False
    return True


def resolve_value(snap: Snapshot, item: lsp.CompletionItem) -> lsp.CompletionItem:
    """`completionItem/resolve`: a value's detail with its inferred type (when `data` names one that
    the newest version still declares there; otherwise the item as it was)."""
    data = item.data
    where = data.get("value") if isinstance(data, dict) else None
    if not (isinstance(where, list) and len(where) == 3):
        return item
    row, col, name = where
    if not (isinstance(row, int) and isinstance(col, int)) or row < 0 or col < 0:
        return item
    sym = snap.model.symbol_at(row, col)
    if sym is None or sym.name != name or sym.selection[:2] != (row, col):
        return item
    try:
        item.detail = value_detail(sym, type_env(snap).type_of_symbol)
    except Exception:  # noqa: BLE001 — a resolve must never fail because inference did
        log.exception("inferring the type of %s failed", name)
    return item


def item_defaults(answer: lsp.CompletionList, edit_range: lsp.Range, snippet: bool | None) -> None:
    """Send once what the items of `answer` share, in `itemDefaults` (for a client that lists
    `editRange` among the `completionList.itemDefaults` it applies; the items carry their text as
    `textEditText`): the range every item replaces and, unless `snippet` is None, the insert text
    format of the items that name none."""
    shared = lsp.CompletionItemDefaults(edit_range=edit_range)
    if snippet is not None:
        shared.insert_text_format = (
            lsp.InsertTextFormat.Snippet if snippet else lsp.InsertTextFormat.PlainText
        )
    answer.item_defaults = shared
