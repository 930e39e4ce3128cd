"""Pull diagnostics over stdio: a client that pulls (`textDocument/diagnostic`, `workspace/diagnostic`)
against one that is pushed to.

A client that declares pulling and refresh support is offered `diagnosticProvider`, gets reports for
open and unopened documents, `unchanged` while nothing they read changed, a refresh request when a
contract partner changes (in the editor or on disk), and never a `publishDiagnostics`. A client that
declares pulling without refresh support (Neovim 0.10), or not at all, is pushed to as before.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path

import pytest
from helpers import accept_registrations, published
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient, client_capabilities, make_test_lsp_client

DATA = Path(__file__).parent / "data" / "workspace"


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(DATA, root)
    flow = root / "flows" / "archive_object.awl"
    flow.write_text(flow.read_text().replace("input size: Int", "input size: String"))  # a broken contract
    return root.resolve()


def pulling_capabilities() -> lsp.ClientCapabilities:
    """VS Code's capabilities plus pulling, as vscode-languageclient 9 declares it."""
    caps = client_capabilities("visual-studio-code")
    assert caps.text_document is not None and caps.workspace is not None
    caps.text_document.diagnostic = lsp.DiagnosticClientCapabilities(
        dynamic_registration=True, related_document_support=False
    )
    caps.workspace.diagnostics = lsp.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
    return caps


