/**
 * `explain --as` and `build --as` for the hosts proven in test/hosts (issue 32), on the tree their real CLIs were
 * run on (fixtures/native-instructions): exactly the files each host loads by itself are marked as its own.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanup, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";

test.after(cleanup);

const READ = ["--files", "packages/api/src/handler.ts"];

/** The ids `explain --as AGENT --json` says the agent loads itself. */
async function own(agent: string, ...args: string[]): Promise<string[]> {
  const result = await runMain(["explain", "--json", "--as", agent, ...args], { cwd: materialize("native-instructions") });
  assert.is(result.status, 0, result.stderr);
  return (JSON.parse(result.stdout) as { candidates: Array<{ id: string; agent: { loads: boolean } }> }).candidates
    .filter((c) => c.agent.loads)
    .map((c) => c.id)
    .sort();
}

const ROOT_SKILLS = {
  agents: ".agents/skills/probe-agents/SKILL.md",
  claude: ".claude/skills/probe-claude/SKILL.md",
  github: ".github/skills/probe-github/SKILL.md",
};

const CASES: Array<[string, string[], string[]]> = [
  // [agent, at start, after reading packages/api/src/handler.ts]
  [
    "copilot-cli",
    [".github/copilot-instructions.md", "AGENTS.md", "CLAUDE.md", "GEMINI.md", ROOT_SKILLS.agents, ROOT_SKILLS.claude, ROOT_SKILLS.github],
    [".github/instructions/api.instructions.md", "packages/api/AGENTS.md", "packages/api/CLAUDE.md", "packages/api/GEMINI.md"],
  ],
  ["qwen-code", ["AGENTS.md", ROOT_SKILLS.agents], []],
  ["droid", ["AGENTS.md", "CLAUDE.md", ROOT_SKILLS.agents, ".factory/skills/probe-factory/SKILL.md"], ["packages/api/AGENTS.md", "packages/api/CLAUDE.md"]],
  ["cline", [".clinerules/style.md", "AGENTS.md"], []],
  [
    "kilo",
    [
      "AGENTS.md",
      ".kilocode/rules/logging.md",
      ROOT_SKILLS.agents,
      ROOT_SKILLS.claude,
      ".kilo/skills/probe-kilo/SKILL.md",
      ".kilocode/skills/probe-kilocode/SKILL.md",
    ],
    ["packages/api/AGENTS.md"],
  ],
  ["cursor-agent", [".cursor/rules/exports.mdc", "AGENTS.md", "CLAUDE.md"], ["packages/api/AGENTS.md"]],
];

for (const [agent, start, read] of CASES) {
  test(`explain --as ${agent} marks exactly what ${agent} loads itself, at start and after it reads a nested file`, async () => {
    assert.equal(await own(agent), [...start].sort());
    assert.equal(await own(agent, ...READ), [...start, ...read].sort());
  });
}

test("explain --as qwen (Qwen Code): QWEN.md is its own once agents.files makes ctxinject read it too", async () => {
  const root = materialize("native-instructions");
  writeFileSync(join(root, ".ctxinjectrc.json"), JSON.stringify({ agents: { files: ["AGENTS.md", "QWEN.md"] } }));
  const result = await runMain(["explain", "--json", "--as", "qwen"], { cwd: root });
  assert.is(result.status, 0, result.stderr);
  const rows = (JSON.parse(result.stdout) as { candidates: Array<{ id: string; agent: { name: string; loads: boolean; reason: string } }> }).candidates;
  const qwen = rows.find((r) => r.id === "QWEN.md");
  assert.ok(qwen?.agent.loads, JSON.stringify(rows.map((r) => r.id)));
  assert.is(qwen!.agent.name, "qwen-code");
  assert.match(qwen!.agent.reason, "Qwen Code loads QWEN.md");
});

test("build --as droid prints what Droid has by itself after a read: the root's and the package's AGENTS.md and CLAUDE.md, no Cursor rule", async () => {
  const result = await runMain(["build", "--as", "droid", ...READ], { cwd: materialize("native-instructions") });
  assert.is(result.status, 0, result.stderr);
  for (const marker of ["MARK-N-AGENTS", "MARK-N-CLAUDE", "MARK-N-API-AGENTS", "MARK-N-API-CLAUDE"]) assert.match(result.stdout, marker);
  for (const marker of ["MARK-N-CURSOR", "MARK-N-GEMINI", "MARK-N-COPILOT", "MARK-N-CLINERULES"]) assert.not.match(result.stdout, marker);
});

test.run();
