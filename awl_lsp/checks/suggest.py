"""Close names and cascades: what turns a checker problem into one actionable error.

- `close_names(word, choices)`: the choices nearest to a misspelt word by edit distance (adjacent
  swaps count once), best first, several when they are equally close.
- `refine(model, tree, source, problems)`: every problem about a name that resolves to nothing
  gets `data = {"name": …, "candidates": […]}` (the close names of the right kind in scope) and
  "did you mean `x`?" in its message; what only follows from a misspelling (a step unreachable
  because the route to it is misspelt, a type or detached that looks unused, a binding that looks
  unread) becomes a hint pointing at the misspelling (one root cause, one error).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from tree_sitter import Node, Tree

from awl_lsp.model import BUILTIN_TYPES, Kind, RefKind, SemanticModel
from awl_lsp.syntax.problems import Problem, Related, Severity


# ---------------------------------------------------------------- edit distance
def distance(a: str, b: str) -> int:
    """Optimal-string-alignment distance: insertions, deletions, substitutions, adjacent swaps."""
    if a == b:
        return 0
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[-1]


def close_names(word: str, choices: list[str] | set[str], limit: int = 3) -> list[str]:
    """The choices a typo of `word` could have meant: nearest first, ties by name, at most `limit`.

    A choice is close when at most a third of the longer word differs (at least one edit), or
    when case alone differs.
    """
    scored: list[tuple[int, str]] = []
    for c in set(choices):
        if c == word or not c:
            continue
        d = distance(word.lower(), c.lower())
        if d <= max(1, max(len(word), len(c)) // 3):
            scored.append((d, c))
    scored.sort()
    if not scored:
        return []
    best = scored[0][0]
    near = [c for d, c in scored if d <= best + 1]
    return near[:limit]


def did_you_mean(candidates: list[str]) -> str:
    if not candidates:
        return ""
    if len(candidates) == 1:
        return f"; did you mean `{candidates[0]}`?"
    quoted = [f"`{c}`" for c in candidates]
    return f"; did you mean {', '.join(quoted[:-1])} or {quoted[-1]}?"


# ---------------------------------------------------------------- candidates per reference kind
_NAME_CODES = frozenset(
    {"unknown-call", "unknown-type", "unknown-binding", "unknown-field", "route-target", "after"}
    | {"hatch", "spawn", "answer", "wait", "workloop-arming"}
)
_KIND_OF = {RefKind.HATCH: Kind.DETACHED, RefKind.ANSWER: Kind.REPORT, RefKind.SIGNAL: Kind.SIGNAL}


def _steps_beside(model: SemanticModel, row: int, col: int) -> tuple[list[str], list[str]]:
    """Step names a route or `after` at (row, col) may name, and the outcome names it may route to."""
    here = model.enclosing(row, col, Kind.STEP)
    container = here.container if here is not None else None
    scope = here.scope if here is not None else ""
    sub = model.enclosing(row, col, Kind.SUBFLOW)
    steps = [s.name for s in model.of_kind(Kind.STEP) if s.container == container and s.scope == scope]
    if sub is not None:
        outcomes = [c.name for c in sub.children if c.kind is Kind.OUTCOME]
    else:
        outcomes = [o.name for o in model.of_kind(Kind.OUTCOME) if o.scope == ""]
    parent = model.first(Kind.STEP, container, scope) if container else None
    if parent is not None:  # a substep also routes to its parent's outcome arms
        outcomes += [c.name for c in parent.children if c.kind is Kind.STEP_OUTCOME]
    return steps, outcomes


def candidates(
    model: SemanticModel, tree: Tree, source: bytes, code: str, node: Node, path: Path | None = None
) -> list[str]:
    """Every declared name of the kind a name at `node` (reported with `code`) should have had."""
    row, col = node.start_point.row, node.start_point.column
    name = source[node.start_byte : node.end_byte].decode("utf-8", errors="replace")
    ref = model.reference_at(row, col)
    kind = ref.kind if ref is not None else None
    if code == "unknown-field":
        parent = node.parent
        if parent is None or parent.type != "field_expression":
            return []
        from awl_lsp.model.types import TypeEnv

        env = TypeEnv(model, tree, source, path)
        return list(env.fields_of_type(env.infer(parent.child_by_field_name("value"))))
    if kind is RefKind.TYPE or code == "unknown-type":
        return [t.name for t in model.of_kind(Kind.TYPE)] + list(BUILTIN_TYPES)
    if kind is RefKind.CALL or code == "unknown-call":
        if name[:1].isupper():
            return [t.name for t in model.of_kind(Kind.TYPE) if t.extra.get("form") == "record_body"]
        if code == "spawn":
            return model.names(Kind.CHILD)
        return [s.name for s in model.of_kind(Kind.ACTION, Kind.CHILD, Kind.SUBFLOW)]
    if kind in (RefKind.VALUE, RefKind.COLLECT) or code == "unknown-binding":
        scope = ref.scope if ref is not None else ""
        return [
            s.name
            for s in model.visible_values(row, scope)
            if s.kind is not Kind.BINDING or (s.selection[0], s.selection[1]) < (row, col)
        ]
    if kind is RefKind.STEP or code == "after":
        return _steps_beside(model, row, col)[0]
    if kind is RefKind.ROUTE or code == "route-target":
        steps, outcomes = _steps_beside(model, row, col)
        return steps + outcomes + (["start"] if model.is_workloop else [])
    if kind in _KIND_OF:
        return model.names(_KIND_OF[kind])
    return []


def _unresolved(model: SemanticModel, p: Problem, node: Node, name: str) -> bool:
    """Is the name at the problem's place one that resolves to nothing (not some other mistake)?"""
    if p.code in ("unknown-call", "unknown-type", "unknown-binding", "unknown-field", "after"):
        return True
    ref = model.reference_at(node.start_point.row, node.start_point.column)
    return ref is not None and ref.name == name and ref.target is None and ref.kind is not RefKind.ARGUMENT


