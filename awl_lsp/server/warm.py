"""What a server process makes once, so that no user's first request pays for it: after it has
answered `initialize`, a small step at a time, only while its input is quiet.

The server answers `initialize` with pygls and its own protocol loaded and nothing of the analysis
or the features. Then `WarmUp` runs the steps below on the event loop, one per turn of the loop and
only while the server is not `busy` (no message waiting or being read, no publish due, no first
check running in a worker): a message that arrives goes first — the step running finishes (the
longest, loading the checker's rules, ≈ 30 ms of CPU) and the next one waits until the input is
quiet again. A request that needs what is not made yet makes it itself, as every first request
did before there was a warm-up.

1. `ANALYSIS`, in the order a document's first diagnostics need it: the syntax, the model, the
   checker, an open document, its findings; then the workspace index. (The index is built, and a
   long document first checked, in a worker thread; each starts once these are loaded —
   `analysis_loaded`, `load` — so that modules are only ever imported on the loop's thread.)
2. `FEATURES`, the modules of the requests; and the keyword catalog (completion and hover offer its
   entries).
3. The protocol converter's code, one method a step. The converter makes its code for each class
   the first time it meets it, and every time it meets a new list type it registers a hook that
   drops all the code it made so far — which the next request of each kind then makes again
   (≈ 10 ms for the first completion at 5,000 lines). So the code for the messages of every method
   the server answers or sends is made first, and the completion request and answer's (whose
   union-typed parts are only found on a real value) last, twice.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import Any

from lsprotocol import types as lsp

from awl_lsp.server import memory

log = logging.getLogger("awl_lsp.server.warm")

# what a document's first diagnostics load, in the order they need it, then the workspace index's:
# everything the analysis imports, so a worker thread analysing documents imports nothing
ANALYSIS = (
    "awl_lsp.syntax",
    "awl_lsp.model",
    "awl_lsp.checks",
    "awl_lsp.features.documents",
    "awl_lsp.features.diagnostics",
    "awl_lsp.features.typing",
    "awl_lsp.workspace",
    "awl_lsp.features.workspace_diagnostics",
    "awl_lsp.reference",  # (the checker's messages that list words read it)
)
# what the requests load (`awl_lsp.server.language_server`'s handlers and the requests beside it)
FEATURES = (
    "awl_lsp.features.semantic_tokens",
    "awl_lsp.features.symbols",
    "awl_lsp.features.folding",
    "awl_lsp.features.inlay_hints",
    "awl_lsp.features.completion",
    "awl_lsp.features.completion_items",
    "awl_lsp.features.hover",
    "awl_lsp.features.definition",
    "awl_lsp.features.workspace_nav",
    "awl_lsp.features.signature_help",
    "awl_lsp.features.code_actions",
    "awl_lsp.features.selection",
    "awl_lsp.features.formatting",
    "awl_lsp.features.workspace_symbols",
    "awl_lsp.features.call_hierarchy_workspace",
    "awl_lsp.features.type_definition",
    "awl_lsp.features.document_links",
    "awl_lsp.features.graph_render",
    "awl_lsp.features.graph_layout",
)

# what the server sends besides the answers to the methods it registers
_SENT = (
    lsp.INITIALIZE,
    lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS,
    lsp.WINDOW_SHOW_MESSAGE,
    lsp.WINDOW_LOG_MESSAGE,
)

# classes answers are made of that the converter only meets on a real value (a union's member)
_UNION_PARTS = (lsp.SemanticTokensDelta, lsp.SemanticTokens, lsp.Hover, lsp.Location, lsp.DocumentSymbol)

PAUSE = 0.005  # seconds between two looks at a busy server
WAIT_FOR_ANALYSIS = 2.0  # the index waits at most this long for the warm-up to load the analysis

Step = Callable[[], object]


def load(modules: Iterable[str]) -> None:
    """Import these modules now (those already imported cost nothing)."""
    for name in modules:
        _import(name)


def _import(name: str) -> None:
    # (`__import__`, not `importlib.import_module`: only the import statement's path is what
    # `python -X importtime` logs, the way to see what a process loaded and when)
    __import__(name)


def steps(protocol: Any) -> Iterator[Step]:  # noqa: ANN401 — pygls's LanguageServerProtocol
    """Every step of the warm-up, in order (see the module's docstring)."""
    for name in ANALYSIS + FEATURES:
        yield partial(_import, name)
    yield _catalog
    converter = protocol._converter
    for method in [*protocol.fm.features, *_SENT]:
        yield partial(_method_code, converter, method)
    for answer_class in _UNION_PARTS:
        yield partial(converter.get_unstructure_hook, answer_class)
    yield partial(_completion_code, converter)


def warm_up(protocol: Any) -> None:  # noqa: ANN401 — pygls's LanguageServerProtocol
    """The whole warm-up at once (what the server spreads over quiet moments)."""
    for step in steps(protocol):
        step()


class WarmUp:
    """Runs `steps` on the running event loop, one per turn of the loop while `busy()` is false."""

    def __init__(self, todo: Iterable[Step], busy: Callable[[], bool]) -> None:
        self._todo = iter(todo)
        self._busy = busy
        self._loop: asyncio.AbstractEventLoop | None = None
        self.analysis = asyncio.Event()  # set once `ANALYSIS` is loaded
        self.done = False
        self.ran = 0  # steps run
        self.spent = 0.0  # seconds of this thread's CPU they took

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._loop.call_soon(self._turn)

    def _turn(self) -> None:
        loop = self._loop
        assert loop is not None
        if self._busy():  # (a message, a publish, a first check: they go first)
            loop.call_later(PAUSE, self._turn)
            return
        step = next(self._todo, None)
        if step is None:
            self.done = True
            self.analysis.set()
            log.info("warm-up: %d steps, %.0f ms of CPU", self.ran, self.spent * 1000)
            return
        began = time.thread_time()
        try:
            step()
        except Exception:  # noqa: BLE001 — the request that needs it makes it (and says what fails)
            log.exception("a warm-up step failed")
        self.spent += time.thread_time() - began
        self.ran += 1
        if self.ran == len(ANALYSIS):
            self.analysis.set()
        memory.settle()  # (what a step made lives until exit: collections skip it)
        loop.call_soon(self._turn)  # (the loop looks at its input before the next step)


async def analysis_loaded(warm: WarmUp | None) -> None:
    """Wait until `ANALYSIS` is loaded: by the warm-up when it runs (for at most
    `WAIT_FOR_ANALYSIS` seconds of a busy server), else here, on the loop."""
    if warm is not None and not warm.analysis.is_set():
        try:
            await asyncio.wait_for(warm.analysis.wait(), WAIT_FOR_ANALYSIS)
        except TimeoutError:
            pass
    load(ANALYSIS)


def _catalog() -> None:
    from awl_lsp.reference import entries

    entries()


def _method_code(converter: Any, method: str) -> None:  # noqa: ANN401 — a cattrs converter
    types = lsp.METHOD_TO_TYPES.get(method)
    if types is None:  # (our own methods: plain JSON)
        return
    request, response = types[0], types[1]
    converter.get_structure_hook(request)
    converter.get_unstructure_hook(response if response is not None else request)


def _completion_code(converter: Any) -> None:  # noqa: ANN401 — a cattrs converter
    where = {"textDocument": {"uri": "file:///warm-up.awl"}, "position": {"line": 0, "character": 0}}
    message = {"jsonrpc": "2.0", "id": 0, "method": lsp.TEXT_DOCUMENT_COMPLETION, "params": where}
    converter.structure(message, lsp.CompletionRequest)
    answer = _completion_list()
    for _ in range(2):  # (making some of the code registers hooks that drop what was made before)
        converter.unstructure(lsp.CompletionResponse(id=0, result=answer))


def _completion_list() -> lsp.CompletionList:
    """A completion answer with every part `features.completion` may fill in."""
    whole = lsp.Range(lsp.Position(0, 0), lsp.Position(0, 1))
    items = [
        lsp.CompletionItem(
            label="a",
            kind=lsp.CompletionItemKind.Function,
            detail="a",
            documentation=doc,
            sort_text="0000",
            text_edit=lsp.TextEdit(whole, "a"),
            text_edit_text="a",
            insert_text_format=lsp.InsertTextFormat.Snippet,
            data={"value": [0, 0, "a"]},
        )
        for doc in (lsp.MarkupContent(lsp.MarkupKind.Markdown, "a"), "a", None)
    ]
    defaults = lsp.CompletionItemDefaults(
        commit_characters=["."],
        edit_range=whole,
        insert_text_format=lsp.InsertTextFormat.Snippet,
        insert_text_mode=lsp.InsertTextMode.AsIs,
        data={},
    )
    return lsp.CompletionList(False, items, item_defaults=defaults)
