"""Refactorings: rewrites offered where the cursor is, for text that has nothing wrong with it.

Not fixes — no problem asks for them, `awl check --fix` never applies them — but the same `Fix`
value, so the editor shows them through the same adapter (as `refactor.rewrite` actions):
- `when`/`otherwise` (the older guard spellings) → `if`/`else`;
- a record type on one line ↔ one field per line.
Each preserves what the document means (`safe`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from tree_sitter import Node

from awl_lsp.features.fixes.places import ancestor, node_at, span
from awl_lsp.features.fixes.values import Edit, Fix, Range

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot


def guard_spelling(snap: Snapshot, node: Node) -> list[Fix]:
    guard = ancestor(node, "guard", "step_outcome")
    if guard is not None and guard.type == "step_outcome":
        guard = guard.child_by_field_name("guard")
    keyword = guard.child_by_field_name("keyword") if guard is not None else None
    word = snap.text(keyword)
    new = {"when": "if", "otherwise": "else"}.get(word)
    if keyword is None or new is None:
        return []
    return [Fix(f"Use `{new}` instead of `{word}`", (Edit(span(keyword), new),), safe=True)]


def record_layout(snap: Snapshot, node: Node) -> list[Fix]:
    decl = ancestor(node, "type_declaration")
    body = decl.child_by_field_name("body") if decl is not None else None
    if decl is None or body is None or body.type != "record_body" or body.has_error:
        return []
    fields = [f for f in body.named_children if f.type == "field_declaration"]
    if any(c.type in ("comment", "doc_comment") for c in body.named_children) or not fields:
        return []
    indent = " " * decl.start_point.column
    texts = [" ".join(snap.text(f).split()) for f in fields]
    if body.start_point.row == body.end_point.row:
        if len(fields) < 2:
            return []
        new = "{\n" + "".join(f"{indent}  {t},\n" for t in texts) + indent + "}"
        title = "Put each field on its own line"
    else:
        new = "{ " + ", ".join(texts) + " }"
        title = "Join the fields on one line"
    return [Fix(title, (Edit(span(body), new),), safe=True)]


# In the order the editor lists them.
REFACTORS: tuple[Callable[[Snapshot, Node], list[Fix]], ...] = (guard_spelling, record_layout)


def refactors_at(snap: Snapshot, r: Range) -> list[Fix]:
    """The rewrites available at the range (a cursor is an empty range)."""
    node = node_at(snap, r)
    return [f for refactor in REFACTORS for f in refactor(snap, node)]
