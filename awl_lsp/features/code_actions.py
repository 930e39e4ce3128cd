"""Code actions: the fixes of `features.fixes` and its refactorings, as LSP `CodeAction`s.

The fixes themselves live in `features.fixes` (no protocol types there; `awl check --fix` applies
the same ones). Here a diagnostic the client sends back becomes the `Problem` it was made from —
its range in the snapshot's coordinates, its code and `data` — and each `Fix` becomes a quick fix:
a `WorkspaceEdit`, `isPreferred` for the preferred one. A fix whose text holds snippet
placeholders is sent as snippet edits to a client that supports them
(`workspace.workspaceEdit.snippetEditSupport`), as its plain text to the others. Refactorings
(`when`/`otherwise` → `if`/`else`, a record's layout) come as `refactor.rewrite` actions.

`source.fixAll.awl` (asked for by kind: an editor's fix-on-save) applies every safe, preferred fix
exactly as `awl check --fix` does (`fixes.fix_text`, on the document alone), as one edit.

Fixes work from the diagnostics the client sends (recomputing every check on each request would be
too slow on big documents) and re-read the tree at the diagnostic's range, so a stale diagnostic
simply yields no action.
"""

from __future__ import annotations

from lsprotocol import types as lsp

from awl_lsp.features.fixes import Fix, fix_text, fixes_for, refactors_at
from awl_lsp.features.fixes.apply import Analyse
from awl_lsp.features.lsp_positions import lsp_range, point
from awl_lsp.features.snapshot import Snapshot
from awl_lsp.features.vocabulary import FIX_ALL
from awl_lsp.model import Range
from awl_lsp.syntax.problems import Problem, Severity

QUICKFIX = lsp.CodeActionKind.QuickFix
REWRITE = lsp.CodeActionKind.RefactorRewrite


def problem_of(snap: Snapshot, diag: lsp.Diagnostic) -> Problem:
    """The problem a diagnostic of ours was made from (what a fix reads: range, code, data)."""
    severity = Severity(int(diag.severity)) if diag.severity is not None else Severity.ERROR
    data = diag.data if isinstance(diag.data, dict) else None
    code = str(diag.code) if diag.code is not None else ""
    return Problem(_range(snap, diag.range), diag.message, code, severity, data)


def workspace_edit(snap: Snapshot, uri: str, fix: Fix, snippets: bool = False) -> lsp.WorkspaceEdit:
    """The fix as a workspace edit: snippet edits when the fix has placeholders and the client takes
    them, plain text edits otherwise."""
    if fix.snippet and snippets:
        edits: list[lsp.TextEdit | lsp.AnnotatedTextEdit | lsp.SnippetTextEdit] = [
            lsp.SnippetTextEdit(lsp_range(snap, e.range), lsp.StringValue(e.text)) for e in fix.edits
        ]
        document = lsp.OptionalVersionedTextDocumentIdentifier(uri=uri, version=snap.version)
        return lsp.WorkspaceEdit(document_changes=[lsp.TextDocumentEdit(document, edits)])
    changes = [lsp.TextEdit(lsp_range(snap, e.range), e.text) for e in fix.plain_edits()]
    return lsp.WorkspaceEdit(changes={uri: changes})


def _range(snap: Snapshot, r: lsp.Range) -> Range:
    return (*point(snap, r.start), *point(snap, r.end))


def _overlaps(a: lsp.Range, b: lsp.Range) -> bool:
    a0, a1 = (a.start.line, a.start.character), (a.end.line, a.end.character)
    b0, b1 = (b.start.line, b.start.character), (b.end.line, b.end.character)
    return a0 <= b1 and b0 <= a1


def _wanted(kind: lsp.CodeActionKind | str, only: list[str] | None) -> bool:
    value = kind.value if isinstance(kind, lsp.CodeActionKind) else kind
    return not only or any(value == o or value.startswith(o + ".") for o in only)


def fix_all(snap: Snapshot, uri: str, analyse: Analyse) -> lsp.CodeAction | None:
    """Every safe, preferred fix applied (as `awl check --fix` applies them) as one edit of the
    stretch of text that changed; None when nothing would change."""
    text = snap.doc.text
    new = fix_text(text, analyse).text
    if new == text:
        return None
    start = 0
    while start < min(len(text), len(new)) and text[start] == new[start]:
        start += 1
    end = 0
    while end < min(len(text), len(new)) - start and text[-1 - end] == new[-1 - end]:
        end += 1
    lines = snap.doc.lines
    first = lines.position(start, snap.doc.encoding)
    last = lines.position(len(text) - end, snap.doc.encoding)
    rng = lsp.Range(lsp.Position(*first), lsp.Position(*last))
    edit = lsp.WorkspaceEdit(changes={uri: [lsp.TextEdit(rng, new[start : len(new) - end])]})
    return lsp.CodeAction("Apply every safe fix (as `awl check --fix`)", kind=FIX_ALL, edit=edit)


def code_actions(
    snap: Snapshot,
    uri: str,
    rng: lsp.Range,
    diagnostics: list[lsp.Diagnostic] | None = None,
    only: list[str] | None = None,
    snippets: bool = False,
    analyse: Analyse | None = None,
) -> list[lsp.CodeAction]:
    """Quick fixes for the given diagnostics that touch `rng`, then rewrites available at `rng`;
    `snippets`: the client applies snippet text edits. When `only` asks for `source.fixAll` and
    `analyse` (how `awl check` analyses a text of this document) is given, the fix-all action."""
    out: list[lsp.CodeAction] = []
    if _wanted(QUICKFIX, only):
        for diag in diagnostics or []:
            if not _overlaps(diag.range, rng):
                continue
            for fix in fixes_for(snap, problem_of(snap, diag)):
                edit = workspace_edit(snap, uri, fix, snippets)
                preferred = fix.preferred or None
                out.append(
                    lsp.CodeAction(
                        fix.title, kind=QUICKFIX, diagnostics=[diag], edit=edit, is_preferred=preferred
                    )
                )
    if _wanted(REWRITE, only):
        for fix in refactors_at(snap, _range(snap, rng)):
            out.append(lsp.CodeAction(fix.title, kind=REWRITE, edit=workspace_edit(snap, uri, fix)))
    if only and analyse is not None and _wanted(FIX_ALL, only):
        action = fix_all(snap, uri, analyse)
        out += [action] if action is not None else []
    return out
