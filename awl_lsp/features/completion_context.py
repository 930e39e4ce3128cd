"""Where the cursor is, for completion: a `Plan` of what may legally be typed there.

The analysis (`completion_tokens.Analysis`) reads the tree's tokens, ERROR nodes' children
included, so it works on the half-typed line being edited: the tokens of the logical line before
the cursor say which construct is open, and the block the line belongs to comes from the opener
lines above it. The text of the line is read only for the partial word under the cursor.
"""

from __future__ import annotations

from tree_sitter import Node

from awl_lsp.features.completion_expressions import (
    bracket,
    expression,
    offer_routes,
    type_position,
)
from awl_lsp.features.completion_tokens import (
    _TRIVIA,
    _VALUE_END,
    Analysis,
    Plan,
    Tok,
    is_word,
)
from awl_lsp.features.snapshot import Snapshot
from awl_lsp.model import Kind

_STATEMENT_BLOCKS = frozenset({"step", "fork", "loop", "retire", "on-failure", "outcome-route"})
_OPENER_BLOCKS = {
    "workflow": "workflow-header",
    "workloop": "workloop-header",
    "worker": "worker",
    "step": "step",
    "subflow": "subflow",
    "fork": "fork",
    "loop": "loop",
    "retire": "retire",
}
_CONFIG_WORDS = ("node", "timeout", "retry")


def plan(snap: Snapshot, row: int, col: int) -> tuple[Plan, Analysis]:
    """What may be typed at tree-sitter point (row, byte column)."""
    a = Analysis(snap, row, col)
    p = Plan(row=row)
    if a.prefix[:1].isdigit():
        return p, a
    here = snap.doc.root.descendant_for_point_range((row, max(a.word_start - 1, 0)), (row, a.word_start))
    if here is not None and here.type in _TRIVIA and a.word_start > here.start_point.column:
        return p, a  # inside a comment
    if a.cut > 0:
        last = a.toks[a.cut - 1]
        if last.end > a.word_byte and last.kind not in ("identifier",) and not is_word(last.text):
            return p, a  # inside a string, a number or a JSON body
        open_string = len(last.text) == 1 or last.text[-1] != '"'
        if last.node.type == "string" and last.end >= a.word_byte and open_string:
            return p, a  # an unterminated string runs to the end of the line
    on_row = [i for i in range(a.cut) if a.toks[i].row == row]
    stack = a.open_brackets(a.cut)
    first: int | None = None
    if on_row:
        first = a.line_start(on_row[0])
    elif stack:
        first = a.line_start(stack[0])
    indent = a.toks[first].col if first is not None else a.word_start
    line_row = a.toks[first].row if first is not None else row
    openers = a.openers(line_row, indent)
    a.scope = p.scope = a.scope_of(openers)
    p.enclosing_steps = [
        a.toks[i + 1].text
        for i in openers
        if a.toks[i].text == "step" and i + 1 < len(a.toks) and a.toks[i + 1].row == a.toks[i].row
    ]
    a.visits = any(_has_visits(a, i) for i in openers[:1] if a.toks[i].text == "step")
    block = _block_of(a, openers, indent)
    if stack:
        bracket(a, p, stack[-1], block)
    elif first is None:
        _line_start(a, p, block, row, indent)
        if block in ("workflow-header", "workloop-header", "invariant") and openers:
            p.drop |= _unique_clauses_present(a, a.toks[openers[0]], row)
    else:
        _mid_line(a, p, block, first)
    return p, a


def _block_of(a: Analysis, openers: list[int], indent: int) -> str:
    if indent == 0:
        return "top"
    if not openers:
        return "none"
    o = a.toks[openers[0]]
    if indent != o.col + 2:
        return "none"
    outer = a.toks[openers[1]].text if len(openers) > 1 else ""
    nxt = a.toks[openers[0] + 1].text if openers[0] + 1 < len(a.toks) else ""
    if not o.named and o.text in _OPENER_BLOCKS and (o.col == 0 or o.text not in ("workflow", "workloop")):
        return _OPENER_BLOCKS[o.text]
    if o.text == "invariant" and outer in ("workloop", "workflow"):
        return "invariant"
    if o.text == "action" and outer == "worker":
        return "action-config"
    if o.text == "on" and nxt == "failure":
        return "on-failure"
    if o.text == "outcome" and outer == "step":
        return "outcome-route"
    if outer in _OPENER_BLOCKS and _OPENER_BLOCKS[outer] in _STATEMENT_BLOCKS or outer == "on":
        if o.kind in _VALUE_END or o.text == "workflow":
            return "call-config"
    return "none"


