"""Fixes that change the type a declaration states: a parameter, field, carry, input or outcome whose
type a value does not fit, or whose optionality the value cannot have.

- `type-mismatch` (`data.slot`, `data.found`): declare the slot with the type of the value given —
  "Change the type of parameter `x` of `half` to `Int`".
- `optional-into-plain` (`data.slot`, `data.expected`): make the slot optional (`String?`).
- an optional value where only a plain one goes — an outcome guard (`type-bool`), a comparison
  (`compare-optional`), a `+` (`plus-mismatch`) — with `data.source`, the declaration that made
  it optional: make that one required.
- `is-present` on a value declared plain (`data.plain_source`): make the declaration optional;
  `compare-mismatch` with a declared side (`data.left_source` / `right_source`): that side takes
  the other side's type (`weight: Int` compared with `2.5` becomes `Float`).
- `header-type`, `parameter-type` (`input host`, `send(message)`): `: T`, and `return-type`: ` -> T`,
  a placeholder whose default is the first type with which the document checks (`Nil` first for
  a return, then the builtins, then the document's own types).
- `list-element` (`[String?]`, `data.choices`): `[String]`, or `[String]?` for an optional list.

The slot is named in the problem's data (see `checks.slots`) and found through the model of the
text being fixed. A type change reaches every line that passes a value into the declaration or
reads one out of it, so each fix is tried first (`trial.mends`) and offered only when the
document then checks without its problem and without a new one — and not at all when the value
has an error of its own at the same place (a loop's counter read inside the loop has the wrong
type because it is read there: the declaration is not to follow it). All unsafe: whether the value or
the declaration is wrong, only the author knows; and a parameter's or an input's type is also a
contract with a worker or a caller that this document does not show.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from awl_lsp.features.fixes.places import ancestor, end, node_at, span
from awl_lsp.features.fixes.trial import also_wrong, mends
from awl_lsp.features.fixes.values import Edit, Fix, edit, tabstop
from awl_lsp.model import Kind, Symbol
from awl_lsp.model.type_base import parse_type_text
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

# the node that holds a declaration's `type` field, by slot kind
_DECLARATION = {
    "parameter": "parameter",
    "field": "field_declaration",
    "carry": "carry_clause",
    "input": "input_clause",
    "outcome": "outcome_clause",
}


def writable(type_text: object) -> str | None:
    """The type as AWL writes it, or None when it is no type one can write (unknown, a duration)."""
    if not isinstance(type_text, str):
        return None
    t = parse_type_text(type_text)
    return str(t) if not t.unknown and str(t) == type_text.strip() and t.kind != "duration" else None


def _member(snap: Snapshot, slot: dict, at: tuple[int, int]) -> Symbol | None:
    """The symbol a slot names (for an outcome, the one a route at `at` reaches: its subflow's)."""
    model = snap.model
    kind, owner, name = slot.get("kind"), slot.get("owner", ""), slot.get("name", "")
    if kind == "parameter":
        sym = model.callable(owner) or model.first(Kind.DETACHED, owner)
        return next((p for p in model.parameters_of(sym) if p.name == name), None)
    if kind == "field":
        return next((f for f in model.fields_of(owner) if f.name == name), None)
    if kind == "carry":
        return model.first(Kind.CARRY, name)
    if kind == "input":
        return model.first(Kind.INPUT, name)
    if kind == "outcome":
        subflow = model.enclosing(at[0], at[1], Kind.SUBFLOW)
        scope = f"subflow:{subflow.name}" if subflow is not None else ""
        return next((o for o in model.lookup(Kind.OUTCOME, name) if o.scope == scope), None)
    return None


def declared_type(snap: Snapshot, slot: object, at: tuple[int, int]) -> Node | None:
    """The type node of the declaration a slot names, where the document writes one."""
    if not isinstance(slot, dict) or slot.get("kind") not in _DECLARATION:
        return None
    sym = _member(snap, slot, at)
    if sym is None:
        return None
    name = node_at(snap, sym.selection)
    decl = ancestor(name, _DECLARATION[slot["kind"]])
    return decl.child_by_field_name("type") if decl is not None else None


def _what(slot: dict) -> str:
    kind, owner, name = slot["kind"], slot.get("owner", ""), slot.get("name", "")
    return f"{kind} `{name}` of `{owner}`" if owner else f"{kind} `{name}`"


def _retype(snap: Snapshot, problem: Problem, slot: object, new: str | None, title: str) -> list[Fix]:
    type_node = declared_type(snap, slot, (problem.range[0], problem.range[1]))
    if type_node is None or new is None or snap.text(type_node) == new or not isinstance(slot, dict):
        return []
    if also_wrong(snap, problem):
        return []  # (the value is wrong first: the declaration is not to follow it)
    change = _keeping_columns(snap, type_node, new)
    if not mends(snap, problem, [change]):
        return []
    return [Fix(title.format(what=_what(slot), new=new), (change,), safe=False, preferred=True)]


def _keeping_columns(snap: Snapshot, node: Node, new: str) -> Edit:
    """`node` rewritten as `new`; where spaces after it (after its comma) align what follows in a
    column, as `awl fmt` aligns header outcomes (`type String,  route …`), they are made as many
    fewer or more as the text grew or shrank, so the column stays."""
    source = snap.doc.source
    stop = source.find(b"\n", node.end_byte)
    line = source[node.end_byte : len(source) if stop == -1 else stop]
    comma = line.startswith(b",")
    gap = len(line) - len(line[int(comma) :].lstrip(b" ")) - int(comma)
    grown = len(new.encode("utf-8")) - (node.end_byte - node.start_byte)
    if gap < 2 or grown == 0 or gap - grown < 1:
        return Edit(span(node), new)
    s, e = node.start_point, node.end_point
    end_col = e.column + int(comma) + gap
    return Edit((s.row, s.column, e.row, end_col), new + ("," if comma else "") + " " * (gap - grown))


def change_slot_type(snap: Snapshot, problem: Problem) -> list[Fix]:
    """`type-mismatch`: the slot takes the type of the value given."""
    data = problem.data or {}
    new = writable(data.get("found"))
    return _retype(snap, problem, data.get("slot"), new, "Change the type of {what} to `{new}`")


def make_slot_optional(snap: Snapshot, problem: Problem) -> list[Fix]:
    """`optional-into-plain`: the slot becomes optional."""
    data = problem.data or {}
    expected = writable(data.get("expected"))
    new = f"{expected}?" if expected is not None and not expected.endswith("?") else None
    return _retype(snap, problem, data.get("slot"), new, "Make {what} optional (`{new}`)")


def make_source_required(snap: Snapshot, problem: Problem) -> list[Fix]:
    """An optional value where a plain one must stand: its declaration drops the `?`."""
    source = (problem.data or {}).get("source")
    type_node = declared_type(snap, source, (problem.range[0], problem.range[1]))
    if type_node is None or type_node.type != "optional_type":
        return []
    inner = type_node.child_by_field_name("inner")
    new = writable(snap.text(inner)) if inner is not None else None
    return _retype(snap, problem, source, new, "Make {what} required (`{new}`)")


def make_source_optional(snap: Snapshot, problem: Problem) -> list[Fix]:
    """`is-present` on a value declared plain (`data.plain_source`): the test says it may be
    absent, so its declaration becomes optional."""
    source = (problem.data or {}).get("plain_source")
    type_node = declared_type(snap, source, (problem.range[0], problem.range[1]))
    if type_node is None or type_node.type == "optional_type":
        return []
    new = writable(snap.text(type_node))
    return _retype(snap, problem, source, f"{new}?" if new else None, "Make {what} optional (`{new}`)")


def retype_compared(snap: Snapshot, problem: Problem) -> list[Fix]:
    """`compare-mismatch` where one side's type is declared (`data.left_source`, `right_source`)
    and the other side is a plain builtin: the declared side takes the other's type."""
    data = problem.data or {}
    for side, other in (("left", "right"), ("right", "left")):
        new = writable(data.get(other))
        if new in ("Int", "Float", "String", "Bool") and data.get(f"{side}_source"):
            found = _retype(
                snap, problem, data[f"{side}_source"], new, "Change the type of {what} to `{new}`"
            )
            if found:
                return found
    return []


# ---------------------------------------------------------------- types left out, list elements
_BUILTINS = ("String", "Int", "Bool", "Float")


def _candidates(snap: Snapshot, first: tuple[str, ...]) -> list[str]:
    """The types a placeholder may default to: `first`, the builtins, then the document's types."""
    declared = [s.name for s in snap.model.of_kind(Kind.TYPE)]
    return list(dict.fromkeys((*first, *_BUILTINS, *declared)))[:_TRIED]


_TRIED = 12  # (each candidate is a re-check of the document: a dozen, not every type)


def _typed(
    snap: Snapshot, problem: Problem, where: tuple[int, int], form: str, first: tuple[str, ...]
) -> list[Fix]:
    """A type written at `where` (`form` around it, `{}` the type): the first candidate type with
    which the document checks, as a placeholder."""
    for t in _candidates(snap, first):
        plain = edit(where, None, form.format(t))
        if mends(snap, problem, [plain]):
            text = form.format(tabstop(1, t))
            return [Fix(f"Add `{form.format(t).strip()}`", (edit(where, None, text),), False, True, True)]
    return []


def add_missing_type(snap: Snapshot, problem: Problem) -> list[Fix]:
    """`header-type`, `parameter-type`: `name: T` for a name declared without its type."""
    node = node_at(snap, problem.range)
    owner = node.parent
    if node.type != "identifier" or owner is None or owner.child_by_field_name("type") is not None:
        return []
    if owner.type not in ("input_clause", "signal_clause", "parameter"):
        return []
    return _typed(snap, problem, end(node), ": {}", ())


def add_return_type(snap: Snapshot, problem: Problem) -> list[Fix]:
    """`return-type`: `-> T` after an action's or a child's parameters (`Nil` first: nothing)."""
    node = node_at(snap, problem.range)
    decl = node.parent
    params = decl.child_by_field_name("parameters") if decl is not None else None
    if decl is None or params is None or decl.child_by_field_name("return_type") is not None:
        return []
    return _typed(snap, problem, end(params), " -> {}", ("Nil",))


def list_without_optional(snap: Snapshot, problem: Problem) -> list[Fix]:
    """`list-element`: `[T]` or `[T]?` for `[T?]` — each offered where the document then checks."""
    choices = (problem.data or {}).get("choices")
    node = node_at(snap, problem.range)
    if node.type != "list_type" or not isinstance(choices, list):
        return []
    out: list[Fix] = []
    for choice in choices:
        new = writable(choice)
        if new is not None and mends(snap, problem, [Edit(span(node), new)]):
            out.append(Fix(f"Write `{new}`", (Edit(span(node), new),), safe=False, preferred=not out))
    return out
