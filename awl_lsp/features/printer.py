"""The canonical printer: a document's text in the engine's canonical form, from our syntax tree.

`canonical_text(text)` returns the canonical form, or None when the document has syntax errors
(or anything the printer would not reproduce faithfully: then nothing is touched at all).

The form, as the engine's own printer lays documents out:

- Every logical line is re-spelt from its tokens with single spaces, none inside brackets or
  before `,` `:` `?`, none around `.`/`..`; multi-line calls, lists and pipes are joined.
  Strings, raw strings and `json { … }` / `schema { … }` bodies are kept byte for byte.
- Two spaces per block level. Narration lines first (no blank lines among them), then the
  `workflow`/`workloop` line and its header clauses in canonical order (timeout/every/on, input,
  signal, carry, outcome/report, invariant with its tolerance then confirms, retention), then the
  top-level declarations in
  canonical order (const, type, worker, child, detached, subflow, step, retire); the order
  within a kind is the written one. In a step: statements and substeps, then `on failure`, the
  outcomes and `max N visits`.
- A blank line is kept where the source had one or more before a line (never two in a row);
  comment lines travel with the line after them and take its indentation; a comment at the end
  of a line stays there after one space.
- Alignment: consecutive header/subflow outcome clauses pad `outcome name:` and `type T,` to
  common widths; consecutive one-line `type` declarations of the same shape (`{ … }` or `= …`)
  pad their names. A blank line ends a run; comment lines do not.
- Record types stay on one line when that line fits in 100 columns and holds no comment,
  otherwise one field per line with trailing commas.
- A step outcome whose route carries named fields, or whose line would pass 100 columns,
  breaks after its comma with `route …` one level deeper; a long route payload then wraps
  between arguments, continuation lines one more level in.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tree_sitter import Node

from awl_lsp.syntax import SyntaxDocument

WIDTH = 100
INDENT = "  "
FLOAT = -1  # the depth of comment lines that end a block: that of the next line printed

CONTAINERS = frozenset({"header", "step_body", "block", "loop_body"})
# named children of a line item that print on lines of their own, one level in
SUBLINES = frozenset(
    {
        "call_config",
        "action_declaration",
        "outcome_clause",
        "step_declaration",
        "tolerance_clause",
        "confirms_clause",
        "join_clause",
    }
)
COMMENTS = frozenset({"comment", "doc_comment"})
VERBATIM = frozenset({"string", "raw_string", "json_body", "comment", "doc_comment", "narration"})
REFUSED = frozenset({"unknown_clause", "unknown_declaration", "unexpected_block", "unknown_setting"})
HEADER_ORDER = {
    "timeout_clause": 0,
    "every_clause": 0,
    "on_clause": 0,
    "input_clause": 1,
    "signal_clause": 2,
    "carry_clause": 3,
    "outcome_clause": 4,
    "report_clause": 4,
    "invariant_clause": 5,
    "retention_clause": 6,
}
# in a step: statements and substeps as written, then `on failure`, the outcomes, `max N visits`
STEP_ORDER = {"on_failure": 1, "step_outcome": 2, "visits_bound": 3}
LOOP_ORDER = {"until_clause": 1, "loop_max": 2}  # a loop body: statements, then `until`, `max`
INVARIANT_ORDER = {"tolerance_clause": 0, "confirms_clause": 1}
TOP_ORDER = {
    "const_declaration": 0,
    "type_declaration": 1,
    "worker_declaration": 2,
    "child_declaration": 3,
    "detached_declaration": 4,
    "subflow_declaration": 5,
    "step_declaration": 6,
    "retire_block": 7,
}
NO_SPACE_BEFORE = frozenset({",", ")", "]", ":", "?", ".."})
NO_SPACE_AFTER = frozenset({"(", "[", ".", ".."})


class Unprintable(Exception):
    """The printer cannot reproduce this document faithfully; it is left alone."""


@dataclass
class Tok:
    text: str
    row: int  # source row of its last line
    kind: str
    parent: str
    end_byte: int = 0


@dataclass
class Entry:
    """One line item of a block, with the comment lines before it."""

    node: Node
    blank: bool  # a blank line before it (or before its first comment)
    comments: list[tuple[bool, str]] = field(default_factory=list)  # (blank before, text)
    orphan: bool = False  # only comment lines, at the end of a block
    first_row: int = 0  # of its first comment line, or of itself
    last_row: int = 0  # of its last comment line (for comment-only entries)


@dataclass
class Out:
    """An output line: its depth, its text, and the alignment shape it may join."""

    depth: int
    text: str
    blank: bool = False  # a blank line before it
    align: tuple | None = None  # (group key, cells…) for one-line aligned items
    owner: tuple[int, int] | None = None  # source rows of the top-level item it prints
    marker: bool = False  # no line: a blank line before the next line printed


class Printer:
    def __init__(self, doc: SyntaxDocument) -> None:
        self.doc = doc
        self.src = doc.source
        self.rows = doc.text.split("\n")
        self.blank_rows = self._blank_rows()
        self.trailing: dict[int, str] = {}  # row -> the comment that ends that row after code
        self.used_trailing: set[int] = set()
        self._find_trailing(doc.root, doc)

    def _find_trailing(self, node: Node, doc: SyntaxDocument) -> None:
        for child in node.children:
            if child.type in COMMENTS and self.is_trailing(child):
                # a `///` after code is an ordinary comment there
                self.trailing[child.start_point.row] = self.comment_text(child, plain=True)
            elif child.type == "narration" and node != doc.root:
                raise Unprintable("narration inside a declaration")
            elif child.child_count and child.type not in VERBATIM:
                self._find_trailing(child, doc)

    # ---------------------------------------------------------------- source facts
    def _blank_rows(self) -> set[int]:
        inside: set[int] = set()
        stack = [self.doc.root]
        while stack:
            node = stack.pop()
            if node.start_point.row == node.end_point.row:
                continue
            if node.type in ("raw_string", "json_body"):
                inside.update(range(node.start_point.row + 1, node.end_point.row + 1))
                continue
            stack.extend(node.children)
        return {i for i, line in enumerate(self.rows) if not line.strip() and i not in inside}

    def text(self, node: Node) -> str:
        return self.src[node.start_byte : node.end_byte].decode("utf-8")

    def comment_text(self, node: Node, plain: bool = False) -> str:
        """A comment line's text as printed: `//x` becomes `// x`; doc and narration lines stay."""
        text = self.text(node).rstrip("\n")
        if (plain or node.type == "comment") and len(text) > 2 and text[2] not in " \t":
            text = "// " + text[2:]
        return text

    def is_trailing(self, node: Node) -> bool:
        row, col = node.start_point
        return bool(self.src[self.doc.lines.byte_starts[row] : self.doc.lines.byte_starts[row] + col].strip())

    def blank_before(self, node: Node) -> bool:
        return node.start_point.row - 1 in self.blank_rows

    # ---------------------------------------------------------------- tokens
    def tokens(self, node: Node, skip: frozenset[int] = frozenset()) -> list[Tok]:
        out: list[Tok] = []
        self._collect(node, skip, out)
        return out

    def _collect(self, node: Node, skip: frozenset[int], out: list[Tok]) -> None:
        for child in node.children:
            if child.id in skip:
                continue
            if child.type in REFUSED or child.is_missing:
                raise Unprintable(child.type)
            if child.type in COMMENTS:
                if self.is_trailing(child):
                    continue
                raise Unprintable("comment inside a line")
            if child.child_count == 0 or child.type in VERBATIM:
                text = self.text(child)
                if not text:
                    continue
                out.append(Tok(text, child.end_point.row, child.type, node.type, child.end_byte))
            else:
                self._collect(child, skip, out)

    def join(self, toks: list[Tok]) -> str:
        parts: list[str] = []
        prev: Tok | None = None
        for i, tok in enumerate(toks):
            if tok.text == "," and i + 1 < len(toks) and toks[i + 1].text in (")", "]", "}"):
                continue  # a trailing comma inside brackets goes
            if prev is not None and self._space(prev, tok):
                parts.append(" ")
            parts.append(tok.text)
            prev = tok
        return "".join(parts)

    @staticmethod
    def _space(prev: Tok, tok: Tok) -> bool:
        t, p = tok.text, prev.text
        if p in NO_SPACE_AFTER and prev.kind != "json_body":
            return False
        if t in NO_SPACE_BEFORE:
            return False
        if t == "(":
            return tok.parent == "parenthesized_expression"
        if t == "[":
            return tok.parent != "index_expression"
        if t == ".":
            return tok.parent == "relative_field"
        return True

    def with_trailing(self, toks: list[Tok], text: str) -> str:
        rows = sorted({t.row for t in toks})
        found = [r for r in rows if r in self.trailing and r not in self.used_trailing]
        if len(found) > 1:
            raise Unprintable("two comments on one line")
        for r in found:
            self.used_trailing.add(r)
            text = f"{text} {self.trailing[r]}"
        return text

    # ---------------------------------------------------------------- blocks
    def entries(self, children: list[Node]) -> list[Entry]:
        """Line items among `children`, each with the comment lines before it."""
        result: list[Entry] = []
        pending: list[tuple[bool, str]] = []
        first_row = -1
        last_doc = False
        for child in children:
            if child.type in COMMENTS:
                if self.is_trailing(child):
                    continue
                if not pending:
                    first_row = child.start_point.row
                blank = self.blank_before(child)
                if child.type == "doc_comment" and pending and last_doc:
                    blank = False  # doc lines stay together
                pending.append((blank, self.comment_text(child)))
                last_doc = child.type == "doc_comment"
                continue
            if not child.is_named:
                continue
            if child.type in REFUSED or child.is_missing:
                raise Unprintable(child.type)
            row = first_row if pending else child.start_point.row
            blank = self.blank_before(child) and not (pending and last_doc)  # doc lines touch their item
            result.append(Entry(child, blank, pending, first_row=row))
            pending = []
        if pending:  # comment lines at the end of a block go with the next line printed
            last = max(c.start_point.row for c in children if c.type in COMMENTS)
            orphan = Entry(children[-1], False, pending, orphan=True, first_row=first_row, last_row=last)
            result.append(orphan)
        return result

    def emit_entries(self, entries: list[Entry], depth: int, out: list[Out], top: bool = False) -> None:
        for e in entries:
            begin = len(out)
            self._emit(e, depth, out)
            if top:
                last = e.last_row if e.orphan else self.last_row(e.node)
                owner = (e.first_row, last)
                for o in out[begin:]:
                    o.owner = owner

    def last_row(self, node: Node) -> int:
        """The last source row that holds text of `node`."""
        row = node.end_point.row if node.end_point.column else node.end_point.row - 1
        while row > node.start_point.row and row in self.blank_rows:
            row -= 1
        return row

    def _emit(self, e: Entry, depth: int, out: list[Out]) -> None:
        for blank, text in e.comments:
            out.append(Out(FLOAT if e.orphan else depth, text, blank=blank))
        if e.orphan:
            return
        start = len(out)
        self.item(e.node, depth, out)
        if start < len(out):
            out[start].blank = e.blank

    def block(
        self,
        children: list[Node],
        depth: int,
        out: list[Out],
        order: dict[str, int] | None = None,
        default: int | None = None,
    ) -> None:
        """Print the line items among `children`; with `order`, sorted by rank of their node type
        (stable; a type without a rank takes `default`, or the rank of the item before it)."""
        entries = self.entries(children)
        if order is not None:
            keyed: list[tuple[int, int, Entry]] = []
            last = 0
            for i, e in enumerate(entries):
                rank = order.get(e.node.type, last if default is None else default)
                if e.orphan:
                    rank = 99
                last = rank
                keyed.append((rank, i, e))
            entries = [e for _, _, e in sorted(keyed, key=lambda k: (k[0], k[1]))]
        top = depth == 0 and bool(children) and children[0].parent == self.doc.root
        self.emit_entries(entries, depth, out, top=top)

    # ---------------------------------------------------------------- items
    def item(self, node: Node, depth: int, out: list[Out]) -> None:
        kind = node.type
        if kind == "type_declaration":
            self.type_declaration(node, out)
            return
        if kind == "step_outcome":
            self.step_outcome(node, depth, out)
            return
        if kind == "step_declaration":
            self.step(node, depth, out)
            return
        sub: list[Node] = []
        skip: set[int] = set()
        for child in node.children:
            if child.type in CONTAINERS:
                sub.extend(child.children)
                skip.add(child.id)
            elif child.type in SUBLINES or (child.type in COMMENTS and not self.is_trailing(child)):
                sub.append(child)
                skip.add(child.id)
        toks = self.tokens(node, frozenset(skip))
        text = self.join(toks)
        stages = self.pipe_stages(node) if len(INDENT * depth + text) > WIDTH else None
        if stages:
            for i, stage in enumerate(stages):
                last = i == len(stages) - 1
                out.append(Out(depth + (i > 0), self.with_trailing(toks, stage) if last else stage))
        else:
            line = Out(depth, self.with_trailing(toks, text))
            if kind == "outcome_clause":
                line.align = self.outcome_cells(node)
            out.append(line)
        if not sub:
            return
        joins = [c for c in sub if c.type == "join_clause"]
        inner = [c for c in sub if c.type != "join_clause"]
        if kind == "workflow_declaration" or kind == "workloop_declaration":
            self.block(inner, depth + 1, out, HEADER_ORDER)
        elif kind == "invariant_clause":
            self.block(inner, depth + 1, out, INVARIANT_ORDER)
        elif kind == "loop_statement":
            self.block(inner, depth + 1, out, LOOP_ORDER, default=0)
        else:
            self.block(inner, depth + 1, out)
        if joins:
            self.block(joins, depth, out)

    def pipe_stages(self, node: Node) -> list[str] | None:
        """A too-long pipe statement as lines: its input, then `|> stage` per line (binding last)."""
        if node.type == "expression_statement":
            value = node.child_by_field_name("value")
            tail_from = value
        elif node.type == "route_statement":
            value = node.child_by_field_name("input")
            tail_from = value
        else:
            return None
        if value is None or value.type != "pipe_expression" and node.type == "expression_statement":
            return None
        stages: list[str] = []
        while value is not None and value.type == "pipe_expression":
            stage = value.child_by_field_name("stage")
            if stage is None:
                return None
            stages.append("|> " + self.join(self.tokens_of(stage)))
            value = value.child_by_field_name("input")
        if value is None or tail_from is None:
            return None
        lines = [self.join(self.tokens_of(value)), *reversed(stages)]
        rest = self.join([t for t in self.tokens(node) if t.end_byte > tail_from.end_byte])
        if node.type == "route_statement":
            rest = rest.removeprefix("|>").strip()
            lines.append("|> " + rest)
        elif rest:
            lines[-1] += " " + rest
        return lines

    def step(self, node: Node, depth: int, out: list[Out]) -> None:
        body = node.child_by_field_name("body")
        skip = frozenset({body.id}) if body is not None else frozenset()
        toks = self.tokens(node, skip)
        out.append(Out(depth, self.with_trailing(toks, self.join(toks))))
        if body is None:
            return
        self.block(list(body.children), depth + 1, out, STEP_ORDER, default=0)

    def outcome_cells(self, node: Node) -> tuple | None:
        name = node.child_by_field_name("name")
        if name is None:
            return None
        ttype = node.child_by_field_name("type")
        route = node.child_by_field_name("route")
        head = f"outcome {self.text(name)}:"
        cells: list[str] = [head]
        if ttype is not None:
            tt = self.join(self.tokens_of(ttype))
            cells.append(f"type {tt}," if route is not None else f"type {tt}")
        if route is not None:
            cells.append(f"route {self.text(route)}")
        return ("outcome", *cells)

    def tokens_of(self, node: Node) -> list[Tok]:
        if node.child_count == 0:
            parent = node.parent.type if node.parent else ""
            return [Tok(self.text(node), node.end_point.row, node.type, parent, node.end_byte)]
        return self.tokens(node)

    def type_declaration(self, node: Node, out: list[Out]) -> None:
        name = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        if name is None or body is None:
            raise Unprintable("type")
        head = f"type {self.text(name)}"
        if body.type != "record_body":
            toks = self.tokens(node)
            rest = self.join([t for t in toks][2:])
            text = self.with_trailing(toks, f"{head} {rest}")
            out.append(Out(0, text, align=("type=", head, text[len(head) + 1 :])))
            return
        fields = [c for c in body.children if c.type == "field_declaration"]
        end = fields[-1].end_byte if fields else body.start_byte
        # comment lines after the last field leave the type: they print after its closing brace
        notes = [c for c in body.children if c.type in COMMENTS]
        after = [c for c in notes if c.start_byte > end and not self.is_trailing(c)]
        inside = [c for c in notes if c not in after]
        parts = [self.join(self.tokens(f)) for f in fields]
        one = f"{head} {{ {', '.join(parts)} }}" if parts else f"{head} {{}}"
        own_toks = self.tokens(node, frozenset(c.id for c in body.children if c.is_named))
        blanks: dict[int, bool] = {}  # a blank line before a field or comment line inside
        previous: Node | None = None
        for child in body.children:
            if child.type == "field_declaration" or child in inside:
                own_line = child.start_point.row - 1 > node.start_point.row
                after_doc = previous is not None and previous.type == "doc_comment"
                blanks[child.id] = own_line and not after_doc and self.blank_before(child)
                previous = child
        if not inside and not any(blanks.values()) and len(one) <= WIDTH:
            text = self.with_trailing(own_toks, one)
            out.append(Out(0, text, align=("type{", head, text[len(head) + 1 :])))
        else:
            out.append(Out(0, self.with_trailing(own_toks[:3], f"{head} {{")))
            for child in body.children:
                if child.type == "field_declaration":
                    text = self.join(self.tokens(child)) + ","
                    comma_row = child.end_point.row
                    if child.next_sibling is not None and child.next_sibling.type == ",":
                        comma_row = child.next_sibling.end_point.row
                    rows = [Tok("", child.end_point.row, "", ""), Tok("", comma_row, "", "")]
                    out.append(Out(1, self.with_trailing(rows, text), blank=blanks[child.id]))
                elif child in inside and not self.is_trailing(child):
                    out.append(Out(1, self.comment_text(child), blank=blanks[child.id]))
            close = [c for c in body.children if c.type == "}"]
            close_toks = [Tok("", close[0].end_point.row, "", "")] if close else []
            out.append(Out(0, self.with_trailing(close_toks, "}")))
        for child in after:
            out.append(Out(0, self.comment_text(child), blank=self.blank_before(child)))
        close_row = body.end_point.row
        if close_row - 1 in self.blank_rows and close_row - 1 > node.start_point.row:
            out.append(Out(0, "", marker=True))  # a blank line before `}` goes after the type

    def step_outcome(self, node: Node, depth: int, out: list[Out]) -> None:
        route = node.child_by_field_name("route")
        if route is None:
            raise Unprintable("outcome without a route")
        head_toks = self.tokens(node, frozenset({route.id}))
        head = self.join(head_toks)
        if not head.endswith(","):
            raise Unprintable("outcome without its comma")
        route_toks = self.tokens(route)
        payload = route.child_by_field_name("payload")
        named = payload is not None and any(
            a.child_by_field_name("name") is not None for a in payload.named_children if a.type == "argument"
        )
        one = f"{head} {self.join(route_toks)}"
        if not named and len(INDENT * depth + one) <= WIDTH:
            out.append(Out(depth, self.with_trailing(head_toks + route_toks, one)))
            return
        out.append(Out(depth, head))  # a comment at the end of the outcome goes after its route
        route_toks = head_toks + route_toks
        if payload is None:
            out.append(Out(depth + 1, self.with_trailing(route_toks, self.join(self.tokens(route)))))
            return
        pre = self.join(self.tokens(route, frozenset({payload.id}))) + "("
        args = [a for a in payload.named_children if a.type == "argument"]
        pieces = [self.join(self.tokens(a)) for a in args]
        lines: list[tuple[int, str]] = []
        cur, cur_depth = pre, depth + 1
        for i, piece in enumerate(pieces):
            piece += ")" if i == len(pieces) - 1 else ","
            sep = "" if cur.endswith("(") else " "
            if len(INDENT * cur_depth + cur + sep + piece) <= WIDTH:
                cur += sep + piece
            else:
                lines.append((cur_depth, cur))
                cur, cur_depth = piece, depth + 2
        if not pieces:
            cur += ")"
        lines.append((cur_depth, cur))
        for i, (d, text) in enumerate(lines):
            if i == len(lines) - 1:
                text = self.with_trailing(route_toks, text)
            out.append(Out(d, text))

    # ---------------------------------------------------------------- document
    def lines(self) -> list[Out]:
        """The canonical lines, aligned, each top-level one knowing the source rows it prints."""
        root = self.doc.root
        out: list[Out] = []
        children = list(root.children)
        narration = [c for c in children if c.type == "narration"]
        rest = [c for c in children if c.type != "narration"]
        for n in narration:
            out.append(Out(0, self.comment_text(n), owner=(n.start_point.row, n.start_point.row)))
        heads = [c for c in rest if c.type in ("workflow_declaration", "workloop_declaration")]
        if len(heads) > 1:
            raise Unprintable("two documents")
        if heads and any(n.start_byte > heads[0].start_byte for n in narration):
            raise Unprintable("narration after the header")
        if heads:
            first = heads[0]
            before = [c for c in rest if c.end_byte <= first.start_byte]
            after = [c for c in rest if c.start_byte >= first.end_byte]
            self.block(before + [first], 0, out)
            self.block(after, 0, out, TOP_ORDER)
        else:
            self.block(rest, 0, out, TOP_ORDER)
        if len(self.used_trailing) != len(self.trailing):
            raise Unprintable("a comment lost its line")
        self.align(out)
        return out

    def ends_with_kept_blank(self) -> bool:
        """Blank lines at the end of the document are kept as one when the last code line above them
        is indented (they close a block, as the engine keeps them); otherwise they go."""
        rows = [i for i, line in enumerate(self.rows) if line.strip()]
        final = len(self.rows) - 1  # the piece after the last line break (empty when there is one)
        if not rows or rows[-1] + 1 >= final:
            return False
        code = [i for i in rows if not self.rows[i].lstrip().startswith("//")]
        return bool(code) and self.rows[code[-1]].startswith((" ", "\t"))

    @staticmethod
    def align(out: list[Out]) -> None:
        i = 0
        while i < len(out):
            key = out[i].align[0] if out[i].align else None
            if key is None:
                i += 1
                continue
            j = i + 1
            members = [i]
            while j < len(out):
                o = out[j]
                if o.blank:
                    break
                if o.align is None:  # a comment line or any other line ends the run
                    break
                if o.align[0] != key or o.depth != out[i].depth:
                    break
                members.append(j)
                j += 1
            if len(members) > 1:
                cells = [out[m].align[1:] for m in members]  # type: ignore[index]
                ncols = max(len(c) for c in cells)
                widths = [max((len(c[k]) for c in cells if len(c) > k + 1), default=0) for k in range(ncols)]
                for m, c in zip(members, cells, strict=True):
                    trail = out[m].text[len(" ".join(c)) :]
                    text = "".join(
                        cell.ljust(widths[k]) + " " if k < len(c) - 1 else cell for k, cell in enumerate(c)
                    )
                    out[m].text = text + trail
            i = j if j > i else i + 1

    @staticmethod
    def render(out: list[Out]) -> str:
        following = 0
        for o in reversed(out):  # comment lines that end a block go with the line after them
            if o.depth == FLOAT:
                o.depth = following
            following = o.depth
        lines: list[str] = []
        carried = False
        for o in out:
            if o.marker:
                carried = True
                continue
            if (o.blank or carried) and lines and lines[-1] != "" and o is not out[0]:
                lines.append("")
            carried = False
            lines.append(INDENT * o.depth + o.text)
        return "\n".join(lines) + "\n"


