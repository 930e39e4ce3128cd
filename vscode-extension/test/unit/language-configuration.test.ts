// Indentation and Enter rules of language-configuration.json, checked the way VS Code applies them.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";

const conf = JSON.parse(fs.readFileSync(path.join(__dirname, "../../language-configuration.json"), "utf8"));
const increase = new RegExp(conf.indentationRules.increaseIndentPattern);
const decrease = new RegExp(conf.indentationRules.decreaseIndentPattern);

test("indent after lines that open a block", () => {
  for (const line of [
    "workflow dev_brief",
    "workloop queue_watch",
    "workloop queue_watch // cadence below",
    "step dispatch",
    "  step polish after fetch, scan",
    "worker sweepers",
    "  fork task in found.tasks",
    "  fork task in found.tasks sequential",
    "  fork",
    "  loop round = Round(summary: \"\") counting cycles",
    "  distribute item in items",
    "  sequence page in pages",
    "  on failure",
    "retire",
    "  invariant serving: type Board",
    "subflow inner_polish(text: String)",
    "  action sweep(queue_dir: String, seen: [String]) -> Sweep",
    "  outcome spent: otherwise,",
    "type Round = schema {",
    "  broadcast(recipients: [",
  ]) {
    assert.ok(increase.test(line), line);
  }
});

test("no indent after lines that do not open a block", () => {
  for (const line of [
    "  every 25m",
    "  input queue_dir: String",
    "  carry seen: [String] = []",
    "  route start(seen: found.seen)",
    "  outcome idle: if found.tasks is empty, route start",
    "type Board { swept: Int }",
    "  sweep(queue_dir: queue_dir, seen: seen) -> found",
    "// step in a comment",
  ]) {
    assert.ok(!increase.test(line), line);
  }
});

test("join and closing brackets dedent", () => {
  for (const line of ["  join", "  join -> verdicts", "}", "  )"]) {
    assert.ok(decrease.test(line), line);
  }
  assert.ok(!decrease.test("  joined(x: y)"));
});

function onEnter(line: string): string | undefined {
  for (const rule of conf.onEnterRules) {
    if (new RegExp(rule.beforeText).test(line)) {
      return rule.action.appendText;
    }
  }
  return undefined;
}

test("Enter continues doc lines and narration, not plain comments", () => {
  assert.equal(onEnter("/// A fetched document."), "/// ");
  assert.equal(onEnter("  /// Where it was fetched from."), "/// ");
  assert.equal(onEnter("//! Poll a queue on cadence."), "//! ");
  assert.equal(onEnter("// a plain comment"), undefined);
  assert.equal(onEnter("//// a banner"), undefined);
});
