"""Fixes for what is written twice where once is the rule: a name declared again, a binding bound
again, a second `timeout`, `max … visits` or `on failure`, a type made optional twice.

- `duplicate` (`data.name`): when the repeat is an exact copy of the first declaration (the same
  text but for spacing) — or sits in an exact copy of the declaration holding the first, as a field
  of a type declared twice — the copy goes. Safe: it declared nothing the first does not. Otherwise
  the later declaration is renamed to a free `name_2` (a tab stop to type the intended name), and
  a repeated argument of a call goes (each offered as the guess it is: unsafe). A type is not
  renamed (nothing would use the new one), nor a step some route or `after` names (a repeated
  step name means the last one: the rename would send those elsewhere).
- `rebinding` (`data.name`): a statement that repeats the one that first bound the name goes
  (unsafe: the call then runs once); otherwise the later binding and the reads of it are renamed,
  when the first binding is read too (unsafe).
- `timeout-twice`, `visits-twice`, `visits-bound-twice`, `on-failure-twice`: keep one — the second
  goes (preferred), or the first does. Safe only when the two are the same text.
- `optional-twice`: `T??` becomes `T?`. Safe: there is nothing else it can mean.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from awl_lsp.features.fixes import lines
from awl_lsp.features.fixes.places import ancestor, end, node_at, span
from awl_lsp.features.fixes.values import Edit, Fix, edit, tabstop
from awl_lsp.model import Kind, RefKind
from awl_lsp.syntax.problems import Problem

if TYPE_CHECKING:
    from awl_lsp.features.snapshot import Snapshot

# items of a comma-separated list: removed with the comma before them
_LISTED = frozenset({"field_declaration", "parameter", "argument"})
# kinds a rename leaves something unused (a warning the fix would bring)
_NOT_RENAMED = frozenset({Kind.TYPE, Kind.DETACHED, Kind.BINDING, Kind.STEP_OUTCOME, Kind.VARIANT})


def _words(snap: Snapshot, node: Node) -> list[str]:
    return snap.text(node).split()


def same_text(snap: Snapshot, a: Node, b: Node) -> bool:
    """The same declaration twice: same kind of node, same words (spacing and line breaks aside)."""
    return a.type == b.type and _words(snap, a) == _words(snap, b)


def removal(snap: Snapshot, node: Node) -> Edit | None:
    """An edit removing the node: its whole lines (with the `///` lines above it) when it has them
    to itself, else — an item of a list — from the end of the item before it."""
    first, last = node.start_point.row, lines.last_row(node)
    before = lines.line(snap, first)[: node.start_point.column]
    tail = _after(snap, node)
    if not before.strip() and tail in ("", ","):
        return lines.remove_rows(snap, lines.doc_rows_above(node), last)
    if node.type in _LISTED:
        prev = node.prev_named_sibling
        while prev is not None and prev.type in lines.TRIVIA:
            prev = prev.prev_named_sibling
        if prev is not None and prev.type == node.type and prev.end_point.row == node.start_point.row:
            return edit(end(prev), end(node), "")
    return None


def _after(snap: Snapshot, node: Node) -> str:
    """What follows the node on its last line (a trailing comment aside)."""
    last = lines.last_row(node)
    text = lines.line(snap, last)
    col = node.end_point.column if node.end_point.row == last else len(text)
    rest = text[col:].decode("utf-8", "replace").strip()
    return rest.split("//", 1)[0].strip() if rest.startswith(("//", ",")) else rest


def _declaration(node: Node) -> Node | None:
    """The declaring node of a name (its parent, unless the name is a field of something else)."""
    return node.parent if node.type in ("identifier", "type_identifier") else None


def _first_declaration(snap: Snapshot, problem: Problem, node: Node, name: str) -> Node | None:
    """The earlier declaration of the same name and kind that the repeat repeats."""
    decl = _declaration(node)
    if decl is None:
        return None
    if decl.type == "argument":
        args = decl.parent
        for arg in args.named_children if args is not None else []:
            if arg.start_byte >= decl.start_byte:
                break
            if arg.type == "argument" and snap.text(arg.child_by_field_name("name")) == name:
                return arg
        return None
    sym = snap.model.symbol_at(problem.range[0], problem.range[1])
    if sym is None or sym.name != name:
        return None
    earlier = [
        s
        for s in snap.model.lookup(sym.kind, name)
        if s.selection < sym.selection and s.container == sym.container
    ]
    if not earlier:
        return None
    found = node_at(snap, earlier[0].selection)
    return _declaration(found) if snap.text(found) == name else None


def _copies(snap: Snapshot, later: Node, first: Node) -> Node | None:
    """The node to remove when the repeat is a copy: climbing from both declarations to the children
    of the node they share, the later of the two, when it is the same text as the earlier."""
    a, b = later, first
    while a.parent is not None and b.parent is not None and a.parent != b.parent:
        depth_a, depth_b = _depth(a), _depth(b)
        if depth_a >= depth_b:
            a = a.parent
        if depth_b >= depth_a:
            b = b.parent
    if a.parent is None or a.parent != b.parent or a == b:
        return None
    return a if same_text(snap, a, b) else None


def _depth(node: Node) -> int:
    d = 0
    while node.parent is not None:
        node, d = node.parent, d + 1
    return d


def _free_name(snap: Snapshot, name: str) -> str:
    taken = {s.name for s in snap.model.all_symbols}
    n = 2
    while f"{name}_{n}" in taken:
        n += 1
    return f"{name}_{n}"


def duplicate(snap: Snapshot, problem: Problem) -> list[Fix]:
    name = (problem.data or {}).get("name")
    node = node_at(snap, problem.range)
    if not isinstance(name, str) or snap.text(node) != name:
        return []
    first = _first_declaration(snap, problem, node, name)
    later = _declaration(node)
    if first is None or later is None:
        return []
    copy = _copies(snap, later, first)
    if copy is not None:
        gone = removal(snap, copy)
        return [Fix(f"Remove the repeated `{name}`", (gone,), safe=True, preferred=True)] if gone else []
    if later.type == "argument":
        gone = removal(snap, later)
        title = f"Remove the second `{name}` argument"
        return [Fix(title, (gone,), safe=False, preferred=True)] if gone else []
    sym = snap.model.symbol_at(problem.range[0], problem.range[1])
    if sym is None or sym.kind in _NOT_RENAMED:
        return []
    if sym.kind is Kind.STEP and any(
        r.name == name and r.kind in (RefKind.ROUTE, RefKind.STEP) for r in snap.model.references
    ):
        return []  # (a route to a repeated step name enters the last: renaming it would redirect them)
    new = _free_name(snap, name)
    title = f"Rename the second `{name}` to `{new}`"
    return [Fix(title, (Edit(span(node), tabstop(1, new)),), safe=False, preferred=True, snippet=True)]


def rebinding(snap: Snapshot, problem: Problem) -> list[Fix]:
    name = (problem.data or {}).get("name")
    node = node_at(snap, problem.range)
    sym = snap.model.symbol_at(problem.range[0], problem.range[1])
    if not isinstance(name, str) or snap.text(node) != name or sym is None or sym.kind is not Kind.BINDING:
        return []
    earlier = [s for s in snap.model.lookup(Kind.BINDING, name) if s.selection < sym.selection]
    if not earlier:
        return []
    first_stmt = ancestor(node_at(snap, earlier[-1].selection), "expression_statement", "wait_statement")
    stmt = ancestor(node, "expression_statement", "wait_statement")
    if stmt is not None and first_stmt is not None and same_text(snap, stmt, first_stmt):
        gone = removal(snap, stmt)
        if gone is not None:
            return [Fix("Remove the repeated line", (gone,), safe=False, preferred=True)]
    if not snap.model.references_to(earlier[-1]):
        return []  # renaming would leave the first binding unread
    new = _free_name(snap, name)
    refs = snap.model.references_to(sym)
    edits = (Edit(span(node), tabstop(1, new)), *(Edit(r.range, tabstop(1, new)) for r in refs))
    title = f"Bind this result to `{new}`"
    return [Fix(title, edits, safe=False, preferred=True, snippet=True)]


def keep_one(snap: Snapshot, problem: Problem) -> list[Fix]:
    """The second of a one-only line (a `timeout`, a `max … visits`, an `on failure` block) and the
    first before it: remove the second, or the first."""
    at = node_at(snap, problem.range)
    second = ancestor(at, "timeout_clause", "visits_bound", "on_failure")
    if second is None or second.parent is None:
        return []
    firsts = [
        c for c in second.parent.named_children if c.type == second.type and c.start_byte < second.start_byte
    ]
    if not firsts:
        return []
    first = firsts[0]
    word = snap.text(second).split("\n", 1)[0].strip()
    drop_second, drop_first = removal(snap, second), removal(snap, first)
    if drop_second is None or drop_first is None:
        return []
    if same_text(snap, first, second):
        return [Fix(f"Remove the repeated `{word}`", (drop_second,), safe=True, preferred=True)]
    out = [Fix(f"Remove the second `{word}`", (drop_second,), safe=False, preferred=True)]
    if _next_line(first) == second:  # (the second in the first's place: it may as well stay)
        first_word = snap.text(first).split("\n", 1)[0].strip()
        out.append(Fix(f"Remove the first `{first_word}`", (drop_first,), safe=False))
    return out


def _next_line(node: Node) -> Node | None:
    nxt = node.next_named_sibling
    while nxt is not None and nxt.type in lines.TRIVIA:
        nxt = nxt.next_named_sibling
    return nxt


def optional_once(snap: Snapshot, problem: Problem) -> list[Fix]:
    node = ancestor(node_at(snap, problem.range), "optional_type")
    while node is not None and node.parent is not None and node.parent.type == "optional_type":
        node = node.parent
    inner = node
    while inner is not None and inner.type == "optional_type":
        inner = inner.child_by_field_name("inner")
    if node is None or inner is None:
        return []
    new = snap.text(inner) + "?"
    return [Fix(f"Write `{new}`", (Edit(span(node), new),), safe=True, preferred=True)]