def canonical_text(text: str) -> str | None:
    """The canonical form of `text`, or None when it has syntax errors or cannot be printed faithfully."""
    printed = _print(text)
    return printed[0] if printed else None


def canonical_items(text: str) -> list[tuple[int, int, str]] | None:
    """Each top-level item's canonical text (no line break at its end) with the source rows it replaces
    (first, last; its comment lines included), in source order; None as for `canonical_text`."""
    printed = _print(text)
    if printed is None:
        return None
    _, out, eol = printed
    groups: dict[tuple[int, int], list[Out]] = {}
    for o in out:
        if o.owner is not None:
            groups.setdefault(o.owner, []).append(o)
    items = []
    for owner in sorted(groups):
        rendered = Printer.render(groups[owner]).rstrip("\n")
        items.append((owner[0], owner[1], rendered.replace("\n", eol)))
    return items


def _print(text: str) -> tuple[str, list[Out], str] | None:
    eol = "\r\n" if "\r\n" in text else "\n"
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    doc = SyntaxDocument(text[len(bom) :].replace("\r\n", "\n"))
    if doc.root.has_error or not text.strip("\ufeff \t\r\n"):
        return None
    try:
        printer = Printer(doc)
        out = printer.lines()
        result = printer.render(out) + ("\n" if printer.ends_with_kept_blank() else "")
    except (Unprintable, RecursionError):
        return None
    if not _same_content(doc, SyntaxDocument(result)):
        return None
    return bom + result.replace("\n", eol), out, eol


def _leaves(doc: SyntaxDocument) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    stack = [doc.root]
    while stack:
        node = stack.pop()
        if node.child_count == 0 or node.type in VERBATIM:
            text = doc.source[node.start_byte : node.end_byte].decode("utf-8").rstrip()
            kind = node.type
            if kind in COMMENTS:  # the printer may add a space after `//`, or make a `///` a comment
                kind, text = "comment", "".join(text.split())
            if text and text != ",":
                found.append((kind, text))
            continue
        stack.extend(node.children)
    return sorted(found)


def _same_content(before: SyntaxDocument, after: SyntaxDocument) -> bool:
    """The printed document parses cleanly and holds the same tokens and comments."""
    return not after.root.has_error and _leaves(before) == _leaves(after)
