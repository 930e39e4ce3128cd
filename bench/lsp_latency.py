"""Latency of the real server over stdio, typing where people type: inside steps of generated workloops.

    python bench/lsp_latency.py            # 300 / 500 / 5,000 / 20,000 lines
    AWL_BENCH_SIZES=300,5000 AWL_BENCH_RUNS=10 python bench/lsp_latency.py

For each size one server is started (`python -m awl_lsp lsp`) and driven like an editor would:

- edit → diagnostics: a character typed in a step, Enter at the end of a step line, deleting a
  line of a step, pasting a 10-line step — each timed from sending `didChange` to receiving the
  `publishDiagnostics` for that version (the server's diagnostics debounce included);
- a burst of 50 keys sent without waiting, then a hover: when the hover is answered, counted from
  the last key, and whether any diagnostics were published for the 49 stale versions;
- open → first diagnostics;
- hover / completion / definition right after a key (p50 / p95, not waiting for diagnostics);
- semantic tokens (full, full/delta, range of 60 lines) right after a key;
- and once: the server's resident memory idle, with 100 open 300-line documents, after closing
  them and after open/close cycles (`bench/memory.py`).

The client declares what VS Code declares for these requests (Markdown; snippet completions whose
`detail` and documentation it resolves lazily). Every row prints p50 / p90 (requests p50 / p95,
the quantile of their target), with the diagnostics debounce and the machine's load below the
table. A second table gives the server's own CPU time in-process for the same work (what a loaded
machine cannot inflate), the model of the new version apart from each request. Targets (issue 9)
are printed beside the numbers.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import PASTE, document, typing  # noqa: E402
from startup import process_cpu  # noqa: E402

SIZES = [int(s) for s in os.environ.get("AWL_BENCH_SIZES", "300,500,5000,20000").split(",") if s]
RUNS = int(os.environ.get("AWL_BENCH_RUNS", "20"))
TIMEOUT = 120.0
# the completion item defaults VS Code takes from a completion list (`completionList.itemDefaults`)
ITEM_DEFAULTS = ["commitCharacters", "editRange", "insertTextFormat", "insertTextMode", "data"]


def pct(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank) of `values`, in ms."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))] * 1000


@dataclass
class Result:
    lines: int
    numbers: dict[str, list[float]] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    cpu: dict[str, list[float]] = field(default_factory=dict)  # the server process's CPU per operation
    server_cpu: Callable[[], float] | None = None
    _mark: float | None = None

    def mark(self) -> None:
        """An operation starts: its server CPU is counted from here to its `add`."""
        self._mark = self.server_cpu() if self.server_cpu is not None else None

    def add(self, name: str, seconds: float) -> None:
        self.numbers.setdefault(name, []).append(seconds)
        if self._mark is not None and self.server_cpu is not None:
            self.cpu.setdefault(name, []).append(self.server_cpu() - self._mark)
            self._mark = None


class Bench:
    def __init__(self) -> None:
        self.client = LanguageClient("awl-bench", "0.1")
        self.published: dict[str, list[tuple[float, int | None]]] = {}
        self.arrived = asyncio.Condition()
        self.folder = Path(tempfile.mkdtemp())
        self.caps: lsp.ServerCapabilities | None = None
        self.serial = 0
        # when the last reply's JSON was read: pygls then types it into lsprotocol objects (cattrs),
        # which costs this Python client milliseconds for a long reply (≈ 7 ms for 200 completion
        # items) that an editor's client does not spend; both times are reported
        self.replied = 0.0
        protocol = self.client.protocol
        typed = protocol.structure_message

        def structure(data: dict) -> object:
            if "jsonrpc" in data and "id" in data and "method" not in data:
                self.replied = time.perf_counter()
            return typed(data)

        protocol.structure_message = structure  # type: ignore[method-assign]

        @self.client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        async def _diag(params: lsp.PublishDiagnosticsParams) -> None:
            self.published.setdefault(params.uri, []).append((time.perf_counter(), params.version))
            async with self.arrived:
                self.arrived.notify_all()

    async def start(self) -> None:
        await self.client.start_io(sys.executable, "-m", "awl_lsp", "lsp")
        # what VS Code declares for the requests measured here: Markdown hovers, snippet completions
        # whose documentation and detail it resolves lazily (`completionItem/resolve`), taking the
        # range they replace (and more) from the list (`itemDefaults`)
        markdown = [lsp.MarkupKind.Markdown, lsp.MarkupKind.PlainText]
        resolve = lsp.ClientCompletionItemResolveOptions(
            properties=["documentation", "detail", "additionalTextEdits"]
        )
        caps = lsp.ClientCapabilities(
            text_document=lsp.TextDocumentClientCapabilities(
                hover=lsp.HoverClientCapabilities(content_format=markdown),
                completion=lsp.CompletionClientCapabilities(
                    completion_item=lsp.ClientCompletionItemOptions(
                        snippet_support=True, documentation_format=markdown, resolve_support=resolve
                    ),
                    completion_list=lsp.CompletionListCapabilities(item_defaults=ITEM_DEFAULTS),
                ),
            )
        )
        result = await self.client.initialize_async(
            lsp.InitializeParams(capabilities=caps, root_uri=self.folder.as_uri())
        )
        self.caps = result.capabilities
        self.client.initialized(lsp.InitializedParams())

    async def stop(self) -> None:
        """Shut the server down (killed, and said so, if it does not within 30 s: a bench run must
        end with its tables)."""
        try:
            await asyncio.wait_for(self.client.shutdown_async(None), 30)
            self.client.exit(None)
            await asyncio.wait_for(self.client.stop(), 30)
        except TimeoutError:
            print("  (the server did not shut down within 30 s: killed)", flush=True)
            self.client._server.kill()  # type: ignore[union-attr]

    def server_cpu(self) -> float:
        """Seconds of CPU the server process has run, all its threads (`startup.process_cpu`)."""
        return process_cpu(self.client._server.pid)  # type: ignore[union-attr]

    def rss_mb(self) -> float:
        pid = self.client._server.pid  # type: ignore[union-attr]
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    async def diagnostics_for(self, uri: str, version: int | None) -> float:
        """When the publish for `version` of `uri` arrived (waiting for it)."""

        def found() -> float | None:
            for t, v in self.published.get(uri, []):
                if v == version:
                    return t
            return None

        async with self.arrived:
            await asyncio.wait_for(self.arrived.wait_for(lambda: found() is not None), TIMEOUT)
        got = found()
        assert got is not None
        return got

    def open(self, text: str) -> tuple[str, float]:
        self.serial += 1
        uri = (self.folder / f"doc_{self.serial}.awl").as_uri()
        t0 = time.perf_counter()
        item = lsp.TextDocumentItem(uri, "awl", 1, text)
        self.client.text_document_did_open(lsp.DidOpenTextDocumentParams(item))
        return uri, t0

    def change(self, uri: str, version: int, sl: int, sc: int, el: int, ec: int, text: str) -> float:
        t0 = time.perf_counter()
        self.client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(version=version, uri=uri),
                [
                    lsp.TextDocumentContentChangePartial(
                        range=lsp.Range(lsp.Position(sl, sc), lsp.Position(el, ec)), text=text
                    )
                ],
            )
        )
        return t0

    def close(self, uri: str) -> None:
        self.client.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(uri)))


class Doc:
    """One open document and where in it the benchmark types."""

    def __init__(self, bench: Bench, text: str) -> None:
        self.bench = bench
        self.lines = text.split("\n")
        where = typing(text)
        self.step_row, self.row, self.col = where.step, where.row, where.col  # `  answer board(seen: N)`
        self.uri, _ = bench.open(text)
        self.version = 1

    async def edit(self, sl: int, sc: int, el: int, ec: int, text: str) -> float:
        """Apply one change and return edit → diagnostics in seconds."""
        self.version += 1
        t0 = self.bench.change(self.uri, self.version, sl, sc, el, ec, text)
        return await self.bench.diagnostics_for(self.uri, self.version) - t0

    def key(self, text: str = "7") -> float:
        """A key typed at the answer line without waiting for anything; returns when it was sent."""
        self.version += 1
        t0 = self.bench.change(self.uri, self.version, self.row, self.col, self.row, self.col, text)
        return t0


async def measure(lines: int) -> Result:
    res = Result(lines)
    bench = Bench()
    await bench.start()
    text = document(lines)
    res.lines = text.count("\n") + 1
    if Path("/proc/self/schedstat").exists():
        res.server_cpu = bench.server_cpu
    client = bench.client

    # open → first diagnostics (the first open of the process included: an editor's first file);
    # half as many opens as edits, so the p50 of an operation this long is not the luck of a few
    for _ in range(max(5, RUNS // 2)):
        res.mark()
        uri, t0 = bench.open(text)
        res.add("open", await bench.diagnostics_for(uri, 1) - t0)
        bench.close(uri)

    # a hover sent 20 ms after the open, while the document is first analysed (its checks run in
    # a worker thread from `server.OFFLOAD_LINES` lines on)
    where = typing(text)
    first_line = text.split("\n")[where.step + 3]
    on_word = lsp.Position(where.step + 3, first_line.index("checked_") + 2)
    for _ in range(max(3, RUNS // 4)):
        uri, t0 = bench.open(text)
        await asyncio.sleep(0.02)
        t1 = time.perf_counter()
        await client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(uri), on_word))
        res.add("open hover", time.perf_counter() - t1)
        await bench.diagnostics_for(uri, 1)
        bench.close(uri)

    doc = Doc(bench, text)
    await bench.diagnostics_for(doc.uri, 1)
    row, col = doc.row, doc.col
    line = doc.lines[row]
    for _ in range(RUNS):
        res.mark()
        res.add("char", await doc.edit(row, col, row, col, "7"))
        res.mark()
        res.add("char", await doc.edit(row, col, row, col + 1, ""))
        res.mark()
        res.add("enter", await doc.edit(row, len(line), row, len(line), "\n  "))
        await doc.edit(row, len(line), row + 1, 2, "")
        res.mark()
        res.add("delete line", await doc.edit(row, 0, row + 1, 0, ""))
        await doc.edit(row, 0, row, 0, line + "\n")
        paste = "\n".join(PASTE).format(j=doc.version) + "\n"
        res.mark()
        res.add("paste step", await doc.edit(doc.step_row, 0, doc.step_row, 0, paste))
        await doc.edit(doc.step_row, 0, doc.step_row + len(PASTE), 0, "")

    # 50 keys without waiting, then a hover on a binding of the step
    hover_at = lsp.Position(doc.step_row + 3, 3)  # `checked_N` at the start of the pipe line
    stale = 0
    for _ in range(max(3, RUNS // 4)):
        first = doc.version + 1
        for k in range(50):
            last = doc.bench.change(doc.uri, doc.version + 1, row, col + k, row, col + k, "1")
            doc.version += 1
        answer = await client.text_document_hover_async(
            lsp.HoverParams(lsp.TextDocumentIdentifier(doc.uri), hover_at)
        )
        res.add("burst hover", time.perf_counter() - last)
        assert answer is not None, "no hover after the burst"
        await bench.diagnostics_for(doc.uri, doc.version)
        await asyncio.sleep(0.05)
        stale += sum(1 for _, v in bench.published[doc.uri] if v is not None and first <= v < doc.version)
        await doc.edit(row, col, row, col + 50, "")
    res.notes["stale publishes"] = str(stale)

    # requests right after a key (the snapshot they need is the newest one)
    word = doc.lines[doc.step_row + 3].index("checked_") + 2
    asks = {
        "hover": lambda: client.text_document_hover_async(
            lsp.HoverParams(lsp.TextDocumentIdentifier(doc.uri), lsp.Position(doc.step_row + 3, word))
        ),
        "completion": lambda: client.text_document_completion_async(
            lsp.CompletionParams(lsp.TextDocumentIdentifier(doc.uri), lsp.Position(row, col))
        ),
        "definition": lambda: client.text_document_definition_async(
            lsp.DefinitionParams(lsp.TextDocumentIdentifier(doc.uri), lsp.Position(doc.step_row + 3, word))
        ),
    }
    for name, ask in asks.items():
        for i in range(RUNS * 2):
            res.mark()
            doc.key("7" if i % 2 == 0 else "8")
            t0 = time.perf_counter()
            await ask()
            res.add(name, time.perf_counter() - t0)
            res.add(f"{name} read", bench.replied - t0)
        await doc.edit(row, col, row, col + RUNS * 2, "")

    # semantic tokens right after a key
    provider = bench.caps.semantic_tokens_provider if bench.caps else None
    full = getattr(provider, "full", None)
    has_delta = isinstance(full, lsp.SemanticTokensFullDelta) and bool(full.delta)
    has_range = bool(getattr(provider, "range", None))
    ident = lsp.TextDocumentIdentifier(doc.uri)
    previous = await client.text_document_semantic_tokens_full_async(lsp.SemanticTokensParams(ident))
    for i in range(RUNS):
        res.mark()
        doc.key("7" if i % 2 == 0 else "8")
        t0 = time.perf_counter()
        previous = await client.text_document_semantic_tokens_full_async(lsp.SemanticTokensParams(ident))
        res.add("tokens full", time.perf_counter() - t0)
        res.add("tokens full read", bench.replied - t0)
        if has_delta and previous is not None and previous.result_id:
            res.mark()
            doc.key("7")
            t0 = time.perf_counter()
            delta = await client.text_document_semantic_tokens_full_delta_async(
                lsp.SemanticTokensDeltaParams(ident, previous.result_id)
            )
            res.add("tokens delta", time.perf_counter() - t0)
            res.add("tokens delta read", bench.replied - t0)
            if isinstance(delta, lsp.SemanticTokens):
                previous = delta
        if has_range:
            res.mark()
            doc.key("7")
            t0 = time.perf_counter()
            await client.text_document_semantic_tokens_range_async(
                lsp.SemanticTokensRangeParams(
                    ident, lsp.Range(lsp.Position(max(0, row - 30), 0), lsp.Position(row + 30, 0))
                )
            )
            res.add("tokens range", time.perf_counter() - t0)
            res.add("tokens range read", bench.replied - t0)
    await bench.stop()
    return res


def cpu_costs(lines: int) -> dict[str, float]:
    """The server's own work per edit, in CPU time of this process (what a loaded machine cannot
    inflate): the same edits, applied to an `OpenDocument`, each followed by its diagnostics."""
    from awl_lsp.features import call_hierarchy_workspace as calls
    from awl_lsp.features.completion import completion_list
    from awl_lsp.features.definition import definition
    from awl_lsp.features.diagnostics import diagnostics
    from awl_lsp.features.documents import OpenDocument
    from awl_lsp.features.hover import hover
    from awl_lsp.features.semantic_tokens import (
        semantic_tokens_delta,
        semantic_tokens_full,
        semantic_tokens_range,
    )
    from awl_lsp.features.snapshot import Snapshot
    from awl_lsp.features.type_definition import type_definition
    from awl_lsp.syntax import TextEdit

    text = document(lines)
    where = typing(text)
    step, row, col = where.step, where.row, where.col
    t0 = time.process_time()
    doc = OpenDocument(text, 1, None, None)
    diagnostics(doc.snapshot)
    out = {"open": time.process_time() - t0}
    edits = where.edits
    for name, pair in edits.items():
        spent = []
        for i in range(RUNS * 2):
            t0 = time.process_time()
            doc.edit([TextEdit(*pair[i % 2])], (doc.version or 0) + 1)
            diagnostics(doc.snapshot)
            spent.append(time.process_time() - t0)
        out[name] = statistics.median(spent[::2])
    out.update(workspace_costs(text, edits))
    word = lsp.Position(step + 3, text.split("\n")[step + 3].index("checked_") + 2)
    sent: list[str] = [semantic_tokens_full(doc.snapshot).result_id or ""]

    def delta(snap: Snapshot) -> None:
        answer = semantic_tokens_delta(snap, sent[0])
        sent[0] = answer.result_id or ""

    rng = lsp.Range(lsp.Position(max(0, row - 30), 0), lsp.Position(row + 30, 0))
    at_step = lsp.Position(step, len("step ") + 1)

    def call_hierarchy(snap: Snapshot) -> None:
        for item in calls.prepare(snap, "file:///bench.awl", at_step, None) or []:
            calls.incoming_calls(snap, "file:///bench.awl", item, None)
            calls.outgoing_calls(snap, "file:///bench.awl", item, None)

    for name, ask in (
        ("model", lambda snap: None),
        ("hover", lambda snap: hover(snap, word, True)),
        (
            "completion",
            lambda snap: completion_list(
                snap, lsp.Position(row, col), True, True, lazy_detail=True, defaults=ITEM_DEFAULTS
            ),
        ),
        ("definition", lambda snap: definition(snap, word, "file:///bench.awl")),
        ("call hierarchy", call_hierarchy),
        ("type definition", lambda snap: type_definition(snap, word, "file:///bench.awl")),
        ("tokens full", lambda snap: semantic_tokens_full(snap)),
        ("tokens delta", delta),
        ("tokens range", lambda snap: semantic_tokens_range(snap, rng)),
    ):
        spent = []
        for i in range(RUNS * 2):
            doc.edit([TextEdit(*edits["char"][i % 2])], (doc.version or 0) + 1)
            t0 = time.process_time()
            snap = doc.snapshot  # the model of the new version (what a request right after a key builds)
            if name != "model":
                t0 = time.process_time()
            ask(snap)
            spent.append(time.process_time() - t0)
            del snap  # (as a request does when it answers: a snapshot still held is kept intact, at a cost)
        out[name] = statistics.median(spent)
    return out


def workspace_costs(text: str, edits: dict) -> dict[str, float]:
    """What each publish adds over stdio when the document lies in a workspace folder (the bench's
    does): the index takes the new version's summary, and the contract diagnostics are read."""
    from awl_lsp.features.diagnostics import diagnostics
    from awl_lsp.features.documents import OpenDocument
    from awl_lsp.server.session import WorkspaceSession
    from awl_lsp.syntax import Encoding, TextEdit

    folder = Path(tempfile.mkdtemp())
    path = folder / "doc.awl"
    session = WorkspaceSession()
    session.adopt(session.build([folder], lambda count, where: None), {})
    doc = OpenDocument(text, 1, path, folder)
    session.opened(path, doc.snapshot)
    out = {}
    for name in ("char", "enter"):
        spent = []
        for i in range(RUNS * 2):
            doc.edit([TextEdit(*edits[name][i % 2])], (doc.version or 0) + 1)
            snap = doc.snapshot
            diagnostics(snap)
            t0 = time.process_time()
            session.opened(path, snap)
            session.contract_diagnostics(path, snap, Encoding.UTF16)
            spent.append(time.process_time() - t0)
            del snap  # (a snapshot still held when the next key comes makes that model from copies)
        out[f"workspace {name}"] = statistics.median(spent)
    return out


