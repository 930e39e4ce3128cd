"""A `Snapshot`: one document version as the features see it — text, tree and semantic model.

A snapshot is a value: `OpenDocument` gives it a frozen copy of the syntax document and a model no
later build changes, so a request may hold it across an `await` (or a worker thread read it) while
newer versions are analysed, and still answer for its own text. `memo` keeps what features derived
from this version (diagnostics, semantic tokens), so asking twice for the same version costs
nothing; a new version is a new snapshot with an empty memo.

Everything here is in the model's coordinates — (row, byte column) points, `Range` tuples — and
knows no protocol: the conversion to LSP positions lives with the features that answer LSP requests
(`features.lsp_positions`), so the command line never loads the protocol libraries.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from tree_sitter import Node

from awl_lsp.checks import CheckCache
from awl_lsp.model import SemanticModel
from awl_lsp.syntax import SyntaxDocument

T = TypeVar("T")


@dataclass
class Snapshot:
    doc: SyntaxDocument
    model: SemanticModel
    path: Path | None = None
    workspace: Path | None = None
    version: int | None = None
    memo: dict[str, object] = field(default_factory=dict, repr=False, compare=False)
    # per-document memory shared by its successive snapshots (features' item caches); each feature
    # keeps under its own name only what the newest version still uses
    shared: dict[str, object] = field(default_factory=dict, repr=False, compare=False)
    # the document's per-item check results, handed to the checker so that a new version re-checks
    # only the items its edit touched (None: every item is checked)
    checks: CheckCache | None = field(default=None, repr=False, compare=False)

    def derived(self, name: str, compute: Callable[[Snapshot], T]) -> T:
        """`compute(self)`, once per snapshot under `name`."""
        if name not in self.memo:
            self.memo[name] = compute(self)
        return self.memo[name]  # type: ignore[return-value]

    # ---- tree
    def node_at(self, row: int, col: int) -> Node:
        """The smallest node at a point (preferring the token that ends there when between tokens)."""
        root = self.doc.root
        node = root.descendant_for_point_range((row, col), (row, col))
        if node is None:
            return root
        starts_here = (node.start_point.row, node.start_point.column) == (row, col)
        word = self.text(node)
        if col > 0 and (not starts_here or not word[:1].isalnum()) or node.child_count:
            before = root.descendant_for_point_range((row, col - 1), (row, col - 1))
            if (
                before is not None
                and before.child_count == 0
                and (before.end_point.row, before.end_point.column) == (row, col)
                and self.text(before)[-1:].isalnum()
            ):
                return before
        return node

    def text(self, node: Node | None) -> str:
        return self.doc.node_text(node) if node is not None else ""
