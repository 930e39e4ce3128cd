"""The fix for a token the parser found missing (`missing`, `data.missing` the token): insert it.

The syntax layer says which token (`]`, `)`, `}` …), where it belongs when that is not where the
problem is reported (`data.insert_at`, e.g. the end of the line an unclosed bracket opened), and
the token with its own layout when it needs one (`data.insert_text`, a type body's `}` on a line
of its own). Inserting the one token the parser could not do without mends the syntax error, and
changes nothing else: safe.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from awl_lsp.features.fixes.values import Fix, edit
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot


def insert_missing_token(snap: Snapshot, problem: Problem) -> list[Fix]:
    data = problem.data or {}
    token = data.get("missing")
    if not isinstance(token, str) or not token:
        return []
    where = (problem.range[0], problem.range[1])
    at = data.get("insert_at")
    if isinstance(at, (list, tuple)) and len(at) == 2 and all(isinstance(v, int) for v in at):
        where = (at[0], at[1])
    laid_out = data.get("insert_text")
    text = laid_out if isinstance(laid_out, str) and laid_out.strip() == token else token
    return [Fix(f"Insert `{token}`", (edit(where, None, text),), safe=True, preferred=True)]
