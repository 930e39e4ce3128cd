"""The checker's structure: an explicit rule registry, and no import cycles anywhere in `awl_lsp`.

The registry is what runs: a rule module that is not listed never reports, and a listed module
without rules is a mistake. Import cycles (even through imports inside functions) are found by
reading every module's imports, so a lazy import cannot hide one.
"""

from __future__ import annotations

import ast
from pathlib import Path

import awl_lsp.checks as checks
from awl_lsp.checks import RULES

PACKAGE = Path(checks.__file__).resolve().parents[1]


def _has_rules(module: object) -> bool:
    return callable(getattr(module, "check", None)) or callable(getattr(module, "check_item", None))


def test_registry_lists_every_rule_module_once_in_order() -> None:
    names = [m.__name__.rsplit(".", 1)[-1] for m in RULES]
    assert len(names) == len(set(names)), names
    idle = [n for n, m in zip(names, RULES, strict=True) if not _has_rules(m)]
    assert not idle, f"registered modules without rules: {idle}"
    on_disk = sorted(p.stem for p in (PACKAGE / "checks").glob("rules_*.py"))
    unlisted = []
    for stem in on_disk:
        if stem in names:
            continue
        tree = ast.parse((PACKAGE / "checks" / f"{stem}.py").read_text(encoding="utf-8"))
        if any(isinstance(n, ast.FunctionDef) and n.name in ("check", "check_item") for n in tree.body):
            unlisted.append(stem)
    assert not unlisted, f"rule modules missing from the registry in awl_lsp/checks/__init__.py: {unlisted}"


def _module_graph() -> dict[str, set[str]]:
    modules: dict[str, Path] = {}
    for p in PACKAGE.rglob("*.py"):
        parts = p.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = p
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, p in modules.items():
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("awl_lsp"):
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    graph[name].add(full if full in modules else node.module)
            elif isinstance(node, ast.Import):
                graph[name].update(a.name for a in node.names if a.name in modules)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative enough for this size)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycles() -> None:
    graph = _module_graph()
    assert "awl_lsp.checks.rules_types_stmt" in graph and "awl_lsp.model.builder" in graph
    assert _cycles(graph) == []


def test_cycle_finder_sees_a_lazy_import_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]
