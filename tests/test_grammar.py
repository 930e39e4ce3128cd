"""The tree-sitter grammar through the installed ``tree_sitter_awl`` binding and py-tree-sitter.

* every case of ``tree-sitter-awl/test/corpus/*.txt`` (tree-sitter's own test format);
* every valid document of the shared AWL corpus parses without ERROR or MISSING nodes;
* the trees nest the way the page nests (the reference's ``queue_watch`` and corpus documents);
* our own documents in ``tests/data/grammar`` (combinations the corpus lacks, CRLF, tabs, no
  final newline, deep nesting) parse cleanly;
* half-typed lines keep their ERROR on their own line and leave the following steps intact;
* incremental re-parsing after small edits gives exactly the tree a fresh parse gives.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import tree_sitter_awl
from tree_sitter import Language, Node, Parser, Point, Tree

REPO = Path(__file__).resolve().parents[1]
GRAMMAR_DIR = REPO / "tree-sitter-awl"
CORPUS_TESTS = GRAMMAR_DIR / "test" / "corpus"
DATA = Path(__file__).resolve().parent / "data" / "grammar"
REFERENCE_EXAMPLES = DATA / "reference"

LANGUAGE = Language(tree_sitter_awl.language())


def parse(source: str | bytes, old_tree: Tree | None = None) -> Tree:
    data = source.encode("utf-8") if isinstance(source, str) else source
    parser = Parser(LANGUAGE)
    return parser.parse(data, old_tree) if old_tree is not None else parser.parse(data)


def walk(node: Node) -> Iterator[Node]:
    cursor = node.walk()
    visited_children = False
    while True:
        if not visited_children:
            yield cursor.node
            if cursor.goto_first_child():
                continue
        if cursor.goto_next_sibling():
            visited_children = False
        elif cursor.goto_parent():
            visited_children = True
            if cursor.node == node:
                return
        else:
            return


def problems(tree: Tree) -> list[Node]:
    """ERROR and MISSING nodes of a tree."""
    return [n for n in walk(tree.root_node) if n.is_error or n.is_missing]


def describe(nodes: list[Node]) -> str:
    return ", ".join(
        f"{'MISSING ' if n.is_missing else ''}{n.type} at {n.start_point.row + 1}:{n.start_point.column + 1}"
        for n in nodes
    )


def named(node: Node, type_: str) -> list[Node]:
    return [n for n in walk(node) if n.type == type_]


def field_text(node: Node, field: str) -> str | None:
    child = node.child_by_field_name(field)
    return child.text.decode() if child is not None and child.text is not None else None


def step(root: Node, name: str) -> Node:
    """The (possibly nested) step declaration called ``name``."""
    found = [n for n in named(root, "step_declaration") if field_text(n, "name") == name]
    assert len(found) == 1, f"expected one step {name!r}, found {len(found)}"
    return found[0]


def contains(outer: Node, inner: Node) -> bool:
    """``inner`` is ``outer`` or one of its descendants (by ancestry, not just by range)."""
    node: Node | None = inner
    while node is not None:
        if node == outer:
            return True
        node = node.parent
    return False


def top_level_steps(tree: Tree) -> list[str]:
    return [
        field_text(n, "name") or "" for n in tree.root_node.named_children if n.type == "step_declaration"
    ]


def dump(tree: Tree) -> list[tuple[str, str | None, int, int, bool, bool]]:
    """Every node (named or not) with its field, byte range and error flags: stricter than str()."""
    out = []
    cursor = tree.walk()
    visited_children = False
    while True:
        if not visited_children:
            n = cursor.node
            out.append((n.type, cursor.field_name, n.start_byte, n.end_byte, n.is_error, n.is_missing))
            if cursor.goto_first_child():
                continue
        if cursor.goto_next_sibling():
            visited_children = False
        elif cursor.goto_parent():
            visited_children = True
        else:
            return out


# ----------------------------------------------------------------------------------------------
# (a) tree-sitter's test format, read the way `tree-sitter test` (CLI 0.22) reads it

HEADER_RE = re.compile(
    rb"^(?P<equals>(?:=+){3,})(?P<suffix1>[^=\r\n][^\r\n]*)?\r?\n"
    rb"(?P<name_and_markers>(?:(?:[^=\r\n]|\s+:)[^\r\n]*\r?\n)+)"
    rb"===+(?P<suffix2>[^=\r\n][^\r\n]*)?\r?\n",
    re.MULTILINE,
)
DIVIDER_RE = re.compile(rb"^(?P<hyphens>(?:-+){3,})(?P<suffix>[^-\r\n][^\r\n]*)?\r?\n", re.MULTILINE)
SEXP_COMMENT_RE = re.compile(r"(?m)^\s*;.*$")
WHITESPACE_RE = re.compile(r"\s+")
SEXP_FIELD_RE = re.compile(r" \w+: \(")


@dataclass(frozen=True)
class CorpusCase:
    file: str
    name: str
    source: bytes
    expected: str
    has_fields: bool
    skip: bool = False
    error: bool = False


def normalize_sexp(text: str) -> str:
    text = SEXP_COMMENT_RE.sub("", text)
    return WHITESPACE_RE.sub(" ", text.strip()).replace(" )", ")")


def strip_fields(sexp: str) -> str:
    return SEXP_FIELD_RE.sub(" (", sexp)


def parse_corpus_file(name: str, content: bytes) -> list[CorpusCase]:
    """Split one test file into cases: header, input, the longest `---` divider, expected tree."""
    first = HEADER_RE.search(content)
    first_suffix = first.group("suffix1") if first else None
    headers = [
        m
        for m in HEADER_RE.finditer(content)
        if m.group("suffix1") == first_suffix and m.group("suffix2") == first_suffix
    ]
    cases = []
    for i, header in enumerate(headers):
        end = headers[i + 1].start() if i + 1 < len(headers) else len(content)
        body_start = header.end()
        dividers = [
            m for m in DIVIDER_RE.finditer(content, body_start, end) if m.group("suffix") == first_suffix
        ]
        if not dividers:
            continue
        divider = max(dividers, key=lambda m: m.end() - m.start())
        source = content[body_start : divider.start()]
        # The line break before the divider belongs to the divider, not to the input.
        source = source[:-1]
        if source.endswith(b"\r"):
            source = source[:-1]
        title_lines, skip, error, seen_marker = [], False, False, False
        for line in header.group("name_and_markers").decode().splitlines():
            marker = line.strip().split("(")[0]
            if marker in (":skip", ":error", ":fail-fast", ":platform", ":language"):
                seen_marker = True
                skip = skip or marker == ":skip"
                error = error or marker == ":error"
            elif not seen_marker:
                title_lines.append(line)
        expected = normalize_sexp(content[divider.end() : end].decode())
        cases.append(
            CorpusCase(
                file=name,
                name="\n".join(title_lines).strip(),
                source=source,
                expected=expected,
                has_fields=bool(SEXP_FIELD_RE.search(expected)),
                skip=skip,
                error=error and not skip,
            )
        )
    return cases


def corpus_cases() -> list[CorpusCase]:
    cases = []
    for path in sorted(CORPUS_TESTS.glob("*.txt")):
        cases.extend(parse_corpus_file(path.stem, path.read_bytes()))
    return cases


CORPUS_CASES = corpus_cases()


def test_corpus_test_files_are_all_read() -> None:
    """Every `===` header of every file became a case: a malformed case must not vanish silently."""
    files = sorted(CORPUS_TESTS.glob("*.txt"))
    assert files, f"no test files under {CORPUS_TESTS}"
    for path in files:
        content = path.read_bytes()
        headers = len(re.findall(rb"(?m)^={3,}\r?\n[^=\r\n][^\r\n]*\r?\n={3,}\r?\n", content))
        read = [c for c in CORPUS_CASES if c.file == path.stem]
        assert len(read) == headers, f"{path.name}: {headers} headers but {len(read)} cases"
    names = [(c.file, c.name) for c in CORPUS_CASES]
    assert len(names) == len(set(names)), "duplicate case names"


def test_corpus_format_reader_follows_the_cli() -> None:
    """The reader keeps dashes inside inputs, drops `;` comments and honours attributes."""
    text = (
        b"==========\nfirst\n==========\nstep a\n---\n  route b\n-----------\n\n; comment\n"
        b"(source_file\n  (step_declaration name: (identifier)))\n\n"
        b"==========\nsecond\n:error\n==========\nstep\n---\n\n(source_file)\n"
    )
    first, second = parse_corpus_file("t", text)
    assert first.source == b"step a\n---\n  route b"
    assert first.expected == "(source_file (step_declaration name: (identifier)))"
    assert first.has_fields and not first.error
    assert second.name == "second" and second.error and second.source == b"step"
    assert strip_fields("(a name: (b) body: (c))") == "(a (b) (c))"


@pytest.mark.parametrize("case", CORPUS_CASES, ids=[f"{c.file}: {c.name}" for c in CORPUS_CASES])
def test_corpus_case(case: CorpusCase) -> None:
    if case.skip:
        pytest.skip("marked :skip in the test file")
    tree = parse(case.source)
    if case.error:
        assert tree.root_node.has_error, "expected an ERROR node"
        return
    actual = normalize_sexp(str(tree.root_node))
    if not case.has_fields:
        actual = strip_fields(actual)
    assert actual == case.expected


def test_corpus_covers_every_reference_keyword() -> None:
    """At least one case per keyword documented in the user's keyword reference."""
    keywords = (
        "workloop carry invariant tolerance retention hatch retire detached windows report confirms start"
        " unconfirmed for key"
    )
    titles = {c.name for c in CORPUS_CASES}
    for keyword in keywords.split():
        assert any(t.startswith(f"keyword {keyword}:") for t in titles), f"no corpus case for {keyword!r}"
        assert any(
            re.search(rf"\b{re.escape(keyword)}\b", c.source.decode())
            for c in CORPUS_CASES
            if c.name.startswith(f"keyword {keyword}:")
        )


