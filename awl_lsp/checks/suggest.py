"""Close names: what a misspelt name or keyword most likely meant.

- `close_names(word, choices)`: the choices nearest to a misspelt word by edit distance (adjacent
  swaps count once), best first, several when they are equally close.
- `annotate(model, tree, source, problems)`: every problem about a name that resolves to nothing
  gets `data = {"name": …, "candidates": […]}` (the close names of the right kind in scope) and
  "did you mean `x`?" in its message — never a name that could only be another mistake: a step
  for a route that carries a value, the top-level step a route stands in (unless it bounds its
  visits), a flow's input inside a subflow, a value of a known type without the field read from
  it; a misspelt keyword (an unknown declaration, clause, setting or guard word) gets the close
  keywords of its place the same way.
`awl_lsp.checks.cascades` then folds what only follows from such a mistake into it.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from tree_sitter import Node, Tree

from awl_lsp.model import BUILTIN_TYPES, Kind, Reference, RefKind, SemanticModel
from awl_lsp.syntax import fields as F
from awl_lsp.syntax.problems import Problem


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


def close_names(word: str, choices: list[str] | set[str] | frozenset[str], limit: int = 3) -> list[str]:
    """The choices a typo of `word` could have meant: nearest first, ties by name, at most `limit`.

    A choice is close when at most a third of the longer word differs (at least one edit), when
    case alone differs, or when one is the other cut short (`Boolean` and `Bool`).
    """
    scored: list[tuple[int, str]] = []
    low = word.lower()
    for c in set(choices):
        if c == word or not c:
            continue
        most = max(1, max(len(word), len(c)) // 3)
        shorter, longer = sorted((low, c.lower()), key=len)
        if len(shorter) >= 3 and longer.startswith(shorter):
            scored.append((len(longer) - len(shorter), c))  # `Boolean` for `Bool`, `Str` for `String`
            continue
        if abs(len(c) - len(word)) > most:
            continue  # more insertions than the limit allows: not close, without the table
        d = distance(low, c.lower())
        if d <= most:
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


def name_data(name: str, choices: list[str] | set[str] | frozenset[str]) -> tuple[dict, str]:
    """For a rule that reports an unknown `name` and knows what it could have been: the problem's
    `data` (`name` and its close `candidates`, the quick fix's input) and the "did you mean" to end
    its message with."""
    found = close_names(name, choices)
    return {"name": name, "candidates": found}, did_you_mean(found)


# ---------------------------------------------------------------- candidates per reference kind
_NAME_CODES = frozenset(
    {"unknown-call", "unknown-type", "unknown-binding", "unknown-field", "route-target", "after"}
    | {"route-start", "hatch", "spawn", "answer", "wait", "workloop-arming"}
)
_KIND_OF = {RefKind.HATCH: Kind.DETACHED, RefKind.ANSWER: Kind.REPORT, RefKind.SIGNAL: Kind.SIGNAL}


_LOOKUP_KINDS = (
    *(RefKind.ROUTE, RefKind.STEP, RefKind.CALL, RefKind.HATCH, RefKind.ANSWER),
    *(RefKind.SIGNAL, RefKind.TYPE, RefKind.VALUE, RefKind.COLLECT, RefKind.FIELD),
)


def _ref_at(model: SemanticModel, node: Node) -> Reference | None:
    """The reference exactly at `node` (through the model's per-item index: no document-wide sort)."""
    s, e = node.start_point, node.end_point
    rng = (s.row, s.column, e.row, e.column)
    for kind in _LOOKUP_KINDS:
        found = model.reference_with(rng, kind)
        if found is not None:
            return found
    return None


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


def _route_steps(node: Node, source: bytes, steps: list[str]) -> list[str]:
    """Of the steps beside a route, those it may name: none when it carries a value (a step takes
    none: the value goes to an outcome), and not the top-level step it stands in unless that step
    bounds its visits (a route back to itself would be a cycle with no bound)."""
    route = node.parent
    while route is not None and route.type != "route_statement":
        route = route.parent
    if route is None:
        return steps
    if route.child_by_field_name("payload") is not None or route.child_by_field_name("input") is not None:
        return []
    step = route.parent
    while step is not None and step.type != "step_declaration":
        step = step.parent
    if step is None or step.parent is None or step.parent.type != "source_file":
        return steps  # (a substep's route: the parent's rules, see `rules_nesting`)
    body = step.child_by_field_name("body")
    if body is not None and any(c.type == "visits_bound" for c in body.named_children):
        return steps
    name = step.child_by_field_name("name")
    own = source[name.start_byte : name.end_byte].decode("utf-8", errors="replace") if name else None
    return [s for s in steps if s != own]


def _region_item(tree: Tree, selection: tuple[int, int, int, int]) -> bool:
    """Is the binding at `selection` the item variable of a `distribute`/`sequence` line?"""
    node = tree.root_node.descendant_for_point_range(selection[:2], selection[2:])
    return node is not None and node.parent is not None and node.parent.type == "distribute_statement"


def candidates(
    model: SemanticModel, tree: Tree, source: bytes, code: str, node: Node, path: Path | None = None
) -> list[str]:
    """Every declared name of the kind a name at `node` (reported with `code`) should have had."""
    row, col = node.start_point.row, node.start_point.column
    name = source[node.start_byte : node.end_byte].decode("utf-8", errors="replace")
    ref = _ref_at(model, node)
    kind = ref.kind if ref is not None else None
    if code == "unknown-field":
        parent = node.parent
        if parent is None or parent.type != "field_expression":
            return []
        from awl_lsp.model.types import TypeEnv

        env = TypeEnv(model, tree, source, path)
        return list(env.fields_of_type(env.infer(parent.child_by_field_id(F.VALUE))))
    if code == "route-start":  # `route start(x: …)` names a carry to rebind
        return model.names(Kind.CARRY)
    if kind is RefKind.TYPE or code == "unknown-type":
        return [t.name for t in model.of_kind(Kind.TYPE)] + list(BUILTIN_TYPES)
    if kind is RefKind.CALL or code == "unknown-call":
        if name[:1].isupper():
            return [t.name for t in model.of_kind(Kind.TYPE) if t.extra.get("form") == "record_body"]
        if code == "spawn":
            return model.names(Kind.CHILD)
        return [s.name for s in model.of_kind(Kind.ACTION, Kind.CHILD, Kind.SUBFLOW)]
    if kind is RefKind.COLLECT:  # what a step of the region bound: not an input, nor the item itself
        scope = ref.scope if ref is not None else ""
        return [
            s.name
            for s in model.visible_values(row, scope)
            if s.kind is Kind.BINDING and s.selection[:2] < (row, col) and not _region_item(tree, s.selection)
        ]
    if kind is RefKind.VALUE or code == "unknown-binding":
        scope = ref.scope if ref is not None else ""
        sub = scope.split("/")[0] if scope.startswith("subflow:") else None
        return [
            s.name
            for s in model.visible_values(row, scope)
            if (s.kind is not Kind.BINDING or (s.selection[0], s.selection[1]) < (row, col))
            and (sub is None or s.kind is Kind.CONST or s.scope.startswith(sub))  # (a subflow's own)
        ]
    if kind is RefKind.STEP or code == "after":
        return _steps_beside(model, row, col)[0]
    if kind is RefKind.ROUTE or code == "route-target":
        steps, outcomes = _steps_beside(model, row, col)
        return _route_steps(node, source, steps) + outcomes + (["start"] if model.is_workloop else [])
    if kind in _KIND_OF:
        return model.names(_KIND_OF[kind])
    return []


# misspelt keywords: the words the grammar would have taken where the unknown word stands
_TOP_LEVEL = (
    *("workflow", "workloop", "const", "type", "worker"),
    *("child", "detached", "subflow", "step", "retire"),
)
KEYWORD_CODES = frozenset({"unknown-declaration", "unknown-setting", "unknown-clause", "guard"})


def keyword_candidates(node: Node) -> list[str]:
    """The keywords that may stand where the unknown word `node` stands (by its parent's type)."""
    from awl_lsp.reference import keywords_for_slot

    parent = node.parent
    ptype = parent.type if parent is not None else ""
    if ptype == "unknown_declaration":
        return list(_TOP_LEVEL)
    if node.type == "unknown_setting" or ptype == "unknown_setting":
        return ["node", "timeout", "retry"]
    if ptype == "guard":
        return ["if", "else", "when", "otherwise"]
    if ptype == "unknown_clause" and parent is not None and parent.parent is not None:
        owner = parent.parent
        if owner.type == "invariant_clause":
            return ["tolerance", "confirms"]
        if owner.type == "header" and owner.parent is not None:
            loop = owner.parent.type == "workloop_declaration"
            slot = "workloop-header" if loop else "workflow-header"
            return [e.keyword for e in keywords_for_slot(slot, workloop=loop)]
    return []


def _unresolved(model: SemanticModel, p: Problem, node: Node, name: str) -> bool:
    """Is the name at the problem's place one that resolves to nothing (not some other mistake)?"""
    if p.code in ("unknown-call", "unknown-type", "unknown-binding", "unknown-field", "after", "route-start"):
        return True
    ref = _ref_at(model, node)
    return ref is not None and ref.name == name and ref.target is None


# ---------------------------------------------------------------- annotate
ANNOTATED = 200
# close names of recent look-ups (a pure function of its key, so never stale): typing in a step
# with a misspelt name re-checks it on every key, and its candidates rarely change meanwhile
_CLOSE: dict[tuple[str, frozenset[str]], list[str]] = {}
_CLOSE_LIMIT = 64


def _close(name: str, choices: frozenset[str]) -> list[str]:
    key = (name, choices)
    found = _CLOSE.get(key)
    if found is None:
        if len(_CLOSE) >= _CLOSE_LIMIT:
            _CLOSE.clear()
        found = _CLOSE[key] = close_names(name, choices)
    return list(found)


def annotate(
    model: SemanticModel, tree: Tree, source: bytes, problems: list[Problem], path: Path | None = None
) -> list[Problem]:
    """The problems with each misspelt name's close candidates in `data` and "did you mean" said.

    At most `ANNOTATED` names a document are looked into (a document with thousands of broken
    names gets its first ones annotated, not a quadratic wait); the same name with the same
    candidates is looked up once.
    """
    out: list[Problem] = []
    budget = ANNOTATED
    seen: dict[tuple[str, frozenset[str]], list[str]] = {}
    for p in problems:
        if p.code in _NAME_CODES and p.data is None and p.range[0] == p.range[2] and budget > 0:
            budget -= 1
            node = tree.root_node.descendant_for_point_range(p.range[:2], p.range[2:])
            if node is not None and node.type in ("identifier", "type_identifier"):
                name = source[node.start_byte : node.end_byte].decode("utf-8", errors="replace")
                if _unresolved(model, p, node, name):
                    try:
                        choices = frozenset(candidates(model, tree, source, p.code, node, path))
                        key = (name, choices)
                        found = seen[key] if key in seen else seen.setdefault(key, _close(name, choices))
                        found = _with_the_field(model, tree, source, node, found, path)
                    except Exception:  # noqa: BLE001 — a failed guess must not lose the problem
                        found = []
                    data = {"name": name, "candidates": found}
                    p = replace(p, message=p.message + did_you_mean(found), data=data)
        elif p.code in KEYWORD_CODES and p.data is None and p.range[0] == p.range[2]:
            p = _keyword_typo(p, tree, source)
        out.append(p)
    return out


def _with_the_field(
    model: SemanticModel, tree: Tree, source: bytes, node: Node, found: list[str], path: Path | None
) -> list[str]:
    """Of the close names of a value read for a field (`x.f`), those whose type may have field `f`
    (a value of a known type without it would only be another error)."""
    parent = node.parent
    if not found or parent is None or parent.type != "field_expression":
        return found
    field = parent.child_by_field_name("field")
    if field is None or parent.child_by_field_name("value") != node:
        return found
    from awl_lsp.model.types import TypeEnv

    wanted = source[field.start_byte : field.end_byte].decode("utf-8", errors="replace")
    ref = _ref_at(model, node)
    symbols = model.visible_named(found, ref.scope if ref is not None else "")
    env = TypeEnv(model, tree, source, path)
    out = []
    for name in found:
        sym = symbols.get(name)
        t = env.type_of_symbol(sym) if sym is not None else None
        if t is None or not env.table.known(t) or env.field_type(t, wanted) is not None:
            out.append(name)
    return out


def _keyword_typo(p: Problem, tree: Tree, source: bytes) -> Problem:
    """A misspelt keyword: its close keywords as candidates (and in the message if not there yet)."""
    node = tree.root_node.descendant_for_point_range(p.range[:2], p.range[2:])
    if node is None:
        return p
    word = source[node.start_byte : node.end_byte].decode("utf-8", errors="replace")
    found = close_names(word, keyword_candidates(node))
    if not found:
        return p
    message = p.message if "did you mean" in p.message else p.message + did_you_mean(found)
    return replace(p, message=message, data={"name": word, "candidates": found})


__all__ = [
    "annotate",
    "candidates",
    "close_names",
    "did_you_mean",
    "distance",
    "keyword_candidates",
    "name_data",
]
