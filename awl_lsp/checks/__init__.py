"""The semantic checker: every AWL rule, as small modules of pure functions over the model and tree.

`run_checks` is the one entry point; the LSP diagnostics, `awl check` and its JSON output all use it.
The rule modules run in the order of the explicit registry `RULES` below; each has
`check_item(ctx: ItemContext)` (one top-level item; results are cached per item by a `CheckCache`)
and/or `check(ctx: CheckContext)` (document-wide, over per-item summaries). A document-wide rule
reads the document through `ctx.items`, `ctx.doc` and `ctx.model`; its problems are reused after
an edit that changed nothing it read (`awl_lsp.checks.probes` notes which items' nodes,
references, broken steps and read names it read — nothing to declare; `awl_lsp.checks.replay`
compares them).

May import: `syntax`, `reference`, `model`.
"""

from __future__ import annotations

from pathlib import Path

from tree_sitter import Tree

from awl_lsp.checks import (
    rules_consts,
    rules_declarations,
    rules_flow,
    rules_flow_regions,
    rules_forks,
    rules_layout,
    rules_lenient,
    rules_lines,
    rules_loops,
    rules_names,
    rules_nesting,
    rules_references,
    rules_regions,
    rules_routes,
    rules_schema,
    rules_subflows,
    rules_types_stmt,
    rules_warnings,
    rules_workloop,
    rules_workloop_statements,
)
from awl_lsp.checks.base import CheckContext, ItemContext, Problem, Severity
from awl_lsp.checks.engine import CheckCache
from awl_lsp.model import SemanticModel
from awl_lsp.model.builder import gc_paused

# The rule families, in the order they run. Each has `check_item(ctx: ItemContext)` (one top-level
# item, cached per item) and/or `check(ctx: CheckContext)` (document-wide, over item summaries).
# A new rule module is added here by hand: nothing is discovered.
RULES: list = [
    rules_consts,
    rules_declarations,
    rules_flow,
    rules_flow_regions,
    rules_forks,
    rules_layout,
    rules_lenient,
    rules_lines,
    rules_loops,
    rules_names,
    rules_nesting,
    rules_references,
    rules_regions,
    rules_routes,
    rules_schema,
    rules_subflows,
    rules_types_stmt,  # the type rules (the expression walker lives in `rules_types`)
    rules_warnings,
    rules_workloop,
    rules_workloop_statements,
]


def run_checks(
    model: SemanticModel,
    tree: Tree,
    source: bytes,
    path: Path | None = None,
    workspace: Path | None = None,
    cache: CheckCache | None = None,
) -> list[Problem]:
    """All semantic problems of one document, sorted by position.

    `cache` (the one a snapshot's document hands over, if any) keeps item results between versions
    of a document; without one every item is checked.
    """
    if cache is None:
        cache = CheckCache()
    ctx = CheckContext(model, tree, source, path, workspace)
    with gc_paused():
        cache.run(ctx, RULES)
    seen: set[tuple] = set()
    unique: list[Problem] = []
    for p in sorted(ctx.problems, key=lambda p: (p.range, p.code, p.message, p.severity)):
        key = (p.range, p.message)
        if key not in seen:
            seen.add(key)
            unique.append(p)
    return unique  # (softened and annotated per item by the engine)


__all__ = ["CheckCache", "CheckContext", "ItemContext", "Problem", "Severity", "run_checks"]
