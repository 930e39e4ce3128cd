"""Pull diagnostics at scale: the real server over stdio, a client that pulls like VS Code does.

    .venv/bin/python bench/pull_diagnostics.py [--documents 1000] [--polls 10]

On the generated workspace of `workspace_index.py` (workflows and the workloops that hatch them; a
tenth of the workloops with a broken contract, every workflow with one unused-binding warning), one
server is started and asked, as vscode-languageclient asks:

- the first `workspace/diagnostic` pulls (every document analysed: what a cold start costs; each
  pull analyses for at most 1.5 s and the server asks for the next with a refresh);
- repeated workspace pulls with the previous result ids, nothing changed (VS Code polls every 2 s):
  every document `unchanged`, nothing analysed;
- the workspace pull after one workflow's inputs change on disk (its watchers analysed again);
- `textDocument/diagnostic` of an open document, and again with its result id (`unchanged`).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

sys.path.insert(0, str(Path(__file__).resolve().parent))
from workspace_index import WORKFLOW, WORKLOOP  # noqa: E402


def generate(root: Path, documents: int) -> int:
    half = documents // 2
    for i in range(half):
        (root / "flows").mkdir(parents=True, exist_ok=True)
        (root / "loops").mkdir(parents=True, exist_ok=True)
        (root / f"flows/archive_{i}.awl").write_text(WORKFLOW.format(i=i))
        loop = WORKLOOP.format(i=i)
        if i % 10 == 0:  # a broken contract: `size` is a String here
            loop = loop.replace(
                f"detached archive_{i}(key: String, size: Int)",
                f"detached archive_{i}(key: String, size: String)",
            )
        (root / f"loops/watch_{i}.awl").write_text(loop)
    return sum(p.read_text().count("\n") for p in root.rglob("*.awl"))


def capabilities() -> lsp.ClientCapabilities:
    return lsp.ClientCapabilities(
        text_document=lsp.TextDocumentClientCapabilities(
            diagnostic=lsp.DiagnosticClientCapabilities(dynamic_registration=True)
        ),
        workspace=lsp.WorkspaceClientCapabilities(
            diagnostics=lsp.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
        ),
    )


async def run(root: Path, polls: int) -> dict[str, object]:
    client = LanguageClient("pull-bench", "1")
    refreshed = asyncio.Event()

    @client.feature(lsp.WORKSPACE_DIAGNOSTIC_REFRESH)
    def _refresh(params: None) -> None:
        refreshed.set()

    await client.start_io(sys.executable, "-m", "awl_lsp", "lsp")
    await client.initialize_async(lsp.InitializeParams(capabilities=capabilities(), root_uri=root.as_uri()))
    client.initialized(lsp.InitializedParams())
    await asyncio.wait_for(refreshed.wait(), 60)  # the index is built
    refreshed.clear()

    async def pull(
        previous: dict[str, str],
    ) -> tuple[float, dict[str, lsp.WorkspaceDocumentDiagnosticReport]]:
        ids = [lsp.PreviousResultId(uri=u, value=v) for u, v in previous.items()]
        started = time.perf_counter()
        report = await client.workspace_diagnostic_async(
            lsp.WorkspaceDiagnosticParams(previous_result_ids=ids)
        )
        return (time.perf_counter() - started) * 1000, {item.uri: item for item in report.items}

    out: dict[str, object] = {}
    # the first pulls: every document analysed, 1.5 s of analysis per pull, the rest in the next
    # pull (which the server asks for with a refresh)
    ids: dict[str, str] = {}
    broken: set[str] = set()
    cold = 0.0
    pulls = 0
    total = len(list(root.rglob("*.awl")))
    while len(ids) < total and pulls < 50:
        ms, first = await pull(ids)
        cold += ms
        pulls += 1
        ids.update({u: r.result_id for u, r in first.items() if r.result_id})
        broken |= {u for u, r in first.items() if r.kind == "full" and r.items}
    out["first"] = (cold, pulls, len(ids), len(broken))
    times = []
    for _ in range(polls):
        ms, again = await pull(ids)
        assert all(r.kind == "unchanged" for r in again.values())
        times.append(ms)
    out["unchanged"] = (statistics.median(times), max(times), len(again))
    flow = root / "flows/archive_1.awl"
    flow.write_text(flow.read_text().replace("input size: Int", "input size: Int?"))
    client.workspace_did_change_watched_files(
        lsp.DidChangeWatchedFilesParams([lsp.FileEvent(uri=flow.as_uri(), type=lsp.FileChangeType.Changed)])
    )
    await asyncio.wait_for(refreshed.wait(), 30)
    ms, after = await pull(ids)
    out["changed"] = (ms, sum(1 for r in after.values() if r.kind == "full"))
    doc = root / "loops/watch_3.awl"
    uri = doc.as_uri()
    item = lsp.TextDocumentItem(uri=uri, language_id="awl", version=1, text=doc.read_text())
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(item))
    started = time.perf_counter()
    full = await client.text_document_diagnostic_async(
        lsp.DocumentDiagnosticParams(lsp.TextDocumentIdentifier(uri))
    )
    first_ms = (time.perf_counter() - started) * 1000
    times = []
    for _ in range(polls):
        started = time.perf_counter()
        same = await client.text_document_diagnostic_async(
            lsp.DocumentDiagnosticParams(lsp.TextDocumentIdentifier(uri), previous_result_id=full.result_id)
        )
        assert same.kind == "unchanged"
        times.append((time.perf_counter() - started) * 1000)
    out["document"] = (first_ms, statistics.median(times))
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--documents", type=int, default=1000)
    ap.add_argument("--polls", type=int, default=10)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp).resolve()
        lines = generate(root, args.documents)
        out = asyncio.run(run(root, args.polls))
    cold, pulls, count, broken = out["first"]  # type: ignore[misc]
    median, worst, same = out["unchanged"]  # type: ignore[misc]
    changed, full = out["changed"]  # type: ignore[misc]
    doc_first, doc_same = out["document"]  # type: ignore[misc]
    print(f"pull diagnostics: {count} documents ({lines:,} lines), one server over stdio")
    print("| measure | value |")
    print("|---|---|")
    print(
        f"| first workspace pulls (every document analysed, {broken} with findings; {pulls} pulls) "
        f"| {cold:.0f} ms |"
    )
    print(
        f"| workspace pull, nothing changed ({same} `unchanged`): median / worst of {args.polls} "
        f"| {median:.1f} / {worst:.1f} ms |"
    )
    print(
        f"| workspace pull after one workflow changed on disk ({full} documents sent in full) "
        f"| {changed:.1f} ms |"
    )
    print(f"| textDocument/diagnostic of a newly opened document | {doc_first:.1f} ms |")
    print(f"| textDocument/diagnostic again, `unchanged` (median) | {doc_same:.1f} ms |")


if __name__ == "__main__":
    main()
