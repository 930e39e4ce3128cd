"""The semantic checker: every AWL rule, as small modules of pure functions over the model and tree.

`run_checks` is the one entry point; the LSP diagnostics, `awl check` and its JSON output all use it.
Each `rules_*` module has `check_item(ctx: ItemContext)` (one top-level item; results are cached per
item by a `CheckCache`) and/or `check(ctx: CheckContext)` (document-wide, over per-item summaries).
"""

from __future__ import annotations

from pathlib import Path

from tree_sitter import Tree

from awl_lsp.checks.base import CheckContext, ItemContext, Problem, Severity
from awl_lsp.checks.engine import CheckCache
from awl_lsp.model import SemanticModel
from awl_lsp.model.builder import gc_paused

RULES: list = []  # rule modules register here (see _load)


def _load() -> None:
    if RULES:
        return
    import importlib
    import pkgutil

    import awl_lsp.checks as pkg

    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda i: i.name):
        if info.name.startswith("rules_"):
            module = importlib.import_module(f"awl_lsp.checks.{info.name}")
            if callable(getattr(module, "check", None)) or callable(getattr(module, "check_item", None)):
                RULES.append(module)


def run_checks(
    model: SemanticModel,
    tree: Tree,
    source: bytes,
    path: Path | None = None,
    workspace: Path | None = None,
    cache: CheckCache | None = None,
) -> list[Problem]:
    """All semantic problems of one document, sorted by position.

    `cache` (by default the one `OpenDocument` attached to the model, if any) keeps item results
    between versions of a document; without one every item is checked.
    """
    _load()
    if cache is None:
        cache = getattr(model, "check_cache", None)
        if not isinstance(cache, CheckCache):
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
    return unique


__all__ = ["CheckCache", "CheckContext", "ItemContext", "Problem", "Severity", "run_checks"]
