/**
 * Issue 44 item 11: what `explain --as` says an agent loads by itself — files a loaded file imports, the one AGENTS.md
 * Copilot's coding agent takes, skills an agent reaches through a link to another agent's folder.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { cleanup, git, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";

test.after(cleanup);

type Row = { id: string; status: string; aliases?: string[]; agent?: { loads: boolean; reason: string } };
const explainAs = async (root: string, args: string[]): Promise<Map<string, Row>> => {
  const { status, stdout, stderr } = await runMain(["explain", "--json", ...args], { cwd: root });
  assert.is(status, 0, stderr);
  return new Map((JSON.parse(stdout) as { candidates: Row[] }).candidates.map((r) => [r.id, r]));
};

test("--as claude: the AGENTS.md a CLAUDE.md imports is loaded by Claude Code, through that CLAUDE.md; build --as claude sends its text once", async () => {
  const root = materialize("imports");
  const rows = await explainAs(root, ["--as", "claude"]);
  const agents = rows.get("AGENTS.md")!;
  assert.ok(agents.agent!.loads, agents.agent!.reason);
  assert.match(agents.agent!.reason, "through CLAUDE.md");
  // GEMINI.md's imports are not Claude Code's.
  assert.not.ok(rows.get("GEMINI.md")!.agent!.loads);
  const built = await runMain(["build", "--as", "claude", "--format", "json"], { cwd: root });
  const ids = (JSON.parse(built.stdout) as { entries: Array<{ id: string }> }).entries.map((e) => e.id);
  assert.equal(ids, ["CLAUDE.md"]);
});

test("--as copilot: the root AGENTS.md is not called the nearest above a file where a package's AGENTS.md is", async () => {
  const root = materialize("agents-override");
  const rows = await explainAs(root, ["--as", "copilot", "--files", "services/search/src/query.ts"]);
  assert.match(rows.get("services/search/AGENTS.md")!.agent!.reason, "(the nearest above a file)");
  const top = rows.get("AGENTS.md")!.agent!.reason;
  assert.not.match(top, "(the nearest above a file)");
  assert.match(top, "its coding agent reads the nearest above a file instead: services/search/AGENTS.md");
  // With no file, the root's is the nearest.
  const plain = await explainAs(root, ["--as", "copilot"]);
  assert.match(plain.get("AGENTS.md")!.agent!.reason, "(the nearest above a file)");
});

test("--as claude: a skill kept in .agents/skills that Claude Code reaches through a link in .claude/skills (one link per skill) is loaded by it, in --all too", async () => {
  const root = materialize("skills-behind-links");
  mkdirSync(join(root, ".agents"));
  symlinkSync("../skills", join(root, ".agents/skills"));
  mkdirSync(join(root, ".claude/skills"), { recursive: true });
  symlinkSync("../../skills/queue-drain", join(root, ".claude/skills/queue-drain"));
  git(root, "add", "-A");
  for (const args of [["--prompt", "drain the queue"], ["--all"]]) {
    const rows = await explainAs(root, ["--as", "claude", ...args]);
    const skill = rows.get(".agents/skills/queue-drain/SKILL.md")!;
    assert.equal(skill.aliases, [".claude/skills/queue-drain/SKILL.md"], args.join(" "));
    assert.ok(skill.agent!.loads, `${args.join(" ")}: ${skill.agent!.reason}`);
    assert.match(skill.agent!.reason, "Claude Code lists the skills of .claude/skills itself");
    // The skill with no link in .claude/skills is not Claude Code's.
    assert.not.ok(rows.get(".agents/skills/chart-export/SKILL.md")!.agent!.loads, args.join(" "));
  }
});

test("--as claude --all: a skills folder .claude/skills that links to .agents/skills is Claude Code's too", async () => {
  const root = materialize("symlinked-skills-folder");
  mkdirSync(join(root, ".claude"));
  symlinkSync("../.agents/skills", join(root, ".claude/skills"));
  git(root, "add", "-A");
  const rows = await explainAs(root, ["--as", "claude", "--all"]);
  const skill = rows.get(".agents/skills/pdf-forms/SKILL.md")!;
  assert.ok(skill.agent!.loads, skill.agent!.reason);
  assert.equal(skill.aliases, [".claude/skills/pdf-forms/SKILL.md"]);
});

test.run();
