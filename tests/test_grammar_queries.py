"""The editor queries of tree-sitter-awl: they compile, and editors using them behave as a user expects.

* highlights: every keyword of the user's reference is highlighted as a keyword in its example,
  contextual keywords used as names are not, and no node gets two competing captures;
* folds, tags and locals: the folds, symbols and name resolutions a user sees;
* indents: an exact port of nvim-treesitter's indent algorithm re-indents every valid document
  to its own indentation (`gg=G` is a no-op) and indents a fresh line after each kind of line.
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest
import tree_sitter_awl
from tree_sitter import Language, Node, Parser, Query, QueryCursor, Tree

REPO = Path(__file__).resolve().parents[1]
QUERIES_DIR = REPO / "tree-sitter-awl" / "queries"
DATA = Path(__file__).resolve().parent / "data" / "grammar"
REFERENCE_EXAMPLES = DATA / "reference"
SHARED_AWL = Path(os.environ.get("AWL_REFERENCE_DIR", REPO.parent / "shared" / "awl"))

LANGUAGE = Language(tree_sitter_awl.language())
QUERY_NAMES = ["highlights", "folds", "indents", "injections", "locals", "tags"]
BUILTIN_TYPES = ["Bool", "Int", "Float", "String", "Nil", "Dir"]


def parse(source: str | bytes) -> Tree:
    return Parser(LANGUAGE).parse(source.encode("utf-8") if isinstance(source, str) else source)


def query(name: str) -> Query:
    return Query(LANGUAGE, tree_sitter_awl.query_source(name))


def walk(node: Node) -> Iterator[Node]:
    yield node
    for child in node.children:
        yield from walk(child)


def own_documents() -> list[Path]:
    return sorted(DATA.glob("*.awl")) + sorted(REFERENCE_EXAMPLES.glob("*.awl"))


def corpus_documents() -> list[Path]:
    root = Path(os.environ.get("AWL_CORPUS", REPO.parent / "shared" / "corpus"))
    return sorted(root.glob("**/valid/*.awl")) if root.is_dir() else []


def all_documents() -> list[Path]:
    return own_documents() + corpus_documents()


def queue_watch() -> bytes:
    return (REFERENCE_EXAMPLES / "queue_watch.awl").read_bytes()


# ----------------------------------------------------------------------------------------------
# (f) the queries compile


@pytest.mark.parametrize("name", QUERY_NAMES)
def test_query_compiles(name: str) -> None:
    path = QUERIES_DIR / f"{name}.scm"
    assert path.is_file(), f"missing {path}"
    compiled = Query(LANGUAGE, path.read_text(encoding="utf-8"))
    assert compiled.pattern_count > 0
    # the Python package ships the same files (queries/ is linked into the binding)
    assert tree_sitter_awl.query_source(name) == path.read_text(encoding="utf-8")


def test_query_files_are_the_expected_set() -> None:
    assert sorted(p.stem for p in QUERIES_DIR.glob("*.scm")) == sorted(QUERY_NAMES)


def test_json_bodies_are_injected_as_json() -> None:
    """Editors highlight the bodies of `json { … }` and `schema { … }` with their JSON grammar."""
    source = (
        b'const limits = json { "max": 3, "tags": ["a"] }\n'
        b'type Ticket = schema { "type": "object", "properties": { "id": { "type": "string" } } }\n'
    )
    tree = parse(source)
    compiled = query("injections")
    bodies = []
    for pattern, match in QueryCursor(compiled).matches(tree.root_node):
        assert (compiled.pattern_settings(pattern) or {}).get("injection.language") == "json"
        bodies += [source[n.start_byte : n.end_byte] for n in match["injection.content"]]
    assert bodies == [
        b'{ "max": 3, "tags": ["a"] }',
        b'{ "type": "object", "properties": { "id": { "type": "string" } } }',
    ]


# ----------------------------------------------------------------------------------------------
# highlights


def key(node: Node) -> tuple[int, int, str]:
    return (node.start_byte, node.end_byte, node.type)


def highlight_map(source: bytes) -> tuple[Tree, dict[tuple[int, int, str], list[str]]]:
    """Capture names per node (keyed by byte range and node type)."""
    tree = parse(source)
    captures: dict[tuple[int, int, str], list[str]] = defaultdict(list)
    for name, nodes in QueryCursor(query("highlights")).captures(tree.root_node).items():
        for node in nodes:
            captures[(node.start_byte, node.end_byte, node.type)].append(name)
    return tree, captures


def captures_of(source: bytes, text: str, occurrence: int = 0) -> list[str]:
    """Captures of the `occurrence`-th token spelled `text`: those of its node, or of the nearest
    ancestor spanning exactly the same bytes (a `boolean` around `true`, a `route_target` …)."""
    tree, captures = highlight_map(source)
    needle = text.encode()
    pattern = re.escape(needle)
    if re.fullmatch(rb"\w+", needle):
        pattern = rb"(?<!\w)" + pattern + rb"(?!\w)"
    start = [m.start() for m in re.finditer(pattern, source)][occurrence]
    node: Node | None = tree.root_node.descendant_for_byte_range(start, start + len(needle))
    assert node is not None and node.text == needle, f"no single node spelled {text!r}"
    while node is not None and node.start_byte == start and node.end_byte == start + len(needle):
        found = captures.get((node.start_byte, node.end_byte, node.type))
        if found:
            return found
        node = node.parent
    return []


def test_tolerance_is_a_keyword_in_queue_watch() -> None:
    assert captures_of(queue_watch(), "tolerance") == ["keyword"]


def reference_entries() -> list[tuple[str, str]]:
    """(keyword, example) for each entry of the user's keyword reference, in file order."""
    path = SHARED_AWL / "keyword-reference.txt"
    keywords_md = SHARED_AWL / "KEYWORDS.md"
    if not path.is_file() or not keywords_md.is_file():
        return []
    keywords = re.findall(r"^\| \d+ \| `(\w+)` \|", keywords_md.read_text(encoding="utf-8"), re.M)
    text = path.read_text(encoding="utf-8")
    text = text if text.endswith("\n") else text + "\n"
    examples = re.findall(r"^(//! .*?\n(?:.*\n)*?)(?=\n[A-Z][^\n]*\n\n• form|\Z)", text, re.M)
    return list(zip(keywords, examples, strict=True)) if len(keywords) == len(examples) else []


