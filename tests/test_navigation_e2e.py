"""Navigation over stdio, the real `awl lsp` process and a workspace of several documents: the call
hierarchy walked both ways and across documents (also into and out of a document nobody opened),
type definition into the document and into a schema file, document links on schema paths, the
capabilities `initialize` advertises, and unused bindings published as dimmed hints."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from helpers import accept_registrations, published
from lsprotocol import types as lsp
from pytest_lsp import client_capabilities, make_test_lsp_client

DATA = Path(__file__).parent / "data" / "navigation"


def pos(text: str, needle: str, offset: int = 0) -> lsp.Position:
    i = text.index(needle) + offset
    return lsp.Position(text.count("\n", 0, i), i - (text.rfind("\n", 0, i) + 1))


def word(path: Path, r: lsp.Range) -> str:
    return path.read_text().splitlines()[r.start.line][r.start.character : r.end.character]


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(DATA, root)
    return root.resolve()


@pytest.fixture()
async def client(folder: Path):  # noqa: ANN201 — a pytest-lsp client with the folder as its workspace
    client = make_test_lsp_client()
    accept_registrations(client)
    await client.start_io(sys.executable, "-m", "awl_lsp", "lsp")
    caps = client_capabilities("visual-studio-code")
    result = await client.initialize_session(
        lsp.InitializeParams(capabilities=caps, root_uri=folder.as_uri())
    )
    client.advertised = result.capabilities  # type: ignore[attr-defined]
    yield client
    await client.shutdown_session()
    await client.stop()


async def open_doc(client, path: Path) -> str:  # noqa: ANN001
    uri = path.as_uri()
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(uri=uri, language_id="awl", version=1, text=path.read_text())
        )
    )
    await published(client, uri)
    return uri


async def prepare(client, path: Path, needle: str, offset: int) -> lsp.CallHierarchyItem:  # noqa: ANN001
    items = await client.text_document_prepare_call_hierarchy_async(
        lsp.CallHierarchyPrepareParams(
            lsp.TextDocumentIdentifier(path.as_uri()), pos(path.read_text(), needle, offset)
        )
    )
    assert items is not None and len(items) == 1, items
    return items[0]


async def test_the_call_hierarchy_is_walked_across_documents(client, folder: Path) -> None:  # noqa: ANN001
    caps = client.advertised  # (initialize says so: no request is sent for what is not advertised)
    assert caps.call_hierarchy_provider and caps.type_definition_provider
    assert caps.document_link_provider is not None and not caps.document_link_provider.resolve_provider
    review = folder / "reviews" / "review.awl"
    pipeline = folder / "pipeline.awl"
    watch = folder / "watch.awl"
    await open_doc(client, review)
    # who starts `review`: a child call in pipeline.awl and a hatch in watch.awl, neither open
    item = await prepare(client, review, "workflow review", 10)
    assert (item.name, item.uri) == ("review", review.as_uri())
    incoming = await client.call_hierarchy_incoming_calls_async(lsp.CallHierarchyIncomingCallsParams(item))
    callers = sorted((Path(c.from_.uri[7:]).name, c.from_.name) for c in incoming)
    assert callers == [("pipeline.awl", "check"), ("watch.awl", "poll")]
    check_call = next(c for c in incoming if c.from_.name == "check")
    assert [word(pipeline, r) for r in check_call.from_ranges] == ["review"]
    assert check_call.from_ranges[0].start == pos(pipeline.read_text(), "review(note: config")
    # walk on from the caller in the unopened document: what `check` leads to
    outgoing = await client.call_hierarchy_outgoing_calls_async(
        lsp.CallHierarchyOutgoingCallsParams(check_call.from_)
    )
    assert [(c.to.name, Path(c.to.uri[7:]).name) for c in outgoing] == [
        ("review", "review.awl"),  # the child call, into the other document
        ("ship", "pipeline.awl"),  # `check` does not route: it falls into the next step
    ]
    # and back: who leads into `check` (an outcome arm of scan, and the `after mend` it waits on)
    into_check = await client.call_hierarchy_incoming_calls_async(
        lsp.CallHierarchyIncomingCallsParams(check_call.from_)
    )
    assert [(c.from_.name, [word(pipeline, r) for r in c.from_ranges]) for c in into_check] == [
        ("scan", ["check"]),
        ("mend", ["mend"]),
    ]
    # the hatch in the workloop, opened now: prepare on it gives the workflow in the other document
    await open_doc(client, watch)
    hatched = await prepare(client, watch, "hatch review", 7)
    assert (hatched.name, hatched.uri) == ("review", review.as_uri())
    poll = await prepare(client, watch, "step poll", 6)
    out = await client.call_hierarchy_outgoing_calls_async(lsp.CallHierarchyOutgoingCallsParams(poll))
    assert [(c.to.name, [word(watch, r) for r in c.from_ranges]) for c in out] == [
        ("review", ["review"]),
        ("watch", ["start"]),  # `route start`: the workloop's next iteration
    ]


async def test_type_definition_leads_to_records_and_into_the_schema_file(client, folder: Path) -> None:  # noqa: ANN001
    pipeline = folder / "pipeline.awl"
    text = pipeline.read_text()
    uri = await open_doc(client, pipeline)

    async def at(needle: str, offset: int) -> lsp.Location:
        found = await client.text_document_type_definition_async(
            lsp.TypeDefinitionParams(lsp.TextDocumentIdentifier(uri), pos(text, needle, offset))
        )
        assert isinstance(found, lsp.Location), found
        return found

    found = await at("-> found", 4)  # a binding of a record type
    assert found.uri == uri and found.range.start == pos(text, "Sweep {")
    found = await at("-> items", 4)  # a list: its element
    assert found.range.start == pos(text, "Item {")
    schema = folder / "settings.json"
    found = await at("config.server.host", 8)  # a nested object of a schema type: its key in the file
    assert found.uri == schema.as_uri()
    assert found.range.start == pos(schema.read_text(), '"server": {')
    nothing = await client.text_document_type_definition_async(
        lsp.TypeDefinitionParams(lsp.TextDocumentIdentifier(uri), pos(text, "input dir", 7))
    )
    assert nothing is None  # a String is declared nowhere


async def test_schema_paths_are_document_links(client, folder: Path) -> None:  # noqa: ANN001
    pipeline = folder / "pipeline.awl"
    uri = await open_doc(client, pipeline)
    links = await client.text_document_document_link_async(
        lsp.DocumentLinkParams(lsp.TextDocumentIdentifier(uri))
    )
    assert [(link.target, word(pipeline, link.range)) for link in links] == [
        ((folder / "settings.json").as_uri(), "settings.json")
    ]
    (folder / "settings.json").unlink()  # a file that is gone: no link that opens nothing
    links = await client.text_document_document_link_async(
        lsp.DocumentLinkParams(lsp.TextDocumentIdentifier(uri))
    )
    assert list(links) == []


async def test_an_unused_binding_is_published_as_a_dimmed_hint(client, folder: Path) -> None:  # noqa: ANN001
    pipeline = folder / "pipeline.awl"
    uri = pipeline.as_uri()
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(uri=uri, language_id="awl", version=1, text=pipeline.read_text())
        )
    )
    params = await published(client, uri, version=1)
    unused = [d for d in params.diagnostics if d.code == "unused-binding"]
    assert unused and all(d.severity == lsp.DiagnosticSeverity.Hint for d in unused)
    assert all(list(d.tags or ()) == [lsp.DiagnosticTag.Unnecessary] for d in unused)
