"""What a value's uses say about its type: the facts a declaration generated from usage is typed by.

- `expected_type(snap, node)`: the type the place of an expression asks for — the parameter an
  argument fills, the outcome a piped value or a payload goes to, the one parameter of the action a
  value is piped into, the other side of a comparison, `Bool` for a guard or a condition.
- `binding_type(snap, binding)`: the type a binding must have for every read of it to check — each
  read's `expected_type`, or the declared record that has every field read from it (`b.total`).
  A read in a place this does not model (an index, `is empty`) makes it CONFLICT; a list forked
  over is a list of what the item's reads ask for.
- `result_type(snap, call)`: what a call (or a pipe stage) must return: `Nil` when nothing takes
  its result, else what takes it expects.
- `value_type(snap, node)`: an expression's own inferred type.

Each answers a `Typing`: the type as AWL text, `None` when nothing says (the fix writes a typed
placeholder), or `CONFLICT` when the uses disagree (no declaration could satisfy them all, so the
fix is not offered). Pure reads of the snapshot's model and type inference.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from awl_lsp.features.callees import expected_parameters
from awl_lsp.features.typing import type_env
from awl_lsp.model import Kind, Reference, Symbol
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

CONFLICT = "\0conflict"  # the uses ask for different types
Typing = str | None

_OVER_A_LIST = frozenset({"fork_statement", "distribute_statement"})  # (their `collection` is a list)
_COMPARE = frozenset({"==", "!=", "<", "<=", ">", ">="})
_HOW = {"hatch_statement": "hatch", "answer_statement": "answer", "spawn_statement": "spawn"}


def value_type(snap: Snapshot, node: Node | None) -> Typing:
    """The inferred type of an expression as AWL text: None when unknown (or a duration), CONFLICT
    when only partly known (`[]` is a list of something): no placeholder may stand for it."""
    env = type_env(snap)
    if env is None or node is None:
        return None
    try:
        t = env.infer(node)
    except Exception:  # noqa: BLE001 — a fix must not fail because inference did
        return None
    if t.unknown or t.kind == "duration":
        return None
    text = str(t)
    return (
        CONFLICT if "unknown" in text.replace("[", " ").replace("]", " ").replace("?", " ").split() else text
    )


def _outcome_type(snap: Snapshot, name: str, node: Node) -> Typing:
    """The type the outcome `name` a route at `node` goes to carries (its subflow's, else the flow's)."""
    sub = snap.model.enclosing(node.start_point.row, node.start_point.column, Kind.SUBFLOW)
    scope = f"subflow:{sub.name}" if sub is not None else ""
    out = next((o for o in snap.model.lookup(Kind.OUTCOME, name) if o.scope == scope), None)
    if out is None:
        return None if name != "start" and not snap.model.lookup(Kind.STEP, name) else CONFLICT
    return out.type


def _stage_parameter(snap: Snapshot, stage: Node) -> Typing:
    """The type of the one parameter of the action a value is piped into."""
    sym = snap.model.callable(snap.text(stage))
    params = snap.model.parameters_of(sym)
    return params[0].type if sym is not None and len(params) == 1 else CONFLICT


def _argument_type(snap: Snapshot, arg: Node) -> str | None:
    args = arg.parent
    owner = args.parent if args is not None else None
    if owner is None:
        return None
    name_node = arg.child_by_field_name("name")
    if owner.type == "route_statement":
        target = owner.child_by_field_name("target")
        how, name = "route", snap.text(target)
    elif owner.type == "call_expression":
        how = _HOW.get(owner.parent.type, "call") if owner.parent is not None else "call"
        name = snap.text(owner.child_by_field_name("function"))
    else:
        return None
    callee = expected_parameters(snap, how, name, owner.start_point.row, owner.start_point.column)
    if callee is None:
        return None
    if name_node is None:
        positional = [p for p in callee.params if p.positional]
        if positional:
            return positional[0].type
        # one value for a record outcome: the record itself
        alone = args is not None and len(args.named_children) == 1
        return _outcome_type(snap, name, owner) if how == "route" and alone else None
    wanted = snap.text(name_node)
    return next((p.type for p in callee.params if p.name == wanted), None)


def _combinator_argument(snap: Snapshot, combinator: Node) -> Typing:
    """What a combinator's argument must be: a `Bool` to filter or test by, any key to sort by, the
    element of the list a `map` must make."""
    word = snap.text(combinator.child_by_field_name("name"))
    if word in ("filter", "any", "all"):
        return "Bool"
    if word == "sort":
        return None
    pipe = combinator.parent
    if word != "map" or pipe is None or pipe.type != "pipe_expression":
        return CONFLICT
    made = result_type(snap, pipe)
    if made is None or made == CONFLICT:
        return made
    return made[1:-1] if made.startswith("[") and made.endswith("]") else CONFLICT


def _collection_type(snap: Snapshot, item: Node | None) -> Typing:
    """What a list forked or distributed over must be: a list of what the item's reads ask for
    (CONFLICT when they say nothing: the list's element type cannot be a placeholder)."""
    sym = snap.model.symbol_at(item.start_point.row, item.start_point.column) if item is not None else None
    wanted = binding_type(snap, sym) if sym is not None and sym.kind is Kind.BINDING else None
    return CONFLICT if wanted is None or wanted == CONFLICT else f"[{wanted}]"


def expected_type(snap: Snapshot, node: Node) -> Typing:
    """The type the place of the expression `node` asks for (see the module docstring): None where
    any type goes (an argument of an unknown callee), CONFLICT where the place constrains the type
    in a way this does not model (an index, `is empty`). A list forked or distributed over is a
    list of what its item's reads ask for."""
    parent = node.parent
    if parent is None:
        return CONFLICT
    kind = parent.type
    if kind == "parenthesized_expression":
        return expected_type(snap, parent)
    if kind == "argument" and parent.child_by_field_name("value") == node:
        return _argument_type(snap, parent)
    if kind == "route_statement" and parent.child_by_field_name("input") == node:
        return _outcome_type(snap, snap.text(parent.child_by_field_name("target")), parent)
    if kind == "pipe_expression" and parent.child_by_field_name("input") == node:
        stage = parent.child_by_field_name("stage")
        if stage is None or stage.type != "identifier":
            return CONFLICT  # a combinator takes a list, `.f` a record
        return _stage_parameter(snap, stage) if snap.model.callable(snap.text(stage)) is not None else None
    if kind == "combinator" and parent.child_by_field_name("argument") == node:
        return _combinator_argument(snap, parent)
    if kind in ("guard", "not_expression", "until_clause"):
        return "Bool"
    if kind in ("loop_max", "visits_bound"):
        return "Int"
    if kind in _OVER_A_LIST and parent.child_by_field_name("collection") == node:
        return _collection_type(snap, parent.child_by_field_name("item"))
    if kind == "hatch_statement" and parent.child_by_field_name("key") == node:
        return None
    if kind == "binary_expression":
        op = snap.text(parent.child_by_field_name("operator"))
        if op in ("and", "or"):
            return "Bool"
        left, right = parent.child_by_field_name("left"), parent.child_by_field_name("right")
        other = right if left == node else left
        return value_type(snap, other) if op in _COMPARE or op == "+" else CONFLICT
    if kind == "expression_statement" and parent.child_by_field_name("value") == node:
        return result_type(snap, node)
    return CONFLICT


def combine(found: list[Typing]) -> Typing:
    known = {t for t in found if t is not None}
    if CONFLICT in known or len(known) > 1:
        return CONFLICT
    return known.pop() if known else None


def _record_with_fields(snap: Snapshot, reads: dict[str, Typing]) -> Typing:
    """The declared record type with every field read (of the type its read asks for) — of several,
    the one with the fewest fields (the reads check with any of them); CONFLICT when none has them."""
    fits: list[tuple[int, str]] = []
    for t in snap.model.of_kind(Kind.TYPE):
        if t.extra.get("form") != "record_body":
            continue
        fields = {f.name: (f.type or "") for f in t.children if f.kind is Kind.FIELD}
        if all(f in fields and (want is None or fields[f].rstrip("?") == want) for f, want in reads.items()):
            fits.append((len(fields), t.name))
    return min(fits)[1] if fits else CONFLICT


def field_reads(snap: Snapshot, binding: Symbol, optional: bool = False) -> dict[str, Typing] | None:
    """The fields read off the binding with the types their reads ask for, when every read of it is
    a field read (or, for an optional binding, a presence test); None otherwise."""
    fields: dict[str, Typing] = {}
    root = snap.doc.root
    for ref in references_to(snap, binding):
        node = root.descendant_for_point_range(ref.range[:2], ref.range[2:])
        read = _field_read(snap, node) if node is not None else None
        if read is not None:
            name, want = read
            fields[name] = combine([fields.get(name), want]) if name in fields else want
            continue
        parent = node.parent if node is not None else None
        if optional and parent is not None and parent.type == "is_expression":
            continue
        return None
    return fields


def _field_read(snap: Snapshot, node: Node) -> tuple[str, Typing] | None:
    """(field, the type its read asks for) when `node` is read for a field: `x.f`, `x |> .f`."""
    parent = node.parent
    if parent is None:
        return None
    if parent.type == "field_expression" and parent.child_by_field_name("value") == node:
        return snap.text(parent.child_by_field_name("field")), expected_type(snap, parent)
    stage = parent.child_by_field_name("stage") if parent.type == "pipe_expression" else None
    if stage is not None and stage.type == "relative_field" and parent.child_by_field_name("input") == node:
        return snap.text(stage.child_by_field_name("field")), expected_type(snap, parent)
    return None


def binding_type(snap: Snapshot, binding: Symbol, optional: bool = False) -> Typing:
    """The type every read of the binding asks for (see the module docstring); `optional` when the
    binding holds the type made optional (a `wait … timeout`), whose reads may test for presence."""
    root = snap.doc.root
    nodes = [root.descendant_for_point_range(r.range[:2], r.range[2:]) for r in references_to(snap, binding)]
    return combine(
        [reads_type(snap, [n for n in nodes if n is not None], optional), *_bare_routes(snap, binding)]
    )


def reads_type(snap: Snapshot, reads: list[Node], optional: bool = False) -> Typing:
    """The type a value must have for each of these reads of it to check (see `binding_type`)."""
    found: list[Typing] = []
    fields: dict[str, Typing] = {}
    for node in reads:
        read = _field_read(snap, node)
        if read is not None:
            name, want = read
            fields[name] = combine([fields.get(name), want]) if name in fields else want
            continue
        parent = node.parent
        if optional and parent is not None and parent.type == "is_expression":
            if snap.text(parent.child_by_field_name("test")) in ("present", "absent"):
                continue  # (a `wait … timeout` binding: optional whatever its payload)
        found.append(expected_type(snap, node))
    if fields:
        if any(t == CONFLICT for t in fields.values()):
            return CONFLICT
        found.append(_record_with_fields(snap, fields))
    return combine(found)


def _bare_routes(snap: Snapshot, binding: Symbol) -> list[Typing]:
    """A `route name` with no payload sends the binding of the outcome's name: its type."""
    out: list[Typing] = []
    for o in snap.model.lookup(Kind.OUTCOME, binding.name):
        for ref in references_to(snap, o):
            if ref.range[0] > binding.selection[0]:
                node = snap.doc.root.descendant_for_point_range(ref.range[:2], ref.range[2:])
                route = node.parent.parent if node is not None and node.parent is not None else None
                if route is not None and route.type == "route_statement":
                    if (
                        route.child_by_field_name("payload") is None
                        and route.child_by_field_name("input") is None
                    ):
                        out.append(o.type)
    return out


def _joined(snap: Snapshot, statement: Node) -> Typing:
    """For the one call of a fork's body whose `join -> xs` gathers its results: the element type
    the reads of `xs` ask for (None when the statement is no such call)."""
    block = statement.parent
    fork = block.parent if block is not None else None
    if fork is None or fork.type != "fork_statement" or fork.child_by_field_name("body") != block:
        return None
    join = fork.child_by_field_name("join")
    sym = binding_symbol(snap, join.child_by_field_name("binding")) if join is not None else None
    if sym is None:
        return None
    listed = binding_type(snap, sym)
    if listed is None or listed == CONFLICT:
        return listed
    return listed[1:-1] if listed.startswith("[") and listed.endswith("]") else CONFLICT


def references_to(snap: Snapshot, target: Symbol) -> list[Reference]:
    """The references resolved to `target` (indexed once per snapshot: the model's own look-up reads
    every reference of the document, and inference asks about many bindings)."""
    index: dict[int, list[Reference]] = snap.derived("fixes:references-by-target", _by_target)
    return [r for r in index.get(id(target), []) if r.target is target]


def references_named(snap: Snapshot, name: str) -> list[Reference]:
    """The references of any kind that name `name` (indexed once per snapshot)."""
    index: dict[str, list[Reference]] = snap.derived("fixes:references-by-name", _by_name)
    return index.get(name, [])


def _by_target(snap: Snapshot) -> dict[int, list[Reference]]:
    out: dict[int, list[Reference]] = {}
    for r in snap.model.references:
        if r.target is not None:
            out.setdefault(id(r.target), []).append(r)
    return out


def _by_name(snap: Snapshot) -> dict[str, list[Reference]]:
    out: dict[str, list[Reference]] = {}
    for r in snap.model.references:
        out.setdefault(r.name, []).append(r)
    return out


def binding_symbol(snap: Snapshot, binding: Node | None) -> Symbol | None:
    """The binding declared by a `-> name` node."""
    name = binding.child_by_field_name("name") if binding is not None else None
    if name is None:
        return None
    sym = snap.model.symbol_at(name.start_point.row, name.start_point.column)
    return sym if sym is not None and sym.kind is Kind.BINDING else None


def result_type(snap: Snapshot, value: Node) -> Typing:
    """What a call or pipe stage must return for its result's uses (`Nil` when nothing takes it)."""
    parent = value.parent
    if parent is None:
        return None
    if parent.type == "pipe_expression" and parent.child_by_field_name("stage") == value:
        return result_type(snap, parent)
    if parent.type == "expression_statement" and parent.child_by_field_name("value") == value:
        binding = parent.child_by_field_name("binding")
        gathered = _joined(snap, parent)
        if binding is None:
            return "Nil" if gathered is None else gathered
        sym = binding_symbol(snap, binding)
        if sym is None:
            return None
        return combine([binding_type(snap, sym), gathered])
    return expected_type(snap, value)


# names nothing reports as unused: declaring a misspelling of one strands nothing
_NEVER_UNUSED = frozenset({"wait", "answer", "route-start", "spawn", "workloop-arming"})


def strands_candidate(snap: Snapshot, problem: Problem) -> bool:
    """Would declaring the name as written leave the close name it probably misspells looking unused?

    A declaration nothing else names (a step nothing routes to, a type, a detached, a binding read
    only through the misspelling) is reported as a consequence of the misspelling; once the name as
    written is declared, it would be reported on its own. (An action, a signal, a report, a carry
    or a child nobody names is not reported.)"""
    data = problem.data or {}
    candidates = data.get("candidates") or []
    if not candidates or problem.code in _NEVER_UNUSED:
        return False
    if problem.code == "unknown-call" and str(data.get("name", ""))[:1].islower():
        return False  # an action
    meant = candidates[0]
    return not references_named(snap, meant)
