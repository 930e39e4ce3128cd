"""How the server starts: `initialize` is answered with only pygls and the protocol loaded; the
analysis and the features load afterwards, at quiet moments (`awl_lsp.server.warm`), never ahead of a
message; and `awl lsp` serves under the configuration of every client we ship, re-executing itself
for the C allocator only when a client did not give it one — before anything heavy is loaded.

What a process imported is read from Python's own import log (`PYTHONPROFILEIMPORTTIME=1`, one
line per module on stderr, which the re-executed process inherits too).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
import tomllib
from functools import partial
from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pygls.protocol import default_converter
from raw_lsp import RawServer, frame
from test_cli_imports import PACKAGE, _source, import_walk

from awl_lsp.features.completion import completion_list
from awl_lsp.features.diagnostics import diagnostics
from awl_lsp.features.documents import analyse_text
from awl_lsp.features.hover import hover
from awl_lsp.server.warm import WarmUp

ROOT = PACKAGE.parent
EXAMPLES = ROOT / "examples"
AWL = Path(sys.executable).with_name("awl")
# what answering `initialize` must not load: the analysis, the features, the keyword reference
HEAVY = (
    "awl_lsp.model",
    "awl_lsp.checks",
    "awl_lsp.features.documents",
    "awl_lsp.workspace",
    "awl_lsp.reference",
    "awl_lsp.features.diagnostics",
    "awl_lsp.features.completion",
    "awl_lsp.features.hover",
    "awl_lsp.features.semantic_tokens",
)


def _heavy(module: str) -> bool:
    return any(module == h or module.startswith(h + ".") for h in HEAVY)


def _env(**extra: str) -> dict[str, str]:
    """This environment without an allocator choice, with Python's import log on, plus `extra`."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONMALLOC", "AWL_KEEP_ALLOCATOR")}
    return dict(env, PYTHONPROFILEIMPORTTIME="1", **extra)


def _imported(server: RawServer) -> list[str]:
    """The modules the server process imported so far, in the order they finished loading."""
    return [
        line.rsplit("|", 1)[1].strip()
        for line in server.stderr_text().splitlines()
        if line.startswith("import time:") and "|" in line
    ]


def _settled(server: RawServer, quiet: float = 0.5, bound: float = 30) -> list[str]:
    """The import log once the server has imported nothing for `quiet` seconds."""
    deadline = time.monotonic() + bound
    seen = len(server.stderr_lines)
    since = time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.05)
        if len(server.stderr_lines) != seen:
            seen, since = len(server.stderr_lines), time.monotonic()
        elif time.monotonic() - since >= quiet:
            break
    return _imported(server)


def _serves(server: RawServer, name: str = "broken_hatch.awl") -> None:
    """Open an example, get its diagnostics and a hover, shut down and exit with status 0."""
    server.initialize()
    uri = (EXAMPLES / name).as_uri()
    published = server.open(uri, (EXAMPLES / name).read_text(encoding="utf-8"))
    assert published["diagnostics"], published
    assert server.hover_works(uri)
    assert server.request("shutdown")["result"] is None
    server.notify("exit", None)
    assert server.wait() == 0


def test_initialize_is_answered_before_the_analysis_loads() -> None:
    server = RawServer(env=_env(PYTHONMALLOC="malloc", AWL_WARM_UP="0"))
    try:
        result = server.initialize()
        assert result["result"]["capabilities"]["semanticTokensProvider"]["legend"]["tokenTypes"]
        before = set(_settled(server))
        assert "awl_lsp.server.language_server" in before and "lsprotocol.types" in before
        early = sorted(m for m in before if _heavy(m))
        assert not early, early
        # what a message needs, it loads itself (the warm-up is off here)
        _serves_open(server)
        after = set(_settled(server))
        assert {"awl_lsp.checks", "awl_lsp.features.documents", "awl_lsp.features.hover"} <= after
    finally:
        server.close()


def _serves_open(server: RawServer) -> None:
    name = "broken_hatch.awl"
    uri = (EXAMPLES / name).as_uri()
    assert server.open(uri, (EXAMPLES / name).read_text(encoding="utf-8"))["diagnostics"]
    assert server.hover_works(uri)


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="reads the server's /proc entry (Linux)")
def test_without_an_allocator_choice_it_re_executes_before_loading_anything_heavy() -> None:
    cmd = [str(AWL), "lsp"] if AWL.exists() else [sys.executable, "-m", "awl_lsp", "lsp"]
    server = RawServer(cmd=cmd, env=_env())
    try:
        pid = server.proc.pid
        server.initialize()
        imported = _settled(server)
        # two processes logged their imports: the command line twice, the protocol library once
        assert imported.count("awl_lsp.cli.main") == 2, imported.count("awl_lsp.cli.main")
        assert imported.count("lsprotocol.types") == 1
        environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        assert b"PYTHONMALLOC=malloc" in environ  # (the same process, now under the C allocator)
        assert b"-m\0awl_lsp\0lsp" in Path(f"/proc/{pid}/cmdline").read_bytes()
        _serves_open(server)
    finally:
        server.close()