def test_every_reference_keyword_is_highlighted_in_its_example() -> None:
    entries = reference_entries()
    if not entries:
        if os.environ.get("AWL_REQUIRE_CORPUS") == "1":
            pytest.fail(f"keyword reference not readable under {SHARED_AWL}")
        pytest.skip(f"keyword reference not found under {SHARED_AWL} (set AWL_REFERENCE_DIR)")
    assert len(entries) == 15
    for keyword, example in entries:
        source = example.encode()
        tree, captures = highlight_map(source)
        spelled = [
            n
            for n in walk(tree.root_node)
            if n.text == keyword.encode() and n.child_count == 0 and n.type != "identifier"
        ]
        assert spelled, f"{keyword!r} does not appear as a keyword token in its example"
        expected = ["constant.builtin"] if keyword == "start" else ["keyword"]
        for node in spelled:
            got = captures.get((node.start_byte, node.end_byte, node.type))
            assert got == expected, f"{keyword!r} at {node.start_point} highlighted as {got}"


def test_the_reference_examples_are_the_stored_copies() -> None:
    entries = reference_entries()
    if not entries:
        pytest.skip(f"keyword reference not found under {SHARED_AWL}")
    examples = {example for _, example in entries}
    for path in sorted(REFERENCE_EXAMPLES.glob("*.awl")):
        assert path.read_text(encoding="utf-8") in examples, f"{path.name} differs from the reference"


