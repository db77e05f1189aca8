import { test } from "uvu";
import * as assert from "uvu/assert";
import { AGENT_PROFILES } from "../../src/hosts/index.js";
import { defaultConfig } from "../../src/core/config.js";
import { coverageDiff, ruleChangeLine } from "../../src/core/coverage/diff.js";
import { coverageModel, REPRESENTATIVE, type Coverage, type CoverageInput, type CoverageModel } from "../../src/core/coverage/model.js";
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

/** A cell's entries, by their index into the model's items. */
const entries = (model: CoverageModel, ids: number[]) => ids.map((i) => model.items[i]!);
/** A folder's cell for an agent: `every` lists a folder's cells in the model's agent order. */
const cellAt = ({ model, every }: Coverage, path: string, agent: string) => model.cells[every.get(path)![model.agents.findIndex((a) => a.name === agent)]!]!;

const TREE = {
  "AGENTS.md": "# Root\nBe kind to reviewers.\n",
  ".cursor/rules/api.mdc": fm('globs: "packages/api/**"', "Validate every request body."),
};
const CODE = ["packages/api/src/a.ts", "packages/api/src/b.ts", "packages/api/src/deep/c.ts", "packages/web/src/x.ts", "README.txt"];

test("a Cursor rule for one package: Cursor loads it there, the hooked agents get it from ctxinject, Copilot never sees it", () => {
  const coverage = coverageModel(input(TREE, CODE));
  const { model } = coverage;
  const row = (path: string) => model.folders.find((f) => f.path === path)!;
  const cell = (path: string, agent: string) => {
    const c = cellAt(coverage, path, agent);
    return { ...c, loads: entries(model, c.loads), adds: entries(model, c.adds) };
  };
  const api = "packages/api/src";
  assert.equal(
    cell(api, "cursor").loads.map((i) => i.file),
    [".cursor/rules/api.mdc", "AGENTS.md"],
  );
  assert.match(cell(api, "cursor").loads[0]!.reason, /Cursor applies it itself/);
  assert.equal(
    cell(api, "claude-code").adds.map((i) => [i.file, i.reason]),
    [[".cursor/rules/api.mdc", `glob packages/api/** matches ${REPRESENTATIVE}`]],
  );
  assert.equal(row(api).representative, "packages/api/src/a.ts");
  assert.equal(
    cell(api, "codex").adds.map((i) => i.file),
    [".cursor/rules/api.mdc"],
  );
  assert.equal(
    cell(api, "copilot").loads.map((i) => i.file),
    ["AGENTS.md"],
  );
  assert.equal(cell(api, "copilot").adds, []);
  assert.equal(
    cell(api, "copilot").findings.map((f) => [f.kind, f.file, f.files, f.message]),
    [["not-seen", ".cursor/rules/api.mdc", [".cursor/rules/api.mdc"], "1 file that applies here for other agents: copilot never sees it"]],
  );
  // The other package: nobody gets the rule, and the tokens say so.
  assert.equal(
    cell("packages/web/src", "cursor").loads.map((i) => i.file),
    ["AGENTS.md"],
  );
  assert.ok(cell(api, "claude-code").tokens > cell("packages/web/src", "claude-code").tokens);
  const rule = model.rules.find((r) => r.file === ".cursor/rules/api.mdc")!;
  assert.equal(rule, {
    file: ".cursor/rules/api.mdc",
    source: "rules-injector",
    kind: "auto",
    files: 3,
    agents: { "claude-code": "adds", codex: "adds", cursor: "loads", copilot: "never" },
  });
});

test("folders where nothing changes below are collapsed into one row that counts them", () => {
  const { model, every } = coverageModel(input(TREE, CODE));
  assert.equal(
    model.folders.map((f) => [f.path, f.hidden]),
    [
      ["", 0],
      ["packages", 0],
      ["packages/api", 0],
      ["packages/api/src", 1],
      ["packages/web", 1],
    ],
  );
  // Every folder is still worked out (for --base), the collapsed ones too.
  assert.ok(every.has("packages/api/src/deep"));
});

test("the model is deterministic: the same input gives the same JSON", () => {
  assert.is(JSON.stringify(coverageModel(input(TREE, CODE)).model), JSON.stringify(coverageModel(input(TREE, [...CODE].reverse())).model));
});

test("the model's sentences for a reader have no space before a comma, a semicolon or a full stop", () => {
  const { model } = coverageModel(input(TREE, CODE));
  const sentences = [model.representative, ...model.items.map((i) => i.reason), ...model.cells.flatMap((c) => c.findings.map((f) => f.message))];
  for (const text of sentences) assert.not.match(text, / [,;.](?:\s|$)/, text);
});