def cpu_table(costs: dict[int, dict[str, float]]) -> str:
    sizes = sorted(costs)
    rows = [
        ["CPU ms in-process (p50)"] + [f"{n:,} lines" for n in sizes],
        ["---"] * (len(sizes) + 1),
    ]
    labels = {
        "char": "a character typed in a step → diagnostics",
        "enter": "Enter in a step → diagnostics",
        "delete": "deleting a line of a step → diagnostics",
        "paste": "pasting a 10-line step → diagnostics",
        "open": "open → first diagnostics",
        "workspace char": "+ the workspace index's update in that publish (a character typed)",
        "workspace enter": "+ the workspace index's update in that publish (Enter)",
        "model": "the model of the version after a key (what the first request after it builds)",
        "hover": "hover right after a key (the model apart)",
        "completion": "completion right after a key (the model apart; detail resolved lazily)",
        "definition": "definition right after a key (the model apart)",
        "call hierarchy": "call hierarchy (prepare, incoming, outgoing) right after a key (the model apart)",
        "type definition": "type definition right after a key (the model apart)",
        "tokens full": "semantic tokens full right after a key (the model apart)",
        "tokens delta": "semantic tokens full/delta right after a key (the model apart)",
        "tokens range": "semantic tokens range (60 lines) right after a key (the model apart)",
    }
    for key, label in labels.items():
        rows.append([label] + [f"{costs[n][key] * 1000:.1f}" for n in sizes])
    return "\n".join("| " + " | ".join(r) + " |" for r in rows)


