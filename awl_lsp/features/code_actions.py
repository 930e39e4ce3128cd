"""Code actions: the fixes of `features.fixes` and its refactorings, as LSP `CodeAction`s.

The fixes themselves live in `features.fixes` (no protocol types there; `awl check --fix` applies
the same ones). Here a diagnostic the client sends back becomes the `Problem` it was made from —
its range in the snapshot's coordinates, its code and `data` — and each `Fix` becomes a quick fix:
a `WorkspaceEdit`, `isPreferred` for the preferred one. A fix whose text holds snippet
placeholders is sent as snippet edits to a client that supports them
(`workspace.workspaceEdit.snippetEditSupport`), as its plain text to the others. Refactorings
(`when`/`otherwise` → `if`/`else`, a record's layout) come as `refactor.rewrite` actions.

Fixes work from the diagnostics the client sends (recomputing every check on each request would be
too slow on big documents) and re-read the tree at the diagnostic's range, so a stale diagnostic
simply yields no action.
"""

from __future__ import annotations

from lsprotocol import types as lsp

from awl_lsp.features.fixes import Fix, fixes_for, refactors_at
from awl_lsp.features.snapshot import Snapshot
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
            lsp.SnippetTextEdit(snap.lsp_range(e.range), lsp.StringValue(e.text)) for e in fix.edits
        ]
        document = lsp.OptionalVersionedTextDocumentIdentifier(uri=uri, version=snap.version)
        return lsp.WorkspaceEdit(document_changes=[lsp.TextDocumentEdit(document, edits)])
    changes = [lsp.TextEdit(snap.lsp_range(e.range), e.text) for e in fix.plain_edits()]
    return lsp.WorkspaceEdit(changes={uri: changes})


def _range(snap: Snapshot, r: lsp.Range) -> Range:
    return (*snap.point(r.start), *snap.point(r.end))


def _overlaps(a: lsp.Range, b: lsp.Range) -> bool:
    a0, a1 = (a.start.line, a.start.character), (a.end.line, a.end.character)
    b0, b1 = (b.start.line, b.start.character), (b.end.line, b.end.character)
    return a0 <= b1 and b0 <= a1


def _wanted(kind: lsp.CodeActionKind, only: list[str] | None) -> bool:
    value = kind.value
    return not only or any(value == o or value.startswith(o + ".") for o in only)


def code_actions(
    snap: Snapshot,
    uri: str,
    rng: lsp.Range,
    diagnostics: list[lsp.Diagnostic] | None = None,
    only: list[str] | None = None,
    snippets: bool = False,
) -> list[lsp.CodeAction]:
    """Quick fixes for the given diagnostics that touch `rng`, then rewrites available at `rng`;
    `snippets`: the client applies snippet text edits."""
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
    return out