@pytest.mark.parametrize(
    ("source", "text", "occurrence", "expected"),
    [
        # contextual keywords used as names are names, not keywords
        (b"workflow w\n  input report: String\n", "report", 0, ["variable"]),
        (b"workflow w\n  input key: String\n", "key", 0, ["variable"]),
        (b"type T { count: Int, start: Int }\n", "count", 0, ["property"]),
        (b"step start\n  f(n: task.key) -> count\n", "start", 0, ["function"]),
        (b"step s\n  f(n: task.key) -> count\n", "key", 0, ["property"]),
        (b"step s\n  f(n: task.key) -> count\n", "count", 0, ["variable"]),
        (b"step s\n  xs |> count -> n\n", "count", 0, ["function.builtin"]),
        (b"step s\n  outcome unconfirmed: else, route a\n", "unconfirmed", 0, ["label"]),
        # keywords where they open or continue a construct
        (b"step s\n  hatch p(k: 1) key k.id\n", "key", 0, ["keyword"]),
        (b"step s\n  route start\n", "start", 0, ["constant.builtin"]),
        (b"workflow w\n  outcome ok: type T, route success\n", "success", 0, ["constant.builtin"]),
        (b"workflow w\n  outcome ok: type T, route success\n", "workflow", 0, ["keyword"]),
        (b"step s\n  f(id: workflow.id)\n", "workflow", 0, ["variable.builtin"]),
        (b"step s\n  f(id: workflow.id)\n", "id", 1, ["property"]),
        (b"step s\n  f(id: workflow.id)\n", "id", 0, ["variable.parameter"]),
        (b"step s\n  on failure\n    route x\n", "failure", 0, ["keyword"]),
        (b"step s\n  outcome a: when x, route b\n", "when", 0, ["keyword.conditional"]),
        (b"step s\n  outcome a: otherwise, route b\n", "otherwise", 0, ["keyword.conditional"]),
        (b"step s\n  loop r = 1 counting n\n    until r\n    max 3\n", "counting", 0, ["keyword.repeat"]),
        (b"step s\n  outcome a: if x is empty and not y, route b\n", "is", 0, ["keyword.operator"]),
        (b"step s\n  outcome a: if visits < 3, route s\n  max 3 visits\n", "visits", 0, ["variable.builtin"]),
        (b"step s\n  outcome a: if visits < 3, route s\n  max 3 visits\n", "visits", 1, ["keyword"]),
        # types
        (b"type T { a: Int, b: Task }\n", "Int", 0, ["type.builtin"]),
        (b"type T { a: Int, b: Task }\n", "Task", 0, ["type"]),
        (b"type T { a: Int, b: Task }\n", "T", 0, ["type.definition"]),
        (b"step s\n  loop r = Round(a: 1)\n    max 1\n", "Round", 0, ["type"]),
        (b"step s\n  sweep(a: 1) -> r\n", "sweep", 0, ["function.call"]),
        (b"step s\n  xs |> summarize -> r\n", "summarize", 0, ["function.call"]),
        # declarations
        (b"workloop w\n  every 5m\n", "w", 0, ["module"]),
        (b"worker w\n  action a(x: Int) -> Int\n", "a", 0, ["function"]),
        (b"worker w\n  action a(x: Int) -> Int\n", "x", 0, ["variable.parameter"]),
        (b"worker w\n  action a(x: Int) -> Int\n    node gpu\n", "gpu", 0, ["module"]),
        (b"type V = Yes | No\n", "No", 0, ["constant"]),
        (b"const limit = 3\n", "limit", 0, ["constant"]),
        (b"step s after a, b\n  route done\n", "b", 0, ["function"]),
        (b"step s\n  route done(x: 1)\n", "done", 0, ["label"]),
        # literals, comments, operators
        (b'const s = "a\\"b"\n', '"a\\"b"', 0, ["string"]),
        (b'const s = """raw"""\n', '"""raw"""', 0, ["string"]),
        (b'const j = json { "a": 1 }\n', '{ "a": 1 }', 0, ["string.special"]),
        (b"const d = 250ms\n", "250ms", 0, ["number"]),
        (b"const f = 0.5\n", "0.5", 0, ["number"]),
        (b"// plain\nconst x = 1\n", "// plain\n", 0, ["comment"]),
        (b"/// doc\nconst x = 1\n", "/// doc\n", 0, ["comment.documentation"]),
        (b"//! story\nworkflow w\n", "//! story\n", 0, ["comment.documentation"]),
        (b"step s\n  xs |> count -> n\n", "|>", 0, ["operator"]),
        (b"step s\n  xs |> count -> n\n", "->", 0, ["operator"]),
    ],
)
def test_highlight_capture(source: bytes, text: str, occurrence: int, expected: list[str]) -> None:
    assert captures_of(source, text, occurrence) == expected