# ----------------------------------------------------------------------------------------------
# (b) the shared AWL corpus: every valid document parses cleanly


def awl_corpus_dir() -> Path | None:
    path = Path(os.environ.get("AWL_CORPUS", REPO.parent / "shared" / "corpus"))
    return path if path.is_dir() else None


def require_corpus() -> Path:
    path = awl_corpus_dir()
    if path is None:
        where = os.environ.get("AWL_CORPUS", str(REPO.parent / "shared" / "corpus"))
        message = f"AWL corpus not found at {where} (set AWL_CORPUS to its directory)"
        if os.environ.get("AWL_REQUIRE_CORPUS") == "1":
            pytest.fail(message)
        pytest.skip(message)
    return path


def valid_corpus_documents() -> list[Path | None]:
    root = awl_corpus_dir()
    if root is None:
        return [None]  # one placeholder case that skips (or fails) with the reason
    return sorted(root.glob("**/valid/*.awl"))


VALID_DOCUMENTS = valid_corpus_documents()


def _doc_id(path: Path | None) -> str:
    root = awl_corpus_dir()
    return "corpus-missing" if path is None or root is None else str(path.relative_to(root))


def test_corpus_has_both_families() -> None:
    root = require_corpus()
    docs = sorted(root.glob("**/valid/*.awl"))
    families = {p.relative_to(root).parts[0] for p in docs}
    assert {"rev2", "workloop"} <= families, f"valid documents found only under {sorted(families)}"
    assert len(docs) >= 90


