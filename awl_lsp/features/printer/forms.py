"""The forms that may span lines: record types (one line or one field per line), step outcomes
(broken after the comma, payloads wrapped at 100 columns), long pipes (one stage per line), and
the cells of aligned outcome clauses."""

from __future__ import annotations

from tree_sitter import Node

from awl_lsp.features.printer.lines import INDENT, WIDTH, Out
from awl_lsp.features.printer.source import COMMENTS, Source, Tok, Unprintable


class Forms(Source):
    """Printing of the forms whose line breaks the printer decides."""

    def type_declaration(self, node: Node, out: list[Out]) -> None:
        """`type N { … }` on one line or one field per line; `type N = …` on one line."""
        name = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        if name is None or body is None:
            raise Unprintable("type")
        head = f"type {self.text(name)}"
        if body.type != "record_body":
            toks = self.tokens(node)
            rest = self.join(toks[2:])  # after `type` and the name
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
            # an end-of-line comment goes with the line that prints the last token of its row
            opening = body.children[0]
            out.append(Out(0, self.with_trailing(self._row_end(opening), f"{head} {{")))
            for child in body.children:
                if child.type == "field_declaration":
                    text = self.join(self.tokens(child)) + ","
                    last = child
                    if child.next_sibling is not None and child.next_sibling.type == ",":
                        last = child.next_sibling
                    out.append(Out(1, self.with_trailing(self._row_end(last), text), blank=blanks[child.id]))
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

    def _row_end(self, node: Node) -> list[Tok]:
        """A stand-in token for `node`'s row when `node` is the last token there, else none."""
        after = node.next_sibling
        while after is not None and after.type in COMMENTS:
            after = after.next_sibling
        if after is not None and after.start_point.row == node.end_point.row:
            return []
        return [Tok("", node.end_point.row, "", "")]

    def step_outcome(self, node: Node, depth: int, out: list[Out]) -> None:
        """`outcome n: guard, route …` on one line, or broken after the comma (payload wrapped)."""
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

    def outcome_cells(self, node: Node) -> tuple | None:
        """The alignment cells of a header/subflow outcome clause: `outcome n:`, `type T,`, `route …`."""
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
