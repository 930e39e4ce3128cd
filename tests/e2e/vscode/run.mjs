#!/usr/bin/env node
// End-to-end test of the AWL VS Code extension, as a user sees it: code-server with the packaged
// .vsix installed, driven by headless Chromium through playwright-core.
//
//   node tests/e2e/vscode/run.mjs --code-server PATH --vsix PATH [--keep]
//
// Starts from NO awl settings: the platform-specific .vsix carries its server (bundled/libs) and
// runs it with python3 from PATH. Opens workspace/inbox_watch.awl (a workloop whose hatch has no
// `key`) by clicking its Explorer row and checks: the status bar's language mode reads "AWL" and
// its indentation "Spaces: 2"; the server came from the bundle; an error squiggle shows and the Problems
// panel lists an entry mentioning `key`, once (the client pulls and the server pushes nothing);
// hovering `tolerance` shows the keyword reference's text;
// Ctrl+Space on a new line of the workloop header offers `carry` (not the `every` already
// written); after the server is killed, the extension starts a new one and hover answers again; a
// wrong awl.server.path typed into the User settings restarts the server at once (no reload) and
// gives an error message whose "Open Setting" button opens that setting; "AWL: Show Flow Graph"
// draws the document's graph in a webview, and clicking a step's node moves the cursor to it.
// Screenshots go to artifacts/vscode-*.png. Every wait is bounded; code-server is always killed.

import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "../../..");
const require = createRequire(path.join(REPO, "vscode-extension", "package.json"));
const { chromium } = require("playwright-core");

const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];
const DOC = "inbox_watch.awl";
const HOVER_PHRASE = "unconfirmed invariant alarms"; // keyword-reference.txt, the `tolerance` entry
const TOTAL_BUDGET_MS = 8 * 60 * 1000;

// ---------------------------------------------------------------- arguments and setup

function parseArgs(argv) {
  const out = { keep: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--keep") out.keep = true;
    else if (a === "--code-server") out.codeServer = argv[++i];
    else if (a === "--vsix") out.vsix = argv[++i];
    else die(`unknown argument ${a}`);
  }
  for (const k of ["codeServer", "vsix"]) {
    if (!out[k]) die("usage: run.mjs --code-server PATH --vsix PATH [--keep]");
  }
  return out;
}

function die(msg) {
  console.error(`e2e-vscode: ${msg}`);
  process.exit(2);
}

const args = parseArgs(process.argv.slice(2));
const ARTIFACTS = path.join(REPO, "artifacts");
fs.mkdirSync(ARTIFACTS, { recursive: true });
for (const f of fs.readdirSync(ARTIFACTS)) {
  if (/^vscode-.*\.(png|log)$/.test(f)) fs.rmSync(path.join(ARTIFACTS, f));
}
if (!fs.existsSync(CHROMIUM)) die(`${CHROMIUM} is missing (apt-get install chromium)`);
if (!fs.existsSync(args.vsix)) die(`no vsix at ${args.vsix} (make vsix)`);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "awl-e2e-vscode-"));
const userData = path.join(tmp, "user-data");
const extensions = path.join(tmp, "extensions");
const workspace = path.join(tmp, "workspace");
fs.mkdirSync(path.join(userData, "User"), { recursive: true });
fs.mkdirSync(workspace, { recursive: true });
fs.copyFileSync(path.join(HERE, "workspace", DOC), path.join(workspace, DOC));
fs.writeFileSync(path.join(tmp, "config.yaml"), "auth: none\ncert: false\n");
fs.writeFileSync(
  path.join(userData, "User", "settings.json"),
  JSON.stringify(
    {
      // No awl.server.* settings: the extension must find its own (bundled) server.
      "workbench.startupEditor": "none",
      "workbench.tips.enabled": false,
      "workbench.enableExperiments": false,
      "security.workspace.trust.enabled": false,
      "telemetry.telemetryLevel": "off",
      "update.mode": "none",
      "extensions.autoCheckUpdates": false,
      "extensions.autoUpdate": false,
      "extensions.ignoreRecommendations": true,
      "editor.hover.delay": 300,
      // the server's completions, not words from the document, are under test
      "editor.wordBasedSuggestions": "off",
      "editor.snippetSuggestions": "bottom",
    },
    null,
    2,
  ),
);