def test_booleans_are_highlighted() -> None:
    source = b"const t = true\nconst f = false\n"
    assert captures_of(source, "true") == ["boolean"] and captures_of(source, "false") == ["boolean"]


@pytest.mark.parametrize("path", all_documents(), ids=lambda p: p.stem)
def test_every_token_is_highlighted_exactly_once(path: Path) -> None:
    """No node gets two competing captures (so Neovim, Helix and Zed agree), and no token is bare."""
    tree, captures = highlight_map(path.read_bytes())
    doubled = {key: names for key, names in captures.items() if len(names) > 1}
    assert not doubled, f"nodes with competing captures: {doubled}"
    bare = []
    for node in walk(tree.root_node):
        if node.child_count:
            continue
        ancestor: Node | None = node
        while ancestor is not None and key(ancestor) not in captures:
            ancestor = ancestor.parent
        if ancestor is None:
            bare.append((node.type, node.start_point.row + 1, node.text))
    assert not bare, f"tokens without a highlight: {bare}"


# ----------------------------------------------------------------------------------------------
# folds


def folds(source: bytes) -> set[tuple[str, int, int]]:
    """(node type, first line, last line) of each fold spanning two or more lines (1-based lines;
    blank lines a block's range ends with are not counted: an editor shows them as the fold's end)."""
    tree = parse(source)
    lines = source.decode().split("\n")
    out = set()
    for nodes in QueryCursor(query("folds")).captures(tree.root_node).values():
        for node in nodes:
            last = node.end_point.row - (1 if node.end_point.column == 0 else 0)
            while last > node.start_point.row and not lines[last].strip():
                last -= 1
            if last > node.start_point.row:
                out.add((node.type, node.start_point.row + 1, last + 1))
    return out


def test_folds_in_queue_watch() -> None:
    assert folds(queue_watch()) == {
        ("header", 3, 10),  # every … retention
        ("invariant_clause", 7, 9),  # invariant, tolerance, confirms
        ("worker_declaration", 16, 17),
        ("step_body", 22, 25),  # sweep_queue's body
        ("step_body", 28, 31),  # dispatch's body (the one-line fork body does not fold)
    }


def test_folds_for_brackets_json_and_declarations() -> None:
    found = folds((DATA / "release_train.awl").read_bytes())
    assert {
        ("json_body", 15, 23),  # type Policy = schema { … }
        ("record_body", 25, 30),  # type Candidate { … }
        ("json_body", 38, 44),  # const manifest = json { … }
        ("raw_string", 45, 47),
        ("parameters", 50, 54),  # action vet( … )
        ("subflow_declaration", 63, 77),
        ("loop_body", 72, 74),
        ("arguments", 68, 69),  # a call's arguments broken over two lines
        ("block", 102, 104),  # on failure
    } <= found
    assert ("worker_declaration", 49, 59) in found


# ----------------------------------------------------------------------------------------------
# tags


def tags(source: bytes) -> list[tuple[str, str]]:
    tree = parse(source)
    out = []
    for _, match in QueryCursor(query("tags")).matches(tree.root_node):
        kinds = [k for k in match if k.startswith(("definition.", "reference."))]
        if kinds and "name" in match:
            out.append((kinds[0], match["name"][0].text.decode()))
    return out


