"""The layers as the folders show them: each package of `awl_lsp` says in its docstring what it owns
and, on its `May import:` line, which other packages it may import — and no module imports more.

Every import counts: at the top, inside functions (a lazy import is still a dependency), and under
`if TYPE_CHECKING:` (a type that names a layer above is a back-link too). One exception is written in
a docstring, not here: the command line hands its process to the server for `awl lsp`.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import awl_lsp

PACKAGE = Path(awl_lsp.__file__).resolve().parent
LAYERS = ["syntax", "reference", "model", "checks", "workspace", "features", "server", "cli"]
TOP_MODULES = {"__init__.py", "__main__.py"}


def _allowed(package: str) -> set[str]:
    doc = ast.get_docstring(ast.parse((PACKAGE / package / "__init__.py").read_text(encoding="utf-8"))) or ""
    found = re.search(r"^May import: (.*?)(?:\n\n|\Z)", doc, re.S | re.M)
    assert found, f"awl_lsp/{package}/__init__.py does not say what it may import"
    return set(re.findall(r"`(\w+)`", found.group(1))) - {"awl_lsp"}


def _imported_packages(path: Path) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] == "awl_lsp" and len(parts) > 1 and parts[1] in LAYERS:
                out.add(parts[1])
    return out


def test_every_folder_of_the_package_is_a_layer_with_its_docstring() -> None:
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").is_file()}
    assert folders == set(LAYERS)
    loose = {p.name for p in PACKAGE.glob("*.py")} - TOP_MODULES
    assert not loose, f"modules outside a layer: {sorted(loose)}"
    for layer in LAYERS:
        assert _allowed(layer) <= set(LAYERS), layer


def test_no_module_imports_a_layer_its_package_does_not_name() -> None:
    wrong: list[str] = []
    for layer in LAYERS:
        allowed = _allowed(layer) | {layer}
        for path in sorted((PACKAGE / layer).rglob("*.py")):
            for target in sorted(_imported_packages(path) - allowed):
                wrong.append(f"{path.relative_to(PACKAGE.parent)} imports awl_lsp.{target}")
    assert not wrong, "\n".join(wrong)


def test_the_layers_are_ordered_no_one_may_import_a_layer_above_it() -> None:
    """What the docstrings allow is itself one-directional: the order `LAYERS` lists them in."""
    for i, layer in enumerate(LAYERS):
        above = set(LAYERS[i + 1 :])
        assert not _allowed(layer) & above, (layer, _allowed(layer) & above)


def test_the_checker_finds_a_planted_back_link(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from awl_lsp.server.session import Session\n", encoding="utf-8")
    assert _imported_packages(module) == {"server"}


def test_a_model_in_use_holds_nothing_of_the_layers_above_it() -> None:
    """No back-link at run time either: the model of an open document's snapshot (checked, so its
    caches are filled) refers to no object of the checker or the features — the snapshot hands the
    checker its cache instead."""
    from awl_lsp.features.diagnostics import findings
    from awl_lsp.features.documents import OpenDocument

    doc = OpenDocument(
        (PACKAGE.parent / "examples" / "inbox_sweep.awl").read_text(encoding="utf-8"), 1, None, None
    )
    snap = doc.snapshot
    findings(snap)
    assert snap.checks is doc.checks  # (handed over)
    above = ("awl_lsp.checks", "awl_lsp.workspace", "awl_lsp.features", "awl_lsp.server", "awl_lsp.cli")
    seen: set[int] = set()
    todo: list[tuple[str, object]] = [(k, v) for k, v in vars(snap.model).items()]
    while todo:
        where, value = todo.pop()
        if id(value) in seen:
            continue
        seen.add(id(value))
        assert not type(value).__module__.startswith(above), (where, type(value))
        if isinstance(value, dict):
            todo += [(f"{where}[{k!r}]", v) for k, v in list(value.items())[:50]]
        elif isinstance(value, list | tuple | set | frozenset):
            todo += [(f"{where}[…]", v) for v in list(value)[:50]]


def test_every_test_module_is_in_the_index_by_layer() -> None:
    """`tests/README.md` says which layer each test module judges; a new module goes into it."""
    import fnmatch

    here = Path(__file__).resolve().parent
    index = (here / "README.md").read_text(encoding="utf-8")
    patterns = set(re.findall(r"`(test_[\w*]*\.py)`", index))
    unlisted = [
        p.name
        for p in sorted(here.glob("test_*.py"))
        if not any(fnmatch.fnmatch(p.name, g) for g in patterns)
    ]
    assert not unlisted, f"test modules missing from tests/README.md: {unlisted}"
