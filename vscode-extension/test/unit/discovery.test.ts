// Server discovery order: awl.server.path, awl.server.python, the Python extension's interpreter, `awl` on PATH.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "node:test";
import { discoverServer, serverEnvironment } from "../../src/discovery";

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

test("nothing found: an error naming the setting, not promising a package index", async () => {
  const r = await discoverServer({ ...none, pythonFromExtension: async () => undefined });
  assert.ok(!r.ok);
  assert.equal(r.setting, "awl.server.path");
  assert.match(r.message, /awl\.server\.path/);
  assert.doesNotMatch(r.message, /pip install awl-lsp/);
});

// ---------------------------------------------------------------- the bundled server

/** A fake bundled/libs folder and a fake interpreter that reports `version` ("3 12"). */
function bundle(dir: string): string {
  const libs = path.join(dir, "bundled", "libs");
  fs.mkdirSync(path.join(libs, "awl_lsp"), { recursive: true });
  fs.mkdirSync(path.join(libs, "tree_sitter_awl"), { recursive: true });
  fs.writeFileSync(path.join(libs, "awl_lsp", "__init__.py"), "");
  return libs;
}

function python(dir: string, rel: string, version: string): string {
  const p = path.join(dir, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, `#!/bin/sh\necho "${version}"\n`, { mode: 0o755 });
  return p;
}

test("the bundled server runs with python3 from PATH, its libs on PYTHONPATH", async () => {
  const { dir, exe } = sandbox();
  const libs = bundle(dir);
  const py = python(dir, "bin/python3", "3 12");
  exe("bin/awl"); // an `awl` on PATH does not beat the bundle
  const r = await discoverServer({ ...none, env: { PATH: path.dirname(py) }, bundledLibs: libs });
  assert.ok(r.ok);
  assert.equal(r.server.command, py);
  assert.deepEqual(r.server.args, ["-s", "-m", "awl_lsp", "lsp"]);
  assert.equal(r.server.env?.PYTHONPATH, libs);
  assert.match(r.server.source, /bundled server, python3 on PATH \(Python 3\.12\)/);
});

test("the bundled server prefers the Python extension's interpreter", async () => {
  const { dir } = sandbox();
  const libs = bundle(dir);
  const onPath = python(dir, "bin/python3", "3 12");
  const selected = python(dir, "venv/bin/python", "3 11");
  const r = await discoverServer({
    ...none, env: { PATH: path.dirname(onPath) }, bundledLibs: libs, pythonFromExtension: async () => selected,
  });
  assert.ok(r.ok);
  assert.equal(r.server.command, selected);
  assert.match(r.server.source, /Python extension/);
});

test("a Python older than 3.11 is passed over for the next one", async () => {
  const { dir } = sandbox();
  const libs = bundle(dir);
  const old = python(dir, "venv/bin/python", "3 9");
  const good = python(dir, "bin/python3", "3 13");
  const r = await discoverServer({
    ...none, env: { PATH: path.dirname(good) }, bundledLibs: libs, pythonFromExtension: async () => old,
  });
  assert.ok(r.ok);
  assert.equal(r.server.command, good);
  assert.match(r.notes.join("\n"), /Python 3\.9; the bundled server needs Python >= 3\.11/);
});

test("a bundle without a usable Python says so, and awl.server.path still overrides it", async () => {
  const { dir, exe } = sandbox();
  const libs = bundle(dir);
  const py = python(dir, "bin/python3", "3 10");
  const r = await discoverServer({ ...none, env: { PATH: path.dirname(py) }, bundledLibs: libs });
  assert.ok(!r.ok);
  assert.equal(r.setting, "awl.server.path");
  assert.match(r.message, /needs Python >= 3\.11/);
  const awl = exe("elsewhere/awl");
  const o = await discoverServer({ ...none, serverPath: awl, env: { PATH: path.dirname(py) }, bundledLibs: libs });
  assert.ok(o.ok);
  assert.deepEqual([o.server.command, o.server.source], [awl, "awl.server.path"]);
});

test("the server runs under the C allocator, so it need not re-execute itself to get it", () => {
  const env = serverEnvironment({ PATH: "/bin", HOME: "/home/me" }, { PYTHONPATH: "/libs" });
  assert.deepEqual(env, {
    PATH: "/bin", HOME: "/home/me", PYTHONPATH: "/libs", PYTHONMALLOC: "malloc", PYTHONUNBUFFERED: "1",
  });
  // an allocator the user chose (a debug one, say) is kept
  assert.equal(serverEnvironment({ PYTHONMALLOC: "pymalloc_debug" }).PYTHONMALLOC, "pymalloc_debug");
});
