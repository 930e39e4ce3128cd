"""The semantic checker: every AWL rule, as small modules of pure functions over the model and tree.

`run_checks` is the one entry point; the LSP diagnostics, `awl check` and its JSON output all use it.
Each rule module exposes `check(ctx: CheckContext) -> None` and is listed in `RULES`.
"""

from __future__ import annotations

from pathlib import Path

from tree_sitter import Tree

from awl_lsp.checks.base import CheckContext, Problem, Severity
from awl_lsp.model import SemanticModel

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
            if callable(getattr(module, "check", None)):
                RULES.append(module)


def run_checks(
    model: SemanticModel,
    tree: Tree,
    source: bytes,
    path: Path | None = None,
    workspace: Path | None = None,
) -> list[Problem]:
    """All semantic problems of one document, sorted by position."""
    _load()
    ctx = CheckContext(model, tree, source, path, workspace)
    for rule in RULES:
        rule.check(ctx)
    seen: set[tuple] = set()
    unique: list[Problem] = []
    for p in sorted(ctx.problems, key=lambda p: (p.range, p.code)):
        key = (p.range, p.message)
        if key not in seen:
            seen.add(key)
            unique.append(p)
    return unique


__all__ = ["CheckContext", "Problem", "Severity", "run_checks"]
