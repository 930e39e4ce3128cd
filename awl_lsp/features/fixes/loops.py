"""Fixes for `loop`s that miss a part: the `max` bound, the `until` condition, the seed, the
rebinding of the threaded value, a counter of its own.

Each puts the missing line where `awl fmt` has it (a loop body: its statements, `until`, `max`),
at the body's indentation. All are unsafe: they write what only the author knows — a bound (`10`
until typed over), a condition (`false`: until then only `max` ends the loop, as it does now), a
seed (a value of the threaded type), which binding is the next value, the counter's name.

- `loop-max`: `max N` as the body's last line.
- `loop-until`: `until …` above the `max` line.
- `loop-seed`: ` = <a value of the type the body rebinds the name to>` after the loop's name.
- `loop-rebind`: the body's last binding of a value of the loop's type becomes the loop's name
  (with what reads it).
- `loop-counter-shadow`, and `loop-counter-inside` when that is why the body reads the counter:
  the counter gets a name of its own (`rounds`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from awl_lsp.features.fixes import lines
from awl_lsp.features.fixes.places import ancestor, end, node_at, span
from awl_lsp.features.fixes.values import Edit, Fix, edit, tabstop
from awl_lsp.features.placeholders import value_for
from awl_lsp.features.typing import binding_type
from awl_lsp.model import Kind
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot


def _loop(snap: Snapshot, problem: Problem) -> Node | None:
    loop = ancestor(node_at(snap, problem.range), "loop_statement")
    return loop if loop is not None and not loop.has_error else None


def _body(loop: Node) -> list[Node]:
    body = loop.child_by_field_name("body")
    return [c for c in body.named_children if c.type not in lines.TRIVIA] if body is not None else []


def _pad(snap: Snapshot, loop: Node) -> str:
    items = _body(loop)
    column = items[0].start_point.column if items else lines.indent(snap, loop.start_point.row) + 2
    return " " * column


def add_max(snap: Snapshot, problem: Problem) -> list[Fix]:
    loop = _loop(snap, problem)
    items = _body(loop) if loop is not None else []
    if loop is None or not items or any(i.type == "loop_max" for i in items):
        return []
    text = _pad(snap, loop) + f"max {tabstop(1, '10')}"
    fix = lines.insert_line_after(snap, lines.last_row(items[-1]), text)
    return [Fix("Add a `max N` line to the loop", (fix,), safe=False, preferred=True, snippet=True)]


def add_until(snap: Snapshot, problem: Problem) -> list[Fix]:
    loop = _loop(snap, problem)
    items = _body(loop) if loop is not None else []
    if loop is None or not items or any(i.type == "until_clause" for i in items):
        return []
    text = _pad(snap, loop) + f"until {tabstop(1, 'false')}"
    maxes = [i for i in items if i.type == "loop_max"]
    if maxes:
        fix = lines.insert_line_before(maxes[0].start_point.row, text)
    else:
        fix = lines.insert_line_after(snap, lines.last_row(items[-1]), text)
    return [Fix("Add an `until` condition to the loop", (fix,), safe=False, preferred=True, snippet=True)]


def _rebinding_symbols(snap: Snapshot, loop: Node, name: str) -> list:
    """The binding symbols of `name` made in the loop's body."""
    body = loop.child_by_field_name("body")
    if body is None:
        return []
    inside = (body.start_point.row, body.start_point.column), (body.end_point.row, body.end_point.column)
    return [
        s
        for s in snap.model.lookup(Kind.BINDING, name)
        if s.extra.get("how") != "loop" and inside[0] <= (s.selection[0], s.selection[1]) <= inside[1]
    ]


def add_seed(snap: Snapshot, problem: Problem) -> list[Fix]:
    loop = _loop(snap, problem)
    binding = loop.child_by_field_name("binding") if loop is not None else None
    if loop is None or binding is None or loop.child_by_field_name("seed") is not None:
        return []
    name = snap.text(binding)
    types = {binding_type(snap, s) for s in _rebinding_symbols(snap, loop, name)}
    if len(types) != 1:
        return []
    value = value_for(snap.model, types.pop())
    if value is None:
        return []
    fix = edit(end(binding), None, f" = {tabstop(1, value)}")
    return [Fix(f"Seed the loop: `loop {name} = …`", (fix,), safe=False, preferred=True, snippet=True)]


def rebind_the_loop_value(snap: Snapshot, problem: Problem) -> list[Fix]:
    loop = _loop(snap, problem)
    binding = loop.child_by_field_name("binding") if loop is not None else None
    if loop is None or binding is None:
        return []
    var = snap.text(binding)
    loop_sym = snap.model.symbol_at(binding.start_point.row, binding.start_point.column)
    want = binding_type(snap, loop_sym) if loop_sym is not None else None
    bound = [
        b
        for st in _body(loop)
        if st.type == "expression_statement"
        for b in [st.child_by_field_name("binding")]
        if b is not None and b.child_by_field_name("name") is not None
    ]
    if not bound or want is None:
        return []
    name = bound[-1].child_by_field_name("name")
    assert name is not None
    sym = snap.model.symbol_at(name.start_point.row, name.start_point.column)
    if sym is None or sym.kind is not Kind.BINDING or binding_type(snap, sym) != want:
        return []
    refs = snap.model.references_to(sym)
    edits = (Edit(span(name), var), *(Edit(r.range, var) for r in refs))
    return [Fix(f"Bind the next value to `{var}`", edits, safe=False, preferred=True)]


def rename_counter(snap: Snapshot, problem: Problem) -> list[Fix]:
    loop = _loop(snap, problem)
    binding = loop.child_by_field_name("binding") if loop is not None else None
    counter = loop.child_by_field_name("counter") if loop is not None else None
    if loop is None or binding is None or counter is None or snap.text(counter) != snap.text(binding):
        return []
    taken = {s.name for s in snap.model.all_symbols}
    new, n = "rounds", 2
    while new in taken:
        new, n = f"rounds_{n}", n + 1
    fix = Edit(span(counter), tabstop(1, new))
    return [Fix(f"Name the counter `{new}`", (fix,), safe=False, preferred=True, snippet=True)]
