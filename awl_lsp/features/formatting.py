"""Document formatting, conservative: white space only, and only for documents that parse cleanly.

- Indentation becomes two spaces per block level, read from the tree: header clauses, step bodies,
  fork/loop/retire/on-failure blocks, worker actions, subflow members and invariant clauses are one
  level in; a line that continues a logical line (a call's config line, `route` after `outcome …,`,
  `|>` and `| Variant` continuations) is one level deeper than the line it continues; a line inside
  a multi-line `( … )`, `[ … ]` or `{ … }` is one level deeper per bracket line that is still open
  (a line opening with the closing bracket sits with its opener).
- Comment lines are indented like the code line the tree attaches them to (the next one), except
  that a comment indented into the block above stays at that block's level.
- Trailing white space is stripped, runs of three or more blank lines become one, and the
  document ends with exactly one line break.
- Text inside raw strings and `json {…}` / `schema {…}` bodies is never touched.

The result is re-parsed before it is offered: if the tree shape (the S-expression) would differ,
no edits are returned. A document with syntax errors is left alone.
"""

from __future__ import annotations

from lsprotocol import types as lsp
from tree_sitter import Node

from awl_lsp.features.snapshot import Snapshot
from awl_lsp.syntax import SyntaxDocument

INDENT = "  "
_REGIONS = frozenset({"header", "step_body", "block", "loop_body"})  # the node is the indented block
# the lines of these after their first line are one level in
_OWNERS = frozenset({"invariant_clause", "worker_declaration", "subflow_declaration"})
_CONTAINERS = _REGIONS | _OWNERS | {"source_file"}
_BRACKETS = frozenset(
    {
        "arguments",
        "parameters",
        "record_body",
        "list",
        "list_type",
        "parenthesized_expression",
        "combinator",
        "schema_import",
    }
)
_CLOSERS = frozenset({")", "]", "}"})
_OPAQUE = frozenset({"raw_string", "json_body"})  # multi-line tokens whose text is content


class _Indenter:
    """The block depth of each code line, from the tree."""

    def __init__(self, snap: Snapshot, cols: dict[int, int]) -> None:
        self.root = snap.doc.root
        self.source = snap.doc.source
        self.lines = snap.doc.lines
        self.cols = cols  # row -> byte column of its first non-blank character
        self.memo: dict[int, int] = {}

    def leaf_at(self, row: int, col: int) -> Node | None:
        node = self.root.descendant_for_point_range((row, col), (row, col + 1))
        while node is not None and node.child_count:
            child = node.child(0)
            if child is None or (child.start_point.row, child.start_point.column) != (row, col):
                break
            node = child
        return node

    def depth(self, row: int) -> int:
        if row not in self.memo:
            self.memo[row] = 0  # guards against cycles on odd trees
            leaf = self.leaf_at(row, self.cols.get(row, 0))
            self.memo[row] = self._depth(leaf, row) if leaf is not None else 0
        return self.memo[row]

    def _leading_closers(self, row: int) -> set[int]:
        """Ids of the bracket nodes closed by the closing brackets that open this line."""
        closed: set[int] = set()
        start = self.lines.byte_starts[row]
        col = self.cols.get(row, 0)
        while start + col < len(self.source) and self.source[start + col] in b")]}":
            leaf = self.leaf_at(row, col)
            if leaf is None or leaf.type not in _CLOSERS or leaf.parent is None:
                break
            closed.add(leaf.parent.id)
            col += 1
            while start + col < len(self.source) and self.source[start + col] in b" \t":
                col += 1
        return closed

    def _depth(self, leaf: Node, row: int) -> int:
        # inside a multi-line bracket opened on an earlier line: one level per open opener line
        brackets: list[Node] = []
        node = leaf.parent
        while node is not None:
            if node.type in _BRACKETS and node.start_point.row < row:
                brackets.append(node)
            node = node.parent
        if brackets:
            closed = self._leading_closers(row) if leaf.type in _CLOSERS else set()
            opener = min(b.start_point.row for b in brackets)
            levels = len({b.start_point.row for b in brackets if b.id not in closed})
            return self.depth(opener) + levels
        # the node that owns this logical line: the ancestor that sits directly in a block
        line_node = leaf
        while line_node.parent is not None and line_node.parent.type not in _CONTAINERS:
            if line_node.type == "join_clause" and line_node.start_point.row == row:
                return self.depth(line_node.parent.start_point.row)  # `join` lines up with its `fork`
            line_node = line_node.parent
        if line_node.start_point.row < row:  # a continuation line
            return self.depth(line_node.start_point.row) + 1
        depth = 0
        node = line_node.parent
        while node is not None:
            if node.type in _REGIONS or (node.type in _OWNERS and node.start_point.row < row):
                depth += 1
            node = node.parent
        return depth


def _opaque_rows(root: Node) -> tuple[set[int], set[int]]:
    """Rows that start inside a multi-line raw string / JSON body, and rows whose end lies inside one."""
    starts_inside: set[int] = set()
    ends_inside: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if node.start_point.row == node.end_point.row:
            continue
        if node.type in _OPAQUE:
            starts_inside.update(range(node.start_point.row + 1, node.end_point.row + 1))
            ends_inside.update(range(node.start_point.row, node.end_point.row))
            continue
        stack.extend(node.children)
    return starts_inside, ends_inside


