import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { existsSync } from "node:fs";
import { BIN, git, runCli } from "../helpers/cli.js";
import { tempFolders } from "../helpers/temp.js";

// doctor says when a hook init installed does not run: its program is gone, or npx has nothing to find.

const temp = tempFolders(test);
const folder = (prefix: string): string => realpathSync(temp.folder(`doctor-hook-${prefix}`));

const PATH = (process.env.PATH ?? "")
  .split(delimiter)
  .filter((dir) => dir !== "" && !existsSync(join(dir, "ctxinject")))
  .join(delimiter);

function project(): string {
  const root = folder("project");
  writeFileSync(join(root, "AGENTS.md"), "# Project\n\nUse tabs.\n");
  git(root, "init", "-q");
  git(root, "add", "-A");
  return root;
}

/** Claude Code's settings, as init writes them, with `command` for every event. */
function claudeSettings(dir: string, command: string): void {
  mkdirSync(join(dir, ".claude"), { recursive: true });
  const group = { hooks: [{ type: "command", command, timeout: 30 }] };
  writeFileSync(
    join(dir, ".claude/settings.json"),
    `${JSON.stringify({ model: "sonnet", hooks: { UserPromptSubmit: [group], SessionStart: [group] } }, null, 2)}\n`,
  );
}

type Finding = { severity: string; kind: string; agent: string; file: string; line?: number; message: string };
function doctor(root: string, home: string): Finding[] {
  const out = runCli(["doctor", "--json", "--fail-on", "none"], { cwd: root, env: { PATH, HOME: home } });
  assert.is(out.status, 0, out.stderr);
  return (JSON.parse(out.stdout) as { findings: Finding[] }).findings.filter((f) => f.kind === "hook-command");
}

test("doctor: a project hook `npx --no-install ctxinject` with ctxinject installed nowhere is a finding naming the file, its line and init to run again", () => {
  const root = project();
  claudeSettings(root, "npx --no-install ctxinject hook claude");
  const [finding, ...rest] = doctor(root, folder("home"));
  assert.equal(rest, []);
  assert.ok(finding, "a hook-command finding");
  assert.is(finding!.file, ".claude/settings.json");
  assert.is(finding!.line, 9);
  assert.is(finding!.agent, "claude-code");
  assert.match(finding!.message, "npx --no-install finds no ctxinject");
  assert.match(finding!.message, "run `ctxinject init --claude` again");
  const text = runCli(["doctor", "--fail-on", "none"], { cwd: root, env: { PATH, HOME: folder("home") } });
  assert.match(
    text.stdout,
    /warning\s+\.claude\/settings\.json:9\s+hook-command \[claude-code\]: Claude Code runs `npx --no-install ctxinject hook claude` on every event, and it does not run here/,
  );
});

test("doctor: a hook command quoted in a finding passes the gate like the tree's findings: no hidden character, no credential", () => {
  const root = project();
  const token = `ghp_${"a1B2c3D4e5".repeat(4).slice(0, 36)}`;
  claudeSettings(root, `GITHUB_TOKEN=${token} node /nowhere/ctx\u200Binject/bin/ctxinject.js hook claude`);
  const [finding] = doctor(root, folder("home"));
  assert.ok(finding, "a hook-command finding");
  assert.not.match(finding!.message, token);
  assert.not.match(finding!.message, "\u200B");
  assert.match(finding!.message, "[REDACTED:github-token]");
});

test("doctor: a user's hook naming a ctxinject that was removed is a finding on ~/.claude/settings.json, with --user", () => {
  const root = project();
  const home = folder("home");
  claudeSettings(home, `node ${join(home, "gone/bin/ctxinject.js")} hook claude`);
  const findings = doctor(root, home);
  assert.is(findings.length, 1, JSON.stringify(findings));
  assert.is(findings[0]!.file, join(home, ".claude/settings.json"));
  assert.match(findings[0]!.message, `${join(home, "gone/bin/ctxinject.js")} does not exist`);
  assert.match(findings[0]!.message, "`ctxinject init --claude --user` again");
});

test("doctor: the commands init writes, where they run, are no finding", () => {
  const root = project();
  const home = folder("home");
  claudeSettings(home, `node ${realpathSync(BIN)} hook claude`);
  mkdirSync(join(root, "node_modules/.bin"), { recursive: true });
  writeFileSync(join(root, "node_modules/.bin/ctxinject"), "#!/bin/sh\n", { mode: 0o755 });
  claudeSettings(root, '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/ctxinject hook claude');
  assert.equal(doctor(root, home), []);
  // The same project command once the install is gone (a fresh clone before `npm ci`).
  rmSync(join(root, "node_modules"), { recursive: true });
  const [gone] = doctor(root, home);
  assert.match(gone!.message, "node_modules/.bin/ctxinject does not exist (the project's dependencies are not installed here");
});

test("doctor: a project hook whose node_modules/.bin/ctxinject is there but not executable is a finding saying so", () => {
  const root = project();
  mkdirSync(join(root, "node_modules/.bin"), { recursive: true });
  writeFileSync(join(root, "node_modules/.bin/ctxinject"), "#!/bin/sh\n", { mode: 0o644 });
  claudeSettings(root, '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/ctxinject hook claude');
  const [finding, ...rest] = doctor(root, folder("home"));
  assert.equal(rest, []);
  assert.match(finding!.message, "node_modules/.bin/ctxinject is not executable");
});

test.run();
