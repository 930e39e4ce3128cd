"""Shared tree helpers for the declaration, name, layout and workloop rule modules.

It reports nothing itself (it is not in the rule registry) and only offers small, crash-proof
helpers over tree-sitter nodes: every field look-up may be `None` on a broken tree, and every
helper accepts that.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from tree_sitter import Node

from awl_lsp.checks.base import CheckContext
from awl_lsp.checks.calls import arguments
from awl_lsp.checks.suggest import close_names, did_you_mean
from awl_lsp.model import BUILTIN_TYPES
from awl_lsp.syntax.fields import IDS as FIELD_IDS

SNAKE = re.compile(r"^[a-z][a-z0-9_]*$")
TITLE = re.compile(r"^[A-Z][A-Za-z0-9]*$")

# Words that open a declaration or a statement: refused as names even though most keywords are contextual.
RESERVED_NAMES = frozenset(
    "workflow workloop input signal outcome type worker action child detached subflow step const fork loop "
    "spawn hatch answer wait sleep route retire distribute sequence collect join until max on".split()
)
# The engine's workflow language also refuses the words that continue a construct or an expression
# as names, wherever they stand; a binding (`-> name`) may not take a pipe combinator's name either
# (a field or a step may). Workloops, which LANGUAGE.md rules, keep these words contextual.
WORKFLOW_RESERVED_NAMES = RESERVED_NAMES | frozenset(
    "after counting sequential failure success when otherwise all any is not and or true false json schema "
    "of visits".split()
)
WORKFLOW_RESERVED_BINDING_NAMES = WORKFLOW_RESERVED_NAMES | frozenset("filter map sort count".split())

STATEMENT_TYPES = frozenset(
    {
        "expression_statement",
        "route_statement",
        "spawn_statement",
        "hatch_statement",
        "answer_statement",
        "wait_statement",
        "sleep_statement",
        "fork_statement",
        "loop_statement",
        "distribute_statement",
        "collect_statement",
    }
)


def a_or_an(word: str) -> str:
    """`word` with its indefinite article, as a message reads it: "an action", "a step", "an Int"."""
    bare = word.strip("`[")
    return f"an {word}" if bare[:1].lower() in "aeiou" and bare[:1] else f"a {word}"


def field(node: Node | None, name: str) -> Node | None:
    """`node.child_by_field_name(name)`, tolerant of a missing node (by the field's id: no look-up of
    the name in the language on each call)."""
    if node is None:
        return None
    fid = FIELD_IDS.get(name)
    return node.child_by_field_id(fid) if fid is not None else None


def fields(node: Node | None, name: str) -> list[Node]:
    if node is None:
        return []
    return list(node.children_by_field_name(name))


def walk(node: Node | None) -> Iterator[Node]:
    """Every node below (and including) `node`, in document order."""
    if node is None:
        return
    stack = [node]
    while stack:
        cur = stack.pop()
        yield cur
        stack.extend(reversed(cur.children))


def descendants(node: Node | None, *types: str) -> list[Node]:
    wanted = set(types)
    return [n for n in walk(node) if n.type in wanted]


FLOW_TYPES = frozenset({"workflow_declaration", "workloop_declaration"})


def top_items(ctx: CheckContext, *types: str) -> list[Node]:
    """The document's top-level items of these types (document-wide rules)."""
    wanted = set(types)
    return [it.node for it in ctx.items if it.node.type in wanted]


def flow_node(ctx: CheckContext) -> Node | None:
    """The first `workflow` / `workloop` declaration of the document."""
    return ctx.doc.flow


def header_clauses(ctx: CheckContext, *types: str) -> list[Node]:
    header = field(flow_node(ctx), "header")
    if header is None:
        return []
    wanted = set(types)
    return [c for c in header.named_children if not wanted or c.type in wanted]


def is_workloop(ctx: CheckContext) -> bool:
    flow = flow_node(ctx)
    return flow is not None and flow.type == "workloop_declaration"


def broken_outcome_names(ctx: CheckContext, flow: Node | None) -> frozenset[str]:
    """Header outcomes whose line is broken (an ERROR node): still names a route may target."""
    header = field(flow, "header")
    return frozenset(
        ctx.text(c).split(":")[0].split()[-1]
        for c in (header.named_children if header is not None else [])
        if c.type == "ERROR" and ctx.text(c).lstrip().startswith("outcome ") and ":" in ctx.text(c)
    )


def name_of(ctx: CheckContext, node: Node | None) -> str:
    return ctx.text(field(node, "name"))


def first_token(node: Node) -> Node:
    return node.children[0] if node.children else node


def is_duration(node: Node | None) -> bool:
    return node is not None and node.type == "duration"


def is_builtin(name: str) -> bool:
    return name in BUILTIN_TYPES


def listing(words: list[str]) -> str:
    quoted = [f"`{w}`" for w in words]
    if len(quoted) <= 1:
        return "".join(quoted)
    return ", ".join(quoted[:-1]) + " and " + quoted[-1]


def named_arguments(ctx: CheckContext, args: Node | None) -> list[tuple[str, Node]]:
    """`(name, name_node)` of each named argument of an `arguments` node (positional ones skipped)."""
    return [(a.name, a.name_node) for a in arguments(ctx, args) if a.name_node is not None]


def match_arguments(
    ctx: CheckContext,
    args: Node | None,
    expected: list[str],
    what: str,
    where: Node,
    code: str,
    optional: frozenset[str] = frozenset(),
) -> None:
    """Report unknown and missing named arguments against the `expected` names.

    `what` names the callee in messages (e.g. "action `send`"), `where` is where a missing
    argument is reported (the callee's name). Positional and duplicate arguments are reported by
    `rules_names` for every argument list, so they are not repeated here.
    """
    listed = arguments(ctx, args)  # (read once per check, shared with the type rules)
    given = [(a.name, a.name_node) for a in listed if a.name_node is not None]
    names = {n for n, _ in given}
    free = [e for e in expected if e not in names]  # parameters no argument names yet
    meant: set[str] = set()  # missing parameters a misspelt argument stands for
    for name, node in given:
        if name not in expected:
            close = close_names(name, [e for e in free if e not in meant])
            if close:  # one mistake, one error: the misspelling, not also "missing `x`"
                meant.add(close[0])
                hint = did_you_mean(close)
            else:
                hint = f"; it takes {listing(expected)}" if expected else "; it takes no arguments"
            data: dict[str, object] = {"name": name, "candidates": close}
            if not close and free:
                data["free"] = [e for e in free if e not in meant]  # what it may stand for, unnamed
            ctx.error(node, f"unknown argument `{name}` for {what}{hint}", code, data)
    if len(given) < len(listed):
        return  # positional arguments: the named-only message says enough
    missing = [e for e in expected if e not in names and e not in optional and e not in meant]
    if missing:
        noun = "argument" if len(missing) == 1 else "arguments"
        ctx.error(where, f"{what} is missing {noun} {listing(missing)}", code, {"missing": missing})


def in_substep(node: Node) -> bool:
    """Is `node` inside a substep: a step written anywhere in another step's body (its own body, a
    `loop` body, a fork branch, an `on failure` block)?"""
    cur = node.parent
    while cur is not None and cur.type != "step_declaration":
        cur = cur.parent
    if cur is None:
        return False
    cur = cur.parent
    while cur is not None and cur.type != "step_declaration":
        cur = cur.parent
    return cur is not None
