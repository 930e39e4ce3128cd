"""Fixes: what the editor offers as quick fixes and `awl check --fix` applies — one implementation.

A fix is a pure function of a snapshot and a `Problem` (range, code, `data`: what the checker or
the syntax layer reported) that returns `Fix` values (`values.py`): a title, edits in the
snapshot's coordinates, `safe`, `preferred`, `snippet`. The problem comes straight from the
checker on the command line, and back from the client's diagnostic (its code and `data`) in the
server; either way the same function computes the same edits. Front ends: `features.code_actions`
turns a `Fix` into an LSP `CodeAction`; `apply.fix_text` applies the preferred ones to a text for
`awl check --fix`. Nothing here imports the protocol libraries (lsprotocol, pygls).

Adding a fix (CONTRIBUTING.md says the same)
--------------------------------------------
1. Make the problem carry what the fix needs, in its `data`, where the rule reports it
   (`ctx.error(range, message, "code", {"name": …, "missing": …})`): the fix reads the code and the
   data, never the message, and re-reads the tree only to check that the text is still what the
   problem describes (a problem the editor sends back may be older than the text).
2. Write the function in the module of its language concept (`clauses.py`, `names.py`,
   `arguments.py`, … — a new module when none fits, one concept each):

       def add_else_arm(snap: Snapshot, problem: Problem) -> list[Fix]:
           node = node_at(snap, problem.range)          # places.py: node_at, ancestor, span, end
           if …the text no longer matches…:
               return []                                 # offer nothing rather than something wrong
           return [Fix("Add an `else` arm", (edit(end(node), None, "\\n  else, route done"),),
                       safe=False, preferred=True)]

   `safe=True` only when the result is certainly what the author meant (a missing token, the
   one spelling the engine accepts); a guessed name, value or intent is `safe=False`, however
   likely. An edit that reaches lines the fix does not see (a declaration's type, a rename), or a
   guess among several (a close name), is tried first: `trial.mends(snap, problem, edits)` (an
   incremental re-check of a replica of the document). `preferred=True` for the one fix to apply
   when only one is. Text the user must fill in: `snippet=True` and `tabstop(1, "placeholder")`
   (`values.py`); the plain text (what the command line writes) is the placeholder's default.
3. Register it in `registry.FIXES`, in order, with the code and a test on `data`:
   `Entry(flow.add_else_arm, "outcome-cover", lambda d: d.get("missing") == "else")`.
4. Test what a user sees (`tests/test_code_actions.py`: the fixed text). tests/test_safe_fixes.py
   already applies it on every invalid document, through the editor's path and `awl check --fix`,
   and fails when it leaves the problem or brings a new one; `bench/fix_coverage.py` shows the
   coverage it adds.
"""

from awl_lsp.features.fixes.apply import Applied, FixedText, apply_edits, fix_text
from awl_lsp.features.fixes.refactors import refactors_at
from awl_lsp.features.fixes.registry import FIXES, Entry, fixes_for, preferred_fix
from awl_lsp.features.fixes.values import Edit, Fix, Range, plain_text, tabstop

__all__ = [
    "FIXES",
    "Applied",
    "Edit",
    "Entry",
    "Fix",
    "FixedText",
    "Range",
    "apply_edits",
    "fix_text",
    "fixes_for",
    "preferred_fix",
    "plain_text",
    "refactors_at",
    "tabstop",
]
