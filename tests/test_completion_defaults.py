"""A client that takes item defaults from the completion list (`completionList.itemDefaults`, as
VS Code and Neovim declare) gets the range every item replaces once, not in each item: applied
as the protocol says, the answer is the one a client without them gets, item for item."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

from lsprotocol import types as lsp
from pygls.protocol import default_converter

from awl_lsp.features.completion import completion_list
from awl_lsp.features.documents import OpenDocument

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from generate import STEP_LINE, TYPED_AT, document  # noqa: E402

_CONVERT = default_converter()
DEFAULTS = ["commitCharacters", "editRange", "insertTextFormat", "insertTextMode", "data"]


def _applied(answer: dict) -> dict:
    """What a client makes of a list with item defaults: each item with its own edit and format."""
    answer = copy.deepcopy(answer)
    shared = answer.pop("itemDefaults", None) or {}
    for item in answer["items"]:
        if "editRange" in shared:
            item["textEdit"] = {"range": shared["editRange"], "newText": item.pop("textEditText")}
        if "insertTextFormat" in shared:
            item.setdefault("insertTextFormat", shared["insertTextFormat"])
    return answer


def _positions(text: str) -> list[lsp.Position]:
    lines = text.split("\n")
    out = []
    for row, line in enumerate(lines):
        for col in sorted({0, len(line) - len(line.lstrip()), len(line) // 2, len(line)}):
            out.append(lsp.Position(row, col))
    return out


def test_item_defaults_change_nothing_the_user_gets() -> None:
    text = document(1200)
    lines = text.split("\n")
    step = lines.index("step stage_20")
    rows = range(step, step + STEP_LINE + 3)
    doc = OpenDocument(text, 1, None, None)
    asked = 0
    for at in (p for p in _positions(text) if p.line in rows or p.line < 12):
        for snippet_ok, lazy in ((True, True), (False, False)):
            plain = _CONVERT.unstructure(completion_list(doc.snapshot, at, snippet_ok, True, lazy))
            shared = completion_list(doc.snapshot, at, snippet_ok, True, lazy, defaults=DEFAULTS)
            sent = _CONVERT.unstructure(shared)
            if plain["items"]:
                asked += 1
                assert "itemDefaults" in sent and all("textEdit" not in i for i in sent["items"])
            assert _applied(sent) == plain, at
    assert asked > 50
    # the range alone, for a client that takes no other default: each item keeps its format
    at = lsp.Position(step + STEP_LINE, TYPED_AT)
    sent = _CONVERT.unstructure(completion_list(doc.snapshot, at, defaults=["editRange"]))
    assert "insertTextFormat" not in sent["itemDefaults"]
    assert all("insertTextFormat" in i and "textEditText" in i for i in sent["items"])
    assert _applied(sent) == _CONVERT.unstructure(completion_list(doc.snapshot, at))


def test_the_server_sends_the_shared_range_once_to_a_client_that_takes_it() -> None:
    from raw_lsp import RawServer

    text = "workloop small\n  every 5m\n  input region: String\n\nstep one\n  x = \n"
    server = RawServer()
    try:
        caps = {
            "textDocument": {
                "completion": {
                    "completionItem": {"snippetSupport": True},
                    "completionList": {"itemDefaults": DEFAULTS},
                }
            }
        }
        server.request("initialize", {"processId": None, "capabilities": caps, "rootUri": None})
        server.notify("initialized", {})
        uri = "file:///small.awl"
        server.open(uri, text)
        where = {"textDocument": {"uri": uri}, "position": {"line": 5, "character": 6}}
        answer = server.request("textDocument/completion", where)["result"]
        span = {"start": {"line": 5, "character": 6}, "end": {"line": 5, "character": 6}}
        assert answer["itemDefaults"]["editRange"] == span
        region = next(i for i in answer["items"] if i["label"] == "region")
        assert region["textEditText"] == "region" and "textEdit" not in region
        assert not server.popups()
    finally:
        server.close()
