"""The command line loads no LSP library: `awl check` (text, JSON, `--fix`, many files on every
core), `awl fmt`, `awl graph` and `awl parse` never import lsprotocol or pygls — what they run is
the model, the checks and the features' pure functions, which work in the model's coordinates.

Two ways: each command run as a user runs it, with `python -X importtime` listing every module it
imported (workers included); and a walk of the import graph from the command line's code (every
import, in functions too, outside `if TYPE_CHECKING:`), so a rarely taken branch cannot bring one in.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import awl_lsp

PROTOCOL = {"lsprotocol", "pygls"}
PACKAGE = Path(awl_lsp.__file__).parent
DATA = Path(__file__).parent / "data"
EXAMPLES = PACKAGE.parent / "examples"


def _imported(*args: str, cwd: Path | None = None) -> set[str]:
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "awl_lsp", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )
    assert run.returncode in (0, 1), run.stderr[-2000:]
    return {
        line.rsplit("|", 1)[1].strip() for line in run.stderr.splitlines() if line.startswith("import time:")
    }


def test_the_commands_import_no_protocol_library(tmp_path: Path) -> None:
    broken = EXAMPLES / "broken_hatch.awl"  # an error with a fix: the fixes are loaded too
    fixable = tmp_path / "fixable.awl"
    shutil.copyfile(broken, fixable)
    many = tmp_path / "many"
    shutil.copytree(DATA / "spec", many)
    commands = [
        ("check", str(EXAMPLES / "inbox_sweep.awl")),
        ("check", str(broken)),
        ("check", "--format", "json", str(broken)),
        ("check", "--format", "sarif", str(broken)),
        ("check", "--fix", "--unsafe-fixes", str(fixable)),
        ("check", "--diff", "--unsafe-fixes", str(broken)),
        ("check", "--jobs", "2", str(many)),
        ("check", "--fix", "--jobs", "2", str(many)),
        ("fmt", "--check", str(broken)),
        ("fmt", "--check", "--jobs", "2", str(many)),
        ("graph", str(broken)),
        ("graph", "--format", "svg", str(broken)),
        ("parse", str(broken)),
    ]
    for command in commands:
        loaded = _imported(*command)
        assert "awl_lsp.cli.main" in loaded, command  # (the list was read)
        assert not {m.split(".")[0] for m in loaded} & PROTOCOL, command
    assert fixable.read_text(encoding="utf-8") != broken.read_text(encoding="utf-8")  # --fix ran


def _type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _imports(tree: ast.AST, module: str, skip: set[str] = frozenset()) -> set[str]:  # type: ignore[assignment]
    """Every module `tree` imports (absolute names), anywhere but under `if TYPE_CHECKING:` and in
    the functions named in `skip`."""
    out: set[str] = set()
    package = (
        module.rsplit(".", 1)[0]
        if not (PACKAGE / (module.replace(".", "/") + "/__init__.py")).exists()
        else module
    )

    def visit(node: ast.AST) -> None:
        if _type_checking(node):
            return
        if isinstance(node, ast.FunctionDef) and node.name in skip:
            return
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            out.add(base)
            out.update(f"{base}.{a.name}" for a in node.names)  # `from pkg import module`
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return out


def _source(module: str) -> Path | None:
    rel = PACKAGE.parent / module.replace(".", "/")
    for candidate in (rel.with_suffix(".py"), rel / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def import_walk(start: set[str], via_start: str) -> dict[str, str]:
    """Every module reachable from `start` by imports (in functions too, and each module's parent
    packages), each with the module that first imports it (`via_start` for those of `start`)."""
    via: dict[str, str] = {m: via_start for m in start}
    seen: set[str] = set()
    todo = list(start)
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        path = _source(module) if module.startswith("awl_lsp") else None
        if path is None:
            continue
        parents = [".".join(module.split(".")[:i]) for i in range(2, module.count(".") + 1)]
        for name in _imports(ast.parse(path.read_text(encoding="utf-8")), module) | set(parents):
            via.setdefault(name, module)
            todo.append(name)
    return {m: via[m] for m in seen}


def test_nothing_the_command_line_may_import_imports_a_protocol_library() -> None:
    start = _imports(
        ast.parse((PACKAGE / "cli" / "main.py").read_text(encoding="utf-8")), "awl_lsp.cli.main", {"cmd_lsp"}
    )
    via = import_walk(start, "awl_lsp.cli.main")
    seen = set(via)
    found = sorted(m for m in seen if m.split(".")[0] in PROTOCOL)
    assert not found, [(m, via[m]) for m in found]
    assert "awl_lsp.checks" in seen and "awl_lsp.features.fixes" in seen  # (the walk went deep)
