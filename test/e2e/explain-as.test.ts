import { test } from "uvu";
import * as assert from "uvu/assert";
import { cleanup, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";

interface Row {
  id: string;
  status: string;
  agent: { name: string; loads: boolean; reason: string };
}

test.after(cleanup);

/** explain --as AGENT --json: each candidate id with whether that agent loads it by itself. */
async function view(fixture: string, agent: string, ...args: string[]): Promise<Map<string, Row["agent"]>> {
  const root = materialize(fixture);
  const result = await runMain(["explain", "--json", "--as", agent, ...args], { cwd: root });
  assert.is(result.status, 0, result.stderr);
  const rows = (JSON.parse(result.stdout) as { candidates: Row[] }).candidates;
  for (const row of rows) assert.is(row.agent.name, agent);
  return new Map(rows.map((r) => [r.id, r.agent]));
}

const TARGET = ["--files", "packages/api/src/handlers/user.ts"];

test("--as claude-code: its .claude/rules and memory files are its own; Cursor's rules are not", async () => {
  const v = await view("monorepo", "claude-code", ...TARGET);
  assert.ok(v.get(".claude/rules/conventions.md")!.loads);
  assert.match(v.get(".claude/rules/conventions.md")!.reason, "Claude Code loads .claude/rules itself");
  assert.not.ok(v.get(".cursor/rules/general.mdc")!.loads);
  assert.match(v.get(".cursor/rules/general.mdc")!.reason, "does not load it by itself");
});

test("--as codex: the AGENTS chain to the working folder only, not a package's below it", async () => {
  const v = await view("monorepo", "codex", ...TARGET);
  assert.ok(v.get("AGENTS.md")!.loads);
  assert.not.ok(v.get("packages/api/AGENTS.override.md")!.loads, "below the working folder (the root): Codex does not read it");
  assert.not.ok(v.get(".cursor/rules/general.mdc")!.loads);
});

test("--as cursor: always, matching auto and description rules of .cursor/rules, .cursorrules, AGENTS.md; not manual rules", async () => {
  const v = await view("monorepo", "cursor", ...TARGET);
  assert.ok(v.get(".cursor/rules/general.mdc")!.loads, "alwaysApply");
  assert.ok(v.get(".cursor/rules/typescript.mdc")!.loads, "auto, matching");
  assert.not.ok(v.get(".cursor/rules/testing.mdc")!.loads, "auto, not matching");
  assert.not.ok(v.get(".cursor/rules/release.mdc")!.loads, "manual");
  assert.ok(v.get(".cursorrules")!.loads);
  assert.ok(v.get("AGENTS.md")!.loads);
  assert.not.ok(v.get(".claude/rules/conventions.md")!.loads);
});

test("--as copilot: copilot-instructions.md and AGENTS.md are its own", async () => {
  const v = await view("monorepo", "copilot", ...TARGET);
  assert.ok(v.get(".github/copilot-instructions.md")!.loads);
  assert.ok(v.get("AGENTS.md")!.loads);
  assert.not.ok(v.get(".cursor/rules/general.mdc")!.loads);
});

test("--as copilot honours excludeAgent: what excludes the coding agent is not its own", async () => {
  const v = await view("copilot-exclude", "copilot", "--files", "src/app.ts");
  assert.ok(v.get(".github/copilot-instructions.md")!.loads);
  assert.ok(v.get(".github/instructions/ts.instructions.md")!.loads);
  assert.ok(v.get(".github/instructions/agent.instructions.md")!.loads, "excludes only code review");
  assert.not.ok(v.get(".github/instructions/review.instructions.md")!.loads);
  assert.match(v.get(".github/instructions/review.instructions.md")!.reason, "excludeAgent: coding-agent");
});

test("--as opencode: the first agent file on the path is its own", async () => {
  const v = await view("agent-files-chain", "opencode");
  assert.ok(v.get("AGENTS.md")!.loads);
  assert.not.ok(v.get("GEMINI.md")!.loads);
});

test("--as windsurf: .windsurf/rules by trigger", async () => {
  const v = await view("windsurf-triggers", "windsurf", "--files", "app/main.py");
  assert.ok(v.get(".windsurf/rules/house-style.md")!.loads, "always_on");
  assert.ok(v.get(".windsurf/rules/python.md")!.loads, "glob, matching");
  assert.ok(v.get(".windsurf/rules/migrations.md")!.loads, "model_decision: offered by its description");
  assert.not.ok(v.get(".windsurf/rules/release.md")!.loads, "manual");
});

test("--as gemini-cli: GEMINI.md is its own, AGENTS.md is not (by default)", async () => {
  const v = await view("agent-files-chain", "gemini-cli");
  assert.ok(v.get("GEMINI.md")!.loads);
  assert.not.ok(v.get("AGENTS.md")!.loads);
});

test("explain --as prints the agent's column, and an unknown agent is a usage error", async () => {
  const root = materialize("monorepo");
  const text = await runMain(["explain", "--as", "cursor", ...TARGET], { cwd: root });
  assert.match(text.stdout, /^#\s+status\s+tokens\s+cursor\s+id$/m);
  assert.match(text.stdout, /loads\s+\.cursor\/rules\/general\.mdc\n.*— alwaysApply: true\n {6}cursor: Cursor applies it itself/);
  const bad = await runMain(["explain", "--as", "notepad"], { cwd: root });
  assert.is(bad.status, 2);
  assert.match(bad.stderr, "claude-code");
});

test("build --as prints what that agent loads by itself: Codex its AGENTS.md at the working folder, Cursor its rules", async () => {
  const root = materialize("monorepo");
  const ids = async (agent: string) =>
    (
      JSON.parse((await runMain(["build", "--as", agent, "--format", "json", ...TARGET], { cwd: root })).stdout) as { entries: Array<{ id: string }> }
    ).entries.map((e) => e.id);
  assert.equal(await ids("codex"), ["AGENTS.md"]);
  const cursor = await ids("cursor");
  for (const id of [".cursor/rules/general.mdc", ".cursor/rules/typescript.mdc", ".cursorrules", "AGENTS.md", "packages/api/AGENTS.md"])
    assert.ok(cursor.includes(id), `${id} in ${cursor.join(", ")}`);
  assert.not.ok(cursor.includes(".claude/rules/conventions.md"));
  assert.not.ok(cursor.includes("docs/kord/rules/review.md"), "no agent of its own reads kord rules");
  const both = await runMain(["build", "--as", "codex", "--session", "s"], { cwd: root });
  assert.is(both.status, 2);
});

test("build --as: an agent that leaves `@imports` as they are gets the file as written; one that expands them gets them expanded", async () => {
  const root = materialize("imports");
  const entries = async (agent: string) =>
    new Map(
      (
        JSON.parse((await runMain(["build", "--as", agent, "--format", "json", "--files", "pkg/main.ts"], { cwd: root })).stdout) as {
          entries: Array<{ id: string; content: string; tokens: number; imports?: unknown }>;
        }
      ).entries.map((e) => [e.id, e]),
    );
  // Copilot reads the root CLAUDE.md and GEMINI.md itself, and AGENTS.md: the import line is all CLAUDE.md holds for it.
  const copilot = await entries("copilot");
  assert.is(copilot.get("CLAUDE.md")?.content, "@AGENTS.md");
  assert.is(copilot.get("CLAUDE.md")?.imports, undefined);
  assert.ok(copilot.get("GEMINI.md")!.content.includes("Follow @./docs/style.md"));
  assert.not.ok(copilot.get("GEMINI.md")!.content.includes("(style-doc)"), copilot.get("GEMINI.md")!.content);
  assert.ok(copilot.get("AGENTS.md")!.content.includes("(agents-root)"));
  assert.ok(copilot.get("CLAUDE.md")!.tokens < copilot.get("AGENTS.md")!.tokens);
  // Claude Code expands them: CLAUDE.md brings AGENTS.md's text.
  const claude = await entries("claude-code");
  assert.ok(claude.get("CLAUDE.md")!.content.includes("(agents-root)"));
});

test.run();
