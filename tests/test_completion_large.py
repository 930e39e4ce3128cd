"""Completion on large documents: a bounded answer (the best matches, marked incomplete) and
values' inferred types left to `completionItem/resolve` for clients that resolve lazily."""

from __future__ import annotations

import gc
import sys
import time
from pathlib import Path

from lsprotocol import types as lsp

from awl_lsp.features.completion import MAX_ITEMS, completion_list, resolve_value
from awl_lsp.features.documents import OpenDocument

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from generate import STEP_LINE, document  # noqa: E402

SMALL = """\
workloop small
  every 5m
  input region: String

worker w
  action fetch(region: String) -> Item
  action count_of(item: Item) -> Int

type Item { id: String, n: Int }

step one
  fetch(region: region) -> item
  count_of(item: item) -> total
  total
"""


def _at(text: str, row: int, col: int, typed: str = "") -> tuple[OpenDocument, lsp.Position]:
    lines = text.split("\n")
    lines[row] = lines[row][:col] + typed + lines[row][col:]
    return OpenDocument("\n".join(lines), 1, None, None), lsp.Position(row, col + len(typed))


def _big() -> tuple[str, int, int, int]:
    text = document(3000)
    lines = text.split("\n")
    step = lines.index("step stage_60")
    return text, step, step + STEP_LINE, len("  answer board(seen: ")


def test_a_long_list_is_cut_to_the_nearest_names_and_marked_incomplete() -> None:
    text, _, row, col = _big()
    doc, at = _at(text, row, col)
    answer = completion_list(doc.snapshot, at)
    labels = [i.label for i in answer.items]
    assert answer.is_incomplete and len(labels) == MAX_ITEMS
    # the bindings of the cursor's own step are kept; those a hundred steps away are not
    assert {"item_60", "checked_60", "note_60", "weights_60"} <= set(labels)
    assert "item_1" not in labels
    # the items keep the offer order (sort texts ascend in the order sent)
    assert [i.sort_text for i in answer.items] == sorted(i.sort_text for i in answer.items)


def test_typing_narrows_a_cut_list_to_what_matches() -> None:
    text, _, row, col = _big()
    doc, at = _at(text, row, col, "checked_1")
    answer = completion_list(doc.snapshot, at)
    labels = [i.label for i in answer.items]
    assert labels and all(label.lower().startswith("checked_1") for label in labels[:5])
    assert {"checked_1", "checked_10", "checked_19"} <= set(labels)
    # every item sent matches the typed letters in order (a fuzzy filter would show it too)
    assert all(_letters_in_order("checked_1", label.lower()) for label in labels)


def _letters_in_order(typed: str, label: str) -> bool:
    rest = iter(label)
    return all(ch in rest for ch in typed)


def test_a_short_list_is_complete() -> None:
    lines = SMALL.split("\n")
    row = lines.index("  total")
    doc, at = _at(SMALL, row, 2)
    answer = completion_list(doc.snapshot, at)
    assert not answer.is_incomplete
    assert {"item", "total", "region"} <= {i.label for i in answer.items}


def test_a_lazily_resolved_value_gets_the_type_an_eager_answer_shows() -> None:
    lines = SMALL.split("\n")
    row = lines.index("  total")
    doc, at = _at(SMALL, row, 2)
    snap = doc.snapshot
    eager = {i.label: i for i in completion_list(snap, at).items}
    lazy = {i.label: i for i in completion_list(snap, at, lazy_detail=True).items}
    for name in ("item", "total"):
        assert ":" in (eager[name].detail or ""), eager[name].detail  # the inferred type is shown
        assert lazy[name].detail == f"binding {name}" and lazy[name].data
        assert resolve_value(snap, lazy[name]).detail == eager[name].detail
    # a declared type needs no inference: it is sent at once
    assert lazy["region"].detail == eager["region"].detail and lazy["region"].data is None


def test_resolving_a_value_that_is_gone_leaves_the_item_as_it_was() -> None:
    lines = SMALL.split("\n")
    row = lines.index("  total")
    doc, at = _at(SMALL, row, 2)
    item = next(i for i in completion_list(doc.snapshot, at, lazy_detail=True).items if i.label == "item")
    renamed = OpenDocument(SMALL.replace("-> item", "-> thing"), 2, None, None)
    assert resolve_value(renamed.snapshot, item).detail == "binding item"
    item.data = {"value": ["x", -1, None]}
    assert resolve_value(renamed.snapshot, item).detail == "binding item"


