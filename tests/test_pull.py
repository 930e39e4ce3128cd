"""Which clients are offered pull diagnostics (`awl_lsp.server.pull.client_pulls`), and what a report's
result id depends on — without a server process (the protocol itself: test_pull_diagnostics_e2e)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pytest_lsp import client_capabilities

from awl_lsp.server.pull import partners, partners_key
from awl_lsp.workspace import WorkspaceIndex

DATA = Path(__file__).parent / "data" / "workspace"


@pytest.mark.parametrize(
    ("editor", "pulls"),
    [
        ("visual-studio-code", False),  # 1.65: declares no pulling at all
        ("neovim@v0.10.0", False),  # declares textDocument.diagnostic, but no refresh support
        ("neovim@v0.11.0", False),
        ("emacs", False),
    ],
)
def test_clients_that_cannot_be_asked_to_refresh_are_not_offered_pull(editor: str, pulls: bool) -> None:
    from awl_lsp.server.pull import client_pulls

    assert client_pulls(client_capabilities(editor)) is pulls


def test_a_client_declaring_pulling_and_refresh_is_offered_pull() -> None:
    from awl_lsp.server.pull import client_pulls

    caps = lsp.ClientCapabilities(
        text_document=lsp.TextDocumentClientCapabilities(diagnostic=lsp.DiagnosticClientCapabilities()),
        workspace=lsp.WorkspaceClientCapabilities(
            diagnostics=lsp.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
        ),
    )
    assert client_pulls(caps)
    caps.workspace.diagnostics.refresh_support = False  # type: ignore[union-attr]
    assert not client_pulls(caps)
    assert not client_pulls(None)


def test_a_documents_partners_are_the_flows_it_names_and_their_inputs_count(tmp_path: Path) -> None:
    import shutil

    root = tmp_path / "w"
    shutil.copytree(DATA, root)
    index = WorkspaceIndex([root])
    index.scan()
    watch = index.entry(root / "bucket_watch.awl")
    checksum = index.entry(root / "flows" / "checksum.awl")
    assert watch is not None and checksum is not None
    tied = partners(watch.path, watch.summary, index)
    assert [e.path.name for e in tied] == ["archive_object.awl"]
    before = partners_key(tied)
    # a line moved above the workflow's inputs: their positions (related places) count too
    flow = root / "flows" / "archive_object.awl"
    flow.write_text("\n" + flow.read_text())
    index.load(flow)
    moved = partners_key(partners(watch.path, watch.summary, index))
    assert moved != before
    # an edit the contract rules do not read (a step's body) changes nothing
    flow.write_text(flow.read_text().replace("copy(key: key) -> copied", "copy(key: key) -> copied_it"))
    index.load(flow)
    assert partners_key(partners(watch.path, watch.summary, index)) == moved
    # checksum.awl declares no contract: what the documents naming it declare is reported on them
    assert [e.path.name for e in partners(checksum.path, checksum.summary, index)] == []
