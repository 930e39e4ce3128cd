"""A whole repository checked together, as CI (`awl check .`) and the editor (its workspace folder)
check it, against each document checked alone: checking more documents together never adds an
error, and a document the engine's front end accepts alone has none — except a contract planted to
mismatch the workflow beside it, which is reported, naming the document it was checked against.

The repository is generated at test time (`repo_layout`): copies, versions and fixtures of our own
documents and of the corpus. The engine's front end (`$AWL_REFERENCE`, default
`../shared/bin/awl-reference`) says which documents it accepts alone; without it the test is
skipped (a failure with `AWL_REQUIRE_REFERENCE=1`). The corpus (`$AWL_CORPUS`) likewise, with
`AWL_REQUIRE_CORPUS=1`.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import accept_registrations
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient, client_capabilities, make_test_lsp_client
from repo_layout import CORPUS, REPO, Layout, build

from awl_lsp.checks import Severity
from awl_lsp.features.diagnostics import findings
from awl_lsp.features.documents import analyse_text

REFERENCE = Path(os.environ.get("AWL_REFERENCE") or REPO.parent / "shared" / "bin" / "awl-reference")

Finding = tuple[int, str]  # (1-based line, code)


def _require(env: str, present: bool, reason: str) -> None:
    if not present:
        if os.environ.get(env) == "1":
            pytest.fail(reason)
        pytest.skip(reason)


def engine_clean(paths: list[Path]) -> set[Path]:
    """The documents the engine's front end accepts, each checked alone."""
    _require(
        "AWL_REQUIRE_REFERENCE",
        REFERENCE.is_file() and os.access(REFERENCE, os.X_OK),
        f"the engine's reference front end is not at {REFERENCE} (set AWL_REFERENCE)",
    )
    clean: set[Path] = set()
    for i in range(0, len(paths), 200):
        run = subprocess.run(
            [str(REFERENCE), "check", *map(str, paths[i : i + 200])],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        verdicts: dict[str, set[str]] = {}
        for row in run.stdout.splitlines():
            cols = row.split("\t")
            if len(cols) >= 2:
                verdicts.setdefault(cols[0], set()).add(cols[1])
        clean |= {Path(f).resolve() for f, v in verdicts.items() if v == {"OK"}}
    return clean


def alone(path: Path) -> set[Finding]:
    """The errors of a document checked by itself (its folder its workspace)."""
    snap = analyse_text(path.read_text(encoding="utf-8"), path, path.parent)
    return {(p.range[0] + 1, p.code) for p in findings(snap) if p.severity is Severity.ERROR}


def cli_together(
    *roots: Path,
) -> tuple[dict[Path, set[Finding]], dict[Path, set[str]], dict[Path, list[str]]]:
    """`awl check --format json ROOT…`: errors and warning codes per document, and messages."""
    run = subprocess.run(
        [sys.executable, "-m", "awl_lsp", "check", "--format", "json", *map(str, roots)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        cwd=roots[0],
    )
    assert run.returncode in (0, 1), run.stderr
    errors: dict[Path, set[Finding]] = {}
    warnings: dict[Path, set[str]] = {}
    messages: dict[Path, list[str]] = {}
    for r in json.loads(run.stdout):
        path = (roots[0] / r["file"]).resolve()
        messages.setdefault(path, []).append(r["message"])
        if r["severity"] == "error":
            errors.setdefault(path, set()).add((r["line"], r["code"]))
        elif r["severity"] == "warning":
            warnings.setdefault(path, set()).add(r["code"])
    return errors, warnings, messages


def pulling() -> lsp.ClientCapabilities:
    caps = client_capabilities("visual-studio-code")
    assert caps.text_document is not None and caps.workspace is not None
    caps.text_document.diagnostic = lsp.DiagnosticClientCapabilities(dynamic_registration=True)
    caps.workspace.diagnostics = lsp.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
    return caps


class Editor:
    """The real server over stdio with the repository as its workspace folder, as VS Code opens it."""

    def __init__(self, client: LanguageClient) -> None:
        self.lsp = client

    @classmethod
    async def start(cls, root: Path) -> Editor:
        client = make_test_lsp_client()
        accept_registrations(client)
        env = {**os.environ, "AWL_PULL_BUDGET_MS": "600000"}  # one workspace pull reports every document
        await client.start_io(sys.executable, "-m", "awl_lsp", "lsp", env=env)
        params = lsp.InitializeParams(capabilities=pulling(), root_uri=root.as_uri())
        await client.initialize_session(params)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 120
        while client.diagnostic_refresh_count == 0:  # (asked once the workspace is indexed)
            assert loop.time() < deadline, "the server never said the workspace was indexed"
            await asyncio.sleep(0.05)
        return cls(client)

    async def stop(self) -> None:
        await self.lsp.shutdown_session()
        await self.lsp.stop()

    async def workspace(self) -> dict[Path, list[lsp.Diagnostic]]:
        params = lsp.WorkspaceDiagnosticParams(previous_result_ids=[], identifier="awl")
        report = await self.lsp.workspace_diagnostic_async(params)
        return {_path(item.uri): list(getattr(item, "items", [])) for item in report.items}

    async def document(self, uri: str) -> list[lsp.Diagnostic]:
        params = lsp.DocumentDiagnosticParams(lsp.TextDocumentIdentifier(uri), identifier="awl")
        report = await self.lsp.text_document_diagnostic_async(params)
        return list(getattr(report, "items", []))

    def open(self, path: Path, text: str | None = None) -> str:
        uri = path.as_uri()  # (the path as given: a linked folder stays in the URI)
        body = path.read_text(encoding="utf-8") if text is None else text
        item = lsp.TextDocumentItem(uri=uri, language_id="awl", version=1, text=body)
        self.lsp.text_document_did_open(lsp.DidOpenTextDocumentParams(item))
        return uri

    def replace(self, uri: str, text: str, version: int) -> None:
        change = lsp.TextDocumentContentChangeWholeDocument(text=text)
        ident = lsp.VersionedTextDocumentIdentifier(uri=uri, version=version)
        self.lsp.text_document_did_change(lsp.DidChangeTextDocumentParams(ident, [change]))


def _path(uri: str) -> Path:
    from pygls.uris import to_fs_path

    return Path(to_fs_path(uri) or uri).resolve()


def errors_of(items: list[lsp.Diagnostic]) -> set[Finding]:
    return {
        (d.range.start.line + 1, str(d.code)) for d in items if d.severity == lsp.DiagnosticSeverity.Error
    }


def warnings_of(items: list[lsp.Diagnostic]) -> set[str]:
    return {str(d.code) for d in items if d.severity == lsp.DiagnosticSeverity.Warning}


def judge(lay: Layout, clean: set[Path], together: dict[Path, set[Finding]], how: str) -> list[str]:
    """What is wrong with the errors found together: an error the document does not have alone, an
    error on a document the engine accepts alone, a planted mismatch not reported."""
    wrong: list[str] = []
    for path in lay.documents():
        key = path.resolve()
        found = together.get(key, set())
        planted = lay.planted.get(key, set())
        added = {f for f in found if f not in alone(path) and f[1] not in planted}
        if added:
            wrong.append(f"{how}: {path.relative_to(lay.root)} gets errors it has not alone: {sorted(added)}")
        if key in clean and {c for _, c in found} != planted:
            wrong.append(f"{how}: {path.relative_to(lay.root)} is engine-clean but has {sorted(found)}")
    return wrong


@pytest.fixture(scope="module")
def repository(tmp_path_factory: pytest.TempPathFactory) -> tuple[Layout, set[Path]]:
    lay = build(tmp_path_factory.mktemp("repository") / "repo")
    return lay, engine_clean(lay.documents())


def test_the_repository_holds_what_it_should(repository: tuple[Layout, set[Path]]) -> None:
    lay, clean = repository
    _require("AWL_REQUIRE_CORPUS", lay.corpus, f"AWL corpus not found at {CORPUS} (set AWL_CORPUS)")
    docs = lay.documents()
    counts = f"{len(lay.folders())} folders, {len(docs)} documents, {len(clean)} engine-clean"
    print(f"\nrepository differential: {counts}")
    assert len(docs) > 400 and len(lay.folders()) > 40
    assert all(p in clean for p in lay.planted)  # a planted mismatch is in a document the engine accepts
    names = [p.name for p in docs]
    assert names.count("release_pipeline_combined.awl") == 2  # a fixture of one name, twice


def test_awl_check_of_the_repository_adds_no_error(repository: tuple[Layout, set[Path]]) -> None:
    lay, clean = repository
    errors, warnings, messages = cli_together(lay.root)
    assert judge(lay, clean, errors, "awl check") == []
    for path, codes in lay.planted.items():
        assert {c for _, c in errors[path]} == codes
        target = lay.checked_against[path].relative_to(lay.root).as_posix()
        assert any(f"checked against `{target}`" in m for m in messages[path]), messages[path]
    for path, codes in lay.warned.items():
        assert warnings.get(path, set()) >= codes, (path, warnings.get(path))


async def test_the_editor_with_the_repository_open_adds_no_error(
    repository: tuple[Layout, set[Path]],
) -> None:
    lay, clean = repository
    editor = await Editor.start(lay.root)
    try:
        reports = await editor.workspace()
        assert set(reports) == {p.resolve() for p in lay.documents()}
        together = {path: errors_of(items) for path, items in reports.items()}
        assert judge(lay, clean, together, "workspace pull") == []
        for path, codes in lay.warned.items():
            assert warnings_of(reports[path]) >= codes
        for path in lay.planted:
            d = next(d for d in reports[path] if d.severity == lsp.DiagnosticSeverity.Error)
            related = {_path(r.location.uri) for r in d.related_information or []}
            assert lay.checked_against[path] in related  # the document it was checked against
        # a document open twice (through a linked folder and as itself), and a copy open beside it
        for one, other in [*lay.open_twice, *lay.copies]:
            uris = [editor.open(one), editor.open(other)]
            for uri, path in zip(uris, (one, other), strict=True):
                assert errors_of(await editor.document(uri)) <= alone(path), path
        # references and rename of one version's workflow stay in that version
        flow1 = lay.root / "v1" / "flows" / "archive_object.awl"
        uri1, text1 = editor.open(flow1), flow1.read_text()
        at = lsp.Position(text1[: text1.index("workflow archive_object")].count("\n"), 12)
        refs = await editor.lsp.text_document_references_async(
            lsp.ReferenceParams(
                context=lsp.ReferenceContext(True),
                text_document=lsp.TextDocumentIdentifier(uri1),
                position=at,
            )
        )
        assert {_path(r.uri) for r in refs or []} == {flow1, lay.root / "v1" / "bucket_watch.awl"}
        edit = await editor.lsp.text_document_rename_async(
            lsp.RenameParams(
                text_document=lsp.TextDocumentIdentifier(uri1), position=at, new_name="stash_object"
            )
        )
        assert edit is not None and {_path(u) for u in edit.changes or {}} == set(
            _path(r.uri) for r in refs or []
        )
        # an edit to a copy far away leaves a clean document clean
        v1 = lay.root / "v1" / "flows" / "archive_object.awl"
        far = lay.root / "v2" / "flows" / "checksum.awl"
        uri = editor.open(far)
        editor.replace(uri, far.read_text().replace("input payload: String", "input payload: Int"), 2)
        await editor.document(uri)  # (the edit has reached the workspace index)
        assert errors_of(await editor.document(editor.open(v1))) == set()
        # a copy beside the contract's workflow edited to disagree: equally near, so a warning
        flow, copy = lay.root / "examples" / "flows" / "archive_object.awl", lay.copies[0][1]
        editor.replace(copy.as_uri(), copy.read_text().replace("input data: String", "input data: Int"), 2)
        await editor.document(copy.as_uri())
        items = await editor.document(editor.open(flow))
        assert errors_of(items) == set() and "contract-ambiguous" in warnings_of(items)
    finally:
        await editor.stop()


def test_the_corpus_checked_as_one_folder(tmp_path: Path) -> None:
    _require("AWL_REQUIRE_CORPUS", CORPUS.is_dir(), f"AWL corpus not found at {CORPUS} (set AWL_CORPUS)")
    docs = sorted(CORPUS.rglob("*.awl"))
    valid = [p for p in docs if "valid" in p.relative_to(CORPUS).parts]
    clean = engine_clean(docs)
    errors, _, _ = cli_together(CORPUS)
    dirty = sorted(str(p.relative_to(CORPUS)) for p in valid if errors.get(p.resolve()))
    print(f"\ncorpus as one folder: {len(valid) - len(dirty)}/{len(valid)} valid documents clean")
    assert dirty == []
    assert [p for p in clean if errors.get(p)] == []
    assert all(errors.get(p.resolve(), set()) <= alone(p) for p in docs)