def test_tags_of_queue_watch() -> None:
    found = tags(queue_watch())
    definitions = [t for t in found if t[0].startswith("definition.")]
    assert definitions == [
        ("definition.module", "queue_watch"),
        ("definition.class", "Board"),
        ("definition.class", "Task"),
        ("definition.class", "Sweep"),
        ("definition.class", "sweepers"),
        ("definition.function", "sweep"),
        ("definition.function", "process_task"),
        ("definition.function", "sweep_queue"),
        ("definition.function", "dispatch"),
    ]
    references = {t for t in found if t[0].startswith("reference.")}
    assert ("reference.call", "sweep") in references
    assert ("reference.call", "process_task") in references
    assert ("reference.call", "dispatch") in references  # `route dispatch`
    assert ("reference.type", "Board") in references
    assert not any(name in BUILTIN_TYPES for _, name in references)


def test_tags_cover_children_subflows_and_docs() -> None:
    source = (DATA / "release_train.awl").read_bytes()
    found = set(tags(source))
    assert {
        ("definition.function", "notify"),
        ("definition.function", "vet_one"),
        ("definition.function", "rescan"),
        ("definition.class", "builds"),
        ("definition.module", "release_train"),
        ("definition.constant", "manifest"),
    } <= found
    tree = parse((DATA / "inbox_watch.awl").read_bytes())
    docs = {}
    for _, match in QueryCursor(query("tags")).matches(tree.root_node):
        if "doc" in match:
            docs[match["name"][0].text.decode()] = [d.text.decode().strip() for d in match["doc"]]
    assert docs["mailroom"] == ["/// Reads the inbox; never moves or deletes mail."]
    assert docs["scan"] == ["/// Lists messages not yet seen."]
    assert docs["triage_message"] == ["/// One triage run per message; it outlives this iteration."]


# ----------------------------------------------------------------------------------------------
# locals: resolve references the way tree-sitter-highlight does (nearest preceding definition
# in the innermost enclosing scope that has one)


def resolve_locals(source: bytes) -> list[tuple[Node, Node | None]]:
    tree = parse(source)
    captures = QueryCursor(query("locals")).captures(tree.root_node)
    scopes = captures.get("local.scope", [])

    def enclosing(node: Node) -> list[Node]:
        inside = [s for s in scopes if s.start_byte <= node.start_byte and node.end_byte <= s.end_byte]
        return sorted(inside, key=lambda s: s.end_byte - s.start_byte)

    by_scope: dict[int, list[Node]] = defaultdict(list)
    for definition in captures.get("local.definition", []):
        by_scope[enclosing(definition)[0].id].append(definition)
    resolved = []
    for reference in sorted(captures.get("local.reference", []), key=lambda n: n.start_byte):
        target = None
        for scope in enclosing(reference):
            candidates = [
                d
                for d in by_scope[scope.id]
                if d.text == reference.text and d.start_byte < reference.start_byte
            ]
            if candidates:
                target = max(candidates, key=lambda d: d.start_byte)
                break
        resolved.append((reference, target))
    return resolved


def test_locals_resolve_across_steps_in_queue_watch() -> None:
    resolved = resolve_locals(queue_watch())
    assert all(target is not None for _, target in resolved), [r.text for r, t in resolved if t is None]
    kinds = {(r.text.decode(), t.parent.type) for r, t in resolved if t is not None}
    assert kinds == {
        ("queue_dir", "input_clause"),
        ("seen", "carry_clause"),
        ("found", "binding"),  # bound in sweep_queue, read in dispatch
        ("task", "fork_statement"),
    }


@pytest.mark.parametrize("path", own_documents(), ids=lambda p: p.stem)
def test_locals_leave_only_non_local_names_unresolved(path: Path) -> None:
    source = path.read_bytes()
    tree = parse(source)
    later_definitions = {
        n.text for n in walk(tree.root_node) if n.parent is not None and n.parent.type == "signal_clause"
    }
    for reference, target in resolve_locals(source):
        if target is not None:
            assert target.text == reference.text
            continue
        text = reference.text
        # `visits` is a builtin, TitleCase names are enum variants, `on SIGNAL` precedes its `signal`
        assert text == b"visits" or text[:1].isupper() or text in later_definitions, (
            f"{path.name}: {text!r} at {reference.start_point} resolves to nothing"
        )


