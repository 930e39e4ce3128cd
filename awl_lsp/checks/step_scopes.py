"""Where a step stands among its siblings, and what a `route` or `after` may name from there.

These are the engine's nesting rules (each recorded as a document under
`tests/data/conformance/rules/nesting/`):

- Substeps are grouped by the block they are written in: a step's own body, a `loop` body, a fork's
  branch block, an `on failure` block. The substeps of one block are siblings of each other and of
  nothing else (a substep in a step's body and one in a loop body of the same step are not).
- A route of a substep (a `route` line in its body outside deeper substeps, or the route of one of
  its outcome arms) names a sibling or an outcome arm of its parent (the nearest step around it):
  never the parent's siblings, a flow outcome, or the arm of a step further out.
- In the named form of `fork` (`fork` + one branch per line) each branch runs on its own: a substep
  there routes only to itself or to its parent's arms. `after` still names the fork's other
  substeps, and one still falls through into the next.
- A route of a top-level step names a top-level step of its flow (or subflow) or an outcome, never
  a substep; `after` likewise names siblings only.
- The engine never checks inside the `on failure` block of a substep.

Everything here reads the tree of one top-level item.
"""

from __future__ import annotations

from tree_sitter import Node

from awl_lsp.syntax import fields as F

_STEP = "step_declaration"


def enclosing_step(node: Node, item: Node | None = None) -> Node | None:
    """The nearest step declaration strictly above `node` (for an arm's route: the arm's step).

    `item`, when given, is the top-level item that holds `node`: nothing above it is a step (only
    the root is), so the walk stops there — a node's parent is found by a search from the root, and
    the item's own is the dearest, past every item before it."""
    stop = item.id if item is not None else None
    if node.id == stop:
        return None
    cur = node.parent
    while cur is not None and cur.type != _STEP:
        if cur.id == stop:
            return None
        cur = cur.parent
    return cur


def is_substep(step: Node, item: Node | None = None) -> bool:
    return enclosing_step(step, item) is not None


def block_kind(block: Node | None) -> str:
    """How a block that holds steps is named in messages: `body` (a step's own body), `loop`, `fork`,
    `named fork`, `on failure`, or `flow` (the top level of a flow or subflow)."""
    if block is None:
        return "flow"
    t = block.type
    if t == "step_body":
        return "body"
    if t == "loop_body":
        return "loop"
    if t == "block":
        owner = block.parent
        if owner is not None and owner.type == "fork_statement":
            return "fork" if owner.child_by_field_id(F.ITEM) is not None else "named fork"
        if owner is not None and owner.type == "on_failure":
            return "on failure"
        return "block"
    return "flow"


def where(block: Node | None, parent_name: str) -> str:
    """The block, in words: "the body of `p`", "a `loop` body of `p`", …"""
    kind = block_kind(block)
    if kind == "body":
        return f"the body of `{parent_name}`"
    if kind == "on failure":
        return f"the `on failure` block of `{parent_name}`"
    if kind == "named fork":
        return f"a branch of the named `fork` in `{parent_name}`"
    return f"a `{kind}` body in `{parent_name}`"


def siblings(step: Node) -> list[Node]:
    """The steps written in the same block as `step` (itself included), in document order."""
    block = step.parent
    if block is None:
        return [step]
    return [c for c in block.named_children if c.type == _STEP]


def route_siblings(step: Node) -> list[Node]:
    """The steps a route of substep `step` may name: its siblings, or itself alone in a named fork."""
    if block_kind(step.parent) == "named fork":
        return [step]
    return siblings(step)


def arms(step: Node) -> list[Node]:
    """The outcome arms of `step`."""
    body = step.child_by_field_id(F.BODY)
    return [c for c in body.named_children if c.type == "step_outcome"] if body is not None else []


def in_unchecked_failure(node: Node, item: Node | None = None) -> bool:
    """Is `node` inside the `on failure` block of a substep (a block the engine never checks)?
    (`item`: the top-level item holding `node`, as for `enclosing_step`.)"""
    stop = item.id if item is not None else None
    if node.id == stop:
        return False
    cur = node.parent
    while cur is not None:
        if cur.type == "on_failure":
            owner = enclosing_step(cur, item)
            if owner is not None and is_substep(owner, item):
                return True
        if cur.id == stop:
            return False
        cur = cur.parent
    return False


def in_loop_body(node: Node) -> bool:
    """Is `node` inside a `loop` body (at any depth)?"""
    cur = node.parent
    while cur is not None:
        if cur.type == "loop_body":
            return True
        cur = cur.parent
    return False