@pytest.mark.parametrize("path", VALID_DOCUMENTS, ids=[_doc_id(p) for p in VALID_DOCUMENTS])
def test_valid_corpus_document_parses_cleanly(path: Path | None) -> None:
    require_corpus()
    assert path is not None
    tree = parse(path.read_bytes())
    found = problems(tree)
    assert not found, f"{path.name}: {describe(found)}"


# ----------------------------------------------------------------------------------------------
# (c) structure: the tree nests the way the page nests


@pytest.fixture(scope="module")
def queue_watch() -> Tree:
    tree = parse((REFERENCE_EXAMPLES / "queue_watch.awl").read_bytes())
    assert not problems(tree)
    return tree


def test_queue_watch_hatch_is_inside_dispatch(queue_watch: Tree) -> None:
    root = queue_watch.root_node
    (hatch,) = named(root, "hatch_statement")
    assert contains(step(root, "dispatch"), hatch)
    assert not contains(step(root, "sweep_queue"), hatch)
    (fork,) = named(root, "fork_statement")
    assert contains(fork.child_by_field_name("body"), hatch)
    assert field_text(hatch, "key") == "task.id"
    assert hatch.child_by_field_name("call").child_by_field_name("function").text == b"process_task"


def test_queue_watch_invariant_owns_its_clauses(queue_watch: Tree) -> None:
    root = queue_watch.root_node
    (invariant,) = named(root, "invariant_clause")
    (tolerance,) = named(root, "tolerance_clause")
    (confirms,) = named(root, "confirms_clause")
    assert tolerance.parent == invariant and confirms.parent == invariant
    assert field_text(tolerance, "count") == "3"
    assert tolerance.child_by_field_name("windows").type == "windows"  # the keyword, not a name
    assert confirms.child_by_field_name("target").named_children[0].type == "start"
    # retention is the header's next clause, not part of the invariant
    (retention,) = named(root, "retention_clause")
    assert retention.parent == invariant.parent


def test_queue_watch_join_belongs_to_its_fork(queue_watch: Tree) -> None:
    root = queue_watch.root_node
    (fork,) = named(root, "fork_statement")
    (join,) = named(root, "join_clause")
    assert fork.child_by_field_name("join") == join
    assert field_text(fork, "item") == "task" and field_text(fork, "collection") == "found.tasks"
    # the route after `join` is back in the step body, not in the fork
    routes = named(step(root, "dispatch"), "route_statement")
    assert len(routes) == 1 and routes[0].parent.type == "step_body" and not contains(fork, routes[0])


def test_queue_watch_header_holds_every_clause(queue_watch: Tree) -> None:
    root = queue_watch.root_node
    (loop,) = named(root, "workloop_declaration")
    header = loop.child_by_field_name("header")
    assert [c.type for c in header.named_children] == [
        "every_clause",
        "input_clause",
        "carry_clause",
        "report_clause",
        "invariant_clause",
        "retention_clause",
    ]
    clause_types = {c.type for c in header.named_children}
    for node in walk(root):
        if node.type in clause_types:
            assert node.parent == header
    assert [c.type for c in root.named_children[2:]] == [
        "type_declaration",
        "type_declaration",
        "type_declaration",
        "worker_declaration",
        "detached_declaration",
        "step_declaration",
        "step_declaration",
        "retire_block",
    ]