let codeServer; // the child process
const log = fs.openSync(path.join(ARTIFACTS, "vscode-code-server.log"), "w");
let browser;
const results = [];

function note(msg) {
  console.log(`e2e-vscode: ${msg}`);
}

// ---------------------------------------------------------------- cleanup, always

let cleaned = false;
async function cleanup() {
  if (cleaned) return;
  cleaned = true;
  try {
    if (browser) await Promise.race([browser.close(), sleep(10000)]);
  } catch {
    // the browser is gone already
  }
  killCodeServer();
  if (!args.keep) fs.rmSync(tmp, { recursive: true, force: true });
  else note(`kept ${tmp}`);
}

function killCodeServer() {
  if (!codeServer || codeServer.exitCode !== null) return;
  const pgid = codeServer.pid;
  try {
    process.kill(-pgid, "SIGTERM"); // its whole process group: node, extension host, the AWL server
  } catch {
    // already gone
  }
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    try {
      process.kill(-pgid, 0);
    } catch {
      return;
    }
    spawnSync("sleep", ["0.2"]);
  }
  try {
    process.kill(-pgid, "SIGKILL");
  } catch {
    // gone
  }
}

process.on("SIGINT", () => cleanup().then(() => process.exit(130)));
process.on("SIGTERM", () => cleanup().then(() => process.exit(143)));
process.on("exit", () => killCodeServer());
const watchdog = setTimeout(async () => {
  console.error(`e2e-vscode: FAILED: the whole run exceeded ${TOTAL_BUDGET_MS / 1000}s`);
  await cleanup();
  process.exit(1);
}, TOTAL_BUDGET_MS);
watchdog.unref();

// ---------------------------------------------------------------- helpers

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function httpOk(url) {
  return new Promise((resolve) => {
    const req = http.get(url, (res) => {
      res.resume();
      resolve(res.statusCode !== undefined && res.statusCode < 500);
    });
    req.on("error", () => resolve(false));
    req.setTimeout(2000, () => {
      req.destroy();
      resolve(false);
    });
  });
}

