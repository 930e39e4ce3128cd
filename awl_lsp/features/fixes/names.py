"""Fixes for names: a misspelt name ("did you mean"), a name that breaks the naming convention.

- any problem with `data.candidates` (and `data.name`, the name as written): "Change to `x`" for
  each close name in scope the checker found, the first preferred. Unsafe: a guess at which name
  was meant, however close. Each is tried first (`trial.mends`) and offered only when the document
  is then better and no worse: a close name may be of the wrong type for its place, a route to it
  may close a cycle or leave a step with nowhere to go, an outcome may carry another payload —
  what the checker's candidates cannot all rule out cheaply.
- `naming` with `data.rename` (the conventional spelling): rename the declaration and every use in
  the document. Safe only for a name nobody outside the document sees (a binding, a `const`); a
  type, a field, an action, a step or an outcome is also named by payloads, workers, contracts or
  the engine's history, which a rename here does not reach.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from awl_lsp.features.fixes.places import node_at, span
from awl_lsp.features.fixes.trial import mends
from awl_lsp.features.fixes.values import Edit, Fix
from awl_lsp.model import Kind
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

_LOCAL = frozenset({Kind.BINDING, Kind.CONST})  # names no other document, payload or history sees


def change_to_candidate(snap: Snapshot, problem: Problem) -> list[Fix]:
    return [
        Fix(f"Change to `{c}`", edits, safe=False, preferred=i == 0)
        for i, (c, edits) in enumerate(_changes(snap, problem))
    ]


def viable_candidates(snap: Snapshot, problem: Problem) -> list[str]:
    """The close names of `problem` (`data.candidates`) that fix it: what "Change to `x`" offers.
    A fix that declares the name as written defers to these (the name is then probably misspelt),
    not to candidates that would not fit."""
    return [c for c, _ in _changes(snap, problem)]


def _changes(snap: Snapshot, problem: Problem) -> list[tuple[str, tuple[Edit, ...]]]:
    """(close name, the edit writing it) for each candidate that mends the problem, tried once per
    problem and snapshot."""
    memo: dict[tuple, list[tuple[str, tuple[Edit, ...]]]] = snap.memo.setdefault("close-names", {})  # type: ignore[assignment]
    key = (problem.range, problem.code, problem.message)
    if key not in memo:
        memo[key] = _tried(snap, problem)
    return memo[key]


def _tried(snap: Snapshot, problem: Problem) -> list[tuple[str, tuple[Edit, ...]]]:
    data = problem.data or {}
    node = node_at(snap, problem.range)
    name = snap.text(node)
    if node.type not in ("identifier", "type_identifier") or name != data.get("name"):
        return []  # the text moved on since the problem: no fix rather than a wrong one
    candidates = [c for c in data.get("candidates", []) if isinstance(c, str) and c and c != name]
    changes = [(c, (Edit(span(node), c),)) for c in candidates]
    return [(c, edits) for c, edits in changes if mends(snap, problem, edits)]


def rename_to_convention(snap: Snapshot, problem: Problem) -> list[Fix]:
    new = (problem.data or {}).get("rename")
    sym = snap.model.symbol_at(problem.range[0], problem.range[1])
    if not isinstance(new, str) or not new or sym is None or snap.model.first(sym.kind, new) is not None:
        return []
    edits = (Edit(sym.selection, new), *(Edit(r.range, new) for r in snap.model.references_to(sym)))
    return [Fix(f"Rename to `{new}`", edits, safe=sym.kind in _LOCAL, preferred=True)]
