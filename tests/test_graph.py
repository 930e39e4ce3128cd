"""The flow graph (`awl graph`, the `awl/graph` request): every route, outcome, call and hatch of a
document is an edge, steps and outcomes are nodes, and nothing is drawn that the document does not say."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import accept_registrations, snap_of

from awl_lsp.cli.main import main
from awl_lsp.features.graph import flow_graph
from awl_lsp.features.graph_layout import layered_svg
from awl_lsp.features.graph_render import to_dot, to_mermaid

DATA = Path(__file__).parent / "data" / "graph"
WORKFLOW = (DATA / "release_gate.awl").read_text()
WORKLOOP = (DATA / "shard_watch.awl").read_text()


def edges(text: str) -> set[tuple[str, str, str, str]]:
    return {(e.source, e.target, e.kind, e.label) for e in flow_graph(snap_of(text)).edges}


def test_workflow_nodes_are_its_steps_outcomes_and_callees() -> None:
    g = flow_graph(snap_of(WORKFLOW))
    kinds = {(n.id, n.kind, n.parent) for n in g.nodes}
    assert kinds == {
        ("shipped", "outcome", None),
        ("abandoned", "outcome", None),
        ("review_board", "child", None),
        ("notify", "child", None),
        ("polish", "subflow", None),
        ("polished", "outcome", "polish"),
        ("tidy", "step", "polish"),
        ("build_it", "step", None),
        ("unit", "step", None),
        ("integration", "step", None),
        ("review", "step", None),
        ("publish", "step", None),
        ("record", "step", "publish"),
        ("finish", "step", None),
        ("done", "step", None),
    }
    assert g.node("review").line == WORKFLOW.splitlines().index("step review after unit, integration") + 1


def test_workflow_edges_are_exactly_what_the_document_says() -> None:
    assert edges(WORKFLOW) == {
        ("tidy", "polished", "route", ""),  # `tidied |> route polished`
        ("build_it", "abandoned", "failure", ""),  # under `on failure`
        ("build_it", "unit", "after", ""),
        ("build_it", "integration", "after", ""),
        ("unit", "review", "after", ""),
        ("integration", "review", "after", ""),
        ("review", "review_board", "call", ""),
        ("review", "publish", "outcome", "approved: when verdict.ok"),
        ("review", "abandoned", "outcome", "rejected: otherwise"),
        ("publish", "notify", "spawn", ""),
        ("publish", "finish", "next", ""),
        ("finish", "polish", "call", ""),
        ("finish", "done", "next", ""),
        ("done", "shipped", "route", ""),
    }


def test_regions_are_groups_of_their_step() -> None:
    g = flow_graph(snap_of(WORKFLOW))
    assert [(x.kind, x.step, x.line) for x in g.groups] == [
        ("fork", "publish", WORKFLOW.splitlines().index('  fork suite in ["smoke", "canary"]') + 1)
    ]


def test_workloop_hatches_and_returns_to_start() -> None:
    g = flow_graph(snap_of(WORKLOOP))
    assert {(n.id, n.kind) for n in g.nodes} == {
        ("start", "start"),
        ("repair_shard", "detached"),
        ("survey", "step"),
        ("repair", "step"),
        ("retire", "retire"),
    }
    assert edges(WORKLOOP) == {
        ("start", "survey", "next", ""),
        ("survey", "start", "outcome", "calm: if broken is empty"),
        ("survey", "repair", "outcome", "trouble: else"),
        ("repair", "repair_shard", "hatch", ""),
        ("repair", "start", "route", ""),
    }


def test_broken_route_targets_draw_no_edge() -> None:
    text = WORKFLOW.replace("route publish", "route publsh")
    assert not any(t == "publsh" or (s, t) == ("review", "publish") for s, t, _, _ in edges(text))


def test_dot_and_mermaid_name_every_node_and_edge() -> None:
    g = flow_graph(snap_of(WORKFLOW))
    dot = to_dot(g)
    assert dot.startswith('digraph "release_gate" {') and dot.rstrip().endswith("}")
    assert 'subgraph "cluster_publish"' in dot and '"publish" -> "notify" [style=dotted' in dot
    assert dot.count(" -> ") == len(g.edges)
    mermaid = to_mermaid(g)
    assert mermaid.startswith("flowchart TD\n")
    assert mermaid.count("-->") + mermaid.count("-.->") == len(g.edges)
    assert '|"approved: when verdict.ok"|' in mermaid


def test_own_layout_draws_every_node_without_graphviz() -> None:
    g = flow_graph(snap_of(WORKLOOP))
    svg = layered_svg(g)
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert svg.count('class="node ') == len(g.nodes)
    assert svg.count('class="edge ') == len(g.edges)
    assert 'data-id="survey"' in svg


@pytest.mark.parametrize("fmt", ["json", "dot", "mermaid", "svg"])
def test_cli_formats(fmt: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["graph", "--format", fmt, "-q", str(DATA / "release_gate.awl")]) == 0
    out = capsys.readouterr().out
    if fmt == "json":
        data = json.loads(out)
        assert data["flow"] == "release_gate" and data["kind"] == "workflow"
        assert {"from": "done", "to": "shipped", "kind": "route", "label": "", "line": 52} in data["edges"]
    else:
        assert {"dot": "digraph", "mermaid": "flowchart", "svg": "<svg"}[fmt] in out.split("\n", 1)[0] + out


def test_cli_without_a_flow_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "types.awl"
    f.write_text("type T { a: Int }\n")
    assert main(["graph", str(f)]) == 1
    assert "no workflow or workloop" in capsys.readouterr().err


def test_dot_is_accepted_by_graphviz() -> None:
    if shutil.which("dot") is None:
        if os.environ.get("AWL_REQUIRE_GRAPHVIZ") == "1":
            pytest.fail("AWL_REQUIRE_GRAPHVIZ=1 but Graphviz `dot` is not on PATH")
        pytest.skip(
            "Graphviz `dot` is not installed (apt-get install graphviz); "
            "AWL_REQUIRE_GRAPHVIZ=1 makes this a failure"
        )
    done = subprocess.run(
        ["dot", "-Tsvg"],
        input=to_dot(flow_graph(snap_of(WORKFLOW))),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "<svg" in done.stdout and "release_gate" in done.stdout


def test_cli_runs_as_a_program() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "awl_lsp", "graph", "--format", "mermaid", str(DATA / "shard_watch.awl")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "flowchart TD" in done.stdout


def _plain(value: object) -> object:
    """The client hands custom results over as named tuples, which rename `from` to `_0`."""
    if hasattr(value, "_asdict"):
        value = {("from" if k == "_0" else k): v for k, v in value._asdict().items()}  # type: ignore[attr-defined]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


async def test_graph_request_over_stdio() -> None:
    """The `awl/graph` request answers the newest version's graph, with the step at the cursor."""
    from lsprotocol import types as lsp
    from pytest_lsp import client_capabilities, make_test_lsp_client

    client = make_test_lsp_client()
    await client.start_io(sys.executable, "-m", "awl_lsp", "lsp")
    try:
        caps = client_capabilities("visual-studio-code")
        accept_registrations(client)
        await client.initialize_session(lsp.InitializeParams(capabilities=caps, root_uri=DATA.as_uri()))
        uri = (DATA / "shard_watch.awl").as_uri()
        client.text_document_did_open(
            lsp.DidOpenTextDocumentParams(
                lsp.TextDocumentItem(uri=uri, language_id="awl", version=1, text=WORKLOOP)
            )
        )
        line = WORKLOOP.splitlines().index("  answer health(unhealthy: seen)")
        result = await client.protocol.send_request_async(
            "awl/graph", {"textDocument": {"uri": uri}, "position": {"line": line, "character": 2}}
        )
        data = _plain(result)
        assert data["focus"] == "repair"
        assert data["mermaid"].startswith("flowchart TD")
        edge_kinds = {(e["from"], e["to"], e["kind"]) for e in data["edges"]}
        assert ("repair", "repair_shard", "hatch") in edge_kinds
        # an edit is reflected at once: a new route appears in the next answer
        changed = WORKLOOP.replace("  route start(seen: seen)", "  route survey")
        client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
                [lsp.TextDocumentContentChangeWholeDocument(text=changed)],
            )
        )
        result = await client.protocol.send_request_async("awl/graph", {"textDocument": {"uri": uri}})
        data = _plain(result)
        kinds = {(e["from"], e["to"], e["kind"]) for e in data["edges"]}
        assert ("repair", "survey", "route") in kinds and ("repair", "start", "route") not in kinds
    finally:
        await client.shutdown_session()
        await client.stop()
