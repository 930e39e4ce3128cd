"""The semantic model: declarations, resolution, scopes and reuse across edits."""

from __future__ import annotations

from helpers import example

from awl_lsp.model import Kind, ModelBuilder, RefKind
from awl_lsp.syntax import SyntaxDocument, TextEdit


def build(text: str):
    doc = SyntaxDocument(text)
    return doc, ModelBuilder().build(doc.tree, doc.source)


def test_declarations_of_a_workloop() -> None:
    _, model = build(example("inbox_sweep.awl"))
    assert model.is_workloop and model.flow is not None and model.flow.name == "inbox_sweep"
    assert [c.kind for c in model.flow.children] == [
        Kind.INPUT,
        Kind.SIGNAL,
        Kind.CARRY,
        Kind.REPORT,
        Kind.INVARIANT,
    ]
    assert model.first(Kind.CARRY, "last_seen").type == "String"
    action = model.first(Kind.ACTION, "list_new")
    assert action.container == "mailroom" and action.type == "Batch"
    assert action.doc == "Messages newer than `after`, oldest first."
    assert [p.name for p in model.parameters_of(action)] == ["inbox", "after"]
    assert model.first(Kind.TYPE, "Nudge").doc == "Why somebody poked the loop early."
    assert {b.name for b in model.of_kind(Kind.BINDING)} >= {"batch", "fetched", "message"}


def test_every_reference_in_the_examples_resolves() -> None:
    for name in ("inbox_sweep.awl", "release_notes.awl"):
        _, model = build(example(name))
        unresolved = [
            (r.kind.value, r.name)
            for r in model.references
            if r.target is None and r.kind is not RefKind.FIELD and r.name not in ("String", "Int", "Bool")
        ]
        assert unresolved == [], (name, unresolved)


def test_scopes_fork_item_is_local_and_route_targets_resolve() -> None:
    text = example("inbox_sweep.awl")
    _, model = build(text)
    message = model.first(Kind.BINDING, "message")
    assert "fork@" in message.scope
    route = next(r for r in model.references if r.kind is RefKind.ROUTE and r.name == "hand_off")
    assert route.target is model.first(Kind.STEP, "hand_off")
    start_arg = next(r for r in model.references if r.kind is RefKind.ARGUMENT and r.name == "last_seen")
    assert start_arg.target is model.first(Kind.CARRY, "last_seen")


def test_visible_values_are_the_first_declaration_of_each_name_in_scope_in_document_order() -> None:
    """What completion offers in an expression: flow values and the bindings of the scope chain;
    read from indexes, it must give what a scan of every declaration gives."""
    from awl_lsp.model.resolve import scope_chain

    for name in ("inbox_sweep.awl", "release_notes.awl", "broken_hatch.awl"):
        _, model = build(example(name))
        for scope in {s.scope for s in model.all_symbols} | {""}:
            chain = scope_chain(scope)
            expected: dict[str, object] = {}
            for s in model.all_symbols:
                flow_value = s.kind in (Kind.INPUT, Kind.CARRY, Kind.CONST)
                if flow_value or (s.kind in (Kind.BINDING, Kind.PARAMETER) and s.scope in chain):
                    expected.setdefault(s.name, s)
            assert model.visible_values(0, scope) == list(expected.values()), (name, scope)
    _, model = build(example("inbox_sweep.awl"))
    message = model.first(Kind.BINDING, "message")
    assert message in model.visible_values(0, message.scope)
    assert message not in model.visible_values(0, "")  # a fork's binding is not seen outside it
    callables = model.of_kind(Kind.ACTION, Kind.CHILD, Kind.SUBFLOW)
    assert callables == [s for s in model.all_symbols if s.kind in (Kind.ACTION, Kind.CHILD, Kind.SUBFLOW)]


def test_an_edit_re_reads_only_the_item_it_touched() -> None:
    text = example("release_notes.awl")
    doc = SyntaxDocument(text)
    builder = ModelBuilder()
    builder.build(doc.tree, doc.source)
    line = text.splitlines().index("step refine")
    doc.apply([TextEdit(line + 4, 11, line + 4, 11, "x")])  # inside `max max_rounds`
    model = builder.build(doc.tree, doc.source)
    assert builder.last_extracted == 1
    assert builder.last_reused >= 10
    # inserting a line above shifts later items without re-reading them
    doc.apply([TextEdit(line, 0, line, 0, "\n")])
    model = builder.build(doc.tree, doc.source)
    assert builder.last_extracted <= 2
    step = model.first(Kind.STEP, "review")
    assert doc.text.splitlines()[step.selection[0]].startswith("step review")