class Client:
    """A pytest-lsp client (which counts the refresh requests it is sent) and what it was offered."""

    def __init__(self, client: LanguageClient, result: lsp.InitializeResult) -> None:
        self.lsp = client
        self.capabilities = result.capabilities
        self.seen = 0  # refresh requests waited for so far

    @property
    def refreshes(self) -> int:
        return self.lsp.diagnostic_refresh_count

    async def refresh(self, timeout: float = 20) -> None:
        """Wait for the next refresh request (one not waited for yet)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.refreshes <= self.seen:
            assert loop.time() < deadline, "no workspace/diagnostic/refresh request came"
            await asyncio.sleep(0.02)
        self.seen = self.refreshes

    async def pull(self, uri: str, previous: str | None = None) -> lsp.DocumentDiagnosticReport:
        params = lsp.DocumentDiagnosticParams(
            lsp.TextDocumentIdentifier(uri), identifier="awl", previous_result_id=previous
        )
        return await self.lsp.text_document_diagnostic_async(params)

    async def pull_workspace(self, previous: dict[str, str] | None = None) -> dict[str, object]:
        ids = [lsp.PreviousResultId(uri=u, value=v) for u, v in (previous or {}).items()]
        params = lsp.WorkspaceDiagnosticParams(previous_result_ids=ids, identifier="awl")
        report = await self.lsp.workspace_diagnostic_async(params)
        return {item.uri: item for item in report.items}

    def open(self, path: Path, version: int = 1) -> str:
        uri = path.as_uri()
        item = lsp.TextDocumentItem(uri=uri, language_id="awl", version=version, text=path.read_text())
        self.lsp.text_document_did_open(lsp.DidOpenTextDocumentParams(item))
        return uri


async def start(folder: Path, caps: lsp.ClientCapabilities | None = None) -> Client:
    client = make_test_lsp_client()
    accept_registrations(client)
    await client.start_io(sys.executable, "-m", "awl_lsp", "lsp")
    params = lsp.InitializeParams(capabilities=caps or pulling_capabilities(), root_uri=folder.as_uri())
    result = await client.initialize_session(params)
    return Client(client, result)


async def stop(client: Client) -> None:
    await client.lsp.shutdown_session()
    await client.lsp.stop()


def codes(report: object) -> list[str]:
    return [str(d.code) for d in getattr(report, "items", [])]


def ids(reports: dict[str, object]) -> dict[str, str]:
    return {uri: r.result_id for uri, r in reports.items() if r.result_id}  # type: ignore[attr-defined]


async def test_a_pulling_client_is_offered_pull_and_gets_reports_for_open_and_unopened_documents(
    folder: Path,
) -> None:
    client = await start(folder)
    try:
        provider = client.capabilities.diagnostic_provider
        assert isinstance(provider, lsp.DiagnosticOptions)
        assert provider.inter_file_dependencies and provider.workspace_diagnostics and provider.identifier
        watch = (folder / "bucket_watch.awl").as_uri()
        flow = (folder / "flows" / "archive_object.awl").as_uri()
        checksum = (folder / "flows" / "checksum.awl").as_uri()
        # the workspace, nobody has opened anything: the broken contract is in the unopened watcher
        first = await client.pull_workspace()
        assert set(first) == {watch, flow, checksum}
        assert all(r.kind == "full" for r in first.values())
        assert codes(first[watch]) == ["contract-input-type"]
        assert "takes `input size: String`" in first[watch].items[0].message  # type: ignore[attr-defined]
        assert codes(first[checksum]) == []
        # nothing changed: every document is `unchanged`, under the same result ids
        again = await client.pull_workspace(ids(first))
        assert {u: r.kind for u, r in again.items()} == {u: "unchanged" for u in first}
        assert ids(again) == ids(first)
        # opened: pulled at its editor version, with the same problem once
        uri = client.open(folder / "bucket_watch.awl", version=3)
        report = await client.pull(uri)
        assert report.kind == "full" and report.result_id
        assert [c for c in codes(report) if c.startswith("contract")] == ["contract-input-type"]
        same = await client.pull(uri, report.result_id)
        assert same.kind == "unchanged" and same.result_id == report.result_id
        # the workspace report now gives the open document with its version
        now = await client.pull_workspace(ids(first))
        assert now[watch].version == 3  # type: ignore[attr-defined]
        assert now[checksum].kind == "unchanged"
        # a keystroke in the open document: a new report, not `unchanged`
        client.lsp.text_document_did_change(
            lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(uri=uri, version=4),
                [
                    lsp.TextDocumentContentChangePartial(
                        range=lsp.Range(lsp.Position(14, 0), lsp.Position(14, 0)), text="\n"
                    )
                ],
            )
        )
        edited = await client.pull(uri, report.result_id)
        assert edited.kind == "full" and edited.result_id != report.result_id
        await asyncio.sleep(0.3)  # (a debounced publish would have arrived by now)
        assert client.lsp.diagnostics == {}, "a pulling client was pushed diagnostics too"
    finally:
        await stop(client)


async def test_a_partner_edited_in_the_editor_asks_for_a_refresh_and_changes_the_other_report(
    folder: Path,
) -> None:
    client = await start(folder)
    try:
        await client.refresh()  # the workspace index arrived: open documents may see more now
        watch = client.open(folder / "bucket_watch.awl")
        before = await client.pull(watch)
        assert "contract-input-type" in codes(before)
        path = folder / "flows" / "archive_object.awl"
        flow = client.open(path)
        await client.pull(flow)
        fixed = path.read_text().replace("input size: String", "input size: Int")
        client.lsp.text_document_did_change(
            lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(uri=flow, version=2),
                [lsp.TextDocumentContentChangeWholeDocument(text=fixed)],
            )
        )
        await client.pull(flow)  # what the client does after a change
        await client.refresh()  # bucket_watch.awl reads archive_object's inputs: pull it again
        after = await client.pull(watch, before.result_id)
        assert after.kind == "full" and not [c for c in codes(after) if c.startswith("contract")]
        assert client.lsp.diagnostics == {}
    finally:
        await stop(client)


async def test_changes_on_disk_refresh_the_workspace_report_and_a_deleted_document_is_cleared_once(
    folder: Path,
) -> None:
    client = await start(folder)
    try:
        watch = (folder / "bucket_watch.awl").as_uri()
        checksum = (folder / "flows" / "checksum.awl").as_uri()
        first = await client.pull_workspace()
        assert codes(first[watch]) == ["contract-input-type"]
        flow = folder / "flows" / "archive_object.awl"
        flow.write_text(flow.read_text().replace("input size: String", "input size: Int"))
        client.seen = client.refreshes
        client.lsp.workspace_did_change_watched_files(
            lsp.DidChangeWatchedFilesParams(
                [lsp.FileEvent(uri=flow.as_uri(), type=lsp.FileChangeType.Changed)]
            )
        )
        await client.refresh()
        second = await client.pull_workspace(ids(first))
        assert second[watch].kind == "full" and codes(second[watch]) == []  # its partner changed
        assert second[checksum].kind == "unchanged"  # nothing it reads changed
        (folder / "bucket_watch.awl").unlink()
        client.lsp.workspace_did_change_watched_files(
            lsp.DidChangeWatchedFilesParams([lsp.FileEvent(uri=watch, type=lsp.FileChangeType.Deleted)])
        )
        await client.refresh()
        third = await client.pull_workspace(ids(second))
        assert third[watch].kind == "full" and codes(third[watch]) == []  # gone: cleared
        fourth = await client.pull_workspace(ids(third))
        assert watch not in fourth  # and not mentioned again
        assert client.lsp.diagnostics == {}
    finally:
        await stop(client)


async def test_a_schema_changed_on_disk_asks_for_a_refresh_and_the_open_document_is_checked_again(
    folder: Path,
) -> None:
    schema = folder / "shapes.json"
    schema.write_text('{"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}')
    doc = folder / "uses_schema.awl"
    doc.write_text(
        "//! Reads a schema file.\nworkflow uses_schema\n  input item: Shape\n"
        '  outcome done: type String, route success\n\ntype Shape = schema("shapes.json")\n\n'
        "step only\n  route done(item.id)\n"
    )
    client = await start(folder)
    try:
        uri = client.open(doc)
        before = await client.pull(uri)
        assert not [d for d in before.items if d.severity == lsp.DiagnosticSeverity.Error]
        schema.write_text(
            '{"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}'
        )
        client.seen = client.refreshes
        client.lsp.workspace_did_change_watched_files(
            lsp.DidChangeWatchedFilesParams(
                [lsp.FileEvent(uri=schema.as_uri(), type=lsp.FileChangeType.Changed)]
            )
        )
        await client.refresh()
        after = await client.pull(uri, before.result_id)  # the same version, but what it reads changed
        assert after.kind == "full" and any("id" in d.message for d in after.items), after
        assert client.lsp.diagnostics == {}
    finally:
        await stop(client)


async def test_a_closed_document_is_pulled_from_disk(folder: Path) -> None:
    client = await start(folder)
    try:
        path = folder / "bucket_watch.awl"
        uri = client.open(path)
        broken = path.read_text().replace("  every 15m\n", "  every 15m\n  every\n")
        client.lsp.text_document_did_change(
            lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
                [lsp.TextDocumentContentChangeWholeDocument(text=broken)],
            )
        )
        edited = await client.pull(uri)
        client.lsp.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(uri)))
        closed = await client.pull(uri, edited.result_id)  # vscode-languageclient pulls once on close
        assert closed.kind == "full" and codes(closed) == ["contract-input-type"]  # the file's problems
        assert client.lsp.diagnostics == {}
    finally:
        await stop(client)


async def test_the_workspace_report_is_bounded_and_the_rest_follows_a_refresh(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(12):
        (folder / f"extra_{n}.awl").write_text(
            (folder / "bucket_watch.awl").read_text().replace("bucket_watch", f"w{n}")
        )
    monkeypatch.setenv("AWL_PULL_BUDGET_MS", "0")  # one document analysed per pull
    client = await start(folder)
    try:
        await client.refresh()  # the index arrived
        first = await client.pull_workspace()
        analysed = [u for u, r in first.items() if r.kind == "full"]
        assert 1 <= len(analysed) < 15
        await client.refresh()  # more to come: the client is asked to pull again
        seen = dict(ids(first))
        for _ in range(30):
            more = await client.pull_workspace(seen)
            seen.update(ids(more))
            if len(seen) == 15:
                break
        assert len(seen) == 15  # every document reported in the end
        assert codes(more[next(iter(more))]) in ([], ["contract-input-type"])
    finally:
        await stop(client)


async def test_a_running_workspace_pull_can_be_cancelled(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(400):
        text = (folder / "bucket_watch.awl").read_text().replace("bucket_watch", f"w{n}")
        (folder / f"extra_{n}.awl").write_text(text)
    monkeypatch.setenv("AWL_PULL_BUDGET_MS", "600000")  # (no budget: the second pull reports every document)
    client = await start(folder)
    try:
        # sent at once: it waits for the index of 403 documents, then analyses each (seconds in all)
        params = lsp.WorkspaceDiagnosticParams(previous_result_ids=[], identifier="awl")
        sent = client.lsp.protocol.send_request_async(lsp.WORKSPACE_DIAGNOSTIC, params, msg_id="pull-1")
        future = asyncio.ensure_future(sent)
        await asyncio.sleep(0.1)
        client.lsp.protocol.notify(lsp.CANCEL_REQUEST, lsp.CancelParams(id="pull-1"))
        with pytest.raises(JsonRpcException) as caught:
            await asyncio.wait_for(future, 60)
        assert caught.value.code == -32800
        # the server carries on: a new pull answers, with every document
        report = await client.pull_workspace()
        assert len(report) == 403
    finally:
        await stop(client)


@pytest.mark.parametrize("editor", ["neovim", "visual-studio-code"])
async def test_a_client_that_cannot_be_asked_to_refresh_is_pushed_to_as_before(
    folder: Path, editor: str
) -> None:
    caps = client_capabilities(editor)  # Neovim declares pulling without refresh; VS Code 1.65 neither
    client = await start(folder, caps)
    try:
        assert client.capabilities.diagnostic_provider is None
        watch = (folder / "bucket_watch.awl").as_uri()
        params = await published(client.lsp, watch)
        assert [d.code for d in params.diagnostics] == ["contract-input-type"]
        uri = client.open(folder / "bucket_watch.awl")
        params = await published(client.lsp, uri)
        assert [d.code for d in params.diagnostics if str(d.code).startswith("contract")] == [
            "contract-input-type"
        ]
        assert client.refreshes == 0
    finally:
        await stop(client)
