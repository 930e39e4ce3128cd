"""Nothing of a closed document survives, in-process: the server's documents, pygls's futures, caches.

The server is driven through its own `Dispatcher` (the JSON-RPC layer behind stdio), on a running
event loop, with the requests an editor sends for a new buffer. After `didClose` and a collection,
weak references to what the document held (its `OpenDocument`, snapshot, model, syntax document,
model builder and check cache) are dead, the tree is referenced by nobody, and open/close cycles
leave no objects behind. Per-document caches hold only the newest version's items, and documents
out of use keep only their text, tree and model facts until they are used again.
"""

from __future__ import annotations

import asyncio
import gc
import importlib
import io
import json
import sys
import urllib.parse
import weakref
from pathlib import Path
from typing import Any

from pygls.io_ import StdoutWriter

import awl_lsp.server.language_server
from awl_lsp.features.diagnostics import diagnostics
from awl_lsp.features.documents import OpenDocument
from awl_lsp.features.semantic_tokens import semantic_tokens_full
from awl_lsp.server import memory
from awl_lsp.server.dispatch import Dispatcher

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from generate import document  # noqa: E402

TEXT = document(120)
FEATURES = (
    "textDocument/semanticTokens/full",
    "textDocument/documentSymbol",
    "textDocument/foldingRange",
)


class Session:
    """A fresh server behind a `Dispatcher`, answering into a buffer."""

    def __init__(self) -> None:
        # a fresh module: a fresh server with every feature registered on it
        self.server: Any = importlib.reload(awl_lsp.server.language_server).server
        # closed documents are freed once the input is quiet (`RELEASE_AFTER`, half a second for an
        # editor): here 10 ms of quiet is enough
        awl_lsp.server.language_server.RELEASE_AFTER = 0.01
        self.out = io.BytesIO()
        self.server.protocol.set_writer(StdoutWriter(self.out))
        self.dispatcher = Dispatcher(self.server)
        self.serial = 0
        self.request("initialize", {"processId": None, "capabilities": {}, "rootUri": None})
        self.notify("initialized", {})

    def notify(self, method: str, params: Any) -> None:
        self.dispatcher.handle(json.dumps({"jsonrpc": "2.0", "method": method, "params": params}).encode())

    def request(self, method: str, params: Any) -> None:
        self.serial += 1
        body = {"jsonrpc": "2.0", "id": self.serial, "method": method, "params": params}
        self.dispatcher.handle(json.dumps(body).encode())

    def open(self, uri: str, text: str) -> None:
        item = {"uri": uri, "languageId": "awl", "version": 1, "text": text}
        self.notify("textDocument/didOpen", {"textDocument": item})
        for method in FEATURES:
            self.request(method, {"textDocument": {"uri": uri}})
        where = {"line": 5, "character": 4}
        self.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": where})
        self.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": where})
        whole = {"start": {"line": 0, "character": 0}, "end": {"line": 200, "character": 0}}
        self.request("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": whole})

    def type_into(self, uri: str, version: int, text: str) -> None:
        at = {"line": 1, "character": 0}
        change = {"range": {"start": at, "end": at}, "text": text}
        self.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]},
        )

    def close(self, uri: str) -> None:
        self.notify("textDocument/didClose", {"textDocument": {"uri": uri}})


def run(body: Any) -> Any:
    async def main() -> Any:
        result = body()
        await asyncio.sleep(0.05)  # the debounced publishes and the release after closing run
        return result

    return asyncio.run(main())


def held_by(doc: OpenDocument) -> list[weakref.ref]:
    snap = doc.snapshot
    return [
        weakref.ref(o) for o in (doc, snap, snap.model, doc.syntax, doc.builder, doc.checks, doc.syntax.lines)
    ]


def test_a_closed_document_leaves_nothing_alive() -> None:
    def body() -> tuple[Session, list[weakref.ref], list[Any]]:
        s = Session()
        refs: list[weakref.ref] = []
        trees: list[Any] = []
        for i in range(4):
            uri = f"file:///held/d{i}.awl"
            s.open(uri, TEXT.replace("big_loop", f"loop_{i}"))
            s.type_into(uri, 2, "// a note\n")
            s.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
            doc = s.server.documents[uri]
            refs += held_by(doc)
            trees.append(doc.syntax.tree)
            s.close(uri)
        return s, refs, trees

    s, refs, trees = run(body)
    gc.collect()
    alive = [r() for r in refs if r() is not None]
    assert alive == [], f"still alive after close: {[type(o).__name__ for o in alive]}"
    for tree in trees:  # only this test's list (and getrefcount's argument) refer to it
        assert sys.getrefcount(tree) == 3
    assert s.server.documents == {}
    assert s.server._due == {} and s.server._last_edit == {}
    # pygls files each handled notification's future under a fresh id; none may be left behind
    assert s.server.protocol._request_futures == {}


