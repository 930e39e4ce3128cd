"""Shared helpers for feature tests: analyse a document and find positions by text."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types as lsp

from awl_lsp.features.documents import analyse_text
from awl_lsp.features.snapshot import Snapshot

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


def example(name: str) -> str:
    return (EXAMPLES / name).read_text(encoding="utf-8")


def snap_of(text: str) -> Snapshot:
    return analyse_text(text)


def pos(text: str, needle: str, offset: int = 0) -> lsp.Position:
    index = text.index(needle) + offset
    return lsp.Position(text.count("\n", 0, index), index - (text.rfind("\n", 0, index) + 1))


def checker_problems(text: str) -> list:
    """The checker's problems for a document, as `run_checks` gives them to the server and CLI."""
    from awl_lsp.checks import run_checks
    from awl_lsp.model import ModelBuilder
    from awl_lsp.syntax import SyntaxDocument

    doc = SyntaxDocument(text)
    model = ModelBuilder().build(doc.tree, doc.source)
    return run_checks(model, doc.tree, doc.source)


def checker_errors(text: str) -> list[tuple[int, str]]:
    """(1-based line, message) of every error the checker reports."""
    from awl_lsp.checks import Severity

    return [(p.range[0] + 1, p.message) for p in checker_problems(text) if p.severity is Severity.ERROR]


def assert_checker_error(text: str, line: int, *words: str) -> None:
    found = checker_errors(text)
    assert any(row == line and all(w in msg for w in words) for row, msg in found), found


def uri_of(name: str) -> str:
    """The URI of an example document (the e2e tests open them under these names)."""
    return (EXAMPLES / name).as_uri()


async def open_doc(client, name: str, text: str) -> str:  # noqa: ANN001 — a pytest-lsp LanguageClient
    """Open `text` as example `name` in the real server and wait for its first diagnostics."""
    uri = uri_of(name)
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri=uri, language_id="awl", version=1, text=text))
    )
    await published(client, uri)
    return uri


async def published(client, uri: str, version: int | None = None):  # noqa: ANN001, ANN201
    """Wait for the next diagnostics of `uri` — of that `version`, when given (the server also
    publishes for other workspace files, and again when the workspace index comes in).

    Every publish is recorded as it arrives (`_publishes`), so one that comes back to back with
    another — before this coroutine could wait again — is found, not missed."""
    proto = client.protocol
    seen = _publishes(client)
    while True:
        for i in range(getattr(proto, "_awl_cursor", 0), len(seen)):
            params = seen[i]
            same = version is None or getattr(params, "version", None) == version
            if getattr(params, "uri", uri) == uri and same:
                proto._awl_cursor = i + 1
                return params
        proto._awl_cursor = len(seen)
        if await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS) is None:
            return None


def _publishes(client) -> list:  # noqa: ANN001
    """The publishDiagnostics notifications the client received since the first `published` call."""
    proto = client.protocol
    seen = getattr(proto, "_awl_publishes", None)
    if seen is None:
        seen = proto._awl_publishes = []
        handle = proto._handle_notification

        def record(method_name: str, params: object) -> None:
            if method_name == lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS:
                seen.append(params)
            handle(method_name, params)

        proto._handle_notification = record
    return seen


def require_program(name: str, hint: str) -> str:
    """The path of an external program an editor test needs; skipped visibly when it is absent,
    a failure when AWL_REQUIRE_EDITORS=1 (set by .ci/run)."""
    import os
    import shutil

    import pytest

    found = shutil.which(name)
    if found is None:
        message = f"{name} is not installed ({hint})"
        if os.environ.get("AWL_REQUIRE_EDITORS") == "1":
            pytest.fail(f"AWL_REQUIRE_EDITORS=1 but {message}")
        pytest.skip(message)
    return found


def accept_registrations(client) -> None:  # noqa: ANN001 — a pytest-lsp LanguageClient
    """Answer the server's dynamic registrations (file watchers) as an editor does."""

    @client.feature(lsp.CLIENT_REGISTER_CAPABILITY)
    def _register(params: lsp.RegistrationParams) -> None:
        return None