# ---------------------------------------------------------------- refine
def refine(
    model: SemanticModel, tree: Tree, source: bytes, problems: list[Problem], path: Path | None = None
) -> list[Problem]:
    """The checker's problems with name candidates attached and cascades folded (see module doc)."""
    out: list[Problem] = []
    misspelt: dict[str, Problem] = {}  # the name a misspelling most likely meant → its problem
    for p in problems:
        if p.code in _NAME_CODES and p.data is None and p.range[0] == p.range[2]:
            node = tree.root_node.descendant_for_point_range(p.range[:2], p.range[2:])
            if node is not None and node.type in ("identifier", "type_identifier"):
                name = source[node.start_byte : node.end_byte].decode("utf-8", errors="replace")
                if _unresolved(model, p, node, name):
                    try:
                        found = close_names(name, candidates(model, tree, source, p.code, node, path))
                    except Exception:  # noqa: BLE001 — a failed guess must not lose the problem
                        found = []
                    data = {"name": name, "candidates": found}
                    p = replace(p, message=p.message + did_you_mean(found), data=data)
        if p.data and p.data.get("candidates"):
            misspelt.setdefault(p.data["candidates"][0], p)
        out.append(p)
    no_outcome = next((p for p in out if (p.data or {}).get("missing") == "outcome"), None)
    if no_outcome is not None:  # every route to an outcome fails only because none is declared
        out = [_for_want_of_outcomes(p, no_outcome) for p in out]
    if not misspelt:
        return out
    return [_folded(p, tree, source, misspelt) for p in out]


def _for_want_of_outcomes(p: Problem, cause: Problem) -> Problem:
    if p.code != "route-target" or (p.data or {}).get("candidates") or p.data is None:
        return p
    name = p.data.get("name", "")
    return Problem(
        p.range,
        f"`route {name}` has nowhere to go until the workflow declares outcome `{name}`",
        p.code,
        Severity.HINT,
        {"because": cause.code, "name": name},
        (Related(cause.range, "the workflow declares no outcome"),),
    )


# consequences of a misspelt name: the declaration it meant looks unreachable or unused
_CONSEQUENCES = {
    "unreachable-step": "step `{name}` is unreachable only because `{wrong}` misspells its name",
    "unused-detached": "detached `{name}` looks never hatched only because `{wrong}` misspells its name",
    "unused-type": "type `{name}` looks unused only because `{wrong}` misspells its name",
    "unused-binding": "binding `{name}` looks unread only because `{wrong}` misspells its name",
}


def _folded(p: Problem, tree: Tree, source: bytes, misspelt: dict[str, Problem]) -> Problem:
    """A consequence of a misspelling, as a hint pointing at it (the misspelling is the one error)."""
    form = _CONSEQUENCES.get(p.code)
    if form is None or p.range[0] != p.range[2]:
        return p
    node = tree.root_node.descendant_for_point_range(p.range[:2], p.range[2:])
    name = source[node.start_byte : node.end_byte].decode("utf-8", errors="replace") if node else ""
    cause = misspelt.get(name)
    if cause is None or cause.data is None:
        return p
    wrong = cause.data.get("name", "")
    return Problem(
        p.range,
        form.format(name=name, wrong=wrong),
        p.code,
        Severity.HINT,
        {"because": cause.code, "name": name},
        (Related(cause.range, f"`{wrong}` is probably meant to be `{name}`"),),
    )


__all__ = ["candidates", "close_names", "did_you_mean", "distance", "refine"]
