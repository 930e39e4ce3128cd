"""Reading step bodies: statements, bindings and the references inside expressions.

The second half of the item extractor (`awl_lsp.model.extract`): steps and their statements
declare bindings in scopes (a fork's item lives in the fork's own scope), and expressions
reference values, calls, fields and types.
"""

from __future__ import annotations

from tree_sitter import Node

from awl_lsp.model.facts import ItemFacts, fork_scope
from awl_lsp.model.symbols import Kind, RefKind, Symbol


class BodyExtractor:
    """Mixed into the item extractor, whose `symbol`, `ref`, `text`, … it uses."""

    facts: ItemFacts

    def text(self, node: Node | None) -> str:  # pragma: no cover - provided by the extractor
        raise NotImplementedError

    def symbol(self, kind: Kind, node: Node, name_node: Node | None, **kw: object) -> Symbol | None:
        raise NotImplementedError  # pragma: no cover

    def ref(self, kind: RefKind, node: Node | None, scope: str = "", context: str = "") -> None:
        raise NotImplementedError  # pragma: no cover

    def signature(self, node: Node) -> str:  # pragma: no cover
        raise NotImplementedError

    def type_refs(self, node: Node | None) -> None:  # pragma: no cover
        raise NotImplementedError

    # ------------------------------------------------------------------ steps
    def step(self, node: Node, scope: str, container: str | None) -> Symbol | None:
        name = node.child_by_field_name("name")
        # Steps are named per flow or subflow, wherever they nest (a fork branch, a loop body, an
        # `on failure` block); the values bound inside them keep the block's scope.
        step_scope = scope.split("/", 1)[0] if scope.startswith("subflow:") else ""
        sym = self.symbol(Kind.STEP, node, name, container=container, scope=step_scope)
        if sym is None:
            return None
        sym.detail = self.signature(node)
        after = node.child_by_field_name("after")
        if after is not None:
            for target in after.children_by_field_name("step"):
                self.ref(RefKind.STEP, target, scope)
        body = node.child_by_field_name("body")
        if body is not None:
            self.statements(body, scope, sym)
        return sym

    def statements(self, block: Node, scope: str, owner: Symbol) -> None:
        for st in block.named_children:
            self.statement(st, scope, owner)

    def bind(
        self,
        name_node: Node | None,
        scope: str,
        owner: Symbol,
        node: Node,
        how: str,
        type_text: str | None = None,
    ) -> None:
        sym = self.symbol(Kind.BINDING, node, name_node, container=owner.name, scope=scope, type=type_text)
        if sym is not None:
            sym.detail = f"{sym.name} ({how})"
            sym.extra["how"] = how

    def statement(self, st: Node, scope: str, owner: Symbol) -> None:
        t = st.type
        if t == "step_declaration":
            sub = self.step(st, scope, owner.name)
            if sub is not None:
                owner.children.append(sub)
            return
        if t == "step_outcome":
            name = st.child_by_field_name("name")
            sym = self.symbol(Kind.STEP_OUTCOME, st, name, container=owner.name, scope=scope)
            if sym is not None:
                sym.detail = self.signature(st)
                owner.children.append(sym)
            guard = st.child_by_field_name("guard")
            if guard is not None:
                self.values(guard.child_by_field_name("condition"), scope)
            route = st.child_by_field_name("route")
            if route is not None:
                self.statement(route, scope, owner)
            return
        if t == "fork_statement":
            item = st.child_by_field_name("item")
            inner = scope
            if item is not None:
                inner = fork_scope(scope, st.start_point.row, self.facts)
                self.values(st.child_by_field_name("collection"), scope)
                self.bind(item, inner, owner, item, "fork item")
            body = st.child_by_field_name("body")
            if body is not None:
                self.statements(body, inner, owner)
            join = st.child_by_field_name("join")
            if join is not None:
                b = join.child_by_field_name("binding")
                if b is not None:
                    self.bind(b.child_by_field_name("name"), scope, owner, join, "join")
            return
        if t == "loop_statement":
            self.values(st.child_by_field_name("seed"), scope)
            self.bind(st.child_by_field_name("binding"), scope, owner, st, "loop")
            counter = st.child_by_field_name("counter")
            if counter is not None:
                self.bind(counter, scope, owner, counter, "loop counter", "Int")
            body = st.child_by_field_name("body")
            if body is not None:
                for child in body.named_children:
                    if child.type in ("until_clause", "loop_max"):
                        self.values(child.named_children[0] if child.named_children else None, scope)
                    else:
                        self.statement(child, scope, owner)
            return
        if t in ("block", "on_failure"):
            body = st if t == "block" else st.child_by_field_name("body")
            if body is not None:
                self.statements(body, scope, owner)
            return
        if t == "visits_bound":
            self.values(st.child_by_field_name("limit"), scope)
            return
        if t == "distribute_statement":
            self.values(st.child_by_field_name("collection"), scope)
            self.bind(
                st.child_by_field_name("item"),
                scope,
                owner,
                st,
                mode.type if (mode := st.child_by_field_name("mode")) is not None else "distribute",
            )
            return
        if t == "collect_statement":
            self.ref(RefKind.COLLECT, st.child_by_field_name("value"), scope)
            b = st.child_by_field_name("binding")
            if b is not None:
                self.bind(b.child_by_field_name("name"), scope, owner, st, "collect")
            return
        if t == "wait_statement":
            self.ref(RefKind.SIGNAL, st.child_by_field_name("signal"), scope)
            self.values(st.child_by_field_name("timeout"), scope)
            b = st.child_by_field_name("binding")
            if b is not None:
                self.bind(b.child_by_field_name("name"), scope, owner, st, "wait")
            return
        if t == "route_statement":
            self.values(st.child_by_field_name("input"), scope)
            target = st.child_by_field_name("target")
            payload = st.child_by_field_name("payload")
            tname = ""
            if target is not None and target.named_children:
                tnode = target.named_children[0]
                tname = "start" if tnode.type == "start" else self.text(tnode)
                if tnode.type == "identifier":
                    self.ref(RefKind.ROUTE, tnode, scope)
            if payload is not None:
                self.arguments(payload, scope, f"route:{tname}")
            return
        if t in ("hatch_statement", "answer_statement", "spawn_statement"):
            call = st.child_by_field_name("call")
            kind = {"hatch_statement": RefKind.HATCH, "answer_statement": RefKind.ANSWER}.get(t, RefKind.CALL)
            if call is not None and call.type == "call_expression":
                fn = call.child_by_field_name("function")
                self.ref(kind, fn, scope)
                args = call.child_by_field_name("arguments")
                if args is not None:
                    self.arguments(args, scope, f"{kind.value}:{self.text(fn)}")
            else:
                self.values(call, scope)
            self.values(st.child_by_field_name("key"), scope)
            b = st.child_by_field_name("binding")
            if b is not None:
                self.bind(b.child_by_field_name("name"), scope, owner, st, t.split("_")[0])
            return
        if t in ("expression_statement", "sleep_statement"):
            value = st.child_by_field_name("value") or st.child_by_field_name("duration")
            self.values(value, scope)
            b = st.child_by_field_name("binding")
            if b is not None:
                self.bind(b.child_by_field_name("name"), scope, owner, st, "binding")
            return

    # ------------------------------------------------------------------ expressions
    def arguments(self, args: Node, scope: str, callee: str) -> None:
        for arg in args.named_children:
            if arg.type != "argument":
                continue
            name = arg.child_by_field_name("name")
            if name is not None:
                self.ref(RefKind.ARGUMENT, name, scope, callee)
            self.values(arg.child_by_field_name("value"), scope)

    def values(self, node: Node | None, scope: str) -> None:
        """References inside an expression: names, calls, fields, types."""
        if node is None:
            return
        t = node.type
        if t == "identifier":
            self.ref(RefKind.VALUE, node, scope)
        elif t == "call_expression":
            fn = node.child_by_field_name("function")
            self.ref(RefKind.CALL, fn, scope)
            args = node.child_by_field_name("arguments")
            if args is not None:
                self.arguments(args, scope, f"call:{self.text(fn)}")
        elif t == "field_expression":
            self.values(node.child_by_field_name("value"), scope)
            self.ref(RefKind.FIELD, node.child_by_field_name("field"), scope, "")
        elif t == "relative_field":
            self.ref(RefKind.FIELD, node.child_by_field_name("field"), scope, ".")
        elif t == "pipe_expression":
            self.values(node.child_by_field_name("input"), scope)
            stage = node.child_by_field_name("stage")
            if stage is not None:
                if stage.type == "identifier":
                    self.ref(RefKind.CALL, stage, scope)
                elif stage.type == "combinator":
                    self.values(stage.child_by_field_name("argument"), scope)
                else:
                    self.values(stage, scope)
        elif t in ("schema_of",):
            self.type_refs(node.child_by_field_name("type"))
        elif t in (
            "workflow_builtin",
            "string",
            "raw_string",
            "integer",
            "float",
            "duration",
            "boolean",
            "json_literal",
        ):
            return
        else:
            for child in node.named_children:
                self.values(child, scope)
