"""The workspace over stdio: a folder of documents that start each other, as an editor sees it.

Unopened documents are indexed at start and their problems published; definition, references,
rename and symbols cross documents; a contract is re-checked when either side changes, on disk or
in the editor; `schema("…json")` leads to its file, and a changed schema re-checks open documents.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path

import pytest
from helpers import accept_registrations, published
from lsprotocol import types as lsp
from pytest_lsp import client_capabilities, make_test_lsp_client

DATA = Path(__file__).parent / "data" / "workspace"


def pos(text: str, needle: str, offset: int = 0) -> lsp.Position:
    i = text.index(needle) + offset
    return lsp.Position(text.count("\n", 0, i), i - (text.rfind("\n", 0, i) + 1))


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(DATA, root)
    flow = root / "flows" / "archive_object.awl"
    flow.write_text(flow.read_text().replace("input size: Int", "input size: String"))  # a broken contract
    return root.resolve()


async def start(folder: Path):  # noqa: ANN201 — a pytest-lsp client
    client = make_test_lsp_client()
    accept_registrations(client)
    await client.start_io(sys.executable, "-m", "awl_lsp", "lsp")
    caps = client_capabilities("visual-studio-code")
    await client.initialize_session(lsp.InitializeParams(capabilities=caps, root_uri=folder.as_uri()))
    return client


def open_doc(client, path: Path, version: int = 1) -> str:  # noqa: ANN001
    uri = path.as_uri()
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(uri=uri, language_id="awl", version=version, text=path.read_text())
        )
    )
    return uri


async def test_an_unopened_document_with_a_broken_contract_shows_its_problem(folder: Path) -> None:
    client = await start(folder)
    try:
        watch = (folder / "bucket_watch.awl").as_uri()
        params = await published(client, watch)
        assert [d.code for d in params.diagnostics] == ["contract-input-type"]
        d = params.diagnostics[0]
        assert "takes `input size: String`" in d.message
        assert d.related_information and d.related_information[0].location.uri.endswith("archive_object.awl")
        # opening it reports the same problem once, for the open document (no duplicate)
        uri = open_doc(client, folder / "bucket_watch.awl")
        params = await published(client, uri)
        codes = [d.code for d in params.diagnostics if d.code.startswith("contract")]
        assert codes == ["contract-input-type"]
    finally:
        await client.shutdown_session()
        await client.stop()


async def test_fixing_the_workflow_in_the_editor_clears_the_other_document(folder: Path) -> None:
    client = await start(folder)
    try:
        watch = (folder / "bucket_watch.awl").as_uri()
        await published(client, watch)
        flow = folder / "flows" / "archive_object.awl"
        uri = open_doc(client, flow)
        await published(client, uri)
        fixed = flow.read_text().replace("input size: String", "input size: Int")
        client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
                [lsp.TextDocumentContentChangeWholeDocument(text=fixed)],
            )
        )
        params = await published(client, watch)  # re-checked although it is not open
        assert list(params.diagnostics) == []
    finally:
        await client.shutdown_session()
        await client.stop()


async def test_a_change_on_disk_is_seen_through_watched_files(folder: Path) -> None:
    client = await start(folder)
    try:
        watch = (folder / "bucket_watch.awl").as_uri()
        await published(client, watch)
        flow = folder / "flows" / "archive_object.awl"
        flow.write_text(flow.read_text().replace("input size: String", "input size: Int"))
        client.workspace_did_change_watched_files(
            lsp.DidChangeWatchedFilesParams(
                [lsp.FileEvent(uri=flow.as_uri(), type=lsp.FileChangeType.Changed)]
            )
        )
        params = await published(client, watch)
        assert list(params.diagnostics) == []
    finally:
        await client.shutdown_session()
        await client.stop()


async def test_navigation_crosses_documents(folder: Path) -> None:
    client = await start(folder)
    try:
        path = folder / "bucket_watch.awl"
        text = path.read_text()
        uri = open_doc(client, path)
        await published(client, uri)
        flow_uri = (folder / "flows" / "archive_object.awl").as_uri()
        # F12 on the detached declaration: the workflow it names
        found = await client.text_document_definition_async(
            lsp.DefinitionParams(lsp.TextDocumentIdentifier(uri), pos(text, "detached archive_object", 12))
        )
        locations = found if isinstance(found, list) else [found]
        assert [(loc.uri, loc.range.start.line) for loc in locations] == [(flow_uri, 1)]
        # F12 on the hatch: its declaration here and the workflow there
        found = await client.text_document_definition_async(
            lsp.DefinitionParams(lsp.TextDocumentIdentifier(uri), pos(text, "hatch archive_object", 8))
        )
        assert {loc.uri for loc in found} == {uri, flow_uri}
        # references of the workflow, asked in its own document, include the hatch over here
        flow_text = (folder / "flows" / "archive_object.awl").read_text()
        open_doc(client, folder / "flows" / "archive_object.awl")
        await published(client, flow_uri)
        refs = await client.text_document_references_async(
            lsp.ReferenceParams(
                text_document=lsp.TextDocumentIdentifier(flow_uri),
                position=pos(flow_text, "workflow archive_object", 10),
                context=lsp.ReferenceContext(include_declaration=False),
            )
        )
        assert (uri, pos(text, "hatch archive_object", 6).line) in {(r.uri, r.range.start.line) for r in refs}
        # renaming the workflow renames the contract and its hatch in the other document
        edit = await client.text_document_rename_async(
            lsp.RenameParams(
                lsp.TextDocumentIdentifier(uri), pos(text, "detached archive_object", 12), "stash_object"
            )
        )
        changes = edit.changes or {}
        assert flow_uri in changes and uri in changes
        assert sorted(e.range.start.line for e in changes[uri]) == [12, 17]
        # workspace symbols reach documents nobody opened, fuzzily
        symbols = await client.workspace_symbol_async(lsp.WorkspaceSymbolParams(query="chksm"))
        assert any(s.name == "checksum" and s.location.uri.endswith("checksum.awl") for s in symbols)
    finally:
        await client.shutdown_session()
        await client.stop()


async def test_schema_files_are_followed_and_watched(folder: Path) -> None:
    (folder / "shapes.json").write_text(
        '{"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}'
    )
    doc = folder / "uses_schema.awl"
    doc.write_text(
        "//! Reads a schema file.\nworkflow uses_schema\n  input item: Shape\n"
        '  outcome done: type String, route success\n\ntype Shape = schema("shapes.json")\n\n'
        "step only\n  route done(item.id)\n"
    )
    client = await start(folder)
    try:
        text = doc.read_text()
        uri = open_doc(client, doc)
        params = await published(client, uri)
        assert not [d for d in params.diagnostics if d.severity == lsp.DiagnosticSeverity.Error]
        found = await client.text_document_definition_async(
            lsp.DefinitionParams(lsp.TextDocumentIdentifier(uri), pos(text, "shapes.json", 2))
        )
        assert found is not None and found.uri == (folder / "shapes.json").as_uri()
        # the schema loses `id`: the open document is re-checked without being edited
        (folder / "shapes.json").write_text(
            '{"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}'
        )
        client.workspace_did_change_watched_files(
            lsp.DidChangeWatchedFilesParams(
                [lsp.FileEvent(uri=(folder / "shapes.json").as_uri(), type=lsp.FileChangeType.Changed)]
            )
        )
        # (a publish already on its way — the workspace index arriving — may come first)
        for _ in range(3):
            params = await asyncio.wait_for(published(client, uri), 20)
            if any("id" in d.message for d in params.diagnostics):
                break
        assert any("id" in d.message for d in params.diagnostics), params.diagnostics
    finally:
        await client.shutdown_session()
        await client.stop()
