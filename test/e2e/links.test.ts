/**
 * A file reached through several paths is one entry (issue 30 item 1); agents' own skills are not sent again
 * (item 2); Copilot's and Kiro's skills folders, Kiro's `#[[file:]]` references and `--as kiro` (item 9); agents'
 * short names everywhere (item 10).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanup, git, HOOK_SERVER_OFF, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";
import { tempFolders } from "../helpers/temp.js";

const { folder } = tempFolders(test);

test.after(cleanup);

const count = (text: string, marker: string) => text.split(marker).length - 1;

/** The fixture with `.claude -> .agents` (a symlinked folder) and `packages/legacy -> core` (an ancestor folder), made here. */
function linkedTree(): string {
  const root = materialize("symlinked-skills-folder");
  symlinkSync(".agents", join(root, ".claude"));
  symlinkSync("core", join(root, "packages/legacy"));
  git(root, "add", "-A");
  return root;
}

type Row = { id: string; status: string; reason: string; aliases?: string[]; agent?: { loads: boolean; reason: string } };
const rows = (stdout: string): Row[] => JSON.parse(stdout).candidates;

test("a symlinked skills folder: each skill injected once, listed once in the index, one explain row naming the other path", async () => {
  const root = linkedTree();
  const build = await runMain(["build", "--prompt", "merge the pdf forms"], { cwd: root });
  assert.is(build.status, 0, build.stderr);
  assert.is(count(build.stdout, 'Skill "pdf-forms"'), 1, build.stdout);
  assert.is(count(build.stdout, "release-notes/SKILL.md"), 1, "the index names a skill once");
  assert.is(count(build.stdout, "db-migrations/SKILL.md"), 1);
  const explain = await runMain(["explain", "--json", "--prompt", "merge the pdf forms"], { cwd: root });
  const skills = rows(explain.stdout).filter((r) => r.id.endsWith("SKILL.md"));
  assert.equal(
    skills.map((r) => r.id),
    [".agents/skills/db-migrations/SKILL.md", ".agents/skills/pdf-forms/SKILL.md", ".agents/skills/release-notes/SKILL.md"],
  );
  assert.equal(skills[1]!.aliases, [".claude/skills/pdf-forms/SKILL.md"]);
  const text = (await runMain(["explain", "--prompt", "merge the pdf forms"], { cwd: root })).stdout;
  assert.match(text, "↳ also reached as .claude/skills/pdf-forms/SKILL.md (same file, through a symlink)");
});

test("a symlinked ancestor folder: the package's files arrive once for targets on both paths", async () => {
  const root = linkedTree();
  const build = await runMain(["build", "--files", "packages/core/src/index.ts", "--files", "packages/legacy/src/index.ts"], { cwd: root });
  assert.is(build.status, 0, build.stderr);
  assert.is(count(build.stdout, "MARK-CORE-AGENTS"), 1, build.stdout);
  assert.is(count(build.stdout, "MARK-CORE-RULE"), 1, build.stdout);
  // Reached only through the link, the file keeps the path the target names.
  const viaLink = await runMain(["build", "--files", "packages/legacy/src/index.ts"], { cwd: root });
  assert.match(viaLink.stdout, "<!-- directory-agents: packages/legacy/AGENTS.md (normal) -->");
  assert.is(count(viaLink.stdout, "MARK-CORE-AGENTS"), 1);
  // Both paths in one run: one row, under the real path, naming the other.
  const explain = rows(
    (await runMain(["explain", "--json", "--files", "packages/core/src/index.ts", "--files", "packages/legacy/src/index.ts"], { cwd: root })).stdout,
  );
  const agents = explain.filter((r) => r.id.endsWith("/AGENTS.md"));
  assert.equal(
    agents.map((r) => [r.id, r.aliases]),
    [["packages/core/AGENTS.md", ["packages/legacy/AGENTS.md"]]],
  );
});

