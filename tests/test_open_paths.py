"""The shortcuts the open path takes give what the plain reading gives.

Opening a document reads every field of every statement by id (`syntax.fields`), builds symbols
and references by setting their stored fields, files references by kind for the item rules and
computes bracket-depth facts with running sums. Each is checked here against the plain way of
asking over the example documents (and random text for the bracket facts).
"""

from __future__ import annotations

import random
import re

from helpers import example

from awl_lsp.model import ModelBuilder, RefKind, Symbol
from awl_lsp.model.symbols import Reference
from awl_lsp.syntax import SyntaxDocument
from awl_lsp.syntax import fields as F
from awl_lsp.syntax.bounds import _bracket_facts
from awl_lsp.syntax.parser import LANGUAGE

EXAMPLES = ("inbox_sweep.awl", "release_notes.awl", "broken_hatch.awl")


def _all_nodes(tree):  # noqa: ANN001, ANN202 — a tree-sitter tree and its nodes
    cursor = tree.walk()
    while True:
        yield cursor.node
        if cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return


def test_every_grammar_field_has_its_id() -> None:
    names = {LANGUAGE.field_name_for_id(i) for i in range(1, LANGUAGE.field_count + 1)} - {None}
    assert set(F.IDS) == names
    for name, fid in F.IDS.items():
        assert getattr(F, name.upper()) == fid == F.field_id(name)


def test_a_field_read_by_id_is_the_field_read_by_name() -> None:
    asked = 0
    for name in EXAMPLES:
        doc = SyntaxDocument(example(name))
        for node in _all_nodes(doc.tree):
            for field, fid in F.IDS.items():
                by_name, by_id = node.child_by_field_name(field), node.child_by_field_id(fid)
                assert (by_name is None) == (by_id is None), (name, node.type, field)
                if by_name is not None:
                    asked += 1
                    assert by_name.id == by_id.id
    assert asked > 100  # the examples have fields to read


def _plain_symbol(s: Symbol) -> Symbol:
    """The same symbol made by the dataclass constructor."""
    return Symbol(
        s.kind,
        s.name,
        s.range,
        s.selection,
        s.detail,
        s.doc,
        s.type,
        s.container,
        s.scope,
        s.children,
        s.extra,
    )


def test_extracted_symbols_and_references_equal_constructed_ones_and_move_with_their_item() -> None:
    for name in EXAMPLES:
        doc = SyntaxDocument(example(name))
        model = ModelBuilder().build(doc.tree, doc.source)
        for facts in model.items:
            before = [(s.range, s.selection) for s in facts.flat]
            refs_before = [r.range for r in facts.references]
            for s in facts.flat:
                assert s == _plain_symbol(s)  # every field there (a missing one raises)
            for r in facts.references:
                assert r == Reference(r.kind, r.name, r.range, r.scope, r.context, r.target)
            facts.shift(3)  # the item moved three lines down: every range follows
            assert [(s.range, s.selection) for s in facts.flat] == [
                ((a[0] + 3, a[1], a[2] + 3, a[3]), (b[0] + 3, b[1], b[2] + 3, b[3])) for a, b in before
            ]
            assert [r.range for r in facts.references] == [
                (a[0] + 3, a[1], a[2] + 3, a[3]) for a in refs_before
            ]
            facts.shift(-3)


def test_references_of_a_kind_are_the_item_references_of_that_kind_in_order() -> None:
    pairs = [(k,) for k in RefKind] + [(RefKind.VALUE, RefKind.COLLECT), (RefKind.STEP, RefKind.ROUTE)]
    seen = 0
    for name in EXAMPLES:
        doc = SyntaxDocument(example(name))
        model = ModelBuilder().build(doc.tree, doc.source)
        for facts in model.items:
            for kinds in pairs:
                got = facts.references_of(*kinds)
                plain = [r for r in facts.references if r.kind in kinds]
                assert len(got) == len(plain)
                assert all(a is b for a, b in zip(got, plain, strict=True))  # the same objects, in order
                seen += len(got)
    assert seen > 0


_BRACKET = re.compile(rb"[\[\](){}]")


def _plain_bracket_facts(source: bytes, start: int = 0, end: int | None = None) -> tuple[int, int, int, int]:
    """One step per bracket: depth, its low and high so far, the largest rise above a low."""
    total = low = high = rise = 0
    for m in _BRACKET.finditer(source, start, len(source) if end is None else end):
        if m.group() in b"([{":
            total += 1
            high, rise = max(high, total), max(rise, total - low)
        else:
            total -= 1
            low = min(low, total)
    return total, total - low, high, rise


def test_bracket_depth_facts_match_a_scan_bracket_by_bracket() -> None:
    rng = random.Random(9)
    for _ in range(3000):
        text = bytes(rng.choice(b"()[]{}x \n\xc3\xa9") for _ in range(rng.randint(0, 80)))
        start = rng.randint(0, len(text))
        end = rng.choice([None, rng.randint(start, len(text))])
        assert _bracket_facts(text, start, end) == _plain_bracket_facts(text, start, end)
    for name in EXAMPLES:
        source = example(name).encode()
        assert _bracket_facts(source) == _plain_bracket_facts(source)