def _statements(a: Analysis, p: Plan, slot: str, row: int, indent: int) -> None:
    p.slots.append(slot)
    p.callables = p.values = True
    last = a.last_sibling(row, indent)
    if last is not None and a.toks[last].text == "fork":
        p.words.append("join")


def _line_start(a: Analysis, p: Plan, block: str, row: int, indent: int) -> None:
    m = a.model
    if block == "top":
        p.slots.append("top-level")
        if m.flow is not None:
            p.drop |= {"workflow", "workloop"}
        if not m.is_workloop or m.of_kind(Kind.RETIRE):
            p.drop.add("retire")
    elif block in ("workflow-header", "workloop-header"):
        p.slots.append(block)
    elif block == "invariant":
        p.slots.append("invariant-body")
    elif block == "worker":
        p.slots.append("worker-body")
    elif block == "action-config":
        p.slots.append("action-config")
    elif block == "call-config":
        p.words += ["node", "timeout"]
    elif block == "subflow":
        p.words += ["outcome", "step"]
    elif block == "step":
        _statements(a, p, "step-body", row, indent)
    elif block == "loop":
        _statements(a, p, "loop-body", row, indent)
    elif block == "fork":
        _statements(a, p, "fork-body", row, indent)
    elif block == "retire":
        _statements(a, p, "step-body", row, indent)
        p.drop |= {"step", "on", "outcome", "max"}
    elif block == "on-failure":
        p.callables = True
        p.words.append("route")
    elif block == "outcome-route":
        p.words.append("route")


# header clauses a flow (or an invariant) holds at most once: not offered again once written
_UNIQUE_CLAUSES = {
    "every_clause": "every",
    "retention_clause": "retention",
    "timeout_clause": "timeout",
    "tolerance_clause": "tolerance",
    "confirms_clause": "confirms",
}


_CLAUSE_OWNERS = ("workflow_declaration", "workloop_declaration", "invariant_clause")


def _unique_clauses_present(a: Analysis, opener: Tok, row: int) -> set[str]:
    """The once-only clause words already written in the block `opener` opens (not on `row`)."""
    node: Node | None = opener.node
    while node is not None and node.type not in _CLAUSE_OWNERS:
        node = node.parent
    if node is None:
        return set()
    if node.type != "invariant_clause":
        node = node.child_by_field_name("header")
    present: set[str] = set()
    for child in node.named_children if node is not None else []:
        word = _UNIQUE_CLAUSES.get(child.type)
        if word is not None and child.start_point.row != row:
            present.add(word)
    return present


def _base_scope(a: Analysis) -> str:
    return a.scope.split("/")[0] if a.scope.startswith("subflow:") else ""


def _steps(a: Analysis, exclude: set[str]) -> list[str]:
    base = _base_scope(a)
    return [s.name for s in a.model.of_kind(Kind.STEP) if s.scope == base and s.name not in exclude]


def _mid_line(a: Analysis, p: Plan, block: str, first: int) -> None:
    toks = a.line_tokens(first)
    words = [t.text for t in toks]
    w0, n, last = words[0], len(words), words[-1]
    tp = type_position(a, a.cut - 1)
    if tp:
        p.types = tp != "type"
        if tp == "types+type":
            p.words.append("type")
        return
    if block in ("workflow-header", "workloop-header", "subflow"):
        _header_line(a, p, block, toks, words)
    elif block == "invariant":
        if w0 == "tolerance" and n == 1:
            p.slots.append("tolerance")
        elif w0 == "tolerance" and n == 2:
            p.slots.append("tolerance-unconfirmed" if last == "unconfirmed" else "tolerance-count")
        elif w0 == "confirms" and n == 1:
            p.confirms_targets = True
    elif block in ("action-config", "call-config"):
        allowed = _CONFIG_WORDS if block == "action-config" else _CONFIG_WORDS[:2]
        if last == ",":
            p.words += [w for w in allowed if w not in words]
        elif "retry" in words and words.index("retry") == n - 2 and "," not in words[words.index("retry") :]:
            p.slots.append("retry-schedule")
    elif block == "top":
        if w0 == "step":
            _step_line(a, p, words)
        elif w0 == "type" and n == 3 and last == "=":
            p.words.append("schema")
        elif w0 == "const" and "=" in words:
            p.constants_only = True
            expression(a, p, first + words.index("=") + 1)
    elif block in _STATEMENT_BLOCKS:
        _statement_line(a, p, block, first, toks, words)


