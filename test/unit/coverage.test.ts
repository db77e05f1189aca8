import { test } from "uvu";
import * as assert from "uvu/assert";
import { AGENT_PROFILES } from "../../src/hosts/index.js";
import { defaultConfig } from "../../src/core/config.js";
import { coverageDiff, ruleChangeLine } from "../../src/core/coverage/diff.js";
import { coverageModel, REPRESENTATIVE, type CoverageInput } from "../../src/core/coverage/model.js";
import { dirOf } from "../../src/core/rel-path.js";
import { locateOptionsOf, sourceLocator } from "../../src/core/sources/index.js";
import { select } from "../helpers/tree.js";

const fm = (fields: string, body: string) => `---\n${fields}\n---\n${body}\n`;
const AGENTS = ["claude-code", "codex", "cursor", "copilot"];

/** The model for a tree of instruction files and the other files git tracks, as the CLI would give it. */
function input(rules: Record<string, string>, code: string[]): CoverageInput {
  const config = defaultConfig();
  const locate = sourceLocator(locateOptionsOf(config));
  return {
    candidates: select(rules, { all: true }).candidates,
    plainReasons: new Map(),
    tracked: [...Object.keys(rules), ...code],
    profiles: AGENTS.map((a) => AGENT_PROFILES[a]!),
    integrated: new Set(["claude-code", "codex"]),
    findings: [],
    anchorOf: (path) => locate(path)?.anchor ?? dirOf(path),
    isInstruction: (path) => locate(path) !== null,
  };
}

const TREE = {
  "AGENTS.md": "# Root\nBe kind to reviewers.\n",
  ".cursor/rules/api.mdc": fm('globs: "packages/api/**"', "Validate every request body."),
};
const CODE = ["packages/api/src/a.ts", "packages/api/src/b.ts", "packages/api/src/deep/c.ts", "packages/web/src/x.ts", "README.txt"];

test("a Cursor rule for one package: Cursor loads it there, the hooked agents get it from ctxinject, Copilot never sees it", () => {
  const { model, every } = coverageModel(input(TREE, CODE));
  const row = (path: string) => model.folders.find((f) => f.path === path)!;
  const cell = (path: string, agent: string) => model.cells[every.get(path)![agent]!]!;
  const api = "packages/api/src";
  assert.equal(cell(api, "cursor").loads.map((i) => i.file), [".cursor/rules/api.mdc", "AGENTS.md"]);
  assert.match(cell(api, "cursor").loads[0]!.reason, /Cursor applies it itself/);
  assert.equal(cell(api, "claude-code").adds.map((i) => [i.file, i.reason]), [[".cursor/rules/api.mdc", `glob packages/api/** matches ${REPRESENTATIVE}`]]);
  assert.equal(row(api).representative, "packages/api/src/a.ts");
  assert.equal(cell(api, "codex").adds.map((i) => i.file), [".cursor/rules/api.mdc"]);
  assert.equal(cell(api, "copilot").loads.map((i) => i.file), ["AGENTS.md"]);
  assert.equal(cell(api, "copilot").adds, []);
  assert.equal(cell(api, "copilot").findings.map((f) => [f.kind, f.file, f.message]), [["not-seen", ".cursor/rules/api.mdc", "applies here for claude-code, codex, cursor; copilot never sees it"]]);
  // The other package: nobody gets the rule, and the tokens say so.
  assert.equal(cell("packages/web/src", "cursor").loads.map((i) => i.file), ["AGENTS.md"]);
  assert.ok(cell(api, "claude-code").tokens > cell("packages/web/src", "claude-code").tokens);
  const rule = model.rules.find((r) => r.file === ".cursor/rules/api.mdc")!;
  assert.equal(rule, { file: ".cursor/rules/api.mdc", source: "rules-injector", kind: "auto", files: 3, agents: { "claude-code": "adds", codex: "adds", cursor: "loads", copilot: "never" } });
});

test("folders where nothing changes below are collapsed into one row that counts them", () => {
  const { model, every } = coverageModel(input(TREE, CODE));
  assert.equal(model.folders.map((f) => [f.path, f.hidden]), [["", 0], ["packages", 0], ["packages/api", 0], ["packages/api/src", 1], ["packages/web", 1]]);
  // Every folder is still worked out (for --base), the collapsed ones too.
  assert.ok(every.has("packages/api/src/deep"));
});

test("the model is deterministic: the same input gives the same JSON", () => {
  assert.is(JSON.stringify(coverageModel(input(TREE, CODE)).model), JSON.stringify(coverageModel(input(TREE, [...CODE].reverse())).model));
});

test("a change that adds a rule: which folders gain it for which agent, and how many more files it reaches per agent", () => {
  const before = coverageModel(input({ "AGENTS.md": TREE["AGENTS.md"] }, CODE));
  const after = coverageModel(input(TREE, CODE));
  const diff = coverageDiff("main", before, after);
  assert.equal(diff.folders.map((c) => [c.folder, c.agent, c.gained]), [
    ["packages/api/src", "claude-code", [".cursor/rules/api.mdc"]],
    ["packages/api/src", "codex", [".cursor/rules/api.mdc"]],
    ["packages/api/src", "cursor", [".cursor/rules/api.mdc"]],
  ]);
  assert.ok(diff.folders.every((c) => c.tokens > 0));
  assert.is(ruleChangeLine(diff.rules[0]!), "this change makes .cursor/rules/api.mdc apply to 3 more files for claude-code, codex, cursor; copilot never sees it");
});
test.run();
