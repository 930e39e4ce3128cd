"""The type walker's shortcuts change no diagnostic.

The type rules look the references of the item they check up in that item's own facts
(`TypeEnv.focus`), and the reference and type rules share each argument list and call they read
(`checks/calls.py`) and each callable's parameter types (`TypeEnv.parameter_types`). Each
document below is checked twice — as the checker runs, and with every one of those shortcuts
turned off (references through the model's index, argument lists and callees read afresh by
every rule) — and the user must see the same problems, message for message.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from awl_lsp.checks import calls, rules_references, rules_support, rules_types, rules_types_stmt, run_checks
from awl_lsp.model import ModelBuilder
from awl_lsp.model.types import TypeEnv, parse_type_text
from awl_lsp.syntax import SyntaxDocument

REPO = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("AWL_CORPUS") or REPO.parent / "shared" / "corpus").resolve()
OWN = sorted((REPO / "tests" / "data" / "rules").rglob("*.awl")) + sorted(
    (REPO / "tests" / "data" / "invalid").rglob("*.awl")
)


def _problems(text: str, path: Path | None = None) -> list[tuple]:
    doc = SyntaxDocument(text)
    model = ModelBuilder().build(doc.tree, doc.source)
    return [
        (p.range, p.code, p.message, p.severity)
        for p in run_checks(model, doc.tree, doc.source, path, path.parent if path else None)
    ]


def _afresh(read: Callable[..., Any]) -> Callable[..., Any]:
    """`read` (an argument list or a call) without the check's memo: read again on every question."""

    def unshared(ctx: Any, node: Any) -> Any:
        kept, ctx.memo = ctx.memo, {}
        try:
            return read(ctx, node)
        finally:
            ctx.memo = kept

    return unshared


def _shortcuts_off(mp: pytest.MonkeyPatch) -> None:
    """References through the model's index; argument lists, callees and parameter types read
    afresh by every rule that asks."""
    mp.setattr(TypeEnv, "focus", lambda self, item, facts: None)
    mp.setattr(
        TypeEnv,
        "parameter_types",
        lambda self, sym: {p.name: parse_type_text(p.type) for p in self.model.parameters_of(sym)},
    )
    for module in (rules_references, rules_support, rules_types, rules_types_stmt):
        for name in ("arguments", "call_of"):
            if hasattr(module, name):
                mp.setattr(module, name, _afresh(getattr(calls, name)))


def test_own_documents_are_there() -> None:
    assert len(OWN) > 50  # (the comparison below is only as good as what it reads)


@pytest.mark.parametrize("group", ["own", "corpus", "generated"])
def test_every_document_checks_the_same_with_and_without_shortcuts(group: str) -> None:
    if group == "own":
        docs = [(p.read_text(encoding="utf-8"), p) for p in OWN]
    elif group == "corpus":
        if not CORPUS.is_dir():
            reason = f"AWL corpus not found at {CORPUS} (set AWL_CORPUS)"
            if os.environ.get("AWL_REQUIRE_CORPUS") == "1":
                pytest.fail(reason)
            pytest.skip(reason)
        docs = [(p.read_text(encoding="utf-8"), p) for p in sorted(CORPUS.rglob("*.awl"))]
    else:
        sys.path.insert(0, str(REPO / "bench"))
        try:
            from generate import document
        finally:
            sys.path.remove(str(REPO / "bench"))
        text = document(600)
        broken = text.replace("(item: item_3)", "(item: item_3, item: 1)")  # a duplicate, a misfit
        broken = broken.replace("check_5(item: item_5)", "check_5(item_5)")  # positional
        broken = broken.replace("split(item_id: checked_7.id)", "split(item_id: checked_7.count, extra: 2)")
        broken = broken.replace("fetch_9(region: region, cursor: cursor)", "fetch_9(region: region)")
        codes = {p[1] for p in _problems(broken)}
        assert {"duplicate", "type-mismatch", "named-arguments", "arguments"} <= codes
        docs = [(text, None), (broken, None)]
    with_shortcuts = [_problems(text, path) for text, path in docs]
    with pytest.MonkeyPatch.context() as mp:
        _shortcuts_off(mp)
        without = [_problems(text, path) for text, path in docs]
    found = sum(len(p) for p in with_shortcuts)
    assert found > 0  # the documents do have problems to agree on
    for (_text, path), a, b in zip(docs, with_shortcuts, without, strict=True):
        assert a == b, f"{path or 'generated document'}: the shortcuts changed the problems"