async def memory() -> float:
    """The server's RSS with 100 open 300-line documents; prints the whole memory table of
    `bench/memory.py` first (idle, 100 open, all closed, after open/close cycles)."""
    from memory import phases

    result = await phases()
    print(result.table(), flush=True)
    return result.opened


ROWS = [
    ("a character typed in a step → diagnostics", "char", "p50 ≤ 15 ms, p90 ≤ 40 ms (300: p50 ≤ 8)"),
    ("Enter in a step → diagnostics", "enter", "same"),
    ("deleting a line of a step → diagnostics", "delete line", "same"),
    ("pasting a 10-line step → diagnostics", "paste step", "same"),
    ("50 keys, then hover: answered after last key", "burst hover", "≤ 250 ms"),
    ("open → first diagnostics", "open", "5k ≤ 300 ms"),
    ("hover sent 20 ms after the open: answered after", "open hover", "before the diagnostics"),
    ("hover right after a key", "hover", "p95 ≤ 10 ms"),
    ("completion right after a key", "completion", "p95 ≤ 10 ms"),
    ("definition right after a key", "definition", "p95 ≤ 10 ms"),
    ("semantic tokens full after a key", "tokens full", "≤ 10 ms"),
    ("semantic tokens full/delta after a key", "tokens delta", "≤ 10 ms"),
    ("semantic tokens range (60 lines) after a key", "tokens range", "≤ 10 ms"),
]
P95 = {"hover", "completion", "definition"}


