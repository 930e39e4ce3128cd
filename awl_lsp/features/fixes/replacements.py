"""The fix for a problem whose checker knows what was meant (`data.rewrite`): write that instead.

`count(x)` where the pipe already gives `count` its list becomes `count`, a bare `workflow` where
its id is meant becomes `workflow.id`: the checker names the one reading the engine accepts, so
the fix is safe.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from awl_lsp.features.fixes.values import Edit, Fix
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot


def write_what_was_meant(snap: Snapshot, problem: Problem) -> list[Fix]:
    new = (problem.data or {}).get("rewrite")
    if not isinstance(new, str) or not new:
        return []
    return [Fix(f"Write `{new}`", (Edit(problem.range, new),), safe=True, preferred=True)]
