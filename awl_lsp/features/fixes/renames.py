"""Fixes that give a declaration a name of its own, where its name is taken or cannot be read.

- `const-collision` (a const named like an input or signal): rename the const.
- `const-shadow` (a binding reusing a const's name): rename the binding.
- `combinator-name-read` (a value named `map`, `count`, … read where that word is a keyword):
  rename what is called so — the input, binding or const the read means.

The new name is the old one with `_value` (as the messages suggest; `_value_2` … when that is
taken), written at the declaration and at every read the model links to it. Each is tried first
(`trial.mends`): a read the model gave to the other declaration of the same name may have been
meant for this one. Unsafe: the name is a suggestion, and which reads meant which declaration is
the author's call; an input's name is also what callers pass.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from awl_lsp.features.fixes.trial import mends
from awl_lsp.features.fixes.values import Edit, Fix
from awl_lsp.model import Kind, Symbol
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

_RENAMED = frozenset({Kind.CONST, Kind.BINDING, Kind.INPUT, Kind.CARRY, Kind.SIGNAL})


def free_name(snap: Snapshot, name: str) -> str:
    """`name_value`, or `name_value_2`, … — the first no symbol of the document has."""
    taken = {s.name for s in snap.model.all_symbols}
    new, n = f"{name}_value", 1
    while new in taken:
        n += 1
        new = f"{name}_value_{n}"
    return new


def _rename(snap: Snapshot, problem: Problem, sym: Symbol | None, what: str) -> list[Fix]:
    if sym is None or sym.kind not in _RENAMED:
        return []
    new = free_name(snap, sym.name)
    edits = (Edit(sym.selection, new), *(Edit(r.range, new) for r in snap.model.references_to(sym)))
    if not mends(snap, problem, edits):
        return []
    return [Fix(f"Rename the {what} to `{new}`", edits, safe=False, preferred=True)]


def _declared_here(snap: Snapshot, problem: Problem, kind: Kind) -> Symbol | None:
    sym = snap.model.symbol_at(problem.range[0], problem.range[1])
    if sym is None or sym.kind is not kind or sym.selection != problem.range:
        return None
    return sym


def rename_const(snap: Snapshot, problem: Problem) -> list[Fix]:
    return _rename(snap, problem, _declared_here(snap, problem, Kind.CONST), "const")


def rename_binding(snap: Snapshot, problem: Problem) -> list[Fix]:
    return _rename(snap, problem, _declared_here(snap, problem, Kind.BINDING), "binding")


def rename_read_value(snap: Snapshot, problem: Problem) -> list[Fix]:
    ref = snap.model.reference_at(problem.range[0], problem.range[1])
    if ref is None or ref.range != problem.range or ref.target is None:
        return []
    return _rename(snap, problem, ref.target, ref.target.kind.value)
