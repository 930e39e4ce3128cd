"""Fixes for syntax errors whose meaning the tokens still show: another language's spelling of an
AWL construct, or an AWL line in the wrong place.

Each recognises its slip from the tree at the problem's place (the tokens the parser read there,
never the message) and rewrites just those tokens:

- `List(T)` → `[T]`, `Option(T)` → `T?`: AWL's one spelling of those types. Safe.
- `name = value` as a statement → `value -> name`: results bind with `->`. Safe.
- `1h30m` → `90m`, `.5` → `0.5`, `1e3` → `1000.0`: the same literal as AWL writes it. Safe.
- `max N` in a step's body (not a loop's) → `max N visits`, the step's re-entry bound. Safe.
- a second settings line under an action or call → joined onto the first with a comma. Safe.
- a declaration only the top level holds (`child`, `detached`, `worker`, `type`, `const`,
  `subflow`, `retire`) written indented at the end of another → at the left margin. Safe.
- a header clause (`input`, `signal`, `outcome`, …) written at the left margin right after the
  header → indented into it. Safe.
- an `about "…"` line in the header → a `//!` narration line at the top, where prose goes. Safe.
- `counting` with no name → `counting rounds` (a tab stop). Unsafe: the name is the author's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from tree_sitter import Node

from awl_lsp.features.fixes import lines
from awl_lsp.features.fixes.values import Edit, Fix, edit, tabstop
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

_TOP_ONLY = frozenset({"child", "detached", "worker", "type", "const", "subflow", "retire"})
_HEADER_WORDS = frozenset(
    {"input", "signal", "outcome", "timeout", "every", "on", "carry", "report", "invariant", "retention"}
)
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_SETTINGS = frozenset({"node_setting", "timeout_setting", "retry_setting"})


def _leaves(node: Node) -> list[Node]:
    out: list[Node] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if n.child_count == 0:
            if n.end_byte > n.start_byte:
                out.append(n)
        else:
            stack.extend(reversed(n.children))
    return out


def _row_leaves(snap: Snapshot, row: int) -> list[Node]:
    """The tokens of one row, in order."""
    root = snap.doc.root
    item = root.descendant_for_point_range((row, 0), (row, max(0, len(lines.line(snap, row)) - 1)))
    while item is not None and item.parent is not None and item.parent != root:
        item = item.parent
    if item is None:
        return []
    return [leaf for leaf in _leaves(item) if leaf.start_point.row == row]


def _span(first: Node, last: Node) -> tuple[int, int, int, int]:
    return (first.start_point.row, first.start_point.column, last.end_point.row, last.end_point.column)


def _at(tokens: list[Node], problem: Problem) -> int | None:
    """The index of the token where the problem starts."""
    for i, t in enumerate(tokens):
        if (t.start_point.row, t.start_point.column) == problem.range[:2]:
            return i
    return None


# ---------------------------------------------------------------------- recognisers
def _generic_type(snap: Snapshot, problem: Problem, tokens: list[Node]) -> Fix | None:
    i = _at(tokens, problem)
    if i is None or i == 0 or snap.text(tokens[i]) != "(":
        return None
    word = snap.text(tokens[i - 1])
    if word not in ("List", "Option"):
        return None
    close = next((j for j in range(i + 1, len(tokens)) if snap.text(tokens[j]) == ")"), None)
    if close is None or close == i + 1:
        return None
    inner = [snap.text(t) for t in tokens[i + 1 : close]]
    if any(not (w.isidentifier() or w in ("[", "]", "?")) for w in inner):
        return None
    text = "".join(inner)
    new = f"[{text}]" if word == "List" else f"{text}?"
    return Fix(f"Write `{new}`", (Edit(_span(tokens[i - 1], tokens[close]), new),), safe=True, preferred=True)


def _equals_binder(snap: Snapshot, problem: Problem, tokens: list[Node]) -> Fix | None:
    i = _at(tokens, problem)
    if i != 1 or snap.text(tokens[1]) != "=" or len(tokens) < 3 or "->" in [snap.text(t) for t in tokens]:
        return None
    name = snap.text(tokens[0])
    if not name.isidentifier() or tokens[0].start_point.column != lines.indent(snap, problem.range[0]):
        return None
    value = snap.doc.source[tokens[2].start_byte : tokens[-1].end_byte].decode("utf-8", "replace")
    if tokens[-1].type in ("comment",) or "\n" in value:
        return None
    new = f"{value} -> {name}"
    return Fix(
        f"Bind with `-> {name}`", (Edit(_span(tokens[0], tokens[-1]), new),), safe=True, preferred=True
    )


def _seconds(word: str) -> int | None:
    if len(word) < 2 or word[-1] not in _UNITS or not word[:-1].isdigit():
        return None
    return int(word[:-1]) * _UNITS[word[-1]]


def _compound_duration(snap: Snapshot, problem: Problem, tokens: list[Node]) -> Fix | None:
    i = _at(tokens, problem)
    if i is None:
        return None
    j = i
    total = 0
    while j < len(tokens) and (j == i or tokens[j].start_byte == tokens[j - 1].end_byte):
        part = _seconds(snap.text(tokens[j]))
        if part is None:
            break
        total += part
        j += 1
    if j - i < 2:
        return None
    unit = next(u for u in ("d", "h", "m", "s") if total % _UNITS[u] == 0)
    new = f"{total // _UNITS[unit]}{unit}"
    return Fix(f"Write `{new}`", (Edit(_span(tokens[i], tokens[j - 1]), new),), safe=True, preferred=True)


def _float_spelling(snap: Snapshot, problem: Problem, tokens: list[Node]) -> Fix | None:
    i = _at(tokens, problem)
    if i is None or i + 1 >= len(tokens) or tokens[i + 1].start_byte != tokens[i].end_byte:
        return None
    a, b = snap.text(tokens[i]), snap.text(tokens[i + 1])
    if a == "." and b.isdigit():
        new = f"0.{b}"
    elif a.replace(".", "", 1).isdigit() and b[:1] in ("e", "E") and b[1:].isdigit():
        value = float(a) * 10 ** int(b[1:])
        new = repr(value) if "e" not in repr(value) else None  # type: ignore[assignment]
        if new is None:
            return None
    else:
        return None
    return Fix(f"Write `{new}`", (Edit(_span(tokens[i], tokens[i + 1]), new),), safe=True, preferred=True)


def _step_bound(snap: Snapshot, problem: Problem, tokens: list[Node]) -> Fix | None:
    i = _at(tokens, problem)
    if i != 0 or snap.text(tokens[0]) != "max" or len(tokens) != 2:
        return None
    holder = tokens[0].parent
    while holder is not None and holder.type == "ERROR":
        holder = holder.parent
    if holder is None or holder.type != "step_body" or tokens[1].type not in ("integer", "identifier"):
        return None
    fix = edit((tokens[1].end_point.row, tokens[1].end_point.column), None, " visits")
    return Fix("Add `visits`", (fix,), safe=True, preferred=True)


def _second_settings_line(snap: Snapshot, problem: Problem, tokens: list[Node]) -> Fix | None:
    row = problem.range[0]
    if _at(tokens, problem) != 0:
        return None
    node = tokens[0]
    while node.parent is not None and node.type not in ("call_config", "ERROR"):
        node = node.parent
    if node.type != "call_config":
        return None
    above = lines.code_row_above(snap, row)
    if above is None:
        return None
    before = _row_leaves(snap, above)
    config = before[0] if before else None
    while config is not None and config.type != "call_config":
        config = config.parent
    if config is None or not before or any(t.type == "comment" for t in before):
        return None
    fix = edit(
        (before[-1].end_point.row, before[-1].end_point.column), (row, tokens[0].start_point.column), ", "
    )
    return Fix("Put the settings on one line", (fix,), safe=True, preferred=True)


def _next_code_indent(snap: Snapshot, row: int) -> int:
    r, total = row + 1, lines.row_count(snap)
    while r < total and (lines.blank(snap, r) or lines.comment_line(snap, r)):
        r += 1
    return lines.indent(snap, r) if r < total else 0


def _top_level_declaration(snap: Snapshot, problem: Problem, tokens: list[Node]) -> Fix | None:
    row = problem.range[0]
    if not tokens or snap.text(tokens[0]) not in _TOP_ONLY or tokens[0].start_point.column == 0:
        return None
    if lines.indent(snap, row) != tokens[0].start_point.column or _next_code_indent(snap, row) != 0:
        return None
    word = snap.text(tokens[0])
    return Fix(f"Move `{word}` to the top level", (lines.reindent(snap, row, 0),), safe=True, preferred=True)


def _header_clause(snap: Snapshot, problem: Problem, tokens: list[Node]) -> Fix | None:
    row = problem.range[0]
    if not tokens or snap.text(tokens[0]) not in _HEADER_WORDS or tokens[0].start_point.column != 0:
        return None
    item = tokens[0]
    while item.parent is not None and item.parent.parent is not None:
        item = item.parent
    flow = item.prev_named_sibling
    while flow is not None and flow.type in lines.TRIVIA:
        flow = flow.prev_named_sibling
    header = flow.child_by_field_name("header") if flow is not None else None
    if flow is None or header is None or flow.type not in ("workflow_declaration", "workloop_declaration"):
        return None
    clauses = [c for c in header.named_children if c.type not in lines.TRIVIA]
    column = clauses[0].start_point.column if clauses else 2
    if _next_code_indent(snap, row) != 0:
        return None
    title = f"Indent `{snap.text(tokens[0])}` into the header"
    return Fix(title, (lines.reindent(snap, row, column),), safe=True, preferred=True)


def _counter_name(snap: Snapshot, problem: Problem, tokens: list[Node]) -> Fix | None:
    i = _at(tokens, problem)
    if i is None or snap.text(tokens[i]) != "counting" or i != len(tokens) - 1:
        return None
    holder = tokens[i].parent
    while holder is not None and holder.type == "ERROR":
        holder = holder.parent
    if holder is None or holder.type != "loop_statement" or holder.child_by_field_name("counter") is not None:
        return None
    taken = {s.name for s in snap.model.all_symbols}
    name, n = "rounds", 2
    while name in taken:
        name, n = f"rounds_{n}", n + 1
    fix = edit((tokens[i].end_point.row, tokens[i].end_point.column), None, f" {tabstop(1, name)}")
    return Fix(f"Name the counter `{name}`", (fix,), safe=False, preferred=True, snippet=True)


def _about_line(snap: Snapshot, problem: Problem, tokens: list[Node]) -> Fix | None:
    row = problem.range[0]
    if len(tokens) != 2 or snap.text(tokens[0]) != "about" or tokens[1].type != "string":
        return None
    words = snap.text(tokens[1])[1:-1]
    if "\\" in words or not words.strip():
        return None
    narration = [n for n in snap.doc.root.named_children if n.type == "narration"]
    top = narration[-1] if narration and narration[-1].start_point.row < row else None
    line = f"//! {words.strip()}"
    put = (
        lines.insert_line_after(snap, lines.last_row(top), line) if top else lines.insert_line_before(0, line)
    )
    gone = edit((row, 0), (row + 1, 0), "")
    return Fix("Make it a `//!` narration line", (put, gone), safe=True, preferred=True)


_RECOGNISERS: tuple[Callable[[Snapshot, Problem, list[Node]], Fix | None], ...] = (
    _generic_type,
    _equals_binder,
    _compound_duration,
    _float_spelling,
    _step_bound,
    _second_settings_line,
    _top_level_declaration,
    _header_clause,
    _about_line,
    _counter_name,
)


def rewrite_slip(snap: Snapshot, problem: Problem) -> list[Fix]:
    tokens = _row_leaves(snap, problem.range[0])
    if not tokens:
        return []
    for recognise in _RECOGNISERS:
        found = recognise(snap, problem, tokens)
        if found is not None:
            return [found]
    return []