def test_fork_item_is_local_to_the_fork_body() -> None:
    source = b"step s\n  fork t in ts\n    f(x: t) -> r\n  join\n  g(x: r)\n"
    resolved = {(r.text, r.start_point.row): t for r, t in resolve_locals(source)}
    assert resolved[(b"t", 2)] is not None and resolved[(b"t", 2)].parent.type == "fork_statement"
    assert resolved[(b"r", 4)] is None  # a branch's binding leaves the fork only through `join`


# ----------------------------------------------------------------------------------------------
# indents: nvim-treesitter's algorithm (lua/nvim-treesitter/indent.lua), ported line for line


INDENT_CAPTURES = [
    "indent.begin",
    "indent.end",
    "indent.dedent",
    "indent.branch",
    "indent.auto",
    "indent.ignore",
    "indent.align",
    "indent.zero",
]


def indent_captures(tree: Tree) -> dict[str, dict[int, dict[str, str | None]]]:
    compiled = query("indents")
    captured: dict[str, dict[int, dict[str, str | None]]] = {name: {} for name in INDENT_CAPTURES}
    for pattern, match in QueryCursor(compiled).matches(tree.root_node):
        settings = compiled.pattern_settings(pattern) or {}
        for name, nodes in match.items():
            for node in nodes:
                captured[name][node.id] = dict(settings)
    return captured


def nvim_indent(
    lines: list[str],
    row: int,
    shiftwidth: int = 2,
    parsed: tuple[Tree, dict[str, dict[int, dict[str, str | None]]]] | None = None,
) -> int:
    """The indent nvim-treesitter computes for 0-based `row`; -1 means "keep / autoindent"."""
    if parsed is None:
        tree = parse("\n".join(lines))
        parsed = (tree, indent_captures(tree))
    tree, q = parsed
    root = tree.root_node

    def node_at(r: int, col: int) -> Node:
        node = root.descendant_for_point_range((r, col), (r, col))
        assert node is not None
        return node

    def indent_of(text: str) -> int:
        return len(text) - len(text.lstrip(" "))

    line = lines[row]
    if not line.strip():
        prev = row - 1
        while prev >= 0 and not lines[prev].strip():
            prev -= 1
        if prev < 0:
            return 0
        indent, prevline = indent_of(lines[prev]), lines[prev].strip()
        node = node_at(prev, indent + len(prevline) - 1)
        if "comment" in node.type:
            first = node_at(prev, indent)
            if first.id != node.id:
                prevline = lines[prev][indent : node.start_point.column].strip()
                node = node_at(prev, indent + len(prevline) - 1)
        if node.id in q["indent.end"]:
            node = node_at(row, indent_of(line))
    else:
        node = node_at(row, indent_of(line))

    if node.id in q["indent.zero"]:
        return 0
    indent = 0
    processed: dict[int, bool] = {}
    current: Node | None = node
    while current is not None:
        nid = current.id
        srow, erow = current.start_point.row, current.end_point.row
        begin = q["indent.begin"].get(nid)
        if begin is None and nid not in q["indent.align"] and nid in q["indent.auto"] and srow < row <= erow:
            return -1
        if begin is None and nid in q["indent.ignore"] and srow < row <= erow:
            return 0
        is_processed = False
        if not processed.get(srow) and (
            (nid in q["indent.branch"] and srow == row) or (nid in q["indent.dedent"] and srow != row)
        ):
            indent -= shiftwidth
            is_processed = True
        should_process = not processed.get(srow)
        in_error = should_process and current.parent is not None and current.parent.has_error
        if (
            should_process
            and begin is not None
            and (srow != erow or in_error or "indent.immediate" in begin)
            and (srow != row or "indent.start_at_same_line" in begin)
        ):
            indent += shiftwidth
            is_processed = True
        processed[srow] = processed.get(srow, False) or is_processed
        current = current.parent
    return indent


def reindent_mismatches(text: str, comments: bool = False) -> list[tuple[int, int, int, str]]:
    """Lines whose indentation differs from what nvim computes (comment-only lines only if asked:
    a comment may sit at any indentation, and the indenter moves it to its block's level)."""
    lines = text.split("\n")
    tree = parse(text)
    parsed = (tree, indent_captures(tree))
    out = []
    for row, line in enumerate(lines):
        if not line.strip() or (line.lstrip().startswith("//") and not comments):
            continue
        computed = nvim_indent(lines, row, parsed=parsed)
        actual = len(line) - len(line.lstrip(" "))
        if computed != -1 and computed != actual:
            out.append((row + 1, actual, computed, line.strip()))
    return out


