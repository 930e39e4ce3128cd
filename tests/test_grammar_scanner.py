"""The indentation scanner under hostile sizes, and the generated parser matching the grammar.

Long lines parse in time linear in their length (the scanner asks for the column only where a
line may start), deep brackets parse, nesting past the scanner's depth bound is a visible error on
the line that is too deep, and `tree-sitter generate` reproduces the committed `src/parser.c`.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import time
from pathlib import Path

import pytest
import tree_sitter_awl
from tree_sitter import Language, Parser, Tree

from awl_lsp.syntax import SyntaxDocument
from awl_lsp.syntax.errors import MAX_BLOCK_DEPTH, syntax_problems

GRAMMAR = Path(__file__).resolve().parents[1] / "tree-sitter-awl"
HEAD = "//! Long lines.\nworkflow w\n  outcome ok: type Nil, route success\n\nstep a\n  "


def parse(text: str) -> tuple[Tree, float]:
    parser = Parser(Language(tree_sitter_awl.language()))
    start = time.perf_counter()
    tree = parser.parse(text.encode())
    return tree, time.perf_counter() - start


def test_an_80_kb_line_parses_in_well_under_a_second() -> None:
    tree, seconds = parse(HEAD + "x " * 40_000 + "\n")
    assert tree.root_node.has_error  # `x x x …` is not a statement; the point is the time
    assert seconds < 1.0, f"80 KB line took {seconds:.2f} s"


def test_long_lines_scale_linearly() -> None:
    _, small = parse(HEAD + "f(a: b, c: d) " * 2_000 + "\n")
    _, large = parse(HEAD + "f(a: b, c: d) " * 16_000 + "\n")
    # eight times the text; a quadratic scanner took ~64 times as long
    assert large < 20 * max(small, 0.005), (small, large)


def test_a_1_mb_line_of_bracket_garbage_parses_in_seconds() -> None:
    rnd = random.Random(8)
    garbage = "".join(rnd.choice("([{)]}, a:") for _ in range(1 << 20))
    tree, seconds = parse(HEAD + garbage + "\nstep b\n  route ok\n")
    assert tree.root_node.has_error
    assert seconds < 20.0, f"1 MB line took {seconds:.2f} s"


@pytest.mark.parametrize(
    "line",
    [
        "f(a: " * 2000 + "1" + ")" * 2000,
        "f(a: " + "[" * 2000 + "]" * 2000 + ")",
        "f(a: " + "(" * 2000 + "1" + ")" * 2000 + ")",
    ],
    ids=["calls", "lists", "parentheses"],
)
def test_2000_deep_brackets_parse_without_errors(line: str) -> None:
    tree, _ = parse(HEAD + line + "\n  route ok\n")
    assert not tree.root_node.has_error


def test_a_2000_deep_list_type_parses() -> None:
    header = "workflow w\n  input a: " + "[" * 2000 + "Int" + "]" * 2000
    tree, _ = parse(header + "\n  outcome ok: type Nil, route success\n")
    assert not tree.root_node.has_error


def nested_steps(levels: int) -> str:
    lines = ["//! Deep.", "workflow w", "  outcome ok: type Nil, route success", ""]
    lines += ["  " * i + f"step s{i}" for i in range(levels)]
    lines.append("  " * levels + "route ok")
    return "\n".join(lines) + "\n"


def test_nesting_up_to_the_bound_parses() -> None:
    text = nested_steps(MAX_BLOCK_DEPTH)
    doc = SyntaxDocument(text)
    assert not doc.tree.root_node.has_error
    assert syntax_problems(doc.tree, doc.source, text) == []


def test_nesting_past_the_bound_is_an_error_on_the_line_too_deep() -> None:
    """The scanner's own bound, as any tree-sitter host sees it (Neovim, Helix: no blanking first)."""
    text = nested_steps(MAX_BLOCK_DEPTH + 3)
    tree, _ = parse(text)
    source = text.encode()
    problems = syntax_problems(tree, source, text)
    assert problems, "a line past the depth bound must not parse silently"
    first = min(problems, key=lambda p: p.range)
    too_deep_line = 4 + MAX_BLOCK_DEPTH + 1  # 0-based row of `step s201`
    assert first.range[0] == too_deep_line
    assert "too deeply nested" in first.message


