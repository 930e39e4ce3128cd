"""What an item shows the rest of the checker: the nodes its rules read and the declarations it exports.

- `item_nodes(item)`: the item's nodes by type, captured by one query (`CAPTURED`).
- `exports(facts, key, env)`: its declarations digested by meaning, so an edit inside a step
  changes them only when a binding changes type; `changed_exports` compares two runs' digests and
  `table_changes` two type tables.
"""

from __future__ import annotations

import re
from operator import attrgetter

from tree_sitter import Node, Query, QueryCursor

from awl_lsp.checks.base import kind_token
from awl_lsp.model import Kind
from awl_lsp.model.builder import LOCAL
from awl_lsp.model.facts import ItemFacts, plain_scope
from awl_lsp.model.schema_types import TypeTable
from awl_lsp.model.types import TypeEnv
from awl_lsp.syntax.parser import LANGUAGE

# node types the item rules and summaries ask for, captured in one query per item
CAPTURED = (
    "ERROR",
    "action_declaration",
    "answer_statement",
    "arguments",
    "binding",
    "block",
    "call_config",
    "call_expression",
    "collect_statement",
    "comment",
    "distribute_statement",
    "doc_comment",
    "duration",
    "fork_statement",
    "guard",
    "hatch_statement",
    "header",
    "invariant_clause",
    "json_literal",
    "list_type",
    "loop_body",
    "loop_statement",
    "narration",
    "on_failure",
    "optional_type",
    "parenthesized_expression",
    "pipe_expression",
    "route_statement",
    "schema_body",
    "schema_import",
    "sleep_statement",
    "spawn_statement",
    "step_body",
    "step_declaration",
    "step_outcome",
    "string",
    "unexpected_block",
    "unknown_clause",
    "unknown_declaration",
    "unknown_setting",
    "visits_bound",
    "wait_statement",
    "workflow_declaration",
    "workloop_declaration",
)
CAPTURED_SET = frozenset(CAPTURED)
_QUERY = Query(LANGUAGE, "\n".join(f"({t}) @{t}" for t in CAPTURED))
# a fork's row inside its item: other items see a fork's bindings only through scope-agnostic
# look-ups, which a line added above the fork inside the step does not change
_FORK_ROW = re.compile(r"fork@\d+")
# kinds whose type inference reads their item's expressions (a carry only without a declared type)
_TEXT_KINDS = frozenset({Kind.BINDING, Kind.CARRY, Kind.CONST})
_BINDING, _CARRY = Kind.BINDING, Kind.CARRY  # (read once: an enum member is a class look-up)


def item_nodes(item: Node) -> dict[str, list[Node]]:
    """The item's nodes by type (the item itself included), in document order."""
    found = QueryCursor(_QUERY).captures(item)
    for nodes in found.values():
        if len(nodes) > 1:  # by (start, -end), stably: two sorts by one attribute each, run in C
            nodes.sort(key=_END, reverse=True)
            nodes.sort(key=_START)
    return found


_START, _END = attrgetter("start_byte"), attrgetter("end_byte")


def exports(facts: ItemFacts, key: bytes, env: TypeEnv | None = None) -> dict[str, tuple]:
    """What an item declares, as other items' rules can see it: name -> (kind, digest hash), in order.

    Digested by meaning — kind, scope, declared type and, for a binding, its inferred type (with
    `env`, whose look-ups are recorded as the item's dependencies) — not by the item's text, so
    typing inside a step changes its exports only when one of its bindings changes type. Consts
    and untyped carries are digested with their item's text (their values are read elsewhere).
    """
    out: dict[str, list[tuple]] = {}
    binding, carry, text_kinds = _BINDING, _CARRY, _TEXT_KINDS
    plain: dict[str, str] = {}  # a fork scope without its rows and id (an item's symbols share a few)
    for s in facts.flat:
        kind, scope = s.kind, s.scope
        meaning: object = None
        if kind is binding:
            meaning = env.type_of_symbol(s) if env is not None else key
            name = LOCAL + s.name if "fork@" in scope else s.name  # (`export_key`, inline)
        else:
            if kind in text_kinds and not (kind is carry and s.type):
                meaning = key
            name = s.name
        if "@" in scope:
            bare = plain.get(scope)
            if bare is None:
                bare = plain[scope] = _FORK_ROW.sub("fork@", plain_scope(scope))
            scope = bare
        extra, children = s.extra, s.children
        d = (
            kind,
            scope,
            s.container,
            s.type,
            tuple(sorted(extra.items())) if extra else (),
            tuple([(c.kind, c.name, c.type) for c in children]) if children else (),
            meaning,
        )
        found = out.get(name)
        if found is None:
            out[name] = [(kind, hash(d))]  # kept per item: a hash is enough
        else:
            found.append((kind, hash(d)))
    return {name: tuple(ds) for name, ds in out.items()}


def changed_exports(old: list[dict[str, tuple]], new: list[dict[str, tuple]]) -> set[str]:
    before: dict[str, list[tuple]] = {}
    after: dict[str, list[tuple]] = {}
    for side, parts in ((before, old), (after, new)):
        for part in parts:
            for name, digests in part.items():
                side.setdefault(name, []).extend(digests)
    changed = set()
    for name in before.keys() | after.keys():
        a, b = before.get(name), after.get(name)
        if a != b:
            changed.add(name)
            for d in (a or []) + (b or []):
                changed.add(kind_token(d[0]))
    return changed


def table_changes(old: TypeTable | None, new: TypeTable) -> set[str]:
    if old is None:
        return set()
    changed = set()
    for a, b in ((old.records, new.records), (old.enums, new.enums)):
        for name in a.keys() | b.keys():
            if a.get(name) != b.get(name):
                changed.add(name)
    return changed


__all__ = ["CAPTURED", "CAPTURED_SET", "changed_exports", "exports", "item_nodes", "table_changes"]