def test_queue_watch_outcomes_and_retire(queue_watch: Tree) -> None:
    root = queue_watch.root_node
    outcomes = named(step(root, "sweep_queue"), "step_outcome")
    assert [field_text(o, "name") for o in outcomes] == ["idle", "busy"]
    assert [o.child_by_field_name("guard").child_by_field_name("keyword").type for o in outcomes] == [
        "if",
        "else",
    ]
    (retire,) = named(root, "retire_block")
    body = retire.child_by_field_name("body")
    assert [s.type for s in body.named_children] == ["expression_statement"]
    assert body.named_children[0].text.startswith(b"sweep(queue_dir: queue_dir")


def test_mail_watch_is_armed_by_its_signal() -> None:
    tree = parse((REFERENCE_EXAMPLES / "mail_watch.awl").read_bytes())
    assert not problems(tree)
    root = tree.root_node
    (on,) = named(root, "on_clause")
    assert field_text(on, "signal") == "nudge"
    (tolerance,) = named(root, "tolerance_clause")
    assert tolerance.child_by_field_name("unconfirmed").type == "unconfirmed"
    assert field_text(tolerance, "duration") == "45m"
    assert tolerance.child_by_field_name("count") is None


def corpus_tree(relative: str) -> Tree:
    root = require_corpus()
    path = root / relative
    if not path.is_file():
        pytest.fail(f"corpus document {relative} is missing from {root}")
    tree = parse(path.read_bytes())
    assert not problems(tree)
    return tree


def test_substeps_nest_inside_their_parent() -> None:
    tree = corpus_tree("rev2/loop-outcomes/valid/substeps_two_stage.awl")
    root = tree.root_node
    prepare = step(root, "prepare")
    assert top_level_steps(tree) == ["prepare"]
    for inner in ("fetch_batch", "scrub"):
        sub = step(root, inner)
        assert sub.parent == prepare.child_by_field_name("body")
    # the parent's own outcomes follow its substeps, in the parent's body
    outcomes = [c for c in prepare.child_by_field_name("body").named_children if c.type == "step_outcome"]
    assert [field_text(o, "name") for o in outcomes] == ["done", "hollow"]
    fetch_outcomes = named(step(root, "fetch_batch"), "step_outcome")
    assert [field_text(o, "name") for o in fetch_outcomes] == ["full", "nothing"]


def test_on_failure_body_is_nested() -> None:
    tree = corpus_tree("rev2/flow-shape/valid/substep_on_failure_route_tail.awl")
    root = tree.root_node
    (handler,) = named(root, "on_failure")
    attempt = step(root, "attempt")
    assert handler.parent == attempt.child_by_field_name("body")
    statements = handler.child_by_field_name("body").named_children
    assert [s.type for s in statements] == ["expression_statement", "route_statement"]
    # the outer step's outcome is not swallowed by the handler or the substep
    (outcome,) = named(root, "step_outcome")
    assert outcome.parent == step(root, "publish_it").child_by_field_name("body")


def test_retire_body_in_backup_rotation() -> None:
    tree = corpus_tree("workloop/valid/backup_rotation.awl")
    root = tree.root_node
    (retire,) = named(root, "retire_block")
    assert retire.parent == root
    (statement,) = retire.child_by_field_name("body").named_children
    assert statement.child_by_field_name("value").child_by_field_name("function").text == b"prune"
    actions = named(root, "action_declaration")
    assert [a.child_by_field_name("config") is not None for a in actions] == [True, True]


# ----------------------------------------------------------------------------------------------
# (d) our own documents


EXTRA_DOCUMENTS = sorted(DATA.glob("*.awl"))


def test_extra_documents_exist() -> None:
    names = {p.stem for p in EXTRA_DOCUMENTS}
    assert {"inbox_watch", "shard_sweep", "release_train", "deep_nesting", "no_final_newline"} <= names


@pytest.mark.parametrize("path", EXTRA_DOCUMENTS, ids=[p.stem for p in EXTRA_DOCUMENTS])
def test_extra_document_parses_cleanly(path: Path) -> None:
    tree = parse(path.read_bytes())
    found = problems(tree)
    assert not found, describe(found)