def cell(values: list[float] | None, key: str) -> str:
    """p50 / p90 in ms (requests right after a key: p50 / p95, their target's quantile)."""
    if not values:
        return "n/a"
    high = 0.95 if key in P95 else 0.9
    return f"{pct(values, 0.5):.1f} / {pct(values, high):.1f}"


def table(results: list[Result], rss: float | None) -> str:
    from awl_lsp.server.language_server import DEBOUNCE

    debounce = os.environ.get("AWL_DIAGNOSTICS_DEBOUNCE_MS") or f"{DEBOUNCE * 1000:g}"
    head = ["ms over stdio, p50 / p90 (requests: p50 / p95)"] + [f"{r.lines:,} lines" for r in results]
    head.append("target")
    rows = [head, ["---"] * len(head)]
    for label, key, target in ROWS:
        rows.append([label] + [cell(r.numbers.get(key), key) for r in results] + [target])
    stale = [r.notes.get("stale publishes", "?") for r in results]
    rows.append(["diagnostics published for stale burst versions", *stale, "0"])
    lines = ["| " + " | ".join(r) + " |" for r in rows]
    small = next((r for r in results if r.lines <= 400 and r.numbers.get("char")), None)
    big = next((r for r in results if 4000 <= r.lines <= 6000 and r.numbers.get("char")), None)
    if small and big:
        ratio = pct(big.numbers["char"], 0.5) / max(pct(small.numbers["char"], 0.5), 1e-6)
        lines += ["", f"5k / 300 lines, a character typed (p50): ratio {ratio:.2f} (target ≤ 2)"]
    if rss is not None:
        lines.append("")
        lines.append(f"100 open 300-line documents: server RSS {rss:.0f} MB (target ≤ 150 MB)")
    load = os.getloadavg()[0]
    lines.append(
        f"diagnostics debounce: {debounce} ms (AWL_DIAGNOSTICS_DEBOUNCE_MS); runs per size: {RUNS}; "
        f"machine: {os.cpu_count()} cores, load average {load:.1f} when the table was printed"
    )
    return "\n".join(lines)


