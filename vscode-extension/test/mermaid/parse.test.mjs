// `awl graph --format mermaid` (and the `mermaid` text of the awl/graph request) is read by Mermaid's
// own parser, from npm: every document we have must give a flowchart Mermaid accepts.
//   AWL=/path/to/awl node --test test/mermaid/parse.test.mjs
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { JSDOM } from "jsdom";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../../..");
const awl = process.env.AWL ?? path.join(repo, ".venv/bin/awl");

const dom = new JSDOM("<!DOCTYPE html><body></body>");
globalThis.window = dom.window;
globalThis.document = dom.window.document;
const mermaid = (await import("mermaid")).default;
mermaid.initialize({ startOnLoad: false });

const documents = [
  ...fs.readdirSync(path.join(repo, "examples")).map((f) => path.join(repo, "examples", f)),
  ...fs.readdirSync(path.join(repo, "tests/data/graph")).map((f) => path.join(repo, "tests/data/graph", f)),
].filter((f) => f.endsWith(".awl"));

test("there are documents to draw", () => {
  assert.ok(documents.length >= 4, documents.join(", "));
});

for (const doc of documents) {
  test(`Mermaid parses the graph of ${path.relative(repo, doc)}`, async () => {
    const text = execFileSync(awl, ["graph", "--format", "mermaid", doc], { encoding: "utf8" });
    assert.match(text, /^flowchart TD\n/);
    const result = await mermaid.parse(text);
    assert.equal(result.diagramType, "flowchart-v2");
  });
}

test("the parser is a real judge: broken Mermaid is refused", async () => {
  assert.equal(await mermaid.parse("flowchart TD\n  a -->|unclosed b\n", { suppressErrors: true }), false);
});