test("--all and doctor on a tree whose links git cannot follow: every file once; doctor names the paths that are one file", async () => {
  const root = linkedTree();
  const all = await runMain(["build", "--all"], { cwd: root });
  assert.is(count(all.stdout, 'Skill "pdf-forms"'), 1, all.stdout);
  assert.is(count(all.stdout, "MARK-CORE-AGENTS"), 1);
  // A targeted doctor-like view: doctor reads what --all reads; the link of a file shows as one file.
  symlinkSync("AGENTS.md", join(root, "CLAUDE.md"));
  git(root, "add", "-A");
  const doctor = await runMain(["doctor", "--json", "--fail-on", "none"], { cwd: root });
  assert.is(doctor.status, 0, doctor.stderr);
  const same = JSON.parse(doctor.stdout).findings.filter((f: { kind: string }) => f.kind === "same-file");
  // --all reads a skill through the link as well (issue 44 item 11: Claude Code has it that way), so its two paths are named too.
  const skills = ["db-migrations", "pdf-forms", "release-notes"].map((name) => [
    `.agents/skills/${name}/SKILL.md`,
    `also reached as .claude/skills/${name}/SKILL.md (a symlink): one file, read and injected once under this name`,
  ]);
  assert.equal(
    same.map((f: { file: string; message: string }) => [f.file, f.message]),
    [...skills, ["AGENTS.md", "also reached as CLAUDE.md (a symlink): one file, read and injected once under this name"]],
  );
});

test("--all in a tree whose skills folders are all links to a plain skills/ folder: every skill once, as a targeted build sees them", async () => {
  const root = materialize("skills-behind-links");
  mkdirSync(join(root, ".claude"));
  symlinkSync("../skills", join(root, ".claude/skills"));
  mkdirSync(join(root, ".agents"));
  symlinkSync("../skills", join(root, ".agents/skills"));
  git(root, "add", "-A");
  const all = await runMain(["build", "--all"], { cwd: root });
  assert.is(all.status, 0, all.stderr);
  assert.is(count(all.stdout, 'Skill "chart-export"'), 1, all.stdout);
  assert.is(count(all.stdout, 'Skill "queue-drain"'), 1, all.stdout);
  const ids = async (args: string[]) =>
    rows((await runMain(["explain", "--json", ...args], { cwd: root })).stdout)
      .filter((r) => r.id.endsWith("SKILL.md"))
      .map((r) => [r.id, r.aliases]);
  const expected = [
    [".agents/skills/chart-export/SKILL.md", [".claude/skills/chart-export/SKILL.md"]],
    [".agents/skills/queue-drain/SKILL.md", [".claude/skills/queue-drain/SKILL.md"]],
  ];
  assert.equal(await ids(["--all"]), expected);
  assert.equal(await ids(["--prompt", "drain the queue"]), expected);
});

test("--all in a tree where .claude and .github are files, not folders: the rest is read, no internal error, in --all or a targeted build", async () => {
  const root = materialize("skills-behind-links");
  writeFileSync(join(root, ".claude"), "not a folder\n");
  writeFileSync(join(root, ".github"), "not a folder either\n");
  git(root, "add", "-A");
  const all = await runMain(["build", "--all"], { cwd: root });
  assert.is(all.status, 0, all.stderr);
  assert.match(all.stdout, "AGENTS.md");
  const targeted = await runMain(["build", "--files", "skills/queue-drain/SKILL.md"], { cwd: root });
  assert.is(targeted.status, 0, targeted.stderr);
  assert.match(targeted.stdout, "Skills live in skills/");
});

test("explain --as claude (= claude-code) on a symlinked skills folder: Claude Code lists those skills itself, through .claude/skills", async () => {
  const root = linkedTree();
  const out = await runMain(["explain", "--json", "--as", "claude", "--prompt", "merge the pdf forms"], { cwd: root });
  assert.is(out.status, 0, out.stderr);
  const pdf = rows(out.stdout).find((r) => r.id === ".agents/skills/pdf-forms/SKILL.md")!;
  assert.ok(pdf.agent!.loads);
  assert.match(pdf.agent!.reason, "Claude Code lists the skills of .claude/skills itself");
  assert.match(pdf.agent!.reason, "(as .claude/skills/pdf-forms/SKILL.md, the same file)");
});

