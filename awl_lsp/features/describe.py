"""How a declaration reads in hover and completion: a signature block, its docs, and its parts."""

from __future__ import annotations

from tree_sitter import Node

from awl_lsp.model import Kind, RefKind, SemanticModel, Symbol

_LABEL = {
    Kind.WORKFLOW: "workflow",
    Kind.WORKLOOP: "workloop",
    Kind.INPUT: "input",
    Kind.SIGNAL: "signal",
    Kind.OUTCOME: "outcome",
    Kind.CARRY: "carry",
    Kind.REPORT: "report",
    Kind.INVARIANT: "invariant",
    Kind.CONST: "const",
    Kind.TYPE: "type",
    Kind.FIELD: "field",
    Kind.VARIANT: "enum variant",
    Kind.WORKER: "worker",
    Kind.ACTION: "action",
    Kind.PARAMETER: "parameter",
    Kind.CHILD: "child workflow",
    Kind.DETACHED: "detached workflow",
    Kind.SUBFLOW: "subflow",
    Kind.STEP: "step",
    Kind.STEP_OUTCOME: "step outcome",
    Kind.BINDING: "binding",
    Kind.RETIRE: "retire block",
}


def label(sym: Symbol) -> str:
    return _LABEL.get(sym.kind, sym.kind.value)


def signature(sym: Symbol, model: SemanticModel, binding_type: str | None = None) -> str:
    """One or more lines of AWL that show what the symbol is."""
    k = sym.kind
    if k is Kind.TYPE:
        fields = [c for c in sym.children if c.kind is Kind.FIELD]
        if fields:
            body = "\n".join(f"  {f.name}: {f.type}," for f in fields)
            return f"type {sym.name} {{\n{body}\n}}"
        return sym.detail or f"type {sym.name}"
    if k is Kind.FIELD:
        return f"{sym.container}.{sym.name}: {sym.type}"
    if k is Kind.PARAMETER:
        return f"{sym.name}: {sym.type}" if sym.type else sym.name
    if k is Kind.WORKER:
        actions = [c.detail for c in sym.children if c.kind is Kind.ACTION]
        return "\n".join([f"worker {sym.name}"] + [f"  {a}" for a in actions])
    if k is Kind.BINDING:
        t = binding_type or sym.type
        how = sym.extra.get("how", "binding")
        return (
            f"{sym.name}: {t}  // {how} in step {sym.container}"
            if t
            else f"{sym.name}  // {how} in step {sym.container}"
        )
    if k in (Kind.WORKFLOW, Kind.WORKLOOP):
        clauses = [f"  {c.detail}" for c in sym.children]
        return "\n".join([sym.detail] + clauses)
    return sym.detail or f"{label(sym)} {sym.name}"


def markdown(
    sym: Symbol, model: SemanticModel, binding_type: str | None = None, tree_text: TreeText | None = None
) -> str:
    parts = [f"```awl\n{signature(sym, model, binding_type)}\n```", f"*{label(sym)}*" + _where(sym)]
    if sym.doc:
        parts.append(sym.doc)
    extra = _details(sym, model)
    if extra:
        parts.append(extra)
    more = facts(sym, model, tree_text)
    if more:
        parts.append("\n".join(f"- {line}" for line in more))
    return "\n\n".join(parts)


def plaintext(
    sym: Symbol, model: SemanticModel, binding_type: str | None = None, tree_text: TreeText | None = None
) -> str:
    parts = [signature(sym, model, binding_type), label(sym) + _where(sym)]
    if sym.doc:
        parts.append(sym.doc)
    extra = _details(sym, model)
    if extra:
        parts.append(extra.replace("`", ""))
    more = facts(sym, model, tree_text)
    if more:
        parts.append("\n".join(f"- {line}".replace("`", "") for line in more))
    return "\n\n".join(parts)


def _where(sym: Symbol) -> str:
    if sym.kind is Kind.ACTION and sym.container:
        return f" of worker `{sym.container}`"
    if sym.kind is Kind.PARAMETER and sym.container:
        return f" of `{sym.container}`"
    if sym.kind is Kind.STEP and sym.container:
        return f" inside `{sym.container}`"
    return ""


def _details(sym: Symbol, model: SemanticModel) -> str:
    k = sym.kind
    if k in (Kind.ACTION, Kind.CHILD, Kind.DETACHED, Kind.SUBFLOW) and sym.type:
        fields = model.fields_of(sym.type)
        if fields:
            return f"returns `{sym.type}` {{ " + ", ".join(f"`{f.name}: {f.type}`" for f in fields) + " }"
    if k in (Kind.INPUT, Kind.CARRY, Kind.REPORT, Kind.INVARIANT, Kind.OUTCOME, Kind.SIGNAL, Kind.FIELD):
        fields = model.fields_of(sym.type)
        if fields:
            return f"`{sym.type}` has " + ", ".join(f"`{f.name}: {f.type}`" for f in fields)
    if k is Kind.DETACHED:
        return "Started with `hatch` (and a mandatory `key`); it outlives the iteration and returns nothing."
    return ""


