"""Reading step bodies: statements, bindings and the references inside expressions.

The second half of the item extractor (`awl_lsp.model.extract`): steps and their statements
declare bindings in scopes (a fork's item lives in the fork's own scope), and expressions
reference values, calls, fields and types.
"""

from __future__ import annotations

from tree_sitter import Node

from awl_lsp.model.facts import ItemFacts, fork_scope
from awl_lsp.model.symbols import Kind, RefKind, Symbol
from awl_lsp.syntax import fields as F
from awl_lsp.syntax.parser import LANGUAGE

# enum members read once (a member read through its class is a Python-level call on 3.11)
_K_BINDING = Kind.BINDING
_K_STEP = Kind.STEP
_K_STEP_OUTCOME = Kind.STEP_OUTCOME
_R_ANSWER = RefKind.ANSWER
_R_ARGUMENT = RefKind.ARGUMENT
_R_CALL = RefKind.CALL
_R_COLLECT = RefKind.COLLECT
_R_FIELD = RefKind.FIELD
_R_HATCH = RefKind.HATCH
_R_ROUTE = RefKind.ROUTE
_R_SIGNAL = RefKind.SIGNAL
_R_STEP = RefKind.STEP
_R_VALUE = RefKind.VALUE


def kind_number(name: str) -> int:
    """The grammar's number for the named node type `name` (`node.kind_id` of such a node: the
    grammar gives each type name one number)."""
    found = LANGUAGE.id_for_node_kind(name, True)
    if not found:
        raise KeyError(f"the AWL grammar has no node type `{name}`")
    return found


_EXPRESSION_STATEMENT = kind_number("expression_statement")
_SLEEP_STATEMENT = kind_number("sleep_statement")
_STEP_DECLARATION = kind_number("step_declaration")
_STEP_OUTCOME = kind_number("step_outcome")
_FORK_STATEMENT = kind_number("fork_statement")
_LOOP_STATEMENT = kind_number("loop_statement")
_BLOCK = kind_number("block")
_ON_FAILURE = kind_number("on_failure")
_VISITS_BOUND = kind_number("visits_bound")
_DISTRIBUTE_STATEMENT = kind_number("distribute_statement")
_COLLECT_STATEMENT = kind_number("collect_statement")
_WAIT_STATEMENT = kind_number("wait_statement")
_ROUTE_STATEMENT = kind_number("route_statement")
_HATCH_STATEMENT = kind_number("hatch_statement")
_ANSWER_STATEMENT = kind_number("answer_statement")
_SPAWN_STATEMENT = kind_number("spawn_statement")
_IDENTIFIER = kind_number("identifier")
_CALL_EXPRESSION = kind_number("call_expression")
_FIELD_EXPRESSION = kind_number("field_expression")
_RELATIVE_FIELD = kind_number("relative_field")
_PIPE_EXPRESSION = kind_number("pipe_expression")
_SCHEMA_OF = kind_number("schema_of")
_ARGUMENT = kind_number("argument")
_LITERALS = frozenset(
    map(
        kind_number,
        (
            "workflow_builtin",
            "string",
            "raw_string",
            "integer",
            "float",
            "duration",
            "boolean",
            "json_literal",
        ),
    )
)