async function claudeHook(root: string, prompt: string): Promise<string> {
  const state = folder("links");
  const out = await runMain(["hook", "claude"], {
    cwd: "/",
    env: { ...HOOK_SERVER_OFF, CTXINJECT_STATE_DIR: state },
    input: JSON.stringify({ session_id: "s-1", cwd: root, hook_event_name: "UserPromptSubmit", prompt }),
  });
  assert.is(out.status, 0, out.stderr);
  return out.stdout === "" ? "" : (JSON.parse(out.stdout).hookSpecificOutput?.additionalContext ?? "");
}

test("the Claude hook does not send the skills Claude Code lists itself (.claude/skills), neither in full nor in the index", async () => {
  const linked = linkedTree();
  const context = await claudeHook(linked, "merge the pdf forms");
  assert.not.match(context, "pdf-forms");
  assert.not.match(context, "release-notes", "nor in the index");
  // The same skills in .agents/skills alone: Claude Code does not read that folder, so the hook sends them.
  const plain = materialize("symlinked-skills-folder");
  assert.is(count(await claudeHook(plain, "merge the pdf forms"), 'Skill "pdf-forms"'), 1);
});

test("Copilot's .github/skills and Kiro's .kiro/skills are skills; --as copilot and --as kiro show them as loaded by the agent", async () => {
  const root = materialize("skill-folders");
  const explain = rows((await runMain(["explain", "--json", "--prompt", "triage new issues and review the endpoint pagination"], { cwd: root })).stdout);
  const status = Object.fromEntries(explain.map((r) => [r.id, r.status]));
  assert.is(status[".github/skills/issue-triage/SKILL.md"], "included");
  assert.is(status[".kiro/skills/api-review/SKILL.md"], "included");
  const copilot = rows((await runMain(["explain", "--json", "--as", "copilot"], { cwd: root })).stdout);
  assert.ok(copilot.find((r) => r.id === ".github/skills/issue-triage/SKILL.md")!.agent!.loads);
  assert.ok(copilot.find((r) => r.id === ".claude/skills/style-guide/SKILL.md")!.agent!.loads);
  assert.not.ok(copilot.find((r) => r.id === ".kiro/skills/api-review/SKILL.md")!.agent!.loads);
  const kiro = rows((await runMain(["explain", "--json", "--as", "kiro"], { cwd: root })).stdout);
  assert.ok(kiro.find((r) => r.id === ".kiro/skills/api-review/SKILL.md")!.agent!.loads);
  assert.not.ok(kiro.find((r) => r.id === ".github/skills/issue-triage/SKILL.md")!.agent!.loads);
});

test("Gemini CLI's .gemini/skills and Codex's .codex/skills are skills: offered to other agents, never re-sent to their own", async () => {
  const root = materialize("agent-skill-folders");
  const explain = rows((await runMain(["explain", "--json", "--prompt", "write the release notes for the new version"], { cwd: root })).stdout);
  const status = Object.fromEntries(explain.map((r) => [r.id, r.status]));
  assert.is(status[".gemini/skills/release-notes/SKILL.md"], "included", JSON.stringify(explain, null, 2));
  assert.ok(".codex/skills/flaky-tests/SKILL.md" in status, "listed, below the threshold");
  const loads = async (as: string, id: string) =>
    rows((await runMain(["explain", "--json", "--as", as], { cwd: root })).stdout).find((r) => r.id === id)?.agent?.loads;
  assert.is(await loads("gemini", ".gemini/skills/release-notes/SKILL.md"), true);
  assert.is(await loads("codex", ".codex/skills/flaky-tests/SKILL.md"), true);
  assert.is(await loads("claude", ".gemini/skills/release-notes/SKILL.md"), false);
  assert.match(await claudeHook(root, "write the release notes for the new version"), 'Skill "release-notes"');
  const state = folder("links");
  const gemini = await runMain(["hook", "gemini"], {
    cwd: root,
    env: { ...HOOK_SERVER_OFF, CTXINJECT_STATE_DIR: state },
    input: JSON.stringify({ session_id: "s-3", cwd: root, hook_event_name: "BeforeAgent", prompt: "write the release notes for the new version" }),
  });
  assert.is(gemini.status, 0, gemini.stderr);
  assert.match(gemini.stdout, "additionalContext", "the hook answered");
  assert.not.match(gemini.stdout, "release-notes", "Gemini CLI lists .gemini/skills itself");
});

