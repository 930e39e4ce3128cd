"""Fixes for the document as a whole: a document without its `//!` narration line.

- `narration` (`data.missing == "narration"`): insert a `//! ` line at the top, the cursor on it.
  Unsafe: it only opens the line; what the document does is for the author to write.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from awl_lsp.features.fixes.values import Fix, edit, tabstop
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot


def add_narration(snap: Snapshot, problem: Problem) -> list[Fix]:
    line = f"//! {tabstop(0)}\n"
    title = "Add a `//!` narration line at the top"
    return [Fix(title, (edit((0, 0), None, line),), safe=False, preferred=True, snippet=True)]
