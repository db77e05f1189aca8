import { test } from "uvu";
import * as assert from "uvu/assert";
import { cleanup, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";

// The JSON's findings have the core's shape.
import type { Finding } from "../../src/core/doctor/finding.js";

test.after(cleanup);

async function doctor(fixture: string) {
  const root = materialize(fixture);
  const result = await runMain(["doctor", "--json"], { cwd: root });
  return { root, status: result.status, stderr: result.stderr, findings: (JSON.parse(result.stdout) as { findings: Finding[] }).findings };
}

test("a README's placeholder credential and a stray zero-width space before a full stop are warnings: doctor exits 0", async () => {
  const { status, findings } = await doctor("doctor-placeholder-readme");
  assert.is(status, 0, JSON.stringify(findings, null, 2));
  const at = (kind: string) => findings.find((f) => f.kind === kind && f.file === "README.md");
  assert.equal({ severity: at("secret")?.severity, line: at("secret")?.line }, { severity: "warning", line: 10 });
  assert.equal({ severity: at("stray-zero-width")?.severity, line: at("stray-zero-width")?.line }, { severity: "warning", line: 3 });
  assert.match(at("stray-zero-width")!.message, "1 zero-width character (U+200B) at column 51, outside any word");
  assert.not.ok(findings.some((f) => f.severity === "error"));
});

test("a token's shape written as a mask (hf_xxxx…, ghp_XXXX…) is no credential: doctor finds nothing, build keeps it and says nothing", async () => {
  const { status, findings, root } = await doctor("doctor-masked-token");
  assert.is(status, 0, JSON.stringify(findings, null, 2));
  assert.not.ok(
    findings.some((f) => f.kind === "secret"),
    JSON.stringify(findings, null, 2),
  );
  const build = await runMain(["build", "--files", "src/train.ts"], { cwd: root });
  assert.is(build.status, 0);
  assert.is(build.stderr, "");
  assert.match(build.stdout, 'HF_TOKEN="hf_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"');
  assert.match(build.stdout, "GH_TOKEN=ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX");
});

test("build says nothing on stderr about an example's credential or a stray zero-width space, and prints neither", async () => {
  const root = materialize("doctor-placeholder-readme");
  const { status, stdout, stderr } = await runMain(["build", "--files", "src/server.ts"], { cwd: root });
  assert.is(status, 0);
  assert.is(stderr, "");
  assert.match(stdout, "A small service that answers forecasts for a city.");
  assert.match(stdout, 'api_key = "[REDACTED:password]"');
  assert.not.match(stdout, "base64encodedapikeyhere");
  assert.not.match(stdout, "\u200B");
});

test("text hidden inside a word or behind a bidi override stays an error (doctor exits 1) and build still warns", async () => {
  const { status, findings, root } = await doctor("doctor-agent-tags");
  assert.is(status, 1);
  const hidden = findings.filter((f) => f.kind === "hidden-characters").map((f) => [f.file, f.line, f.severity]);
  assert.equal(hidden, [
    [".cursor/rules/logging.mdc", 4, "error"],
    ["README.md", 3, "error"],
  ]);
  const build = await runMain(["build", "--files", "src/app.ts"], { cwd: root });
  assert.match(build.stderr, ".cursor/rules/logging.mdc:4: 1 hidden character removed (U+200B)");
  assert.match(build.stderr, "README.md:3: 2 hidden characters removed (U+202E, U+202C)");
});

test("a finding's agent tag names only the agents that read its file by themselves; a README's is ctxinject, never all", async () => {
  const { findings } = await doctor("doctor-agent-tags");
  const tag = (kind: string, file: string) => findings.find((f) => f.kind === kind && f.file === file)?.agent;
  assert.is(tag("long-rule", ".kiro/steering/release.md"), "kiro");
  assert.is(tag("hidden-characters", ".cursor/rules/logging.mdc"), "cursor");
  assert.is(tag("frontmatter-yaml", ".clinerules"), "cline");
  assert.is(tag("hidden-characters", "README.md"), "ctxinject");
  // The root AGENTS.md: every profiled agent that loads it, not Gemini CLI (GEMINI.md only, by default).
  assert.is(tag("frontmatter-unclosed", "AGENTS.md"), "claude-code, cline, codex, copilot, cursor, droid, kilo, kiro, opencode, qwen-code, windsurf");
  assert.not.ok(
    findings.some((f) => f.agent === "all"),
    JSON.stringify(findings.map((f) => [f.kind, f.agent])),
  );
  assert.match(findings.find((f) => f.kind === "long-rule")!.message, "521 lines");
});

test("an instruction file where its agent never looks is reported: *.instructions.md outside .github/instructions, a .cursor/rules file, an .mdc outside .cursor/rules", async () => {
  const { status, findings } = await doctor("doctor-misplaced");
  assert.is(status, 0, JSON.stringify(findings, null, 2));
  const misplaced = findings.filter((f) => f.kind === "misplaced").map((f) => ({ file: f.file, agent: f.agent, severity: f.severity }));
  assert.equal(misplaced, [
    { file: ".cursor/rules", agent: "cursor", severity: "warning" },
    { file: ".github/copilot-instructions/docs.instructions.md", agent: "copilot", severity: "warning" },
    { file: "cursor-rules/tables.mdc", agent: "cursor", severity: "warning" },
  ]);
  const message = findings.find((f) => f.file === ".github/copilot-instructions/docs.instructions.md")!.message;
  assert.match(message, ".github/instructions/");
});

test.run();
