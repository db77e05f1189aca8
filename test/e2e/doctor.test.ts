import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanup, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";

// The JSON's findings have the core's shape.
import type { Finding } from "../../src/core/doctor/finding.js";
import { tempFolders } from "../helpers/temp.js";

const { folder } = tempFolders(test);

test.after(cleanup);

async function doctor(fixture: string, ...args: string[]) {
  const root = materialize(fixture);
  const result = await runMain(["doctor", "--json", ...args], { cwd: root });
  return { ...result, findings: result.status === 0 || result.status === 1 ? (JSON.parse(result.stdout) as { findings: Finding[] }).findings : [] };
}

// The doctor fixture's run, shared by the tests below (made before the first of them: no top-level await under tsx's require hook).
let findings: Finding[] = [];
let status: number | null = null;
test.before(async () => {
  ({ findings, status } = await doctor("doctor"));
});
const find = (kind: string, file: string) => findings.find((f) => f.kind === kind && f.file === file);

// Each finding kind, with where it points, its severity and the agents that read the file (or whose behaviour it is).
const EXPECTED: Array<[kind: string, file: string, line: number | undefined, severity: string, agent: string]> = [
  ["dead-glob", ".cursor/rules/dead.mdc", 2, "warning", "cursor"],
  ["glob-matches-everything", "packages/tiny/.cursor/rules/all.mdc", undefined, "info", "cursor"],
  ["claude-rules-globs", ".claude/rules/cursor-style.md", 2, "warning", "claude-code"],
  ["always-apply-string", ".cursor/rules/string-true.mdc", 2, "error", "cursor"],
  ["unquoted-glob", ".cursor/rules/unquoted.mdc", 2, "warning", "cursor"],
  ["frontmatter-unclosed", ".cursor/rules/unclosed.mdc", 1, "warning", "cursor"],
  ["cursor-md-rule", ".cursor/rules/notes.md", undefined, "warning", "cursor"],
  ["long-rule", ".cursor/rules/long.mdc", undefined, "info", "cursor"],
  ["codex-budget", "big/deep/AGENTS.md", 150, "warning", "codex"],
  ["long-chain", "big/deep/AGENTS.md", undefined, "warning", "copilot, cursor, droid, kilo, opencode, qwen-code, windsurf"],
  ["duplicate-text", "AGENTS.md", undefined, "warning", "copilot"],
  ["duplicate-text", ".claude/rules/shared.md", undefined, "info", "claude-code"],
  ["import-missing", "CLAUDE.md", 1, "warning", "claude-code"],
  ["import-outside", "CLAUDE.md", 1, "warning", "claude-code"],
  ["import-cycle", "docs/b.md", 1, "warning", "claude-code"],
  ["hidden-characters", ".cursor/rules/hidden.mdc", 4, "error", "cursor"],
  ["secret", "docs/kord/rules/deploy.md", 4, "error", "kord"],
];

for (const [kind, file, line, severity, agent] of EXPECTED) {
  test(`doctor reports ${kind} at ${file}${line ? `:${line}` : ""} (${severity}, ${agent})`, () => {
    const f = find(kind, file);
    assert.ok(f, `no ${kind} for ${file}; found ${findings.map((x) => `${x.kind}@${x.file}`).join(", ")}`);
    assert.is(f.line, line);
    assert.is(f.severity, severity);
    assert.is(f.agent, agent);
  });
}

test("the codex-budget finding says where Codex cuts, and nothing is reported for files within the budget", () => {
  assert.match(find("codex-budget", "big/deep/AGENTS.md")!.message, "cuts this file at line 150");
  assert.not.ok(find("codex-budget", "big/AGENTS.md"));
});

test("Codex's own project_doc_max_bytes moves where it cuts: a larger budget, no codex-budget finding", async () => {
  const root = materialize("doctor");
  const codexHome = folder("codex-home");
  writeFileSync(join(codexHome, "config.toml"), "project_doc_max_bytes = 131072\n");
  const result = await runMain(["doctor", "--json"], { cwd: root, env: { CODEX_HOME: codexHome } });
  const kinds = (JSON.parse(result.stdout) as { findings: Finding[] }).findings.map((f) => f.kind);
  assert.not.ok(kinds.includes("codex-budget"));
  assert.ok(kinds.includes("dead-glob"), "the other findings stay");
});

test("the chain length is the config's: doctor.maxChainTokens", async () => {
  assert.not.ok(find("long-chain", "big/AGENTS.md"), "big/ alone is under the default 8000 tokens");
  const root = materialize("doctor");
  writeFileSync(join(root, ".ctxinjectrc.json"), JSON.stringify({ doctor: { maxChainTokens: 1000 } }));
  const strict = (JSON.parse((await runMain(["doctor", "--json"], { cwd: root })).stdout) as { findings: Finding[] }).findings;
  assert.ok(strict.some((f) => f.kind === "long-chain" && f.file === "big/AGENTS.md"));
});

test("doctor exits 1 when a finding is at or above --fail-on (default error), 0 otherwise", async () => {
  assert.is(status, 1);
  assert.is((await doctor("doctor", "--fail-on", "none")).status, 0);
  const imports = await doctor("imports");
  assert.ok(imports.findings.length > 0 && imports.findings.every((f) => f.severity !== "error"));
  assert.is(imports.status, 0, "warnings alone pass the default");
  assert.is((await doctor("imports", "--fail-on", "warning")).status, 1);
});

test("doctor's text output names file:line, kind and agent, and ends with the counts", async () => {
  const root = materialize("doctor");
  const { stdout, status: code } = await runMain(["doctor"], { cwd: root });
  assert.is(code, 1);
  assert.match(stdout, /^error {4}\.cursor\/rules\/string-true\.mdc:2 {2}always-apply-string \[cursor\]: /m);
  assert.match(stdout, /\n\d+ findings: 3 errors, \d+ warnings, \d+ info\n$/);
});

test("a bad --fail-on is a usage error (exit 2)", async () => {
  const result = await runMain(["doctor", "--fail-on", "sometimes"], { cwd: materialize("doctor") });
  assert.is(result.status, 2);
  assert.match(result.stderr, "fail-on");
});

test("who gets a duplicated text twice is what each agent's profile says, as its settings here have it", async () => {
  const root = folder("doctor-twice");
  const home = folder("doctor-home");
  const text = "# House rules\n\nRun the whole test suite before you push.\n";
  writeFileSync(join(root, "AGENTS.md"), text);
  writeFileSync(join(root, "GEMINI.md"), text);
  const agentsOf = async () => {
    const result = await runMain(["doctor", "--json"], { cwd: root, env: { HOME: home, CODEX_HOME: join(home, ".codex") } });
    const found = (JSON.parse(result.stdout) as { findings: Finding[] }).findings.find((f) => f.kind === "duplicate-text");
    assert.ok(found, result.stdout);
    return found.agent.split(", ");
  };
  // By default Gemini CLI reads GEMINI.md only; Copilot's coding agent reads AGENTS.md and a root GEMINI.md.
  assert.equal(await agentsOf(), ["copilot"]);
  // Told to read both (the common context.fileName), Gemini CLI gets the text twice too.
  mkdirSync(join(root, ".gemini"));
  writeFileSync(join(root, ".gemini/settings.json"), JSON.stringify({ context: { fileName: ["AGENTS.md", "GEMINI.md"] } }));
  assert.equal(await agentsOf(), ["copilot", "gemini-cli"]);
});

test.run();