def _vscode_env() -> dict[str, str]:
    """What the VS Code client adds (`serverEnvironment` in vscode-extension/src/discovery.ts,
    pinned by its unit test)."""
    source = (ROOT / "vscode-extension" / "src" / "discovery.ts").read_text(encoding="utf-8")
    assert 'PYTHONMALLOC: "malloc"' in source and 'PYTHONUNBUFFERED: "1"' in source
    return {"PYTHONMALLOC": "malloc", "PYTHONUNBUFFERED": "1"}


def _neovim_env() -> dict[str, str]:
    """`cmd_env` of lsp/awl.lua (Neovim 0.11+) and of setup()'s client (0.10)."""
    for path in ("lsp/awl.lua", "lua/awl/lsp.lua"):
        text = (ROOT / "editors" / "nvim" / path).read_text(encoding="utf-8")
        assert 'cmd_env = { PYTHONMALLOC = vim.env.PYTHONMALLOC or "malloc" }' in text, path
    return {"PYTHONMALLOC": "malloc"}


def _helix() -> tuple[list[str], dict[str, str]]:
    config = tomllib.loads((ROOT / "editors" / "helix" / "languages.toml").read_text(encoding="utf-8"))
    server = config["language-server"]["awl"]
    assert server["command"] == "awl"
    return [str(AWL), *server["args"]], dict(server["environment"])


def _emacs() -> list[str]:
    """`awl-lsp-contact`: `awl-lsp-command` under env(1) with the C allocator."""
    text = (ROOT / "editors" / "emacs" / "awl-mode.el").read_text(encoding="utf-8")
    assert '(append \'("env" "PYTHONMALLOC=malloc") awl-lsp-command)' in text
    return ["env", "PYTHONMALLOC=malloc", str(AWL), "lsp"]


def _clients() -> list[tuple[str, list[str], dict[str, str]]]:
    python = sys.executable
    helix_cmd, helix_env = _helix()
    return [
        ("VS Code, awl on PATH or awl.server.path", [str(AWL), "lsp"], _vscode_env()),
        ("VS Code, awl.server.python", [python, "-m", "awl_lsp", "lsp"], _vscode_env()),
        (
            "VS Code, the bundled server's form",
            [python, "-s", "-m", "awl_lsp", "lsp"],
            dict(_vscode_env(), PYTHONNOUSERSITE="1"),
        ),
        ("Neovim", [str(AWL), "lsp"], _neovim_env()),
        ("Helix", helix_cmd, helix_env),
        ("Emacs", _emacs(), {}),
    ]


@pytest.mark.skipif(not AWL.exists(), reason="no `awl` script beside this Python (not a venv install)")
@pytest.mark.skipif(os.name != "posix", reason="the clients' POSIX forms (env(1), the awl script)")
@pytest.mark.parametrize("client", _clients(), ids=lambda c: c[0])
def test_it_serves_as_each_client_starts_it_without_re_executing(
    client: tuple[str, list[str], dict[str, str]],
) -> None:
    _, cmd, extra = client
    server = RawServer(cmd=cmd, env=_env(**extra))
    try:
        _serves(server)
        assert _imported(server).count("awl_lsp.cli.main") == 1  # one process: no re-execution
    finally:
        server.close()


def _closure(start: str) -> set[str]:
    """Every module of the package `start` may import, in functions too (a static walk)."""
    return {m for m in import_walk({start}, start) if m.startswith("awl_lsp") and _source(m) is not None}


def test_the_warm_up_loads_every_module_the_server_may_need() -> None:
    program = (
        "import sys, awl_lsp.server.language_server as s\n"
        "from awl_lsp.server.warm import warm_up\n"
        "warm_up(s.server.protocol)\n"
        "print(' '.join(m for m in sys.modules if m.startswith('awl_lsp')))\n"
    )
    run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    loaded = set(run.stdout.split())
    missing = sorted(_closure("awl_lsp.server.language_server") - loaded)
    assert not missing, f"add these to awl_lsp.server.warm.FEATURES (or ANALYSIS): {missing}"


