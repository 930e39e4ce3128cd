"""Completion inside an expression and inside brackets: what may be typed after an operator, a
value or a `.`, as an argument or a field of a `{ … }`, and where a type is expected instead.

`expression` reads the tokens of the value being typed and offers names of the fitting type, the
fields of the value before a `.`, operators after a complete value; `bracket` knows a call's
parameters not given yet and a record's fields; `type_position` tells a type's place from a value's.
"""

from __future__ import annotations

from awl_lsp.features.completion_tokens import (
    _COMBINATORS,
    _OPERATORS,
    _VALUE_END,
    Analysis,
    Plan,
)
from awl_lsp.model.types import AwlType, element_of

DECLARES_PARAMETERS = frozenset({"action", "child", "detached", "subflow"})


def type_position(a: Analysis, i: int) -> str | None:
    """Whether the place right after token `i` takes a type: "types", "types+type" or "type"."""
    if i < 0:
        return None
    t = a.toks[i]
    first = a.toks[a.line_start(i)]
    stack = a.open_brackets(i)
    if t.text == "[" and not t.named:
        return "types" if type_position(a, i - 1) else None
    if t.text == "type" and i > 0 and a.toks[i - 1].text == ":":
        return "types"
    if t.text == "->":
        return "types" if first.text in ("action", "child", "detached") and not stack else None
    if t.text != ":":
        return None
    if stack:
        ob = stack[-1]
        if a.toks[ob].text == "{":
            return "types" if first.text == "type" else None
        if a.toks[ob].text == "(" and ob >= 2 and a.toks[ob - 2].text in DECLARES_PARAMETERS:
            return "types"
        return None
    pos = i - a.line_start(i)
    if pos != 2:
        return None
    if first.text in ("input", "signal", "carry"):
        return "types"
    if first.text in ("report", "invariant"):
        return "types+type"
    return None


def offer_routes(p: Plan) -> None:
    p.route_targets = True


def expression(a: Analysis, p: Plan, start: int) -> str:
    """Plan for an expression whose tokens run from `start` to the cursor; returns its state."""
    opener = a.toks[start - 1].text if start > 0 else ""
    if start >= a.cut:
        p.values = True
        p.record_types = opener in (":", "=", "(", ",", "[")
        p.slots.append("expression")
        return "start"
    j = a.cut - 1
    last = a.toks[j]
    if last.text == ".":
        before = a.toks[j - 1] if j > 0 else None
        if before is not None and before.end == last.start and before.text == "workflow":
            p.workflow_fields = True
        elif before is not None and before.end == last.start and before.kind in _VALUE_END and j - 1 >= start:
            p.fields_of = known(a.infer_back(j - 1))
        else:
            p.fields_of = known(element_of(a.pipe_input(j)) or a.pipe_input(j))
        return "field"
    if last.text == "|>":
        p.stage_actions = True
        p.slots.append("pipe-stage")
        return "stage"
    if last.text == "route" and j > 0 and a.toks[j - 1].text == "|>":
        offer_routes(p)
        return "route"
    if last.text == "is":
        p.slots.append("is-test")
        return "is"
    if last.text == "schema":
        p.slots.append("schema-door")
        return "schema"
    if last.text == "of" and j > 0 and a.toks[j - 1].text == "schema":
        p.types = True
        return "type"
    if last.text in ("empty", "present", "absent"):
        p.words += ["and", "or"]
        return "complete"
    if last.text in _OPERATORS or last.text in ("(", ",", "[", ":", "=") and not last.named:
        p.values = True
        p.record_types = last.text in (":", "=", "(", ",", "[")
        p.slots.append("expression")
        return "start"
    if last.kind in _VALUE_END or last.text in ("count", "workflow"):
        p.slots.append("after-expression")
        return "complete"
    return "other"


def known(t: AwlType | None) -> AwlType | None:
    return None if t is None or t.unknown else t


def bracket(a: Analysis, p: Plan, ob: int, block: str) -> None:
    tp = type_position(a, a.cut - 1)
    if tp:
        p.types = True
        return
    open_tok = a.toks[ob]
    inside = [i for i in range(ob + 1, a.cut) if a.toks[i].depth == open_tok.depth + 1]
    commas = [i for i in inside if a.toks[i].text == ","]
    seg = (commas[-1] + 1) if commas else ob + 1
    before = a.toks[ob - 1] if ob > 0 else None
    before2 = a.toks[ob - 2].text if ob > 1 else ""
    if open_tok.text == "{":
        return
    if open_tok.text == "[":
        expression(a, p, seg)
        return
    if before is None or before.text == "schema" or before2 in DECLARES_PARAMETERS:
        return
    if before.text in _COMBINATORS:
        expression(a, p, ob + 1)
        return
    if before.kind != "identifier" and before.text != "start" or before.end != open_tok.start:
        expression(a, p, ob + 1)
        return
    how = {"hatch": "hatch", "answer": "answer", "route": "route"}.get(before2, "call")
    if seg >= a.cut:
        p.arguments = (how, before.text)
        p.given = given(a, ob)
        return
    if seg + 1 < a.cut and a.toks[seg + 1].text == ":":
        expression(a, p, seg + 2)
    elif how == "route":  # a payload that is not a record: `route failed("text" + x)`
        expression(a, p, seg)


def given(a: Analysis, ob: int) -> set[str]:
    depth = a.toks[ob].depth + 1
    out: set[str] = set()
    for i in range(ob + 1, len(a.toks) - 1):
        t = a.toks[i]
        if t.depth < depth or (t.depth == 0 and a.is_line_start(i)):
            break
        if t.depth == depth and a.toks[i + 1].text == ":" and t.kind == "identifier" and i < a.cut:
            out.add(t.text)
    return out
