// The flow-graph webview page: nothing is loaded from anywhere, and only its own nonce'd code runs.
import { strict as assert } from "node:assert";
import { test } from "node:test";
import { graphHtml, nonce } from "../../src/graphPage";

const CSP_SOURCE = "https://file+.vscode-resource.vscode-cdn.net";

function csp(html: string): string {
  const m = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html);
  assert.ok(m, "the page declares a content-security policy");
  return m[1];
}

test("the policy denies everything by default and allows scripts and styles only by nonce", () => {
  const n = nonce();
  const policy = csp(graphHtml(CSP_SOURCE, n));
  assert.match(policy, /default-src 'none'/);
  assert.match(policy, new RegExp(`script-src 'nonce-${n}';`));
  assert.match(policy, new RegExp(`style-src 'nonce-${n}';`));
  assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval|connect-src|https?:\/\/(?!file\+)/);
});

test("every script and style element carries the nonce, and nothing is fetched", () => {
  const n = nonce();
  const html = graphHtml(CSP_SOURCE, n);
  const scripts = html.match(/<script[^>]*>/g) ?? [];
  const styles = html.match(/<style[^>]*>/g) ?? [];
  assert.equal(scripts.length, 1);
  assert.equal(styles.length, 1);
  for (const tag of [...scripts, ...styles]) {
    assert.ok(tag.includes(`nonce="${n}"`), tag);
  }
  assert.doesNotMatch(html, /<script[^>]+src=|<link[^>]+href=|@import|url\(http/);
});

test("each page gets a fresh nonce", () => {
  assert.notEqual(nonce(), nonce());
  assert.match(nonce(), /^[A-Za-z0-9]{32}$/);
});

test("the theme's colours style the drawing", () => {
  const html = graphHtml(CSP_SOURCE, nonce());
  for (const variable of ["--vscode-editor-foreground", "--vscode-editor-background", "--vscode-focusBorder"]) {
    assert.ok(html.includes(`var(${variable}`), variable);
  }
});
