"""Completion reuses what it derived for the last version of a document (a call's placeholders, the
values in scope) only while what that depends on is unchanged: after every edit below, the answer
equals the one a fresh open of the same text gives."""

from __future__ import annotations

from lsprotocol import types as lsp
from pygls.protocol import default_converter

from awl_lsp.features.completion import completion_list
from awl_lsp.features.documents import OpenDocument
from awl_lsp.syntax import TextEdit

DOC = """\
workloop small
  every 5m
  input region: String

worker w
  action fetch(region: String, box: Box) -> Item

type Item { id: String, n: Int }
type Box { thing: Item, note: String }

step one
  fetch(region: region, box: Box(thing: Item(id: "", n: 0), note: "")) -> item
  note = ‸
  ‸
"""

_CONVERT = default_converter()


def _cursors(text: str) -> tuple[str, list[lsp.Position]]:
    lines = text.split("\n")
    at = [lsp.Position(row, line.index("‸")) for row, line in enumerate(lines) if "‸" in line]
    return text.replace("‸", ""), at


def _answer(doc: OpenDocument, at: lsp.Position, lazy: bool = False) -> dict:
    return _CONVERT.unstructure(completion_list(doc.snapshot, at, lazy_detail=lazy))


def _texts(doc: OpenDocument, at: lsp.Position) -> dict[str, str]:
    items = completion_list(doc.snapshot, at).items
    return {i.label: i.text_edit.new_text for i in items if isinstance(i.text_edit, lsp.TextEdit)}


def _edit(doc: OpenDocument, old: str, new: str) -> None:
    """Replace the first `old` in the document's text with `new`, as one edit."""
    text = doc.snapshot.doc.source.decode()
    at = text.index(old)
    row = text.count("\n", 0, at)
    col = at - (text.rfind("\n", 0, at) + 1)
    end_row = row + old.count("\n")
    end_col = (col + len(old)) if "\n" not in old else len(old) - old.rfind("\n") - 1
    doc.edit([TextEdit(row, col, end_row, end_col, new)], (doc.version or 0) + 1)


def _same_as_fresh(doc: OpenDocument, cursors: list[lsp.Position]) -> None:
    fresh = OpenDocument(doc.snapshot.doc.source.decode(), 1, None, None)
    for at in cursors:
        for lazy in (False, True):
            assert _answer(doc, at, lazy) == _answer(fresh, at, lazy), (at, lazy)


def test_a_record_changed_after_a_completion_is_offered_with_its_new_fields() -> None:
    text, (value_at, _) = _cursors(DOC)
    doc = OpenDocument(text, 1, None, None)
    before = _texts(doc, value_at)
    assert before["Item"] == 'Item(id: ${1:""}, n: ${2:0})'
    assert before["Box"] == 'Box(thing: ${1:Item(id: "", n: 0)}, note: ${2:""})'
    _edit(doc, "n: Int }", "n: Int, ok: Bool }")
    after = _texts(doc, value_at)
    assert after["Item"] == 'Item(id: ${1:""}, n: ${2:0}, ok: ${3:false})'
    # the record that holds it too (its own declaration did not change)
    assert after["Box"] == 'Box(thing: ${1:Item(id: "", n: 0, ok: false)}, note: ${2:""})'
    _same_as_fresh(doc, [value_at])


def test_an_action_given_a_new_parameter_is_offered_with_it() -> None:
    text, (_, call_at) = _cursors(DOC)
    doc = OpenDocument(text, 1, None, None)
    assert _texts(doc, call_at)["fetch"].startswith("fetch(region: ${1:region}, box: ${2:Box(")
    _edit(doc, "box: Box) -> Item", "box: Box, n: Int) -> Item")
    assert _texts(doc, call_at)["fetch"].endswith(", n: ${3:0})")
    _same_as_fresh(doc, [call_at])


def test_a_value_that_comes_into_scope_fills_the_argument_of_its_name() -> None:
    text, (value_at, call_at) = _cursors(DOC)
    doc = OpenDocument(text, 1, None, None)
    assert _texts(doc, value_at)["Box"].startswith("Box(thing: ${1:Item(")
    _edit(doc, ") -> item", ") -> thing")
    assert _texts(doc, value_at)["Box"] == 'Box(thing: ${1:thing}, note: ${2:""})'
    _same_as_fresh(doc, [value_at, call_at])


def test_every_version_of_an_edited_document_completes_as_a_fresh_open_does() -> None:
    text, cursors = _cursors(DOC)
    doc = OpenDocument(text, 1, None, None)
    _same_as_fresh(doc, cursors)
    for old, new in [
        ("n: Int }", "n: Int, when: String }"),  # a field added
        ("type Box", "type Crate { a: Int }\ntype Box"),  # a type added above another
        ("thing: Item, ", "thing: Crate, "),  # a field's type changed to another record
        ("  input region: String\n", "  input region: String\n  input thing: Crate\n"),
        ("action fetch(", "action fetch(note: String, "),  # a parameter added first
        ("type Crate { a: Int }\n", ""),  # a type removed: its name no longer has a value
        (") -> item", ") -> thing"),  # a binding renamed: the argument of its name takes it
    ]:
        _edit(doc, old, new)
        cursors = [lsp.Position(at.line + new.count("\n") - old.count("\n"), at.character) for at in cursors]
        _same_as_fresh(doc, cursors)


PIECES = [
    "type Crate { a: Int, item: Item }\n",
    "type Item { id: String }\n",
    "  input item: Item\n",
    "  action pack(crate: Crate, note: String) -> Box\n",
    '  pack(crate: Crate(a: 1, item: Item(id: "", n: 0)), note: "") -> crate\n',
    '  fetch(region: region, box: Box(thing: Item(id: "", n: 0), note: "")) -> thing\n',
    "  note = thing\n",
    "step two\n  route one\n",
    "type Box { thing: Item, note: String, a: Int }\n",
    "x",
    "(",
    ": ",
]


def test_random_edits_complete_as_a_fresh_open_does() -> None:
    """Random insertions and deletions (types, parameters, bindings, stray characters), each
    followed by completions at random places: always the fresh open's answer (more edits with
    AWL_DIFF_EXAMPLES)."""
    import os
    import random

    examples = int(os.environ.get("AWL_DIFF_EXAMPLES", "12"))
    text, _ = _cursors(DOC)
    for seed in range(examples):
        rnd = random.Random(seed)
        doc = OpenDocument(text, 1, None, None)
        for _ in range(8):
            lines = doc.snapshot.doc.source.decode().split("\n")
            row = rnd.randrange(len(lines))
            col = rnd.randint(0, len(lines[row]))
            if rnd.random() < 0.3 and len(lines) > 3:
                end = min(row + 1, len(lines) - 1)
                doc.edit([TextEdit(row, 0, end, 0, "")], (doc.version or 0) + 1)
            else:
                piece = rnd.choice(PIECES)
                at = 0 if piece.endswith("\n") else col
                doc.edit([TextEdit(row, at, row, at, piece)], (doc.version or 0) + 1)
            lines = doc.snapshot.doc.source.decode().split("\n")
            cursors = []
            for _ in range(3):
                r = rnd.randrange(len(lines))
                cursors.append(lsp.Position(r, rnd.randint(0, len(lines[r]))))
            _same_as_fresh(doc, cursors)
