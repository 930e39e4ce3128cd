"""The real server over stdio: the first checks of a long document do not hold up requests.

Opening a long document builds its model at once, then checks it in a worker thread (on the
snapshot, which later edits leave as it is): a hover sent right after the open is answered before
the document's first diagnostics arrive, and an edit made while the checks run is published with
the diagnostics of its own text.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

from awl_lsp.features.diagnostics import diagnostics
from awl_lsp.features.documents import OpenDocument

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from generate import document, typing  # noqa: E402

LINES = 6000  # (above `server.OFFLOAD_LINES`)


class Session:
    def __init__(self) -> None:
        self.client = LanguageClient("awl-test", "0.1")
        self.events: list[tuple[str, int | None]] = []
        self.published: dict[int | None, list[lsp.Diagnostic]] = {}
        self.arrived = asyncio.Event()

        @self.client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def _diag(params: lsp.PublishDiagnosticsParams) -> None:
            self.events.append(("diagnostics", params.version))
            self.published[params.version] = list(params.diagnostics)
            self.arrived.set()

    async def start(self) -> Path:
        await self.client.start_io(sys.executable, "-m", "awl_lsp", "lsp")
        folder = Path(tempfile.mkdtemp())
        await self.client.initialize_async(
            lsp.InitializeParams(capabilities=lsp.ClientCapabilities(), root_uri=folder.as_uri())
        )
        self.client.initialized(lsp.InitializedParams())
        return folder

    async def diagnostics_of(self, version: int) -> list[lsp.Diagnostic]:
        while version not in self.published:
            self.arrived.clear()
            await asyncio.wait_for(self.arrived.wait(), 60)
        return self.published[version]

    async def stop(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()


def shown(items: list[lsp.Diagnostic]) -> list[tuple]:
    """The document's own diagnostics (the workspace's contract hints aside: the folder is empty)."""
    return sorted(
        (d.range.start.line, d.range.start.character, d.message)
        for d in items
        if not str(d.code).startswith("contract-")
    )


async def test_a_hover_right_after_opening_a_long_document_is_answered_before_its_checks_end() -> None:
    text = document(LINES)
    where = typing(text)
    line = text.split("\n")[where.step + 3]
    at = lsp.Position(where.step + 3, line.index("checked_") + 2)
    session = Session()
    folder = await session.start()
    try:
        uri = (folder / "long.awl").as_uri()
        session.client.text_document_did_open(
            lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "awl", 1, text))
        )
        answer = await session.client.text_document_hover_async(
            lsp.HoverParams(lsp.TextDocumentIdentifier(uri), at)
        )
        session.events.append(("hover", None))
        assert answer is not None and "checked_" in str(answer.contents)
        published = await session.diagnostics_of(1)
        assert session.events.index(("hover", None)) < session.events.index(("diagnostics", 1)), (
            session.events
        )
        expected = diagnostics(OpenDocument(text, 1, None, None).snapshot)
        assert shown(published) == shown(expected)
    finally:
        await session.stop()


async def test_an_edit_while_the_first_checks_run_is_published_for_its_own_text() -> None:
    text = document(LINES)
    where = typing(text)
    session = Session()
    folder = await session.start()
    try:
        uri = (folder / "edited.awl").as_uri()
        session.client.text_document_did_open(
            lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "awl", 1, text))
        )
        # a misspelt name in a step, and a line added at the top: the rest of the document moves
        row, col = where.row, where.col
        edits = [
            lsp.TextDocumentContentChangePartial(
                lsp.Range(lsp.Position(row, col), lsp.Position(row, col)), "zz"
            ),
            lsp.TextDocumentContentChangePartial(lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)), "\n"),
        ]
        session.client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(lsp.VersionedTextDocumentIdentifier(version=2, uri=uri), edits)
        )
        lines = text.split("\n")
        lines[row] = lines[row][:col] + "zz" + lines[row][col:]
        edited = "\n" + "\n".join(lines)
        published = await session.diagnostics_of(2)
        expected = diagnostics(OpenDocument(edited, 2, None, None).snapshot)
        assert shown(published) == shown(expected)
        assert any(d.range.start.line == row + 1 for d in published), "the misspelt name is reported"
    finally:
        await session.stop()


def _children(pid: int) -> list[tuple[int, str]]:
    """The processes whose parent is `pid`, with their state (`Z`: exited, not reaped)."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append((int(stat.parent.name), fields[0]))
    return out


async def test_long_documents_first_checked_on_two_processes_publish_what_one_process_finds() -> None:
    """A long document's first check forks a child that checks items from the bottom up
    (`awl_lsp.checks.parallel`), on the event loop's thread below `OFFLOAD_LINES` and in the worker
    above: what is published is what one process finds, problems in every step included, and no
    child is left behind."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    from shapes import SHAPES

    for lines in (2000, LINES):
        session = Session()  # (one per document: `Session.published` is by version)
        folder = await session.start()
        try:
            text = SHAPES["rebound"](lines)
            uri = (folder / "rebound.awl").as_uri()
            session.client.text_document_did_open(
                lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "awl", 1, text))
            )
            published = await session.diagnostics_of(1)
            expected = diagnostics(OpenDocument(text, 1, None, None).snapshot)
            assert len(expected) > 100
            assert shown(published) == shown(expected), lines
            if Path("/proc/self/stat").exists():
                server = session.client._server.pid  # type: ignore[union-attr]
                deadline = asyncio.get_running_loop().time() + 5
                while _children(server) and asyncio.get_running_loop().time() < deadline:
                    await asyncio.sleep(0.05)
                assert _children(server) == [], lines
        finally:
            await session.stop()
