"""Code actions: quick fixes keyed on the checker's diagnostic codes, plus a few rewrites.

Quick fixes read the diagnostic's `code` and `data` (set by the checker, see
`awl_lsp.syntax.problems`), never its message; each is a `WorkspaceEdit` that leaves valid text
(tests/test_safe_fixes.py applies every one offered on every invalid document and re-checks):
- `data.missing == "key"` (`hatch-key`): add ` key <expr>` (an argument's `x.id`, else the first
  argument's value);
- `data.missing == "windows"` (`tolerance`): add the missing ` windows`;
- `data.missing == "narration"`: insert a `//! ` line at the top;
- `data.missing` a token (a syntax error's missing `]`, `)`, …): insert it (`data.insert_text` when it
  needs its own layout, a type body's `}` on a line of its own);
- `data.rename` (`naming`): rename the declaration and its uses to the conventional spelling;
- `data.rewrite`: replace the flagged text by what the checker says was meant (`count(x)` →
  `count`, a bare `workflow` → `workflow.id`);
- `data.candidates` (any misspelt name: calls, types, bindings, fields, route targets, `after`,
  arguments, detached/child/report/signal): "Change to `x`" for each close name in scope;
- `data.missing` a list (missing arguments or payload fields): add `name: value` for each, the
  value a placeholder of the parameter's type (`features.placeholders`);
- `unused-binding`: remove the `-> name`.
Rewrites: `when`/`otherwise` → `if`/`else`; a one-line record type ↔ one field per line.

Fixes work from the diagnostics the client sends (recomputing every check on each request would be
too slow on big documents) and re-read the tree at the diagnostic's range, so a stale diagnostic
simply yields no action.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lsprotocol import types as lsp
from tree_sitter import Node

from awl_lsp.features.placeholders import argument_value
from awl_lsp.features.signature_help import expected_parameters
from awl_lsp.features.snapshot import Snapshot
from awl_lsp.model import Range

QUICKFIX = lsp.CodeActionKind.QuickFix
REWRITE = lsp.CodeActionKind.RefactorRewrite

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


def _fix_missing_token(snap: Snapshot, uri: str, diag: lsp.Diagnostic) -> list[lsp.CodeAction]:
    """Insert the token the parser found missing (`data.missing`, e.g. a closing `]`)."""
    token = _data(diag).get("missing")
    if not isinstance(token, str) or not token:
        return []
    r = diag.range
    at = _data(diag).get("insert_at")  # where the token belongs, when reported on a later line
    if isinstance(at, list) and len(at) == 2 and all(isinstance(v, int) for v in at):
        r = snap.lsp_range((at[0], at[1], at[0], at[1]))
    text = _data(diag).get("insert_text")  # the token with its layout (a `}` on a line of its own)
    insert = text if isinstance(text, str) and text.strip() == token else token
    edit = lsp.WorkspaceEdit(changes={uri: [lsp.TextEdit(lsp.Range(r.start, r.start), insert)]})
    return [_action(f"Insert `{token}`", QUICKFIX, edit, diag, preferred=True)]


def _fix_naming(snap: Snapshot, uri: str, diag: lsp.Diagnostic) -> list[lsp.CodeAction]:
    """Rename a declaration that breaks the naming convention (`data.rename`), with every use."""
    new = _data(diag).get("rename")
    row, col = snap.point(diag.range.start)
    sym = snap.model.symbol_at(row, col)
    if not isinstance(new, str) or not new or sym is None or snap.model.first(sym.kind, new) is not None:
        return []
    edits = [(sym.selection, new)] + [(r.range, new) for r in snap.model.references_to(sym)]
    return [_action(f"Rename to `{new}`", QUICKFIX, _edit(snap, uri, edits), diag, preferred=True)]


def _fix_rewrite(snap: Snapshot, uri: str, diag: lsp.Diagnostic) -> list[lsp.CodeAction]:
    """Replace the diagnostic's text by the checker's spelling of what was meant (`data.rewrite`)."""
    new = _data(diag).get("rewrite")
    if not isinstance(new, str) or not new:
        return []
    edit = lsp.WorkspaceEdit(changes={uri: [lsp.TextEdit(diag.range, new)]})
    return [_action(f"Write `{new}`", QUICKFIX, edit, diag, preferred=True)]


def _fix_narration(snap: Snapshot, uri: str, diag: lsp.Diagnostic) -> list[lsp.CodeAction]:
    edit = _edit(snap, uri, [((0, 0, 0, 0), "//! \n")])
    return [_action("Add a `//!` narration line at the top", QUICKFIX, edit, diag, preferred=True)]


def _fix_name(snap: Snapshot, uri: str, diag: lsp.Diagnostic) -> list[lsp.CodeAction]:
    """ "Change to `x`" for each close candidate the checker found (`data.candidates`)."""
    data = _data(diag)
    node = _node_at(snap, diag.range)
    name = snap.text(node)
    if node.type not in ("identifier", "type_identifier") or name != data.get("name"):
        return []  # the text moved on since the diagnostic: no fix rather than a wrong one
    return [
        _action(f"Change to `{m}`", QUICKFIX, _edit(snap, uri, [(_rng(node), m)]), diag, preferred=(i == 0))
        for i, m in enumerate(c for c in data.get("candidates", []) if isinstance(c, str) and c != name)
    ]


def _fix_missing_arguments(snap: Snapshot, uri: str, diag: lsp.Diagnostic) -> list[lsp.CodeAction]:
    """Insert each missing argument (`data.missing`) with a value of its type as a placeholder."""
    wanted = [m for m in _data(diag).get("missing", []) if isinstance(m, str)]
    node = _node_at(snap, diag.range)
    if node.type == "arguments" and node.parent is not None and node.parent.type == "route_statement":
        args: Node | None = node
        how = "route"
        name = snap.text(node.parent.child_by_field_name("target"))
    else:
        call = node.parent if node.type == "identifier" else None
        if call is None or call.type != "call_expression":
            return []
        args = call.child_by_field_name("arguments")
        how = _HOW.get(call.parent.type, "call") if call.parent is not None else "call"
        name = snap.text(node)
    if args is None or args.has_error or not wanted:
        return []
    row, col = node.start_point.row, node.start_point.column
    callee = expected_parameters(snap, how, name, row, col)
    if callee is None:
        return []
    given = {snap.text(a.child_by_field_name("name")) for a in args.named_children if a.type == "argument"}
    types = {p.name: p.type for p in callee.params}
    missing = [m for m in wanted if m in types and m not in given]
    ref = snap.model.reference_at(row, col)
    scope = ref.scope if ref is not None else ""
    values = [argument_value(snap.model, m, types[m], row, scope) for m in missing]
    if not missing or any(v is None for v in values):
        return []  # a value we cannot write would only trade this error for another
    text = ", ".join(f"{m}: {v}" for m, v in zip(missing, values, strict=True))
    given_nodes = [a for a in args.named_children if a.type == "argument"]
    if given_nodes:
        end = given_nodes[-1].end_point
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
    if owner.type in ("wait_statement", "collect_statement"):
        return []  # `wait` must bind the signal's payload, `collect` must name the gathered list
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


def _data(diag: lsp.Diagnostic) -> dict[str, Any]:
    return diag.data if isinstance(diag.data, dict) else {}


def _fixes_for(diag: lsp.Diagnostic) -> list[Fix]:
    """The fixes that apply, chosen by the diagnostic's code and `data` (never by its message)."""
    code = str(diag.code) if diag.code is not None else ""
    data = _data(diag)
    missing = data.get("missing")
    fixes: list[Fix] = []
    if code == "hatch-key" and missing == "key":
        fixes.append(_fix_hatch_key)
    if code == "tolerance" and missing == "windows":
        fixes.append(_fix_windows)
    if code == "narration" and missing == "narration":
        fixes.append(_fix_narration)
    if code == "missing" and isinstance(missing, str):
        fixes.append(_fix_missing_token)
    if code == "naming" and data.get("rename"):
        fixes.append(_fix_naming)
    if data.get("rewrite"):
        fixes.append(_fix_rewrite)
    if data.get("candidates"):
        fixes.append(_fix_name)
    if isinstance(missing, list):
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
