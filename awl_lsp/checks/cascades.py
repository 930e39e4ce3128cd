"""Cascades: one root cause, one error — what only follows from a mistake is folded into it.

`fold(problems, tree, source)` takes every problem of a document (syntax and checker alike, after
`awl_lsp.checks.suggest.annotate`) and
- turns a step that is unreachable only because the route to it is misspelt, a type or detached
  that looks unused, or a binding that looks unread because its use is misspelt, into a hint
  related to the misspelling;
- turns routes to outcomes of a workflow that declares none into hints of that one error;
- drops what the parser made of the rest of a line (or block) opened by a misspelt keyword, and
  turns the clause it meant (`tolerence` for a missing `tolerance`) and the names the broken block
  hid into hints related to the typo;
- turns what only follows from text the parser could not read into hints: a name declared on an
  unreadable line looks unknown where it is used (`const Order { … }` hides type `Order`), and a
  step above an unreadable one looks like the last step. The engine stops at such text, so it
  reports the unreadable line alone;
- in a document with a syntax error, turns what the engine checks only once the text parses into
  warnings pointing at that error (`awl_lsp.checks.stages`).
"""

from __future__ import annotations

from tree_sitter import Node, Tree

from awl_lsp.checks.stages import provisional
from awl_lsp.checks.suggest import KEYWORD_CODES
from awl_lsp.syntax.problems import Problem, Related, Severity


def fold(problems: list[Problem], tree: Tree, source: bytes) -> list[Problem]:
    """The problems with consequences folded into their causes (see the module doc)."""
    out = list(problems)
    misspelt: dict[str, Problem] = {}  # the name a misspelling most likely meant → its problem
    for p in out:
        if p.data and p.data.get("candidates") and p.code not in KEYWORD_CODES:
            misspelt.setdefault(p.data["candidates"][0], p)
    no_outcome = next((p for p in out if (p.data or {}).get("missing") == "outcome"), None)
    if no_outcome is not None:  # every route to an outcome fails only because none is declared
        out = [_for_want_of_outcomes(p, no_outcome) for p in out]
    if misspelt:
        out = [_folded(p, tree, source, misspelt) for p in out]
    out = fold_typos(out, tree, source)
    return provisional(_behind_unreadable_text(out, tree, source))


# ---------------------------------------------------------------- text the parser could not read
_HIDDEN_BY_NAME = frozenset({"unknown-type", "route-target", "unknown-call"})
_HIDDEN_BY_LATER_TEXT = frozenset({"falls-off-end", "dead-end-step"})


def _behind_unreadable_text(problems: list[Problem], tree: Tree, source: bytes) -> list[Problem]:
    if not any(
        p.severity is Severity.ERROR and (p.code in _HIDDEN_BY_NAME or p.code in _HIDDEN_BY_LATER_TEXT)
        for p in problems
    ):
        return problems  # (nothing here could follow from unread text: the tree is not walked)
    unreadable: list[tuple[int, set[str]]] = []  # (row, names written there) of each unread stretch
    stack = [tree.root_node]
    while stack:
        n = stack.pop()
        if n.type in ("ERROR", "unknown_declaration"):  # text the parser could not read as AWL
            names = {
                source[i.start_byte : i.end_byte].decode("utf-8", errors="replace")
                for i in _identifiers(n, ("identifier", "type_identifier"))
            }
            unreadable.append((n.start_point.row, names))
            continue
        if n.has_error:
            stack.extend(n.children)
    if not unreadable:
        return problems
    out: list[Problem] = []
    for p in problems:
        cause: int | None = None
        if p.severity is Severity.ERROR and p.code in _HIDDEN_BY_NAME:
            name = _named(p, tree, source)
            cause = next((row for row, names in unreadable if name in names and row != p.range[0]), None)
        elif p.severity is Severity.ERROR and p.code in _HIDDEN_BY_LATER_TEXT:
            cause = next((row for row, _ in unreadable if row > p.range[0]), None)
        if cause is not None:
            p = Problem(
                p.range,
                p.message + f" (probably because line {cause + 1} could not be read)",
                p.code,
                Severity.HINT,
                {**(p.data or {}), "because": "syntax"},
                (*p.related, Related((cause, 0, cause, 0), "this line could not be read")),
            )
        out.append(p)
    return out


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


