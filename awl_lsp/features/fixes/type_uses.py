"""What a document does with its record types, gathered once per snapshot for the fixes that declare
a type or a field: which fields it builds and reads of each type, how often it builds one, and which
other types values of it meet where they flow.

- built: the named fields of constructions `X(f: v)`, of route payloads to outcomes of type `X` and
  of answers to reports of type `X`, each with the value's type;
- read: the fields read off values of type `X` (`x.f`, `x |> .f`, `.f` in a combinator over a list
  of `X`), each with the type its place asks for;
- flows: the types a value meets where it goes — a value passed where an `X` is asked for (piped
  into a route to an outcome of that type, given for a parameter of it, piped into a stage taking
  it), or an `X` passed where another type is asked for (CONFLICT when a place does not line up:
  `[A]` where `X?` goes).

One pass over the document's expressions (their types inferred once, through the snapshot's type
environment), however many problems ask: `awl check` asks for the fixes of every problem.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tree_sitter import Node, Query, QueryCursor

from awl_lsp.features.fixes.usage import CONFLICT, Typing, expected_type, value_type
from awl_lsp.features.typing import type_env
from awl_lsp.model import BUILTIN_TYPES, Kind
from awl_lsp.model.type_base import element_of
from awl_lsp.syntax.parser import LANGUAGE

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

_KINDS = (
    "call_expression",
    "field_expression",
    "relative_field",
    "route_statement",
    "answer_statement",
    "argument",
    "pipe_expression",
)
_QUERY = Query(LANGUAGE, "\n".join(f"({t}) @{t}" for t in _KINDS))


@dataclass
class TypeUses:
    built: dict[str, dict[str, list[Typing]]] = field(default_factory=dict)
    constructions: Counter[str] = field(default_factory=Counter)
    read: dict[str, dict[str, list[Typing]]] = field(default_factory=dict)
    flows: dict[str, set[str]] = field(default_factory=dict)


def type_uses(snap: Snapshot) -> TypeUses:
    return snap.derived("fixes:type-uses", _gather)


def named_arguments(snap: Snapshot, args: Node | None) -> list[tuple[str, Node | None]]:
    return [
        (snap.text(a.child_by_field_name("name")), a.child_by_field_name("value"))
        for a in (args.named_children if args is not None else [])
        if a.type == "argument" and a.child_by_field_name("name") is not None
    ]


def carrier_type(snap: Snapshot, node: Node) -> str | None:
    """The type a route payload or an answer builds: its outcome's or report's."""
    if node.type == "route_statement":
        target = snap.text(node.child_by_field_name("target"))
        sym = next((o for o in snap.model.lookup(Kind.OUTCOME, target) if o.type), None)
    else:
        call = node.named_children[0] if node.named_children else None
        fn = (
            call.child_by_field_name("function")
            if call is not None and call.type == "call_expression"
            else None
        )
        sym = snap.model.first(Kind.REPORT, snap.text(fn)) if fn is not None else None
    return (sym.type or "").rstrip("?") if sym is not None else None


def _base_type(snap: Snapshot, node: Node) -> str | None:
    """The record type a field is read from (`x.f`: x's type; `.f` in a combinator: the element's)."""
    env = type_env(snap)
    if env is None:
        return None
    try:
        if node.type == "field_expression":
            t = env.infer(node.child_by_field_name("value"))
        elif node.parent is not None and node.parent.type == "pipe_expression":  # `x |> .f`
            t = env.infer(node.parent.child_by_field_name("input"))
        else:
            combinator = node.parent
            while combinator is not None and combinator.type != "combinator":
                combinator = combinator.parent
            pipe = combinator.parent if combinator is not None else None
            if pipe is None or pipe.type != "pipe_expression":
                return None
            element = element_of(env.infer(pipe.child_by_field_name("input")))
            if element is None:
                return None
            t = element
    except Exception:  # noqa: BLE001 — a fix must not fail because inference did
        return None
    t = t.strip()
    return t.name if t.kind == "named" else None


def names_in(text: str) -> set[str]:
    """The type names a type text mentions (`[Line?]` → `Line`)."""
    return set(text.replace("[", " ").replace("]", " ").replace("?", " ").split()) - set(BUILTIN_TYPES)


def unwrap(expected: str, actual: str | None, type_name: str) -> Typing:
    """The type of a value that goes where `expected` (which names `type_name`) is asked for, as far
    as it stands for `type_name` itself (`[Status]` into `[X]` stands for `Status`); CONFLICT when
    the two do not line up."""
    if actual is None:
        return None
    while True:
        if expected == type_name:
            return actual
        if expected.endswith("?"):
            expected, actual = expected[:-1], actual.removesuffix("?")
        elif (
            expected.startswith("[")
            and expected.endswith("]")
            and actual.startswith("[")
            and actual.endswith("]")
        ):
            expected, actual = expected[1:-1], actual[1:-1]
        else:
            return CONFLICT


def _gather(snap: Snapshot) -> TypeUses:
    uses = TypeUses()
    found = QueryCursor(_QUERY).captures(snap.doc.root)
    for kind in _KINDS:
        for node in found.get(kind, []):
            _one(snap, uses, node)
    return uses


def _one(snap: Snapshot, uses: TypeUses, node: Node) -> None:
    kind = node.type
    built: list[tuple[str, Node | None]] = []
    owner: str | None = None
    if kind == "call_expression":
        owner = snap.text(node.child_by_field_name("function"))
        if owner[:1].isupper():
            built = named_arguments(snap, node.child_by_field_name("arguments"))
            uses.constructions[owner] += 1
    elif kind == "route_statement":
        owner = carrier_type(snap, node)
        built = named_arguments(snap, node.child_by_field_name("payload"))
        if owner and built:
            uses.constructions[owner] += 1
        _flow(snap, uses, node.child_by_field_name("input"))
    elif kind == "answer_statement":
        owner = carrier_type(snap, node)
        call = node.named_children[0] if node.named_children else None
        built = named_arguments(snap, call.child_by_field_name("arguments")) if call is not None else []
        if owner:
            uses.constructions[owner] += 1
    elif kind in ("field_expression", "relative_field"):
        base = _base_type(snap, node)
        if base is not None:
            name = snap.text(node.child_by_field_name("field"))
            parent = node.parent
            staged = parent is not None and parent.type == "pipe_expression" and kind == "relative_field"
            want = expected_type(snap, parent if staged and parent is not None else node)
            uses.read.setdefault(base, {}).setdefault(name, []).append(want)
    elif kind == "argument":
        _flow(snap, uses, node.child_by_field_name("value"))
    elif kind == "pipe_expression":
        _flow(snap, uses, node.child_by_field_name("input"))
    if owner and built:
        fields = uses.built.setdefault(owner, {})
        for name, value in built:
            fields.setdefault(name, []).append(value_type(snap, value))


def _flow(snap: Snapshot, uses: TypeUses, value: Node | None) -> None:
    """What the types at one place where a value goes say about the type names they mention."""
    if value is None:
        return
    expected = expected_type(snap, value)
    if expected is None or expected == CONFLICT:
        return
    actual = value_type(snap, value)
    if actual is None and value.type == "call_expression":  # a construction of a type not declared
        fn = snap.text(value.child_by_field_name("function"))
        actual = fn if fn[:1].isupper() else None
    wanted = names_in(expected)
    for name in wanted:  # a value goes where one of these is asked for
        met = unwrap(expected, actual, name)
        if met is not None and met != name:
            uses.flows.setdefault(name, set()).add(met)
    if actual is not None and actual != CONFLICT:
        for name in names_in(actual) - wanted:  # one of these goes where another type is asked for
            met = unwrap(actual, expected, name)
            if met is not None and met != name:
                uses.flows.setdefault(name, set()).add(met)
