// Server discovery order: awl.server.path, awl.server.python, the Python extension's interpreter, `awl` on PATH.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "node:test";
import { discoverServer } from "../../src/discovery";

function sandbox(): { dir: string; exe: (name: string, exitCode?: number) => string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "awl-discovery-"));
  const exe = (name: string, exitCode = 0) => {
    const p = path.join(dir, name);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, `#!/bin/sh\nexit ${exitCode}\n`, { mode: 0o755 });
    return p;
  };
  return { dir, exe };
}

const none = { serverPath: "", serverPython: "", env: { PATH: "" } };

test("awl.server.path wins and is run as `<path> lsp`", async () => {
  const { exe } = sandbox();
  const awl = exe("bin/awl");
  const python = exe("py/python");
  const r = await discoverServer({ ...none, serverPath: awl, serverPython: python });
  assert.ok(r.ok);
  assert.deepEqual([r.server.command, r.server.args, r.server.source], [awl, ["lsp"], "awl.server.path"]);
});

test("awl.server.path expands ${workspaceFolder} and relative paths", async () => {
  const { dir, exe } = sandbox();
  const awl = exe(".venv/bin/awl");
  for (const setting of ["${workspaceFolder}/.venv/bin/awl", ".venv/bin/awl"]) {
    const r = await discoverServer({ ...none, serverPath: setting, workspaceFolder: dir });
    assert.ok(r.ok, setting);
    assert.equal(r.server.command, awl);
  }
});

test("a wrong awl.server.path is reported, not skipped", async () => {
  const { exe } = sandbox();
  const onPath = exe("bin/awl");
  const r = await discoverServer({ ...none, serverPath: "/nowhere/awl", env: { PATH: path.dirname(onPath) } });
  assert.ok(!r.ok);
  assert.equal(r.setting, "awl.server.path");
  assert.match(r.message, /\/nowhere\/awl/);
});

test("awl.server.python is run as `<python> -m awl_lsp lsp`", async () => {
  const { exe } = sandbox();
  const python = exe("py/python3");
  const r = await discoverServer({ ...none, serverPython: python });
  assert.ok(r.ok);
  assert.deepEqual([r.server.command, r.server.args], [python, ["-m", "awl_lsp", "lsp"]]);
});

test("the Python extension's interpreter is used when it can import awl_lsp", async () => {
  const { exe } = sandbox();
  const good = exe("good/python", 0);
  const onPath = exe("bin/awl");
  const r = await discoverServer({ ...none, env: { PATH: path.dirname(onPath) }, pythonFromExtension: async () => good });
  assert.ok(r.ok);
  assert.deepEqual([r.server.command, r.server.args], [good, ["-m", "awl_lsp", "lsp"]]);
});

test("an interpreter without awl_lsp falls through to `awl` on PATH", async () => {
  const { exe } = sandbox();
  const bad = exe("bad/python", 1);
  const onPath = exe("bin/awl");
  const r = await discoverServer({ ...none, env: { PATH: path.dirname(onPath) }, pythonFromExtension: async () => bad });
  assert.ok(r.ok);
  assert.deepEqual([r.server.command, r.server.args, r.server.source], [onPath, ["lsp"], "PATH"]);
  assert.match(r.notes.join("\n"), /cannot import awl_lsp/);
});

test("nothing found: an error naming the settings", async () => {
  const r = await discoverServer({ ...none, pythonFromExtension: async () => undefined });
  assert.ok(!r.ok);
  assert.equal(r.setting, "awl.server");
  assert.match(r.message, /awl\.server\.path/);
});