async function waitFor(what, fn, timeoutMs, intervalMs = 250) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await fn()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000}s waiting for ${what}`);
    await sleep(intervalMs);
  }
}

async function shot(page, name) {
  const file = path.join(ARTIFACTS, `vscode-${name}.png`);
  try {
    await page.screenshot({ path: file, timeout: 15000 });
    note(`screenshot ${path.relative(REPO, file)}`);
  } catch (e) {
    note(`screenshot ${name} failed: ${e.message}`);
  }
}

/** Runs one user-visible check; a failure is recorded and the run goes on to the next check. */
async function check(name, page, fn) {
  try {
    const detail = await fn();
    results.push({ name, ok: true });
    note(`PASS ${name}${detail ? ` (${detail})` : ""}`);
  } catch (e) {
    results.push({ name, ok: false, why: e.message });
    note(`FAIL ${name}: ${e.message}`);
    await shot(page, `fail-${name.replace(/[^a-z0-9]+/gi, "-").toLowerCase()}`);
  }
}

let installedDir = ""; // the extension's folder under `extensions`

/** Every "AWL Language Server" output channel log file of this run. */
function serverLogFiles() {
  const found = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.includes("AWL Language Server")) found.push(p);
    }
  };
  try {
    walk(path.join(userData, "logs"));
  } catch {
    // no logs yet
  }
  return found;
}

function serverLogText() {
  return serverLogFiles().map((f) => fs.readFileSync(f, "utf8")).join("\n");
}

/** The "AWL Language Server" output channel as logged by the extension host, for failure reports. */
function serverLogTail(lines = 40) {
  if (!fs.existsSync(path.join(userData, "logs"))) return "(no logs directory)";
  const found = serverLogFiles();
  if (!found.length) return "(no AWL Language Server log found)";
  return found
    .map((f) => {
      const text = fs.readFileSync(f, "utf8");
      fs.writeFileSync(path.join(ARTIFACTS, "vscode-awl-server.log"), text);
      return `--- ${path.basename(f)} (last ${lines} lines; whole log in artifacts/vscode-awl-server.log)\n` +
        text.split("\n").slice(-lines).join("\n");
    })
    .join("\n");
}

/** Pids of `<server> lsp` processes descended from our code-server. */
function serverPids() {
  const parentOf = (pid) => {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    } catch {
      return 0;
    }
  };
  const ours = (pid) => {
    for (let p = pid, hops = 0; p > 1 && hops < 20; p = parentOf(p), hops++) {
      if (p === codeServer.pid) return true;
    }
    return false;
  };
  const pids = [];
  for (const d of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const argv = fs.readFileSync(`/proc/${d}/cmdline`, "utf8").split("\0");
      const isServer = argv.includes("awl_lsp") && argv.includes("-m") && argv.includes("lsp");
      if (isServer && ours(Number(d))) pids.push(Number(d));
    } catch {
      // the process ended meanwhile
    }
  }
  return pids;
}

async function hoverShows(page, editor, phrase) {
  const word = editor.locator(".view-line span > span").filter({ hasText: /^tolerance$/ }).first();
  await word.waitFor({ state: "visible", timeout: 10000 });
  const hover = page.locator(".monaco-hover:visible", { hasText: phrase });
  let how = "";
  // Point at the word the way a user does, again if the server is still starting (up to 4 tries).
  for (let attempt = 1; attempt <= 4 && !how; attempt++) {
    await page.mouse.move(5, 5);
    await sleep(300);
    await word.hover();
    try {
      await hover.first().waitFor({ state: "visible", timeout: 6000 });
      how = attempt === 1 ? "mouse hover" : `mouse hover, try ${attempt}`;
    } catch {
      // not shown (yet)
    }
  }
  if (!how) {
    // The mouse hover did not show it; ask with the keyboard, as a user could (Ctrl+K Ctrl+I).
    await word.click();
    await page.keyboard.press("Control+K");
    await page.keyboard.press("Control+I");
    await hover.first().waitFor({ state: "visible", timeout: 10000 });
    how = "Ctrl+K Ctrl+I";
  }
  await sleep(600); // let the hover finish fading in before a screenshot
  return { how, text: (await hover.first().innerText()).replace(/\s+/g, " ").trim() };
}

// ---------------------------------------------------------------- the run

async function main() {
  // 1. Install the packaged extension into a fresh extensions folder.
  note(`installing ${path.basename(args.vsix)}`);
  const install = spawnSync(
    args.codeServer,
    ["--user-data-dir", userData, "--extensions-dir", extensions, "--config", path.join(tmp, "config.yaml"),
      "--install-extension", args.vsix, "--force"],
    { encoding: "utf8", timeout: 180000 },
  );
  fs.writeSync(log, `$ code-server --install-extension\n${install.stdout}\n${install.stderr}\n`);
  if (install.status !== 0) {
    throw new Error(`code-server --install-extension failed (${install.status ?? install.error}): ${install.stderr}`);
  }
  const installed = fs.readdirSync(extensions).filter((d) => d.startsWith("awl-lsp.awl-"));
  if (!installed.length) throw new Error(`the extension is not in ${extensions} after install`);
  installedDir = installed[0];
  note(`installed ${installed.join(", ")}`);

  // 2. Serve on a free loopback port.
  const port = await freePort();
  codeServer = spawn(
    args.codeServer,
    ["--bind-addr", `127.0.0.1:${port}`, "--auth", "none", "--disable-telemetry", "--disable-update-check",
      "--disable-workspace-trust", "--user-data-dir", userData, "--extensions-dir", extensions,
      "--config", path.join(tmp, "config.yaml"), workspace],
    { detached: true, stdio: ["ignore", log, log] },
  );
  const base = `http://127.0.0.1:${port}`;
  await waitFor("code-server to answer /healthz", async () => {
    if (codeServer.exitCode !== null) throw new Error(`code-server exited with ${codeServer.exitCode}`);
    return httpOk(`${base}/healthz`);
  }, 60000);
  note(`code-server is up on ${base}`);

  // 3. Open the workspace in headless Chromium.
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 60000 });
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(30000);
  await page.goto(`${base}/?folder=${encodeURIComponent(workspace)}`, { timeout: 60000 });
  await page.locator(".monaco-workbench").waitFor({ state: "visible", timeout: 60000 });

  // 4. Open the document by clicking its Explorer row.
  const row = page.locator(".explorer-folders-view .monaco-list-row", { hasText: DOC });
  try {
    await row.waitFor({ state: "visible", timeout: 20000 });
  } catch {
    await page.keyboard.press("Control+Shift+E"); // the Explorer was not showing
    await row.waitFor({ state: "visible", timeout: 20000 });
  }
  await row.click();
  const editor = page.locator(".editor-instance .monaco-editor").first();
  await editor.locator(".view-lines", { hasText: "workloop inbox_watch" }).waitFor({ state: "visible", timeout: 30000 });
  note(`opened ${DOC}`);

  await check("language mode is AWL", page, async () => {
    const mode = page.locator('[id="status.editor.mode"]');
    await waitFor('the status bar language mode to read "AWL"', async () => (await mode.innerText()).trim() === "AWL", 30000);
    return `status bar shows "${(await mode.innerText()).trim()}"`;
  });

  await check("new .awl files indent with 2 spaces (configurationDefaults)", page, async () => {
    const indent = page.locator('[id="status.editor.indentation"]');
    await waitFor('the status bar to read "Spaces: 2"', async () => (await indent.innerText()).trim() === "Spaces: 2", 30000);
    return `status bar shows "${(await indent.innerText()).trim()}"`;
  });

  await check("the server is the one bundled in the .vsix", page, async () => {
    let line = "";
    await waitFor("the extension to log where its server came from", async () => {
      const log = serverLogText();
      line = log.split("\n").find((l) => l.includes("[client] Starting")) ?? "";
      return line !== "";
    }, 60000);
    if (!line.includes("bundled server")) throw new Error(`the server did not come from the bundle: ${line}`);
    // (while pyenv's python3 shim starts the server, its `$(…)` subshells carry the same command line)
    let pids = [];
    try {
      await waitFor("one running server", async () => (pids = serverPids()).length === 1, 20000);
    } catch {
      // reported just below
    }
    if (pids.length !== 1) throw new Error(`expected one running \`python -m awl_lsp lsp\`, found [${pids}]`);
    const environ = fs.readFileSync(`/proc/${pids[0]}/environ`, "utf8").split("\0");
    const env = environ.find((v) => v.startsWith("PYTHONPATH="));
    if (!env || !env.includes(path.join(extensions, installedDir, "bundled", "libs"))) {
      throw new Error(`the server's PYTHONPATH is not the extension's bundled/libs: ${env}`);
    }
    // the client gives it the C allocator, so it runs as started (re-executed, it would lose `-s`)
    const argv = fs.readFileSync(`/proc/${pids[0]}/cmdline`, "utf8").split("\0");
    if (!environ.includes("PYTHONMALLOC=malloc") || !argv.includes("-s")) {
      throw new Error(`the server is not running as started under PYTHONMALLOC=malloc: ${argv.join(" ")}`);
    }
    return line.replace(/^.*\[client\] /, "");
  });

  await check("error squiggle", page, async () => {
    await editor.locator(".squiggly-error").first().waitFor({ state: "attached", timeout: 60000 });
    return `${await editor.locator(".squiggly-error").count()} error decoration(s)`;
  });
  await shot(page, "editor");

  await check("Problems panel mentions key", page, async () => {
    await page.locator('[id="status.problems"]').click(); // the errors/warnings counter opens the panel
    const rows = page.locator(".markers-panel .monaco-list-row");
    await rows.first().waitFor({ state: "visible", timeout: 30000 });
    let texts = [];
    await waitFor("a Problems entry mentioning `key`", async () => {
      texts = await rows.allInnerTexts();
      return texts.some((t) => /\bkey\b/.test(t));
    }, 30000);
    return texts.find((t) => /\bkey\b/.test(t)).replace(/\s+/g, " ").trim();
  });
  await shot(page, "problems");

  // vscode-languageclient pulls diagnostics and the server then pushes none: pushed and pulled
  // reports would be two collections, each problem listed twice
  await check("each problem is listed once", page, async () => {
    await page.waitForTimeout(3000); // past a workspace pull (every 2 s) and any push on its way
    const texts = await page.locator(".markers-panel .monaco-list-row").allInnerTexts();
    const rows = texts.filter((t) => /has no `key`/.test(t));
    if (rows.length !== 1) {
      throw new Error(`the \`key\` problem is listed ${rows.length} times: ${texts.join(" | ")}`);
    }
    // (the server says so in its log: it offers pull to a client declaring pull and refresh)
    await waitFor("the server's log to say the client pulls diagnostics", async () =>
      serverLogText().includes("diagnostics: the client pulls them"), 15000);
    return `${texts.length} rows, the \`key\` problem once; diagnostics pulled`;
  });
  await page.keyboard.press("Escape");

  await check("hover on tolerance", page, async () => {
    const { how, text } = await hoverShows(page, editor, HOVER_PHRASE);
    return `${how}: "${text.slice(0, 120)}${text.length > 120 ? "…" : ""}"`;
  });
  await shot(page, "hover");
  await page.keyboard.press("Escape");

  await check("header completion offers carry, not the every already written", page, async () => {
    // A new empty line after `  input inbox: String`, inside the workloop header.
    const headerLine = editor.locator(".view-line", { hasText: "input inbox: String" }).first();
    await headerLine.click();
    await page.keyboard.press("End");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Control+Space");
    const suggest = page.locator(".suggest-widget.visible");
    await suggest.waitFor({ state: "visible", timeout: 20000 });
    let labels = [];
    await waitFor("`carry` in the suggest list", async () => {
      labels = (await suggest.locator(".monaco-list-row .label-name").allInnerTexts()).map((t) => t.trim());
      return labels.includes("carry");
    }, 20000);
    await sleep(300);
    // the header has `every 10m` already, and a second `every` is an error: not offered again
    if (labels.includes("every")) throw new Error(`\`every\` offered twice: ${labels.join(", ")}`);
    return `suggest list shows: ${labels.join(", ")}`;
  });
  await shot(page, "completion");
  await page.keyboard.press("Escape");

  await check("AWL: Show Flow Graph draws the document and reveals a clicked step", page, async () => {
    await editor.locator(".view-line", { hasText: "workloop inbox_watch" }).first().click();
    await page.keyboard.press("F1");
    await page.keyboard.type("AWL: Show Flow Graph");
    await page.keyboard.press("Enter");
    // the webview: an outer iframe holding the page's own frame
    const view = page.frameLocator("iframe.webview").frameLocator("iframe#active-frame");
    const step = view.locator('#graph .node.step[data-id="hand_out"]');
    await step.waitFor({ state: "visible", timeout: 30000 });
    const nodes = await view.locator("#graph .node").count();
    const edges = await view.locator("#graph path.edge").count();
    const hatch = await view.locator("#graph path.edge.hatch").count();
    if (hatch < 1) throw new Error(`no hatch edge drawn (${edges} edges)`);
    await shot(page, "flow-graph");
    await step.click();
    const cursor = page.locator('[id="status.editor.selection"]');
    const want = "Ln " + (fs.readFileSync(path.join(workspace, DOC), "utf8").split("\n").indexOf("step hand_out") + 1);
    await waitFor(`the cursor to move to ${want}`, async () => (await cursor.innerText()).includes(want), 20000);
    // close the view and go back to the top, as the next checks expect the editor
    const graphTab = page.locator(".tabs-container .tab", { hasText: "Flow:" }).first();
    await graphTab.hover();
    await graphTab.locator(".codicon-close").first().click();
    await page.keyboard.press("Control+Home");
    return `${nodes} nodes, ${edges} edges (${hatch} hatch); clicking hand_out moved the cursor to ${want}`;
  });

  await check("server restarts after a crash", page, async () => {
    const before = serverPids();
    if (before.length !== 1) throw new Error(`expected one running \`awl lsp\`, found pids [${before}]`);
    process.kill(before[0], "SIGKILL");
    let after = [];
    await waitFor("a new `awl lsp` process", async () => {
      after = serverPids().filter((p) => p !== before[0]);
      return after.length > 0;
    }, 30000);
    // The restarted server answers again: the hover comes back.
    const { how } = await hoverShows(page, editor, HOVER_PHRASE);
    return `killed pid ${before[0]}; restarted as pid ${after[0]}; hover answers again (${how})`;
  });
  await shot(page, "restarted");

  await check("a wrong awl.server.path shows an error that opens the setting", page, async () => {
    // Type a wrong path into the Settings editor (Ctrl+,), as a user would; the extension restarts the
    // server, fails to find it, and says so.
    const bad = path.join(tmp, "no-such-awl");
    await page.keyboard.press("Control+Comma");
    const settingsEditor = page.locator(".settings-editor");
    await settingsEditor.waitFor({ state: "visible", timeout: 20000 });
    await page.keyboard.type("awl.server.path");
    // The User tab: a user-level change must take effect without a window reload.
    await settingsEditor.locator(".settings-tabs-widget .action-label", { hasText: "User" }).first().click();
    const item = settingsEditor.locator(".setting-item-contents", { hasText: "Path to the" }).first();
    await item.waitFor({ state: "visible", timeout: 20000 });
    await item.locator("input").first().fill(bad);
    await page.keyboard.press("Tab");
    await page.locator(".tabs-container .tab", { hasText: DOC }).first().click(); // back to the document
    const toast = page.locator(".notification-toast", { hasText: "awl.server.path" }).first();
    await toast.waitFor({ state: "visible", timeout: 30000 });
    const message = (await toast.locator(".notification-list-item-message").innerText()).trim();
    if (!message.includes(bad)) throw new Error(`the error does not name the wrong path: "${message}"`);
    await shot(page, "error");
    await toast.getByRole("button", { name: "Open Setting" }).click();
    await item.waitFor({ state: "visible", timeout: 20000 });
    const shown = await item.locator("input").first().inputValue();
    if (shown !== bad) throw new Error(`the Settings editor shows "${shown}", not the wrong path`);
    return `"${message}" → Open Setting shows awl.server.path = ${shown}`;
  });
  await shot(page, "settings");
}

let crashed;
try {
  await main();
} catch (e) {
  crashed = e;
  console.error(`e2e-vscode: FAILED before all checks ran: ${e.message}`);
}
const failed = results.filter((r) => !r.ok);
if (crashed || failed.length) {
  console.error(serverLogTail());
  const cs = fs.readFileSync(path.join(ARTIFACTS, "vscode-code-server.log"), "utf8");
  console.error(`--- code-server log (last 20 lines; whole log in artifacts/vscode-code-server.log)\n${cs.split("\n").slice(-20).join("\n")}`);
} else {
  serverLogTail(); // keep the server log as an artifact
}
await cleanup();
for (const r of failed) console.error(`e2e-vscode: FAILED: ${r.name}: ${r.why}`);
const passed = results.length - failed.length;
const expected = 11;
console.log(`e2e-vscode: ${passed} passed, ${failed.length + (expected - results.length)} failed`);
process.exit(crashed || failed.length || results.length !== expected ? 1 : 0);
