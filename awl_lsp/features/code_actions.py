"""Code actions: quick fixes keyed on the checker's diagnostic codes, plus a few rewrites.

Quick fixes (each a `WorkspaceEdit` that leaves valid text):
- `hatch-key`: add ` key <expr>` (an argument's `x.id`, else the first argument's value);
- `tolerance`: add the missing ` windows` (or correct a misspelt one);
- `narration`: insert a `//! ` line at the top;
- unknown names (`unknown-call`, `unknown-type`, `unknown-binding`, `unknown-field`, `route-target`,
  `after`, unknown detached/child/report/signal, `on` an undeclared signal): "Change to `x`" for
  close matches (difflib);
- missing arguments (`… is missing argument …`, `route-missing-field`): add `name: name` for each;
- `unused-binding`: remove the `-> name`.
Rewrites: `when`/`otherwise` → `if`/`else`; a one-line record type ↔ one field per line.

Fixes work from the diagnostics the client sends (recomputing every check on each request would be
too slow on big documents) and re-read the tree at the diagnostic's range, so a stale diagnostic
simply yields no action.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable

from lsprotocol import types as lsp
from tree_sitter import Node

from awl_lsp.features.signature_help import expected_parameters
from awl_lsp.features.snapshot import Snapshot
from awl_lsp.model import BUILTIN_TYPES, Kind, Range, RefKind

QUICKFIX = lsp.CodeActionKind.QuickFix
REWRITE = lsp.CodeActionKind.RefactorRewrite

_NAME_CODES = frozenset(
    {"unknown-call", "unknown-type", "unknown-binding", "unknown-field", "route-target", "after"}
)
_UNKNOWN_KIND = {
    "hatch": Kind.DETACHED,
    "spawn": Kind.CHILD,
    "answer": Kind.REPORT,
    "wait": Kind.SIGNAL,
    "workloop-arming": Kind.SIGNAL,  # `on s` naming no signal
}
_HOW = {"hatch_statement": "hatch", "answer_statement": "answer", "spawn_statement": "spawn"}


# ---------------------------------------------------------------------- helpers
def _rng(node: Node) -> Range:
    s, e = node.start_point, node.end_point
    return (s.row, s.column, e.row, e.column)


def _edit(snap: Snapshot, uri: str, edits: list[tuple[Range, str]]) -> lsp.WorkspaceEdit:
    return lsp.WorkspaceEdit(changes={uri: [lsp.TextEdit(snap.lsp_range(r), text) for r, text in edits]})


def _action(
    title: str,
    kind: str,
    edit: lsp.WorkspaceEdit,
    diagnostic: lsp.Diagnostic | None = None,
    preferred: bool = False,
) -> lsp.CodeAction:
    return lsp.CodeAction(
        title=title,
        kind=kind,
        diagnostics=[diagnostic] if diagnostic is not None else None,
        edit=edit,
        is_preferred=preferred or None,
    )


def _node_at(snap: Snapshot, rng: lsp.Range) -> Node:
    start, end = snap.point(rng.start), snap.point(rng.end)
    node = snap.doc.root.descendant_for_point_range(start, end)
    return node if node is not None else snap.doc.root


def _ancestor(node: Node | None, *types: str) -> Node | None:
    while node is not None and node.type not in types:
        node = node.parent
    return node


def _overlaps(a: lsp.Range, b: lsp.Range) -> bool:
    a0, a1 = (a.start.line, a.start.character), (a.end.line, a.end.character)
    b0, b1 = (b.start.line, b.start.character), (b.end.line, b.end.character)
    return a0 <= b1 and b0 <= a1


# ---------------------------------------------------------------------- quick fixes
Fix = Callable[[Snapshot, str, lsp.Diagnostic], list[lsp.CodeAction]]


def _fix_hatch_key(snap: Snapshot, uri: str, diag: lsp.Diagnostic) -> list[lsp.CodeAction]:
    st = _ancestor(_node_at(snap, diag.range), "hatch_statement")
    call = st.child_by_field_name("call") if st is not None else None
    if st is None or call is None or st.child_by_field_name("key") is not None:
        return []
    args = call.child_by_field_name("arguments")
    values = [
        a.child_by_field_name("value")
        for a in (args.named_children if args is not None else [])
        if a.type == "argument"
    ]
    present = [v for v in values if v is not None]
    ids = [
        v
        for v in present
        if v.type == "field_expression" and snap.text(v.child_by_field_name("field")) == "id"
    ]
    key = snap.text(ids[0]) if ids else snap.text(present[0]) if present else "workflow.id"
    end = call.end_point
    edit = _edit(snap, uri, [((end.row, end.column, end.row, end.column), f" key {key}")])
    return [_action(f"Add `key {key}`", QUICKFIX, edit, diag, preferred=True)]


def _fix_windows(snap: Snapshot, uri: str, diag: lsp.Diagnostic) -> list[lsp.CodeAction]:
    tol = _ancestor(_node_at(snap, diag.range), "tolerance_clause")
    count = tol.child_by_field_name("count") if tol is not None else None
    if tol is None or count is None:
        return []
    windows = tol.child_by_field_name("windows")
    if windows is None:
        end = count.end_point
        edit = _edit(snap, uri, [((end.row, end.column, end.row, end.column), " windows")])
        return [_action("Add `windows`", QUICKFIX, edit, diag, preferred=True)]
    if snap.text(windows) == "windows":
        return []
    edit = _edit(snap, uri, [(_rng(windows), "windows")])
    return [_action("Change to `windows`", QUICKFIX, edit, diag, preferred=True)]


def _fix_narration(snap: Snapshot, uri: str, diag: lsp.Diagnostic) -> list[lsp.CodeAction]:
    if not diag.message.startswith("missing"):
        return []
    edit = _edit(snap, uri, [((0, 0, 0, 0), "//! \n")])
    return [_action("Add a `//!` narration line at the top", QUICKFIX, edit, diag, preferred=True)]


def _scope_of(snap: Snapshot, row: int, col: int) -> str:
    sub = snap.model.enclosing(row, col, Kind.SUBFLOW)
    return f"subflow:{sub.name}" if sub is not None else ""


def _field_candidates(snap: Snapshot, node: Node, message: str) -> list[str]:
    parent = node.parent
    if parent is None or parent.type != "field_expression":
        return []
    from awl_lsp.features.typing import _env

    env = _env(snap)
    return list(env.fields_of_type(env.infer(parent.child_by_field_name("value")))) if env else []


def _name_candidates(snap: Snapshot, code: str, node: Node, message: str) -> list[str]:
    model = snap.model
    name = snap.text(node)
    row, col = node.start_point.row, node.start_point.column
    if code == "unknown-call":
        if name[:1].isupper():
            return [t.name for t in model.of_kind(Kind.TYPE) if t.extra.get("form") == "record_body"]
        return [s.name for s in model.of_kind(Kind.ACTION, Kind.CHILD, Kind.SUBFLOW)]
    if code == "unknown-type":
        return [t.name for t in model.of_kind(Kind.TYPE)] + list(BUILTIN_TYPES)
    if code == "unknown-binding":
        ref = model.reference_at(row, col)
        scope = ref.scope if ref is not None and ref.kind in (RefKind.VALUE, RefKind.COLLECT) else ""
        return [
            s.name
            for s in model.visible_values(row, scope)
            if s.kind is not Kind.BINDING or (s.selection[0], s.selection[1]) < (row, col)
        ]
    if code == "unknown-field":
        return _field_candidates(snap, node, message)
    scope = _scope_of(snap, row, col)
    steps = [s.name for s in model.of_kind(Kind.STEP) if s.scope == scope]
    if code == "after":
        return steps
    if code == "route-target":
        outcomes = [o.name for o in model.of_kind(Kind.OUTCOME, Kind.STEP_OUTCOME) if o.scope == scope]
        return steps + outcomes + (["start"] if model.is_workloop else [])
    kind = _UNKNOWN_KIND.get(code)
    return model.names(kind) if kind is not None else []


def _fix_name(snap: Snapshot, uri: str, diag: lsp.Diagnostic) -> list[lsp.CodeAction]:
    code = str(diag.code)
    if code in _UNKNOWN_KIND and not (
        diag.message.startswith("unknown") or "names no declared" in diag.message
    ):
        return []
    node = _node_at(snap, diag.range)
    if node.type not in ("identifier", "type_identifier"):
        return []
    name = snap.text(node)
    candidates = sorted({c for c in _name_candidates(snap, code, node, diag.message) if c != name})
    matches = difflib.get_close_matches(name, candidates, n=3, cutoff=0.6)
    return [
        _action(f"Change to `{m}`", QUICKFIX, _edit(snap, uri, [(_rng(node), m)]), diag, preferred=(i == 0))
        for i, m in enumerate(matches)
    ]


def _fix_missing_arguments(snap: Snapshot, uri: str, diag: lsp.Diagnostic) -> list[lsp.CodeAction]:
    node = _node_at(snap, diag.range)
    if node.type == "arguments" and node.parent is not None and node.parent.type == "route_statement":
        args: Node | None = node
        how = "route"
        target = node.parent.child_by_field_name("target")
        name = snap.text(target)
    else:
        call = node.parent if node.type == "identifier" else None
        if call is None or call.type != "call_expression":
            return []
        args = call.child_by_field_name("arguments")
        how = _HOW.get(call.parent.type, "call") if call.parent is not None else "call"
        name = snap.text(node)
    if args is None or args.has_error:
        return []
    callee = expected_parameters(snap, how, name, node.start_point.row, node.start_point.column)
    if callee is None:
        return []
    given = [a for a in args.named_children if a.type == "argument"]
    names = {snap.text(a.child_by_field_name("name")) for a in given}
    missing = [p.name for p in callee.params if p.name not in names and not p.optional and not p.positional]
    if not missing:
        return []
    text = ", ".join(f"{m}: {m}" for m in missing)
    if given:
        end = given[-1].end_point
        where, text = (end.row, end.column, end.row, end.column), ", " + text
    else:
        end = args.children[0].end_point  # after `(`
        where = (end.row, end.column, end.row, end.column)
    noun = "argument" if len(missing) == 1 else "arguments"
    title = f"Add missing {noun} " + ", ".join(f"`{m}`" for m in missing)
    return [_action(title, QUICKFIX, _edit(snap, uri, [(where, text)]), diag, preferred=True)]


def _fix_unused_binding(snap: Snapshot, uri: str, diag: lsp.Diagnostic) -> list[lsp.CodeAction]:
    node = _node_at(snap, diag.range)
    binding = node.parent if node.type == "identifier" else None
    if binding is None or binding.type != "binding" or binding.parent is None:
        return []
    owner = binding.parent
    if owner.type == "wait_statement":
        return []  # `wait` must bind the signal's payload
    if owner.type == "expression_statement":
        value = owner.child_by_field_name("value")
        if value is None or value.type != "call_expression":
            return []  # a pipe chain must end in `-> name` or `|> route`
    before = binding.prev_sibling
    if before is None:
        return []
    start, end = before.end_point, binding.end_point
    edit = _edit(snap, uri, [((start.row, start.column, end.row, end.column), "")])
    title = f"Remove unused binding `{snap.text(binding)}`"
    return [_action(title, QUICKFIX, edit, diag, preferred=True)]


def _fixes_for(diag: lsp.Diagnostic) -> list[Fix]:
    code = str(diag.code) if diag.code is not None else ""
    fixes: list[Fix] = []
    if code == "hatch-key":
        fixes.append(_fix_hatch_key)
    if code == "tolerance" and "windows" in diag.message and "expected" in diag.message:
        fixes.append(_fix_windows)
    if code == "narration":
        fixes.append(_fix_narration)
    if code in _NAME_CODES or code in _UNKNOWN_KIND:
        fixes.append(_fix_name)
    if "is missing argument" in diag.message or code == "route-missing-field":
        fixes.append(_fix_missing_arguments)
    if code == "unused-binding":
        fixes.append(_fix_unused_binding)
    return fixes


# ---------------------------------------------------------------------- rewrites
def _rewrite_guard(snap: Snapshot, uri: str, node: Node) -> list[lsp.CodeAction]:
    guard = _ancestor(node, "guard", "step_outcome")
    if guard is not None and guard.type == "step_outcome":
        guard = guard.child_by_field_name("guard")
    keyword = guard.child_by_field_name("keyword") if guard is not None else None
    word = snap.text(keyword)
    new = {"when": "if", "otherwise": "else"}.get(word)
    if keyword is None or new is None:
        return []
    edit = _edit(snap, uri, [(_rng(keyword), new)])
    return [_action(f"Use `{new}` instead of `{word}`", REWRITE, edit)]


def _rewrite_record(snap: Snapshot, uri: str, node: Node) -> list[lsp.CodeAction]:
    decl = _ancestor(node, "type_declaration")
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
    return [_action(title, REWRITE, _edit(snap, uri, [(_rng(body), new)]))]


def _wanted(kind: lsp.CodeActionKind, only: list[str] | None) -> bool:
    value = kind.value
    return not only or any(value == o or value.startswith(o + ".") for o in only)


def code_actions(
    snap: Snapshot,
    uri: str,
    rng: lsp.Range,
    diagnostics: list[lsp.Diagnostic] | None = None,
    only: list[str] | None = None,
) -> list[lsp.CodeAction]:
    """Quick fixes for the given diagnostics that touch `rng`, then rewrites available at `rng`."""
    out: list[lsp.CodeAction] = []
    if _wanted(QUICKFIX, only):
        for diag in diagnostics or []:
            if not _overlaps(diag.range, rng):
                continue
            for fix in _fixes_for(diag):
                try:
                    out += fix(snap, uri, diag)
                except Exception:  # noqa: BLE001 — one broken fix must not hide the others
                    continue
    if _wanted(REWRITE, only):
        node = _node_at(snap, rng)
        out += _rewrite_guard(snap, uri, node)
        out += _rewrite_record(snap, uri, node)
    return out