_COMMENTS = frozenset({"comment", "doc_comment", "narration"})


def _depths(snap: Snapshot, lines: list[str], skip: set[int]) -> dict[int, int]:
    """The new depth of every non-blank line outside raw strings and JSON bodies.

    Code lines take their depth from the tree. A comment line the tree attaches to the next code
    line (as the scanner reads it) keeps company with the code above when it is indented deeper than
    the next code line: it goes to the level of the deepest code line above that it reaches.
    """
    cols: dict[int, int] = {}
    for i, line in enumerate(lines):
        body = line.lstrip(" \t\f\ufeff")
        if i not in skip and body.strip():
            cols[i] = len(line[: len(line) - len(body)].encode("utf-8"))
    indenter = _Indenter(snap, cols)
    depths: dict[int, int] = {}
    loose: list[int] = []  # comment lines directly in a block
    for row, col in cols.items():
        depths[row] = indenter.depth(row)
        leaf = indenter.leaf_at(row, col)
        if leaf is not None and leaf.type in _COMMENTS and leaf.parent is not None:
            if leaf.parent.type in _CONTAINERS:
                loose.append(row)
    if not loose:
        return depths
    comment_rows = set(loose)
    stack: list[tuple[int, int]] = []  # (old column, new depth) of the open code lines above
    next_code: dict[int, int] = {}
    following = -1
    for row in sorted(cols, reverse=True):
        next_code[row] = following
        if row not in comment_rows:
            following = cols[row]
    for row in sorted(cols):
        col = cols[row]
        if row in comment_rows:
            if col > next_code[row] and stack:
                reached = [d for c, d in stack if c <= col]
                if reached and reached[-1] > depths[row]:
                    depths[row] = reached[-1]
            continue
        while stack and stack[-1][0] >= col:
            stack.pop()
        stack.append((col, depths[row]))
    return depths


def _format_lines(snap: Snapshot) -> list[str | None] | None:
    """The new text of each line (without its `\\n`; None: the line goes), or None to leave it all."""
    doc = snap.doc
    root = doc.root
    if root.has_error:
        return None
    text = doc.text
    raw_lines = text.split("\n")
    starts_inside, ends_inside = _opaque_rows(root)
    depths = _depths(snap, raw_lines, starts_inside)
    out: list[str | None] = []
    blank_run: list[int] = []
    for i, line in enumerate(raw_lines):
        cr = "\r" if line.endswith("\r") else ""
        content = line[:-1] if cr else line
        if i in starts_inside:
            new = content if i in ends_inside else content.rstrip(" \t\f")
        else:
            bom = "\ufeff" if content.startswith("\ufeff") else ""
            stripped = content.lstrip(" \t\f\ufeff")
            if i not in ends_inside:
                stripped = stripped.rstrip(" \t\f\r")
            if not stripped:
                blank_run.append(len(out))
                out.append(cr)
                continue
            new = bom + INDENT * depths.get(i, 0) + stripped
        if len(blank_run) >= 3:
            for j in blank_run[1:]:
                out[j] = None
        blank_run = []
        out.append(new + cr)
    for j in blank_run:  # blank lines at the end of the document
        out[j] = None
    kept = [j for j, line in enumerate(out) if line is not None]
    if kept and text.count("\r\n") * 2 > text.count("\n"):
        last = out[kept[-1]]
        if last is not None and not last.endswith("\r"):
            out[kept[-1]] = last + "\r"
    return out


def _joined(lines: list[str | None]) -> str:
    return "".join(f"{line}\n" for line in lines if line is not None)


def format_text(snap: Snapshot) -> str | None:
    """The formatted text, or None when the document has syntax errors (or formatting is unsafe)."""
    lines = _format_lines(snap)
    if lines is None:
        return None
    result = _joined(lines)
    if result != snap.doc.text and str(SyntaxDocument(result).root) != str(snap.doc.root):
        return None  # never offer a formatting that would change the tree
    return result


def format_document(snap: Snapshot) -> list[lsp.TextEdit]:
    """Whole-line edits for each changed run of lines (none when the text is already formatted)."""
    lines = _format_lines(snap)
    if lines is None:
        return []
    result = _joined(lines)
    text = snap.doc.text
    if result == text or str(SyntaxDocument(result).root) != str(snap.doc.root):
        return []
    raw_lines = text.split("\n")
    last = len(raw_lines) - 1

    def at(row: int) -> lsp.Position:
        if row <= last:
            return lsp.Position(row, 0)
        line, char = snap.doc.to_position((last, len(raw_lines[last].encode("utf-8"))))
        return lsp.Position(line, char)

    edits: list[lsp.TextEdit] = []
    run_start, replacement = -1, ""
    for i, old in enumerate(raw_lines):
        old_piece = old + ("\n" if i < last else "")
        new = lines[i]
        new_piece = "" if new is None else new + "\n"
        if old_piece != new_piece:
            if run_start < 0:
                run_start, replacement = i, ""
            replacement += new_piece
            continue
        if run_start >= 0:
            edits.append(lsp.TextEdit(lsp.Range(at(run_start), at(i)), replacement))
            run_start = -1
    if run_start >= 0:
        edits.append(lsp.TextEdit(lsp.Range(at(run_start), at(last + 1)), replacement))
    return edits