def indent_with_tabs(text: str) -> str:
    lines = []
    for line in text.split("\n"):
        stripped = line.lstrip(" ")
        width = len(line) - len(stripped)
        lines.append("\t" * (width // 2) + " " * (width % 2) + stripped)
    return "\n".join(lines)


@pytest.mark.parametrize("path", EXTRA_DOCUMENTS, ids=[p.stem for p in EXTRA_DOCUMENTS])
def test_extra_document_line_ending_variants(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    reference = parse(text)
    expected = str(reference.root_node)
    # CRLF line endings: same tree, no errors
    crlf = parse(text.replace("\n", "\r\n"))
    assert not problems(crlf) and str(crlf.root_node) == expected
    # no line break at the end of the file
    trimmed = parse(text.rstrip("\n"))
    assert not problems(trimmed) and str(trimmed.root_node) == expected
    # tab indentation: must not crash; a tab is one level, so the steps are still found
    tabbed = parse(indent_with_tabs(text))
    assert tabbed.root_node.type == "source_file"
    assert top_level_steps(tabbed) == top_level_steps(reference)
    # a stray tab mixed into space indentation must not crash either
    mixed = parse(text.replace("\n  ", "\n \t", 3))
    assert mixed.root_node.type == "source_file"


def test_no_final_newline_document_really_lacks_one() -> None:
    data = (DATA / "no_final_newline.awl").read_bytes()
    assert not data.endswith(b"\n")
    root = parse(data).root_node
    only = step(root, "only")
    inner = step(root, "inner")
    assert inner.parent == only.child_by_field_name("body")
    (fork,) = named(root, "fork_statement")
    assert contains(inner, fork) and field_text(fork.child_by_field_name("join"), "binding") == "-> all"
    # the final `route done` is in the outer step, after the substep
    (route,) = named(root, "route_statement")
    assert route.parent == only.child_by_field_name("body")


def test_inbox_watch_structure() -> None:
    """Signal-armed loop, duration tolerance, hatch in a fork, multi-line payloads, rich retire."""
    tree = parse((DATA / "inbox_watch.awl").read_bytes())
    root = tree.root_node
    header = named(root, "workloop_declaration")[0].child_by_field_name("header")
    assert [c.type for c in header.named_children if c.type != "comment"] == [
        "on_clause",
        "input_clause",
        "signal_clause",
        "carry_clause",
        "carry_clause",
        "report_clause",
        "invariant_clause",
        "retention_clause",
    ]
    assert len([c for c in header.named_children if c.type == "comment"]) == 2
    (tolerance,) = named(root, "tolerance_clause")
    assert field_text(tolerance, "duration") == "2h" and tolerance.child_by_field_name("unconfirmed")
    assert len(named(root, "narration")) == 2
    docs = named(root, "doc_comment")
    assert len(docs) == 4
    # a `///` inside the worker documents the action that follows it
    worker = named(root, "worker_declaration")[0]
    assert any(d.parent == worker for d in docs)
    # the pipe chain continued on `|>` lines is one statement with two stages
    scan = step(root, "scan_inbox")
    pipes = [s for s in scan.child_by_field_name("body").named_children if s.type == "expression_statement"]
    chain = pipes[1].child_by_field_name("value")
    assert chain.type == "pipe_expression" and chain.child_by_field_name("input").type == "pipe_expression"
    assert field_text(pipes[1], "binding") == "-> urgent_count"
    # hatch (with a payload broken over two lines) sits in the fork of `dispatch`
    (hatch,) = named(root, "hatch_statement")
    (fork,) = named(root, "fork_statement")
    assert contains(fork.child_by_field_name("body"), hatch) and contains(step(root, "dispatch"), fork)
    assert field_text(hatch, "key") == '"triage/" + message.id'
    assert len(named(hatch, "argument")) == 3
    # the multi-line argument list after the fork is one call, back in the step body
    archive = [s for s in named(step(root, "dispatch"), "expression_statement") if not contains(fork, s)]
    assert len(archive) == 1 and archive[0].start_point.row + 4 == archive[0].end_point.row
    (retire,) = named(root, "retire_block")
    assert [s.type for s in retire.child_by_field_name("body").named_children] == [
        "expression_statement",
        "answer_statement",
        "sleep_statement",
    ]


def test_shard_sweep_structure() -> None:
    """Cadence and signal arming, count tolerance, sequential fork, on failure, broken outcomes."""
    root = parse((DATA / "shard_sweep.awl").read_bytes()).root_node
    header = named(root, "workloop_declaration")[0].child_by_field_name("header")
    assert [c.type for c in header.named_children][:2] == ["every_clause", "on_clause"]
    (tolerance,) = named(root, "tolerance_clause")
    assert field_text(tolerance, "count") == "4"
    assert tolerance.child_by_field_name("windows").type == "windows"
    (confirms,) = named(root, "confirms_clause")
    assert field_text(confirms, "target") == "settle"
    (enum,) = named(root, "enum_body")
    assert [field_text(v, "name") for v in enum.named_children] == ["Hot", "Warm", "Cold"]
    plan = step(root, "plan")
    guards = [o.child_by_field_name("guard") for o in named(plan, "step_outcome")]
    assert [g.child_by_field_name("keyword").type for g in guards] == ["when", "otherwise"]
    sweep = step(root, "sweep")
    (fork,) = named(sweep, "fork_statement")
    assert fork.child_by_field_name("sequential") is not None
    assert [s.type for s in fork.child_by_field_name("body").named_children] == [
        "expression_statement",
        "hatch_statement",
    ]
    assert field_text(fork.child_by_field_name("join"), "binding") == "-> results"
    (handler,) = named(sweep, "on_failure")
    assert handler.parent == sweep.child_by_field_name("body") and not contains(fork, handler)
    settle = step(root, "settle")
    outcomes = named(settle, "step_outcome")
    assert [o.child_by_field_name("guard").child_by_field_name("keyword").type for o in outcomes] == [
        "if",
        "else",
    ]
    for outcome in outcomes:  # broken after the comma: the route is on the next line
        route = outcome.child_by_field_name("route")
        assert route.start_point.row == outcome.start_point.row + 1
        assert route.child_by_field_name("target").named_children[0].type == "start"
    (retry,) = named(root, "retry_setting")
    assert (field_text(retry, "from"), field_text(retry, "to")) == ("5s", "2m")


def test_release_train_structure() -> None:
    """Subflow with nested substeps and a loop, json/schema bodies, regions, on failure, visits."""
    tree = parse((DATA / "release_train.awl").read_bytes())
    root = tree.root_node
    header = named(root, "workflow_declaration")[0].child_by_field_name("header")
    kinds = [c.type for c in header.named_children]
    assert kinds.count("outcome_clause") == 2 and kinds.count("input_clause") == 2 and "comment" in kinds
    (subflow,) = named(root, "subflow_declaration")
    check = step(root, "check")
    assert check.parent == subflow
    assert step(root, "scan").parent == check.child_by_field_name("body")
    rescan = step(root, "rescan")
    assert rescan.parent == step(root, "scan").child_by_field_name("body")
    (loop,) = named(root, "loop_statement")
    assert contains(rescan, loop) and field_text(loop, "counter") == "round"
    assert [c.type for c in loop.child_by_field_name("body").named_children] == [
        "expression_statement",
        "until_clause",
        "loop_max",
    ]
    # the subflow's outcomes belong to `check`, after its substeps
    check_outcomes = [c for c in check.child_by_field_name("body").named_children if c.type == "step_outcome"]
    assert [field_text(o, "name") for o in check_outcomes] == ["pass", "fail"]
    assert top_level_steps(tree) == [
        "vet_all",
        "vet_each",
        "gather",
        "approve",
        "publish_all",
        "publish_one",
        "finish",
    ]
    # json and schema bodies spanning lines are single tokens
    schema = named(root, "schema_body")[0].child_by_field_name("json")
    assert schema.start_point.row + 8 == schema.end_point.row
    (json_literal,) = named(root, "json_literal")
    assert b'"a \\"quoted\\" } brace"' in json_literal.text
    (raw,) = named(root, "raw_string")
    assert raw.end_point.row == raw.start_point.row + 2
    assert [field_text(d, "mode") for d in named(root, "distribute_statement")] == ["distribute", "sequence"]
    collects = named(root, "collect_statement")
    assert [c.child_by_field_name("tolerant") is not None for c in collects] == [True, False]
    publish = step(root, "publish_one")
    (handler,) = named(publish, "on_failure")
    assert [s.type for s in handler.child_by_field_name("body").named_children] == [
        "expression_statement",
        "spawn_statement",
        "route_statement",
    ]
    (bound,) = named(publish, "visits_bound")
    assert field_text(bound, "limit") == "2"
    (wait,) = named(root, "wait_statement")
    assert field_text(wait, "timeout") == "4h" and field_text(wait, "binding") == "-> approval"
    (vet,) = [a for a in named(root, "action_declaration") if field_text(a, "name") == "vet"]
    assert len(named(vet.child_by_field_name("parameters"), "parameter")) == 3
    assert vet.child_by_field_name("config") is not None


def test_forty_nested_substeps() -> None:
    tree = parse((DATA / "deep_nesting.awl").read_bytes())
    root = tree.root_node
    assert top_level_steps(tree) == ["level_0", "after_the_deep_one"]
    for depth in range(1, 40):
        inner = step(root, f"level_{depth}")
        assert inner.parent == step(root, f"level_{depth - 1}").child_by_field_name("body")
    innermost = step(root, "level_39").child_by_field_name("body")
    assert [c.type for c in innermost.named_children] == ["expression_statement", "route_statement"]


def test_nesting_beyond_the_scanner_limit_does_not_crash() -> None:
    depth = 260
    lines = [f"{'  ' * d}step s{d}" for d in range(depth)] + [f"{'  ' * depth}f()", "step tail", "  g()", ""]
    tree = parse("\n".join(lines))
    assert tree.root_node.type == "source_file"
    assert top_level_steps(tree)[-1] == "tail"


# ----------------------------------------------------------------------------------------------
# (e) error recovery: a half-typed line stays a local error


HALF_TYPED_IN_BODY = [
    "  f(a: ",
    "  sweep(queue_dir: queue_dir) ->",
    "  outcome z: if",
    "  outcome z:",
    "  route",
    "  fork x in",
    "  hatch process_task(",
    '  x = "unterminated',
    "  found |>",
    "  found.",
    "  answer",
    "  wait",
    "  sleep",
    "  loop r =",
    "  max",
    "  outcome q: else, route",
    '  hatch process_task(kind: "a") key',
    "  spawn",
    "  on",
    "  on failure x",
    "  [1, 2",
    "  json {",
    "  f(a: 1,, b: 2)",
    "  ->",
    "  outcome idle: if found.tasks is, route start",
    "  collect",
    "  distribute x in",
    "  }",
    "  )",
]

HALF_TYPED_AT_TOP = [
    "ste",
    "type",
    "type X {",
    "type X",
    "type X =",
    "worker",
    "const",
    "const x =",
    "child c(",
    "detached d(a: ",
    "subflow",
    "step x after",
    "workflow",
    "type X = A |",
    "const x = json {",
]


def incomplete_pieces(tree: Tree) -> list[Node]:
    """Nodes the grammar keeps with a part missing (`->` without a name, `route` without a target,
    `name:` without a value, an outcome without guard or route, an unnamed declaration): not syntax
    errors, the checker reports them."""
    out = [n for n in named(tree.root_node, "binding") if n.child_by_field_name("name") is None]
    out += [n for n in named(tree.root_node, "route_statement") if n.child_by_field_name("target") is None]
    out += [n for n in named(tree.root_node, "argument") if n.child_by_field_name("value") is None]
    out += [
        n
        for n in named(tree.root_node, "step_outcome")
        if n.child_by_field_name("guard") is None or n.child_by_field_name("route") is None
    ]
    out += [
        n
        for kind in ("workflow_declaration", "workloop_declaration", "action_declaration", "invariant_clause")
        for n in named(tree.root_node, kind)
        if n.child_by_field_name("name") is None
    ]
    return out


def assert_local_error(lines: list[str], inserted_at: int, original: Tree) -> None:
    tree = parse("\n".join(lines))
    # a syntax error, or a line the grammar keeps as an unknown word for the checker to report
    found = (
        problems(tree)
        + named(tree.root_node, "unknown_declaration")
        + named(tree.root_node, "unknown_clause")
        + incomplete_pieces(tree)
    )
    assert found, "the half-typed line should be reported as an error"
    for node in found:
        assert inserted_at - 1 <= node.start_point.row and node.end_point.row <= inserted_at + 1, (
            f"{describe([node])} spreads beyond the edited line {inserted_at + 1}"
        )
    # every step after the edit is still a step declaration, and the document still ends in retire
    original_steps = top_level_steps(original)
    assert [s for s in top_level_steps(tree) if s in original_steps] == original_steps
    assert tree.root_node.named_children[-1].type == "retire_block"


@pytest.mark.parametrize("line", HALF_TYPED_IN_BODY)
def test_half_typed_line_in_step_body_stays_local(line: str, queue_watch: Tree) -> None:
    lines = (REFERENCE_EXAMPLES / "queue_watch.awl").read_text().split("\n")
    after = next(i for i, text in enumerate(lines) if text.startswith("  answer board"))
    assert_local_error(lines[: after + 1] + [line] + lines[after + 1 :], after + 1, queue_watch)


@pytest.mark.parametrize("line", HALF_TYPED_AT_TOP)
def test_half_typed_declaration_between_steps_stays_local(line: str, queue_watch: Tree) -> None:
    lines = (REFERENCE_EXAMPLES / "queue_watch.awl").read_text().split("\n")
    blank = next(i for i, text in enumerate(lines) if text.startswith("step dispatch")) - 1
    assert lines[blank] == ""
    assert_local_error(lines[: blank + 1] + [line] + lines[blank + 1 :], blank + 1, queue_watch)


def test_half_typed_words_are_kept_as_names() -> None:
    """A half-typed keyword in a block is an `unknown_clause` (header, worker) or a bare name."""
    tree = parse("workloop w\n  every 5m\n  inpu\n  retention 7d\n\nworker x\n  actio\n  action a() -> Int\n")
    assert not problems(tree)
    words = [field_text(n, "word") for n in named(tree.root_node, "unknown_clause")]
    assert words == ["inpu", "actio"]
    assert len(named(tree.root_node, "retention_clause")) == 1
    assert len(named(tree.root_node, "action_declaration")) == 1


# ----------------------------------------------------------------------------------------------
# (g) incremental re-parsing


def edit_tree(tree: Tree, old: bytes, start: int, old_end: int, new_text: bytes) -> bytes:
    new = old[:start] + new_text + old[old_end:]

    def point(data: bytes, offset: int) -> Point:
        row = data.count(b"\n", 0, offset)
        column = offset - (data.rfind(b"\n", 0, offset) + 1)
        return Point(row, column)

    tree.edit(
        start_byte=start,
        old_end_byte=old_end,
        new_end_byte=start + len(new_text),
        start_point=point(old, start),
        old_end_point=point(old, old_end),
        new_end_point=point(new, start + len(new_text)),
    )
    return new


def test_incremental_one_character_edit_is_local_and_exact() -> None:
    source = (REFERENCE_EXAMPLES / "queue_watch.awl").read_bytes()
    old_tree = parse(source)
    # `seen: found.seen` -> `seen: found.seex` in the last route of `dispatch`
    start = source.rindex(b"found.seen") + len(b"found.see")
    new_source = edit_tree(old_tree, source, start, start + 1, b"x")
    new_tree = parse(new_source, old_tree)
    fresh = parse(new_source)
    assert str(new_tree.root_node) == str(fresh.root_node)
    assert dump(new_tree) == dump(fresh)
    changed = old_tree.changed_ranges(new_tree)
    total = sum(r.end_byte - r.start_byte for r in changed)
    assert total <= len(b"found.seex"), f"changed ranges {changed} for a one-character rename"
    assert all(r.start_point.row == r.end_point.row == source[:start].count(b"\n") for r in changed)


def test_incremental_edit_of_a_duration_changes_nothing_structural() -> None:
    source = (REFERENCE_EXAMPLES / "queue_watch.awl").read_bytes()
    old_tree = parse(source)
    start = source.index(b"25m")
    new_source = edit_tree(old_tree, source, start, start + 1, b"3")
    new_tree = parse(new_source, old_tree)
    assert dump(new_tree) == dump(parse(new_source))
    assert sum(r.end_byte - r.start_byte for r in old_tree.changed_ranges(new_tree)) <= 3


EDITS = [b"x", b" ", b"\n", b"", b"(", b"|"]


@pytest.mark.parametrize(
    "path",
    EXTRA_DOCUMENTS + [REFERENCE_EXAMPLES / "queue_watch.awl"],
    ids=[p.stem for p in EXTRA_DOCUMENTS] + ["queue_watch"],
)
def test_incremental_reparse_matches_fresh_parse(path: Path) -> None:
    """Edits all over a document (indentation included): the reused tree equals a fresh parse.

    Where the edit leaves a syntax error, tree-sitter promises equality only back at error-free
    text: the reused tree must flag the error too, and undoing the edit must give the original tree.
    """
    source = path.read_bytes()
    positions = range(0, len(source), max(1, len(source) // 40))
    for i, position in enumerate(positions):
        replacement = EDITS[i % len(EDITS)]
        old_tree = parse(source)
        end = min(position + 1, len(source)) if replacement == b"" else position
        new_source = edit_tree(old_tree, source, position, end, replacement)
        incremental = parse(new_source, old_tree)
        fresh = parse(new_source)
        line = source.count(b"\n", 0, position) + 1
        where = f"{path.name}: edit {replacement!r} at byte {position} (line {line})"
        if not fresh.root_node.has_error:
            assert dump(incremental) == dump(fresh), where
            continue
        assert incremental.root_node.has_error, where
        restored_source = edit_tree(
            incremental, new_source, position, position + len(replacement), source[position:end]
        )
        assert restored_source == source
        assert dump(parse(restored_source, incremental)) == dump(parse(source)), where + " (undone)"


# ----------------------------------------------------------------------------------------------
# Layouts that once broke the indentation scanner (comment lines shallower than their block,
# bracket continuations at the statement's own indentation, half-typed lines).


def test_shallow_comment_between_header_clauses() -> None:
    tree = parse("workflow w\n  timeout 2h\n// commented out: input x: Int\n  input y: Int\n")
    assert not problems(tree)
    (header,) = named(tree.root_node, "header")
    clauses = [c.type for c in header.named_children if c.type != "comment"]
    assert clauses == ["timeout_clause", "input_clause"]


def test_shallow_comment_inside_nested_step() -> None:
    tree = parse("step s\n  step t\n    f()\n  // note\n    g()\n")
    assert not problems(tree)
    inner = step(tree.root_node, "t").child_by_field_name("body")
    assert len([c for c in inner.named_children if c.type == "expression_statement"]) == 2


def test_bracket_continuation_at_statement_indentation() -> None:
    # LANGUAGE.md: inside ( … ) newlines and indentation carry no structure.
    tree = parse("step s\n  f(a: 1,\n  b: 2)\n  g()\n")
    assert not problems(tree)


def test_unclosed_call_does_not_swallow_the_next_statement() -> None:
    # an argument list left open at the end of a line ends there when the next line starts a
    # statement of its own; the following step still parses
    tree = parse("step s\n  f(a: task.kind\n  g()\n\nstep t\n  route start\n")
    steps = [n for n in tree.root_node.named_children if n.type == "step_declaration"]
    assert len(steps) == 2 and not steps[1].has_error


def test_half_typed_binding_stays_on_its_line() -> None:
    tree = parse("step s\n  f(a: 1) ->\n  g(b: 2) -> c\n")
    body = tree.root_node.named_children[0].child_by_field_name("body")
    statements = [n for n in body.named_children if n.type == "expression_statement"]
    assert statements and statements[-1].start_point.row == 2 and not statements[-1].has_error


def test_broken_header_outcome_and_seedless_loop_keep_their_lines() -> None:
    tree = parse(
        "workflow w\n  outcome done: route success\n  outcome odd: type T, route sideways\n"
        "step s\n  loop x counting n\n    f(x: x) -> x\n    until x\n    max 3\n"
    )
    assert not problems(tree)
    outcomes = named(tree.root_node, "outcome_clause")
    assert [o.child_by_field_name("route").type for o in outcomes] == ["outcome_kind", "identifier"]
    (loop,) = named(tree.root_node, "loop_statement")
    assert loop.child_by_field_name("seed") is None and loop.child_by_field_name("counter") is not None
