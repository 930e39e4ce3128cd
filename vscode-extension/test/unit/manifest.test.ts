// What package.json promises a user with no settings: 2-space [awl] defaults, server settings that
// apply from the User settings (also in remote windows) and stay restricted in untrusted workspaces,
// and a package that carries bundled/ (the server of a platform-specific .vsix).
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";

const ROOT = path.resolve(__dirname, "../..");
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));

test("[awl] files default to 2-space indentation without detection", () => {
  assert.deepEqual(manifest.contributes.configurationDefaults["[awl]"], {
    "editor.tabSize": 2,
    "editor.insertSpaces": true,
    "editor.detectIndentation": false,
  });
});

test("server settings are window-scoped and restricted in untrusted workspaces", () => {
  const props = manifest.contributes.configuration.properties;
  for (const key of ["awl.server.path", "awl.server.python"]) {
    assert.equal(props[key].scope, "window", key);
    assert.ok(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations.includes(key), key);
  }
});

test("the package keeps bundled/ (the server) and drops Python caches", () => {
  const ignore = fs.readFileSync(path.join(ROOT, ".vscodeignore"), "utf8").split("\n");
  assert.ok(ignore.includes("!bundled/**"));
  assert.ok(ignore.includes("bundled/**/__pycache__/**"));
});