test("a change that adds a rule: which folders gain it for which agent, and how many more files it reaches per agent", () => {
  const before = coverageModel(input({ "AGENTS.md": TREE["AGENTS.md"] }, CODE));
  const after = coverageModel(input(TREE, CODE));
  const diff = coverageDiff("main", before, after);
  assert.equal(
    diff.folders.map((c) => [c.folder, c.agent, c.gained]),
    [
      ["packages/api/src", "claude-code", [".cursor/rules/api.mdc"]],
      ["packages/api/src", "codex", [".cursor/rules/api.mdc"]],
      ["packages/api/src", "cursor", [".cursor/rules/api.mdc"]],
    ],
  );
  assert.ok(diff.folders.every((c) => c.tokens > 0));
  assert.is(
    ruleChangeLine(diff.rules[0]!),
    "this change makes .cursor/rules/api.mdc apply to 3 more files for claude-code, codex, cursor; copilot never sees it",
  );
});
test("one not-seen finding per cell names every file the agent never sees there, and each entry is written once for every cell", () => {
  const tree = { ...TREE, ".claude/rules/api.md": fm('paths:\n  - "packages/api/**"', "Log every request id.") };
  const coverage = coverageModel(input(tree, CODE));
  const { model } = coverage;
  const copilot = cellAt(coverage, "packages/api/src", "copilot");
  assert.equal(
    copilot.findings.map((f) => [f.kind, f.file, f.files]),
    [["not-seen", ".claude/rules/api.md", [".claude/rules/api.md", ".cursor/rules/api.mdc"]]],
  );
  const keys = model.items.map((i) => `${i.file}\n${i.reason}\n${i.by ?? ""}`);
  assert.is(new Set(keys).size, keys.length);
  // The root AGENTS.md as Cursor reads it: one entry, listed by every Cursor cell.
  const agents = model.items.filter((i) => i.file === "AGENTS.md" && /^Cursor/.test(i.reason));
  assert.is(agents.length, 1);
});

const LINES = Array.from({ length: 10 }, (_, i) => `- Handler rule ${i + 1}: validate the body, log the request id, answer with a typed result.`);

test("a rule whose text an agent gets through another file (the same text, or a near copy) is no 'never' for it, and the hook adds one copy", () => {
  const tree = {
    "AGENTS.md": "# Root\nBe kind to reviewers.\n",
    ".cursor/rules/api.mdc": fm('globs: "packages/api/**"', LINES.join("\n")),
    // A near copy: one line of ten changed for Claude Code.
    ".claude/rules/api.md": fm(
      'paths:\n  - "packages/api/**"',
      [...LINES.slice(0, 9), "- Claude Code: run the handler tests before you stop, and say which ones ran."].join("\n"),
    ),
    ".cursor/rules/naming.mdc": fm("alwaysApply: true", "Name files in kebab-case."),
    ".claude/rules/naming.md": "Name files in kebab-case.\n",
  };
  const coverage = coverageModel(input(tree, CODE));
  const { model } = coverage;
  const rule = (file: string) => model.rules.find((r) => r.file === file)!;
  assert.equal(rule(".claude/rules/api.md").agents, { "claude-code": "loads", codex: "copy", cursor: "copy", copilot: "never" });
  assert.equal(rule(".claude/rules/api.md").copies, { codex: ".cursor/rules/api.mdc", cursor: ".cursor/rules/api.mdc" });
  assert.equal(rule(".cursor/rules/api.mdc").agents, { "claude-code": "copy", codex: "adds", cursor: "loads", copilot: "never" });
  assert.equal(rule(".cursor/rules/naming.mdc").copies, { "claude-code": ".claude/rules/naming.md" });
  const cell = (agent: string) => cellAt(coverage, "packages/api/src", agent);
  // Cursor has both texts (its own copies): nothing it never sees; Copilot sees neither.
  assert.equal(cell("cursor").findings, []);
  assert.equal(
    cell("copilot").findings.map((f) => f.files),
    [[".claude/rules/api.md", ".claude/rules/naming.md", ".cursor/rules/api.mdc", ".cursor/rules/naming.mdc"]],
  );
  // Codex gets one copy of each text from the hook, not two.
  assert.equal(
    entries(model, cell("codex").adds).map((i) => i.file),
    [".cursor/rules/api.mdc", ".cursor/rules/naming.mdc"],
  );
});

test("a rule's `**/name` pattern is matched once per file name, not once per file, and counts the same files", () => {
  let tests = 0;
  const linear = (source: string) => {
    const re = new RegExp(source);
    return { exec: (text: string) => re.exec(text) as [string] | null, test: (text: string) => (tests++, re.test(text)) };
  };
  const code = Array.from({ length: 60 }, (_, i) => [`src/m${i}/a.test.ts`, `src/m${i}/a.ts`]).flat();
  const { model } = coverageModel({ ...input({ ".cursor/rules/t.mdc": fm('globs: "**/*.test.*"', "Test rule.") }, code), linear });
  assert.is(model.rules.find((r) => r.file === ".cursor/rules/t.mdc")!.files, 60);
  // Two names (and a file at the top is matched apart from nested ones): 120 files were 120+ matches.
  assert.ok(tests <= 6, `${tests} matches`);
});

test.run();