def test_the_analysis_in_worker_threads_imports_nothing_once_analysis_is_loaded(tmp_path: Path) -> None:
    # the workspace index and a long document's first check run in worker threads; modules are
    # imported on the loop's thread only (`warm.ANALYSIS`, loaded before either starts)
    program = (
        "import sys\n"
        "from pathlib import Path\n"
        "from awl_lsp.server.warm import ANALYSIS, load\n"
        "load(ANALYSIS)\n"
        "before = {m for m in sys.modules if m.startswith('awl_lsp')}\n"
        "from awl_lsp.features.documents import OpenDocument\n"
        "from awl_lsp.features.diagnostics import diagnostics\n"
        "from awl_lsp.features.typing import type_env\n"
        "from awl_lsp.features.workspace_diagnostics import document_summary, unopened_diagnostics\n"
        "from awl_lsp.syntax import Encoding\n"
        "from awl_lsp.workspace import WorkspaceIndex\n"
        "roots = [Path(p) for p in sys.argv[1:]]\n"
        "index = WorkspaceIndex(roots)\n"
        "index.scan(None)\n"
        "for entry in index.entries.values():\n"
        "    unopened_diagnostics(entry, index, Encoding.UTF16)\n"
        "    snap = OpenDocument(entry.text, 1, entry.path, entry.path.parent).snapshot\n"
        "    diagnostics(snap, entry.uri, True)\n"
        "    document_summary(snap)\n"
        "    type_env(snap)\n"
        "print(len(index.entries))\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('awl_lsp') and m not in before)))\n"
    )
    roots = [str(EXAMPLES), str(ROOT / "tests" / "data" / "spec")]
    run = subprocess.run(
        [sys.executable, "-c", program, *roots], capture_output=True, text=True, timeout=600, cwd=tmp_path
    )
    assert run.returncode == 0, run.stderr[-2000:]
    analysed, *rest = run.stdout.splitlines()
    assert int(analysed) > 50  # (valid and invalid documents of every family)
    new = rest[0].split() if rest else []
    assert not new, f"add these to awl_lsp.server.warm.ANALYSIS: {new}"


def test_no_warm_up_step_runs_while_a_message_waits() -> None:
    async def scenario() -> list[str]:
        loop = asyncio.get_running_loop()
        order: list[str] = []
        waiting: list[str] = []

        def handle() -> None:  # the server's loop taking up the message that arrived
            order.append(f"answered {waiting.pop()}")

        def step(i: int) -> None:
            order.append(f"step {i}")
            if i == 1:  # a request arrives while step 1 runs; the loop takes it up a little later
                waiting.append("hover")
                loop.call_later(0.03, handle)

        warm = WarmUp([partial(step, i) for i in range(4)], busy=lambda: bool(waiting))
        warm.start()
        for _ in range(500):
            if warm.done:
                break
            await asyncio.sleep(0.01)
        assert warm.done and warm.ran == 4
        return order

    assert asyncio.run(scenario()) == ["step 0", "step 1", "answered hover", "step 2", "step 3"]


def _plain(value: object) -> object:
    return json.loads(json.dumps(default_converter().unstructure(value)))


def test_messages_right_after_initialized_are_answered_right_while_the_warm_up_runs() -> None:
    # an editor opening the file that launched the server: `didOpen` right behind `initialized`,
    # and requests right behind it, while the warm-up has only begun
    name = "broken_hatch.awl"
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    uri = (EXAMPLES / name).as_uri()
    word = text.index("    hatch fulfil") + 6  # (inside the keyword)
    at = lsp.Position(text[:word].count("\n"), word - text.rfind("\n", 0, word) - 1)
    server = RawServer(env=_env(PYTHONMALLOC="malloc"))
    try:
        result = server.request("initialize", {"processId": None, "capabilities": {}, "rootUri": None})
        assert "result" in result
        opened = {"textDocument": {"uri": uri, "languageId": "awl", "version": 1, "text": text}}
        where = {"textDocument": {"uri": uri}, "position": {"line": at.line, "character": at.character}}
        hover_id, hover_bytes = server.request_bytes("textDocument/hover", where)
        completion_id, completion_bytes = server.request_bytes("textDocument/completion", where)
        server.raw(
            b"".join(
                [
                    frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
                    frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": opened}),
                    hover_bytes,
                    completion_bytes,
                ]
            )
        )
        published = server.diagnostics(uri)
        hovered = server.response(hover_id)
        completed = server.response(completion_id)

        snap = analyse_text(text, EXAMPLES / name, EXAMPLES)
        assert published["diagnostics"] == _plain(diagnostics(snap, uri))
        assert published["diagnostics"]  # (the document has a problem to report)
        assert hovered["result"] == _plain(hover(snap, at, False))
        expected = completion_list(snap, at, False, False)
        assert [i["label"] for i in completed["result"]["items"]] == [i.label for i in expected.items]
        # and the warm-up goes on to the end afterwards: its last module is loaded
        deadline = time.monotonic() + 30
        while "awl_lsp.features.graph_layout" not in _imported(server) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert "awl_lsp.features.graph_layout" in _imported(server)
    finally:
        server.close()