def test_deep_nesting_is_a_diagnostic_in_the_server_and_cli() -> None:
    """The syntax layer bounds depth before the scanner's bound is reached: the user still sees why."""
    from awl_lsp.features.diagnostics import findings
    from awl_lsp.features.documents import analyse_text

    found = findings(analyse_text(nested_steps(MAX_BLOCK_DEPTH + 3)))
    assert any("nested too deeply" in f.message for f in found)


def test_comment_lines_keep_their_place_on_a_long_line() -> None:
    text = HEAD + "f(a: 1)" + " " * 300 + "// trailing\n  // own line\n  route ok\n"
    tree, _ = parse(text)
    assert not tree.root_node.has_error
    comments, stack = [], [tree.root_node]
    while stack:
        node = stack.pop()
        comments += [node] if node.type == "comment" else []
        stack.extend(node.children)
    assert sorted((c.start_point.row, c.start_point.column) for c in comments) == [(5, 309), (6, 2)]


def _tree_sitter_cli() -> str | None:
    explicit = os.environ.get("AWL_TREE_SITTER")
    if explicit:
        return explicit if Path(explicit).exists() else None
    beside = GRAMMAR.parents[1] / "shared" / "bin" / "tree-sitter"
    if beside.exists():
        return str(beside)
    return shutil.which("tree-sitter")


def test_tree_sitter_generate_reproduces_the_committed_parser(tmp_path: Path) -> None:
    cli = _tree_sitter_cli()
    if cli is None:
        where = "$AWL_TREE_SITTER, ../shared/bin/tree-sitter or PATH"
        if os.environ.get("AWL_REQUIRE_TREE_SITTER") == "1":
            pytest.fail(f"AWL_REQUIRE_TREE_SITTER=1 but no tree-sitter CLI ({where})")
        pytest.skip(f"no tree-sitter CLI ({where}): the generated parser is not compared")
    work = tmp_path / "tree-sitter-awl"
    work.mkdir()
    for name in ("grammar.js", "package.json", "tree-sitter.json"):
        if (GRAMMAR / name).exists():
            shutil.copy(GRAMMAR / name, work / name)
    result = subprocess.run(
        [cli, "generate", "--no-bindings"], cwd=work, capture_output=True, text=True, timeout=300, check=False
    )
    assert result.returncode == 0, result.stderr
    for generated in ("parser.c", "grammar.json", "node-types.json"):
        fresh = (work / "src" / generated).read_bytes()
        committed = (GRAMMAR / "src" / generated).read_bytes()
        assert fresh == committed, f"src/{generated} is not what `tree-sitter generate` makes: regenerate it"


def _errors(tree: Tree) -> list[tuple[int, int, str]]:
    found, stack = [], [tree.root_node]
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            found.append((node.start_point.row, node.start_point.column, node.type))
        stack.extend(node.children)
    return sorted(found)


def test_comments_after_doc_lines_and_trailing_comments_keep_the_block() -> None:
    text = (
        "worker w\n"
        "  /// Doc for the action.\n"
        "  action a(x: String) -> String // trailing\n"
        "// column 0 inside the worker\n"
        "  action b(x: String) -> String\n"
    )
    tree, _ = parse(text)
    assert _errors(tree) == []
    worker = tree.root_node.named_children[0]
    assert sum(c.type == "action_declaration" for c in worker.named_children) == 2


def test_a_comment_after_an_error_stays_a_comment() -> None:
    text = (
        "workflow w\n"
        "  outcome ok: type T, route success\n"
        "outcome held: type T, route failure\n"
        "\n"
        "/// The type.\n"
        "type T { a: Int }\n"
    )
    tree, _ = parse(text)
    assert all(row == 2 for row, _, _ in _errors(tree)), _errors(tree)
    docs = [n for n in tree.root_node.children if n.type == "doc_comment"]
    assert [(d.start_point.row, d.text) for d in docs] == [(4, b"/// The type.\n")]