def test_completion_on_a_large_document_does_not_type_every_name() -> None:
    text, _, row, col = _big()
    doc, at = _at(text, row, col)
    snap = doc.snapshot
    completion_list(snap, at, lazy_detail=True)  # warm: the type table, the reference tables
    t0 = time.process_time()
    answer = completion_list(snap, at, lazy_detail=True)
    spent = time.process_time() - t0
    assert answer.items
    # generous (a loaded machine): typing every binding in scope took ~100 ms here
    assert spent < 0.05, f"{spent * 1000:.1f} ms CPU"


def test_a_completion_request_leaves_nothing_for_the_cycle_collector() -> None:
    """Thousands of offers per request: were they cycles, collections walking the whole model
    would land on some requests (a p95 of tens of ms at 5,000 lines); they are freed at once."""
    text, _, row, col = _big()
    doc, at = _at(text, row, col)
    snap = doc.snapshot
    completion_list(snap, at, lazy_detail=True)  # warm: the type table, the reference tables
    was = gc.isenabled()
    gc.collect()
    try:
        for lazy in (True, False):
            answer = completion_list(snap, at, lazy_detail=lazy)
            assert answer.is_incomplete and len(answer.items) == MAX_ITEMS
            assert gc.collect() == 0
    finally:
        if not was:
            gc.disable()
    assert gc.isenabled() == was  # the pause during the request is undone


def test_the_server_resolves_a_value_s_type_for_a_client_that_asks_lazily() -> None:
    from raw_lsp import RawServer

    lines = SMALL.split("\n")
    row = lines.index("  total")
    doc, at = _at(SMALL, row, 2)
    eager = {i.label: i for i in completion_list(doc.snapshot, at).items}
    server = RawServer()
    try:
        caps = {
            "textDocument": {
                "completion": {
                    "completionItem": {"resolveSupport": {"properties": ["detail", "documentation"]}}
                }
            }
        }
        server.request("initialize", {"processId": None, "capabilities": caps, "rootUri": None})
        server.notify("initialized", {})
        uri = "file:///small.awl"
        server.open(uri, SMALL)
        where = {"textDocument": {"uri": uri}, "position": {"line": at.line, "character": at.character}}
        answer = server.request("textDocument/completion", where)["result"]
        assert answer["isIncomplete"] is False
        item = next(i for i in answer["items"] if i["label"] == "item")
        assert item["detail"] == "binding item" and item["data"]["uri"] == uri
        resolved = server.request("completionItem/resolve", item)["result"]
        assert resolved["detail"] == eager["item"].detail
        assert not server.popups()
    finally:
        server.close()


def _many_records(n: int) -> str:
    records = "\n".join(f"type T{i} {{ id: String }}" for i in range(n))
    return f"""\
workloop many
  every 5m
  input region: String
  input T5: String

{records}

step one
  note = T1(id: region)
  copy =‸
"""


def test_when_records_fill_the_answer_the_values_in_scope_still_hide_a_record_of_their_name() -> None:
    text = _many_records(MAX_ITEMS + 50).replace("‸", " ")
    row = text.split("\n").index("  copy = ")
    doc = OpenDocument(text, 1, None, None)
    answer = completion_list(doc.snapshot, lsp.Position(row, 9))
    labels = [i.label for i in answer.items]
    assert answer.is_incomplete and len(labels) == MAX_ITEMS
    # the records in the order declared, all of them offered before any value (nearest or not)
    expected = [f"T{i}" for i in range(MAX_ITEMS + 1) if i != 5]
    assert labels == expected
    # `T5` is the input (a value in scope, ranked after the records), not the record of that name
    assert "T5" not in labels
    # the sort texts number the items in the order sent
    assert [i.sort_text for i in answer.items] == [f"{k:04d}" for k in range(MAX_ITEMS)]
    # in an answer with room for everything, the input is offered where the record was not
    whole = completion_list(doc.snapshot, lsp.Position(row, 9), limit=1000)
    assert not whole.is_incomplete
    t5 = [i for i in whole.items if i.label == "T5"]
    assert len(t5) == 1 and t5[0].kind == lsp.CompletionItemKind.Variable