def test_a_closed_document_is_freed_when_the_input_is_quiet_not_before_the_next_message() -> None:
    """Freeing a long document's objects takes tens of milliseconds: a file opened right after
    another was closed is not made to wait for it; the input's next quiet moment frees it."""

    async def body() -> tuple[bool, bool, bool]:
        s = Session()
        s.open("file:///held/a.awl", TEXT)
        ref = weakref.ref(s.server.documents["file:///held/a.awl"])
        s.close("file:///held/a.awl")
        s.open("file:///held/b.awl", TEXT.replace("big_loop", "other_loop"))
        gc.collect()
        kept_for_now = ref() is not None
        await asyncio.sleep(0.05)  # quiet input: the memory work runs
        gc.collect()
        return kept_for_now, ref() is None, "file:///held/b.awl" in s.server.documents

    kept_for_now, freed, other_open = asyncio.run(body())
    assert kept_for_now and freed and other_open


def test_documents_opened_and_closed_with_no_quiet_between_are_not_all_held() -> None:
    """A script that opens and closes documents one after another never leaves the input quiet:
    once the closed documents waiting to be freed hold more than `CLOSED_LINES` lines together,
    they are freed at the close that passes it, not all kept until a quiet moment comes."""

    async def body() -> list[bool]:
        s = Session()
        lines = TEXT.count("\n") + 1
        awl_lsp.server.language_server.CLOSED_LINES = 3 * lines  # three documents wait, a fourth frees
        refs = []
        for i in range(4):
            uri = f"file:///churn/d{i}.awl"
            s.open(uri, TEXT.replace("big_loop", f"loop_{i}"))
            refs.append(weakref.ref(s.server.documents[uri]))
            s.close(uri)
        gc.collect()
        return [r() is None for r in refs]  # (before any quiet moment: no await yet)

    try:
        freed = asyncio.run(body())
    finally:
        awl_lsp.server.language_server.CLOSED_LINES = 20000
    assert freed == [True, True, True, True]


def test_open_close_cycles_leave_no_objects_behind() -> None:
    async def cycles() -> list[int]:
        s = Session()
        counts = []
        for cycle in range(5):
            uris = [f"file:///cycle/{cycle}/d{i}.awl" for i in range(8)]
            for n, uri in enumerate(uris):
                s.open(uri, TEXT.replace("big_loop", f"loop_{cycle}_{n}"))
                s.type_into(uri, 2, f"// note {cycle}\n")
            for uri in uris:
                s.close(uri)
            s.out.seek(0)
            s.out.truncate()
            await asyncio.sleep(0.05)  # pending timers run or expire
            urllib.parse.urlsplit.cache_clear()  # (the standard library's own, bounded, URI cache)
            gc.collect()
            counts.append(len(gc.get_objects()))
        return counts

    counts = asyncio.run(cycles())
    # the first cycles warm up (lazily built converters, caches of constant size); after that
    # 8 documents opened, edited and closed per cycle leave not one object behind per document
    growth = counts[-1] - counts[2]
    assert growth < 8, counts


def test_per_document_caches_keep_only_the_newest_version() -> None:
    def body() -> OpenDocument:
        s = Session()
        uri = "file:///edited.awl"
        s.open(uri, TEXT)
        for version in range(2, 40):  # every version a different text: nothing repeats
            s.type_into(uri, version, f"// note {version}\n")
            s.request("textDocument/semanticTokens/full", {"textDocument": {"uri": uri}})
            s.server.publish(uri)
        return s.server.documents[uri]

    doc = run(body)
    items = len(doc.snapshot.model.items)
    top_level = doc.syntax.tree.root_node.child_count
    for name, cache in doc.shared.items():
        if isinstance(cache, dict):
            assert len(cache) <= top_level, (name, len(cache), top_level)
    assert len(doc.builder._cache) <= items
    assert doc.analysed <= 40


def test_documents_out_of_use_are_compacted_and_answer_the_same() -> None:
    keep = memory.KEEP

    def body() -> None:
        # (as while the server serves: what outlives a message is frozen, never walked by a collection)
        was = gc.isenabled()
        gc.disable()
        try:
            compacted()
        finally:
            if was:
                gc.enable()

    def compacted() -> None:
        s = Session()
        uris = [f"file:///many/d{i}.awl" for i in range(keep + 3)]
        s.open(uris[0], TEXT)
        first = s.server.documents[uris[0]]
        before = (semantic_tokens_full(first.snapshot).data, diagnostics(first.snapshot))
        gatherings = first.checks._across  # (what the check results keep across items)
        dropped = [weakref.ref(first.checks), weakref.ref(first.snapshot), weakref.ref(gatherings)]
        del gatherings
        for i, uri in enumerate(uris[1:], 1):
            s.open(uri, TEXT.replace("big_loop", f"loop_{i}"))
        # the first documents were pushed out of the recent ones: only text, tree and facts remain
        assert not first.analysed_current
        assert set(first.shared) <= {"semantic-tokens-serial"}
        # its check results and analysed snapshot are freed at once, by reference counting: the server
        # runs no full collection while the input is busy, so a cycle among them would stay until then
        assert [r() for r in dropped] == [None, None, None]
        assert uris[0] not in s.server.recent and uris[-1] in s.server.recent
        kept = s.server.documents[uris[-1]]
        assert kept.analysed_current and "semantic-tokens" in kept.shared
        # used again, it answers exactly as before, and is among the recent ones again
        s.request("textDocument/semanticTokens/full", {"textDocument": {"uri": uris[0]}})
        after = (semantic_tokens_full(first.snapshot).data, diagnostics(first.snapshot))
        assert after == before
        assert uris[0] in s.server.recent

    run(body)
