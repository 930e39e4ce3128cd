"""Blocks and the document: line items with the comment lines before them, canonical order of
header clauses, declarations and step/loop/invariant bodies, nesting, and the whole document."""

from __future__ import annotations

from dataclasses import dataclass, field

from tree_sitter import Node

from awl_lsp.features.printer.forms import Forms
from awl_lsp.features.printer.lines import FLOAT, INDENT, WIDTH, Out, align
from awl_lsp.features.printer.source import COMMENTS, REFUSED, Unprintable
from awl_lsp.syntax.layout_nodes import BLOCK_NODES

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


@dataclass
class Entry:
    """One line item of a block, with the comment lines before it."""

    node: Node
    blank: bool  # a blank line before it (or before its first comment)
    comments: list[tuple[bool, str]] = field(default_factory=list)  # (blank before, text)
    orphan: bool = False  # only comment lines, at the end of a block
    first_row: int = 0  # of its first comment line, or of itself
    last_row: int = 0  # of its last comment line (for comment-only entries)


class Printer(Forms):
    """The canonical lines of one document (`lines()`); see the package docstring for the form."""

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
            if child.type in BLOCK_NODES:
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

    def step(self, node: Node, depth: int, out: list[Out]) -> None:
        body = node.child_by_field_name("body")
        skip = frozenset({body.id}) if body is not None else frozenset()
        toks = self.tokens(node, skip)
        out.append(Out(depth, self.with_trailing(toks, self.join(toks))))
        if body is None:
            return
        self.block(list(body.children), depth + 1, out, STEP_ORDER, default=0)

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
        align(out)
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