@pytest.mark.parametrize("path", all_documents(), ids=lambda p: p.stem)
def test_reindenting_a_valid_document_changes_nothing(path: Path) -> None:
    assert reindent_mismatches(path.read_text(encoding="utf-8")) == []


TAIL = "\nstep next\n  g()\n"


@pytest.mark.parametrize(
    ("before", "expected"),
    [
        ("workflow w", 2),
        ("workflow w\n  input x: Int", 2),
        ("workloop w\n  every 5m\n  invariant s: type B", 4),
        ("workloop w\n  every 5m\n  invariant s: type B\n    tolerance 3 windows\n    confirms start", 4),
        ("worker w", 2),
        ("worker w\n  action a(x: Int) -> Int", 2),
        ("worker w\n  action a(x: Int) -> Int\n    node gpu, timeout 5m", 2),
        ("subflow s(a: Int)", 2),
        ("subflow s(a: Int)\n  outcome ok: type Int", 2),
        ("type T {", 2),
        ("type T {\n  a: Int,", 2),
        ("type T {\n  a: Int,\n}", 0),
        ("const x = 1", 0),
        ("//! narration", 0),
        ("step x", 2),
        ("step x after a, b", 2),
        ("step x\n  step y", 4),
        ("step x\n  step y\n    f()", 4),
        ("step x\n  f() -> r", 2),
        ("step x\n  f(", 4),
        ("step x\n  f(a: 1,", 4),
        ("step x\n  route done(", 4),
        ("step x\n  xs |> filter(.ok)", 2),
        ("step x\n  fork", 4),
        ("step x\n  fork t in ts", 4),
        ("step x\n  fork t in ts\n    f(t: t)", 4),
        ("step x\n  fork t in ts\n    f(t: t)\n  join -> rs", 2),
        ("step x\n  loop r = 1 counting n", 4),
        ("step x\n  loop r = 1 counting n\n    f(p: r) -> r\n    until r > 3", 4),
        ("step x\n  loop r = 1 counting n\n    f(p: r) -> r\n    until r > 3\n    max 5", 2),
        ("step x\n  f()\n  on failure", 4),
        ("step x\n  f()\n  on failure\n    g()\n    route y", 2),
        ("step x\n  outcome a: if y, route b", 2),
        ("step x\n  outcome a: if y, route b(z: 1)", 2),
        ("step x\n  f()\n  outcome a: else,", 4),
        ("step x\n  f()\n  outcome a: if y > 1,", 4),
        ("step x\n  outcome a: else,\n    route b(z: 1)", 2),
        ("step x\n  outcome a: else,\n    route start", 2),
        ("step x\n  max 3 visits", 2),
        ("retire", 2),
        ("retire\n  f()", 2),
        ("step x\n  f() -> r\n  // a comment", -1),  # autoindent: keep the comment's indentation
    ],
)
def test_new_line_indentation(before: str, expected: int) -> None:
    lines = (before + "\n" + TAIL).split("\n")
    row = len(before.split("\n"))
    assert lines[row] == ""
    assert nvim_indent(lines, row) == expected


def test_comment_lines_are_indented_to_their_block() -> None:
    text = "workflow w\n     // odd\n  input x: Int\nstep s\n  f()\n      // odder\n  g()\n"
    assert reindent_mismatches(text, comments=True) == [
        (2, 5, 2, "// odd"),
        (6, 6, 2, "// odder"),
    ]


def test_reindent_port_detects_wrong_indentation() -> None:
    """The port is not vacuous: lines at the wrong depth are reported."""
    mismatches = reindent_mismatches("step s\n    f()\n    g()\n")
    assert [(m[0], m[1], m[2]) for m in mismatches] == [(2, 4, 2), (3, 4, 2)]