def _header_line(a: Analysis, p: Plan, block: str, toks: list[Tok], words: list[str]) -> None:
    w0, n, last = words[0], len(words), words[-1]
    if w0 == "on" and n == 1 and block == "workloop-header":
        p.signals = True
    elif w0 == "carry" and "=" in words:
        p.constants_only = True
        expression(a, p, a.toks.index(toks[0]) + words.index("=") + 1)
    elif w0 == "outcome":
        if n == 3 and last == ":":
            p.slots.append("header-outcome-type")
        elif last == "," and block != "subflow":
            p.words.append("route")
        elif last == "route" and "," in words and block != "subflow":
            p.slots.append("header-outcome-route")


def _step_line(a: Analysis, p: Plan, words: list[str]) -> None:
    n, last = len(words), words[-1]
    if "after" not in words:
        if n == 2:
            p.slots.append("step-header")
    elif last in ("after", ","):
        p.steps = _steps(a, set(words[1:2]) | set(words[words.index("after") + 1 :]))


def _statement_line(a: Analysis, p: Plan, block: str, first: int, toks: list[Tok], words: list[str]) -> None:
    w0, n, last = words[0], len(words), words[-1]
    if w0 == "step" and block == "step":
        _step_line(a, p, words)
    elif w0 == "route":
        if n == 1:
            offer_routes(p)
    elif w0 == "outcome" and block == "step":
        if n == 3 and last == ":":
            p.slots.append("outcome-guard")
        elif n >= 4 and "," in words[3:]:
            if last == ",":
                p.words.append("route")
            elif last == "route":
                offer_routes(p)
        elif n >= 4 and words[3] in ("if", "when"):
            if expression(a, p, first + 4) == "start" and a.visits:
                p.words.append("visits")
    elif w0 == "hatch":
        if n == 1:
            p.detached = True
        elif "key" in words:
            expression(a, p, first + words.index("key") + 1)
        elif last == ")" and a.matching_open(a.cut - 1) == first + 2:
            p.slots.append("hatch-tail")
    elif w0 == "answer" and n == 1:
        p.reports = True
    elif w0 == "spawn" and n == 1:
        p.children = True
    elif w0 == "wait":
        if n == 1:
            p.signals = True
        elif n == 2:
            p.slots.append("wait-tail")
    elif w0 == "on" and n == 1 and block == "step":
        p.slots.append("on-step")
    elif w0 == "fork" and n >= 2:
        if n == 2:
            p.words.append("in")
        elif "in" in words and "sequential" not in words:
            if expression(a, p, first + words.index("in") + 1) == "complete":
                p.words.append("sequential")
    elif w0 in ("distribute", "sequence") and n >= 2:
        if n == 2:
            p.words.append("in")
        elif "in" in words:
            expression(a, p, first + words.index("in") + 1)
    elif w0 == "loop" and "=" in words and "counting" not in words:
        if expression(a, p, first + words.index("=") + 1) == "complete":
            p.words.append("counting")
    elif w0 == "collect" and n == 1:
        p.values = True
    elif w0 == "until" and block == "loop":
        expression(a, p, first + 1)
    elif w0 == "max":
        state = expression(a, p, first + 1)
        if state == "complete" and block == "step" and "visits" not in words:
            p.slots.remove("after-expression")
            p.words.append("visits")
    elif w0 in ("sleep", "join", "step", "outcome", "answer", "spawn", "on"):
        return
    elif "->" not in words:
        expression(a, p, first)


def _has_visits(a: Analysis, opener: int) -> bool:
    """Whether the step opened at token `opener` ends with a `max N visits` bound."""
    col = a.toks[opener].col
    for i in range(opener + 1, len(a.toks)):
        t = a.toks[i]
        if a.is_line_start(i) and t.col <= col:
            return False
        if t.text == "visits" and not t.named and a.toks[a.line_start(i)].col == col + 2:
            return True
    return False