class BodyExtractor:
    """Mixed into the item extractor, whose `symbol`, `ref`, `text`, … it uses."""

    facts: ItemFacts

    def text(self, node: Node | None) -> str:  # pragma: no cover - provided by the extractor
        raise NotImplementedError

    def symbol(
        self,
        kind: Kind,
        node: Node,
        name_node: Node | None,
        detail: str = "",
        type: str | None = None,  # noqa: A002 — the field's name
        container: str | None = None,
        scope: str = "",
    ) -> Symbol | None:
        raise NotImplementedError  # pragma: no cover

    def ref(self, kind: RefKind, node: Node | None, scope: str = "", context: str = "") -> str | None:
        raise NotImplementedError  # pragma: no cover

    def signature(self, node: Node) -> str:  # pragma: no cover
        raise NotImplementedError

    def type_refs(self, node: Node | None) -> None:  # pragma: no cover
        raise NotImplementedError

    # ------------------------------------------------------------------ steps
    def step(self, node: Node, scope: str, container: str | None) -> Symbol | None:
        name = node.child_by_field_id(F.NAME)
        # Steps are named per flow or subflow, wherever they nest (a fork branch, a loop body, an
        # `on failure` block); the values bound inside them keep the block's scope.
        step_scope = scope.split("/", 1)[0] if scope.startswith("subflow:") else ""
        sym = self.symbol(_K_STEP, node, name, container=container, scope=step_scope)
        if sym is None:
            return None
        sym.detail = self.signature(node)
        after = node.child_by_field_id(F.AFTER)
        if after is not None:
            for target in after.children_by_field_name("step"):
                self.ref(_R_STEP, target, scope)
        body = node.child_by_field_id(F.BODY)
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
        sym = self.symbol(_K_BINDING, node, name_node, container=owner.name, scope=scope, type=type_text)
        if sym is not None:
            sym.detail = f"{sym.name} ({how})"
            sym.extra["how"] = how

    def statement(self, st: Node, scope: str, owner: Symbol) -> None:
        t = st.kind_id  # (the node's type by its number: no string made and compared per statement)
        if t == _EXPRESSION_STATEMENT or t == _SLEEP_STATEMENT:  # (the usual statement: asked first)
            value = st.child_by_field_id(F.VALUE) or st.child_by_field_id(F.DURATION)
            self.values(value, scope)
            b = st.child_by_field_id(F.BINDING)
            if b is not None:
                self.bind(b.child_by_field_id(F.NAME), scope, owner, st, "binding")
            return
        if t == _STEP_DECLARATION:
            sub = self.step(st, scope, owner.name)
            if sub is not None:
                owner.children.append(sub)
            return
        if t == _STEP_OUTCOME:
            name = st.child_by_field_id(F.NAME)
            sym = self.symbol(_K_STEP_OUTCOME, st, name, container=owner.name, scope=scope)
            if sym is not None:
                sym.detail = self.signature(st)
                owner.children.append(sym)
            guard = st.child_by_field_id(F.GUARD)
            if guard is not None:
                self.values(guard.child_by_field_id(F.CONDITION), scope)
            route = st.child_by_field_id(F.ROUTE)
            if route is not None:
                self.statement(route, scope, owner)
            return
        if t == _FORK_STATEMENT:
            item = st.child_by_field_id(F.ITEM)
            inner = scope
            if item is not None:
                inner = fork_scope(scope, st.start_point.row, self.facts)
                self.values(st.child_by_field_id(F.COLLECTION), scope)
                self.bind(item, inner, owner, item, "fork item")
            body = st.child_by_field_id(F.BODY)
            if body is not None:
                self.statements(body, inner, owner)
            join = st.child_by_field_id(F.JOIN)
            if join is not None:
                b = join.child_by_field_id(F.BINDING)
                if b is not None:
                    self.bind(b.child_by_field_id(F.NAME), scope, owner, join, "join")
            return
        if t == _LOOP_STATEMENT:
            self.values(st.child_by_field_id(F.SEED), scope)
            self.bind(st.child_by_field_id(F.BINDING), scope, owner, st, "loop")
            counter = st.child_by_field_id(F.COUNTER)
            if counter is not None:
                self.bind(counter, scope, owner, counter, "loop counter", "Int")
            body = st.child_by_field_id(F.BODY)
            if body is not None:
                for child in body.named_children:
                    if child.type in ("until_clause", "loop_max"):
                        self.values(child.named_children[0] if child.named_children else None, scope)
                    else:
                        self.statement(child, scope, owner)
            return
        if t == _BLOCK or t == _ON_FAILURE:
            body = st if t == _BLOCK else st.child_by_field_id(F.BODY)
            if body is not None:
                self.statements(body, scope, owner)
            return
        if t == _VISITS_BOUND:
            self.values(st.child_by_field_id(F.LIMIT), scope)
            return
        if t == _DISTRIBUTE_STATEMENT:
            self.values(st.child_by_field_id(F.COLLECTION), scope)
            self.bind(
                st.child_by_field_id(F.ITEM),
                scope,
                owner,
                st,
                mode.type if (mode := st.child_by_field_id(F.MODE)) is not None else "distribute",
            )
            return
        if t == _COLLECT_STATEMENT:
            self.ref(_R_COLLECT, st.child_by_field_id(F.VALUE), scope)
            b = st.child_by_field_id(F.BINDING)
            if b is not None:
                self.bind(b.child_by_field_id(F.NAME), scope, owner, st, "collect")
            return
        if t == _WAIT_STATEMENT:
            self.ref(_R_SIGNAL, st.child_by_field_id(F.SIGNAL), scope)
            self.values(st.child_by_field_id(F.TIMEOUT), scope)
            b = st.child_by_field_id(F.BINDING)
            if b is not None:
                self.bind(b.child_by_field_id(F.NAME), scope, owner, st, "wait")
            return
        if t == _ROUTE_STATEMENT:
            self.values(st.child_by_field_id(F.INPUT), scope)
            target = st.child_by_field_id(F.TARGET)
            payload = st.child_by_field_id(F.PAYLOAD)
            tname = ""
            if target is not None and target.named_children:
                tnode = target.named_children[0]
                tname = "start" if tnode.type == "start" else self.text(tnode)
                if tnode.type == "identifier":
                    self.ref(_R_ROUTE, tnode, scope)
            if payload is not None:
                self.arguments(payload, scope, f"route:{tname}")
            return
        if t == _HATCH_STATEMENT or t == _ANSWER_STATEMENT or t == _SPAWN_STATEMENT:
            call = st.child_by_field_id(F.CALL)
            kind = _R_HATCH if t == _HATCH_STATEMENT else _R_ANSWER if t == _ANSWER_STATEMENT else _R_CALL
            if call is not None and call.type == "call_expression":
                fn = call.child_by_field_id(F.FUNCTION)
                callee = self.ref(kind, fn, scope) or ""  # (the callee's text)
                args = call.child_by_field_id(F.ARGUMENTS)
                if args is not None:
                    self.arguments(args, scope, f"{kind.value}:{callee}")
            else:
                self.values(call, scope)
            self.values(st.child_by_field_id(F.KEY), scope)
            b = st.child_by_field_id(F.BINDING)
            if b is not None:
                self.bind(b.child_by_field_id(F.NAME), scope, owner, st, st.type.split("_")[0])
            return

    # ------------------------------------------------------------------ expressions
    def arguments(self, args: Node, scope: str, callee: str) -> None:
        for arg in args.named_children:
            if arg.kind_id != _ARGUMENT:
                continue
            name = arg.child_by_field_id(F.NAME)
            if name is not None:
                self.ref(_R_ARGUMENT, name, scope, callee)
            self.values(arg.child_by_field_id(F.VALUE), scope)

    def values(self, node: Node | None, scope: str) -> None:
        """References inside an expression: names, calls, fields, types."""
        if node is None:
            return
        t = node.kind_id  # (as in `statement`)
        if t == _IDENTIFIER:
            self.ref(_R_VALUE, node, scope)
        elif t == _CALL_EXPRESSION:
            fn = node.child_by_field_id(F.FUNCTION)
            callee = self.ref(_R_CALL, fn, scope) or ""  # (the callee's text)
            args = node.child_by_field_id(F.ARGUMENTS)
            if args is not None:
                self.arguments(args, scope, f"call:{callee}")
        elif t == _FIELD_EXPRESSION:
            self.values(node.child_by_field_id(F.VALUE), scope)
            self.ref(_R_FIELD, node.child_by_field_id(F.FIELD), scope, "")
        elif t == _RELATIVE_FIELD:
            self.ref(_R_FIELD, node.child_by_field_id(F.FIELD), scope, ".")
        elif t == _PIPE_EXPRESSION:
            self.values(node.child_by_field_id(F.INPUT), scope)
            stage = node.child_by_field_id(F.STAGE)
            if stage is not None:
                if stage.type == "identifier":
                    self.ref(_R_CALL, stage, scope)
                elif stage.type == "combinator":
                    self.values(stage.child_by_field_id(F.ARGUMENT), scope)
                else:
                    self.values(stage, scope)
        elif t == _SCHEMA_OF:
            self.type_refs(node.child_by_field_id(F.TYPE))
        elif t in _LITERALS:
            return
        else:
            for child in node.named_children:
                self.values(child, scope)