# ---------------------------------------------------------------- what a symbol hover adds
def facts(sym: Symbol, model: SemanticModel, tree_text: TreeText | None = None) -> list[str]:
    """Markdown lines a user needs beside the signature (see `awl_lsp.features.hover`)."""
    k = sym.kind
    if k is Kind.STEP:
        restarts = tree_text is not None and tree_text.has(sym.range, "step_declaration", "start")
        return _step_facts(sym, model, restarts)
    if k is Kind.ACTION:
        out = []
        if tree_text is not None:
            config = tree_text.field_text(sym.range, "action_declaration", "config")
            if config:
                out.append(f"config: `{config}`")
        worker = model.first(Kind.WORKER, sym.container or "")
        if worker is not None and worker.doc:
            out.append(f"worker `{worker.name}`: {worker.doc}")
        return out
    if k is Kind.CARRY and tree_text is not None:
        default = tree_text.field_text(sym.range, "carry_clause", "default")
        return [f"starts as `{default}`; `route start(…)` rebinds it"] if default else []
    if k is Kind.INVARIANT and tree_text is not None:
        out = []
        for clause in ("tolerance_clause", "confirms_clause"):
            text = tree_text.child_text(sym.range, "invariant_clause", clause)
            if text:
                out.append(f"`{text}`")
        return out
    if k is Kind.BINDING and tree_text is not None:
        source = tree_text.binder(sym.selection)
        return [f"bound by `{source}`"] if source else []
    if k is Kind.REPORT:
        answers = [r for r in model.references_to(sym)]
        return [f"answered in {_count(len(answers), 'place')}"] if answers else ["never answered"]
    return []


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _step_facts(sym: Symbol, model: SemanticModel, restarts: bool = False) -> list[str]:
    inside = [r for r in model.references if _within(r.range, sym.range)]
    calls = list(dict.fromkeys(r.name for r in inside if r.kind is RefKind.CALL))
    out_routes = list(dict.fromkeys(r.name for r in inside if r.kind is RefKind.ROUTE))
    if restarts:
        out_routes.append("start")
    callers: list[str] = []
    for r in model.references_to(sym):
        if r.kind is RefKind.ROUTE:
            src = model.enclosing(r.range[0], r.range[1], Kind.STEP)
            if src is not None and src is not sym:
                callers.append(src.name)
    after = [r.name for r in inside if r.kind is RefKind.STEP and r.range[0] == sym.selection[0]]
    lines = []
    if calls:
        lines.append("calls " + ", ".join(f"`{c}`" for c in calls))
    outcomes = [c.name for c in sym.children if c.kind is Kind.STEP_OUTCOME]
    if outcomes:
        lines.append("outcomes " + ", ".join(f"`{o}`" for o in outcomes))
    if out_routes:
        lines.append("routes to " + ", ".join(f"`{t}`" for t in out_routes))
    sources = list(dict.fromkeys(callers))
    if sources:
        lines.append("reached from " + ", ".join(f"`{c}`" for c in sources))
    if after:
        lines.append("runs after " + ", ".join(f"`{a}`" for a in after))
    return lines


def _within(inner: tuple[int, int, int, int], outer: tuple[int, int, int, int]) -> bool:
    return outer[:2] <= inner[:2] and inner[2:] <= outer[2:]


_BINDERS = frozenset(
    {"expression_statement", "wait_statement", "fork_statement", "join_clause", "loop_statement"}
    | {"distribute_statement", "sequence_statement", "collect_statement"}
)


class TreeText:
    """Reads a declaration's parts from the syntax tree (config lines, defaults, clauses)."""

    def __init__(self, root: Node, source: bytes) -> None:
        self.root, self.source = root, source

    def _node(self, rng: tuple[int, int, int, int], node_type: str) -> Node | None:
        node = self.root.descendant_for_point_range(rng[:2], rng[:2])
        while node is not None and node.type != node_type:
            node = node.parent
        return node

    def _text(self, node: Node | None) -> str:
        if node is None:
            return ""
        raw = self.source[node.start_byte : node.end_byte].decode("utf-8", errors="replace")
        return " ".join(raw.split())

    def field_text(self, rng: tuple[int, int, int, int], node_type: str, field_name: str) -> str:
        node = self._node(rng, node_type)
        return self._text(node.child_by_field_name(field_name)) if node is not None else ""

    def has(self, rng: tuple[int, int, int, int], node_type: str, descendant_type: str) -> bool:
        """Does the `node_type` node at `rng` hold a node of `descendant_type`?"""
        node = self._node(rng, node_type)
        stack = [node] if node is not None else []
        while stack:
            n = stack.pop()
            if n.type == descendant_type:
                return True
            stack.extend(n.children)
        return False

    def binder(self, rng: tuple[int, int, int, int]) -> str:
        """The statement that binds the name at `rng`, as written up to its `->` (first line only)."""
        node = self.root.descendant_for_point_range(rng[:2], rng[2:])
        while node is not None and node.type not in _BINDERS:
            node = node.parent
        if node is None:
            return ""
        binding = node.child_by_field_name("binding")
        end = node.end_byte
        if binding is not None and binding.start_byte > node.start_byte:
            end = binding.start_byte
        line_end = self.source.find(b"\n", node.start_byte)
        if line_end != -1:
            end = min(end, line_end)
        text = " ".join(self.source[node.start_byte : end].decode("utf-8", errors="replace").split())
        text = text.removesuffix("->").strip()
        return text if len(text) <= 60 else text[:59] + "…"

    def child_text(self, rng: tuple[int, int, int, int], node_type: str, child_type: str) -> str:
        node = self._node(rng, node_type)
        if node is None:
            return ""
        return self._text(next((c for c in node.named_children if c.type == child_type), None))