# ---------------------------------------------------------------- a misspelt keyword's line
_LINE_OWNERS = frozenset({"unknown_declaration", "unknown_clause", "unknown_setting", "guard"})
_MISSES = {"unused-detached", "unused-type", "unused-binding", "unreachable-step", "route-target"}


def fold_typos(problems: list[Problem], tree: Tree, source: bytes) -> list[Problem]:
    """One error for a misspelt keyword: what it breaks is folded into it.

    The rest of the line (or block) the misspelt word opens is dropped — those problems only
    describe how the parser read the broken line; a clause the typo meant to write (`tolerence`
    for a missing `tolerance`) and names that look unused or unknown because the block they live
    in was not read become hints pointing at the typo. Applies to syntax and checker problems alike.
    """
    typos = [
        p
        for p in problems
        if p.code in KEYWORD_CODES and p.data and (p.data.get("candidates") or p.data.get("statement"))
    ]
    if not typos:
        return problems
    regions: list[tuple[Problem, tuple[int, int], tuple[int, int], set[str]]] = []
    for t in typos:
        node = tree.root_node.descendant_for_point_range(t.range[:2], t.range[2:])
        owner = node if node is not None and node.type in _LINE_OWNERS else node.parent if node else None
        if owner is None or owner.type not in _LINE_OWNERS:
            continue
        # the rest of the typo's line, and the block the misspelt word opens (a guard word breaks
        # nothing after it: the route on its line still parses)
        start = (t.range[0], t.range[1])
        end = (owner.end_point.row, owner.end_point.column)
        if owner.type != "guard":
            end = max(end, (t.range[0] + 1, 0))
        names = {
            source[n.start_byte : n.end_byte].decode("utf-8", errors="replace") for n in _identifiers(owner)
        }
        regions.append((t, start, end, names))
    out: list[Problem] = []
    for p in problems:
        cause = next((r for r in regions if r[0] is not p and r[1] < (p.range[0], p.range[1]) < r[2]), None)
        if cause is not None:
            continue  # inside the misspelt line or block: the parser's reading of text it could not take
        hinted = None
        for t, _, _, names in regions:
            if not (t.data or {}).get("candidates"):
                continue  # a statement at the margin, not a misspelling: nothing it meant to write
            meant = t.data["candidates"][0] if t.data else ""
            missing = (p.data or {}).get("missing")
            if missing == meant or (p.code in _MISSES and _named(p, tree, source) in names):
                hinted = t
                break
        if hinted is not None and p.severity is not Severity.HINT:
            wrong = (hinted.data or {}).get("name", "")
            p = Problem(
                p.range,
                p.message + f" (probably because `{wrong}` is misspelt)",
                p.code,
                Severity.HINT,
                {**(p.data or {}), "because": hinted.code},
                (*p.related, Related(hinted.range, f"`{wrong}` is probably misspelt")),
            )
        out.append(p)
    return out


def _identifiers(node: Node, types: tuple[str, ...] = ("identifier",)) -> list[Node]:
    out: list[Node] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type in types:
            out.append(n)
        stack.extend(n.children)
    return out


def _named(p: Problem, tree: Tree, source: bytes) -> str:
    if p.data and isinstance(p.data.get("name"), str):
        return p.data["name"]
    node = tree.root_node.descendant_for_point_range(p.range[:2], p.range[2:])
    return source[node.start_byte : node.end_byte].decode("utf-8", errors="replace") if node else ""


__all__ = ["fold", "fold_typos"]