READ_ROWS = [
    ("hover right after a key", "hover read", "p95 ≤ 10 ms"),
    ("completion right after a key", "completion read", "p95 ≤ 10 ms"),
    ("definition right after a key", "definition read", "p95 ≤ 10 ms"),
    ("semantic tokens full after a key", "tokens full read", "≤ 10 ms"),
    ("semantic tokens full/delta after a key", "tokens delta read", "≤ 10 ms"),
    ("semantic tokens range (60 lines) after a key", "tokens range read", "≤ 10 ms"),
]


def read_table(results: list[Result]) -> str:
    """The requests again, timed to when the reply's JSON was read by the client: without the
    Python client library's typing of it into objects (what an editor's client does not spend)."""
    head = ["requests, ms to the reply read (before the Python client types it)"]
    head += [f"{r.lines:,} lines" for r in results] + ["target"]
    rows = [head, ["---"] * len(head)]
    for label, key, target in READ_ROWS:
        values = [cell(r.numbers.get(key), key.removesuffix(" read")) for r in results]
        rows.append([label, *values, target])
    return "\n".join("| " + " | ".join(r) + " |" for r in rows)


def server_cpu_table(results: list[Result]) -> str:
    """The server process's own CPU per operation over stdio (p50, all threads): against the
    in-process table below, what the protocol layer adds (reading, JSON, writing, collections)."""
    measured = [r for r in results if r.cpu]
    if not measured:
        return ""
    head = ["server CPU ms over stdio (p50, whole process)"] + [f"{r.lines:,} lines" for r in measured]
    rows = [head, ["---"] * len(head)]
    for label, key, _ in ROWS:
        if any(r.cpu.get(key) for r in measured):
            rows.append([label] + [f"{pct(r.cpu.get(key, []), 0.5):.1f}" for r in measured])
    note = "(from sending to the answer; requests include the key before them and its edit)"
    return "\n".join("| " + " | ".join(r) + " |" for r in rows) + "\n" + note


async def main_async() -> None:
    results = []
    for size in SIZES:
        t0 = time.perf_counter()
        results.append(await measure(size))
        print(f"  measured {results[-1].lines} lines in {time.perf_counter() - t0:.0f} s", flush=True)
    rss = None if os.environ.get("AWL_BENCH_NO_MEMORY") else await memory()
    print(table(results, rss))
    print()
    print(read_table(results))
    print()
    cpu = server_cpu_table(results)
    if cpu:
        print(cpu)
        print()
    print(cpu_table({size: cpu_costs(size) for size in SIZES}))


def main() -> None:
    asyncio.run(main_async())


if __name__ == "__main__":
    main()