test("Kiro's #[[file:path]] references are expanded from the workspace root, with the limits of @imports", async () => {
  const root = materialize("kiro-file-references");
  const build = await runMain(["build", "--files", "src/api.ts"], { cwd: root });
  assert.is(build.status, 0, build.stderr);
  assert.is(count(build.stdout, "MARK-KIRO-CONVENTIONS"), 1, build.stdout);
  assert.is(count(build.stdout, "MARK-KIRO-ERRORS"), 1);
  assert.not.match(build.stdout, "#[[file:docs/errors.md]]");
  assert.match(build.stdout, "`#[[file:docs/api-conventions.md]]`", "inside code it stays as written");
  assert.match(build.stdout, "#[[file:../outside.md]]", "out of the workspace it stays as written");
  assert.match(build.stdout, "#[[file:docs/missing.md]]");
  const loop = await runMain(["build", "--rule", "loop", "--files", "src/api.ts"], { cwd: root });
  assert.match(
    loop.stderr,
    ".kiro/steering/loop.md:5: import cycle: .kiro/steering/loop.md → .kiro/steering/loop.md; #[[file:.kiro/steering/loop.md]] is left as written",
  );
  const explain = rows((await runMain(["explain", "--json", "--as", "kiro", "--files", "src/api.ts"], { cwd: root })).stdout);
  const standards = explain.find((r) => r.id === ".kiro/steering/api-standards.md") as Row & { imports?: Array<{ path: string }> };
  assert.equal(
    standards.imports!.map((i) => i.path),
    ["docs/api-conventions.md", "docs/errors.md"],
  );
  assert.ok(standards.agent!.loads, standards.agent!.reason);
  assert.match(standards.agent!.reason, "Kiro includes it itself in every interaction");
});

test("agents' short names: --as claude and --as gemini are claude-code and gemini-cli; hook claude-code and init --claude-code work", async () => {
  const root = materialize("symlinked-skills-folder");
  const long = await runMain(["explain", "--as", "claude-code"], { cwd: root });
  const short = await runMain(["explain", "--as", "claude"], { cwd: root });
  assert.is(short.status, 0, short.stderr);
  assert.is(short.stdout, long.stdout);
  assert.is((await runMain(["build", "--as", "gemini"], { cwd: root })).status, 0);
  const state = folder("links");
  const hook = await runMain(["hook", "claude-code"], {
    cwd: "/",
    env: { ...HOOK_SERVER_OFF, CTXINJECT_STATE_DIR: state },
    input: JSON.stringify({ session_id: "s-2", cwd: root, hook_event_name: "UserPromptSubmit", prompt: "merge the pdf forms" }),
  });
  assert.is(hook.status, 0, hook.stderr);
  assert.match(hook.stdout, "pdf-forms");
  const init = await runMain(["init", "--claude-code"], { cwd: root });
  assert.is(init.status, 0, init.stderr);
  assert.ok(existsSync(join(root, ".claude/settings.json")));
  assert.match(readFileSync(join(root, ".claude/settings.json"), "utf8"), "hook claude");
  const bad = await runMain(["explain", "--as", "claud"], { cwd: root });
  assert.is(bad.status, 2);
  assert.match(bad.stderr, "claude-code, cline, codex");
});

test("build --as an agent that loads none of the files by itself says so on stderr, in one line", async () => {
  const root = materialize("skill-folders");
  const out = await runMain(["build", "--as", "codex", "--files", "src/app.ts"], { cwd: root });
  assert.is(out.status, 0);
  assert.is(out.stdout, "");
  assert.is(
    out.stderr,
    "ctxinject: codex loads none of these instruction files by itself here (build --as prints only what the agent loads on its own; build without --as prints what ctxinject gives it)\n",
  );
});

test.run();
