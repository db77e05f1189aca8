/**
 * A tree the user may not wholly read or write ends no run with an internal error (exit 70) or a stack: a folder or
 * file that cannot be read is a warning naming it, the run going on; a project folder that cannot be written is one
 * line naming the file, exit 2, as init's other refusals are; a state folder that cannot be written costs a hook
 * and `build --session` no answer. Root reads and writes whatever the permissions say, so each case runs the built
 * CLI as `nobody` (runuser), in a clean environment of throwaway folders. (On main: a folder that cannot be read was
 * left out without a word, a target below it was "no such file", init and `--out` into a folder that cannot be
 * written ended with exit 70, a hook whose session could not be saved with exit 1 and no answer.)
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { BIN, git, type CliResult } from "../helpers/cli.js";
import { onPath, testUnless } from "../helpers/lane.js";
import { tempFolders } from "../helpers/temp.js";

const { folder } = tempFolders(test);

/** Why these cases cannot run here, or nothing. */
function missing(): string | undefined {
  if (process.getuid?.() !== 0) return "not root: only root can run the CLI as nobody (runuser)";
  if (!onPath("runuser")) return "no runuser on PATH";
  const probe = spawnSync("runuser", ["-u", "nobody", "--", process.execPath, BIN, "--version"], { encoding: "utf8" });
  if (probe.status !== 0) return `nobody cannot run ${BIN} (the repository or node is not readable by nobody): ${(probe.stderr ?? "").trim().split("\n")[0]}`;
  return undefined;
}
const why = missing();
const it = testUnless(why);
const NOBODY =
  why === undefined
    ? {
        uid: Number(spawnSync("id", ["-u", "nobody"], { encoding: "utf8" }).stdout),
        gid: Number(spawnSync("id", ["-g", "nobody"], { encoding: "utf8" }).stdout),
      }
    : { uid: -1, gid: -1 };

/** A folder nobody owns (and so may write). */
function nobodysFolder(prefix: string): string {
  const dir = folder(prefix);
  chownSync(dir, NOBODY.uid, NOBODY.gid);
  return dir;
}

/** Home, cache, config and state of nobody's run, in a throwaway folder nobody owns; `state` overrides the state folder. */
function throwawayEnv(state?: string): Record<string, string> {
  const home = nobodysFolder("perm-home");
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_STATE_HOME: join(home, ".local/state"),
    XDG_RUNTIME_DIR: join(home, "run"),
    CTXINJECT_STATE_DIR: state ?? join(home, "state"),
    CTXINJECT_HOOK_SERVER: "0",
    NO_COLOR: "1",
  };
}

/** The built CLI run by nobody in `cwd`, its environment only what is given (nothing of root's). */
function asNobody(cwd: string, args: string[], options: { input?: string; state?: string } = {}): CliResult {
  const env = Object.entries(throwawayEnv(options.state)).map(([k, v]) => `${k}=${v}`);
  const out = spawnSync("runuser", ["-u", "nobody", "--", "env", "-i", ...env, process.execPath, BIN, ...args], {
    cwd,
    encoding: "utf8",
    input: options.input ?? "",
  });
  return { status: out.status, stdout: out.stdout, stderr: out.stderr };
}

/** A project nobody may read (not write): AGENTS.md, a Cursor rule that always applies, a source file. */
function project(extra: Record<string, string> = {}): string {
  const root = folder("perm-tree");
  const files: Record<string, string> = {
    "AGENTS.md": "# Project\n\nKeep handlers small.\n",
    ".cursor/rules/a.mdc": "---\nalwaysApply: true\n---\nRule A always applies.\n",
    "src/app.ts": "export const app = 1;\n",
    ...extra,
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  spawnSync("chmod", ["-R", "a+rX", root]);
  return root;
}

/** What a run did wrong whatever the tree, or nothing: an exit other than 0, 1 or 2, an internal error, a stack. */
function assertNoCrash(out: CliResult, what: string): void {
  assert.ok(out.status !== null && [0, 1, 2].includes(out.status), `${what}: exit ${out.status}: ${out.stderr}`);
  assert.not.match(out.stderr, "internal error", `${what}: ${out.stderr}`);
  assert.not.match(`\n${out.stderr}`, /\n {4}at /, `${what}: ${out.stderr}`);
}

const hookEvent = (root: string, prompt: string, session = "perm-session") =>
  JSON.stringify({ hook_event_name: "UserPromptSubmit", prompt, session_id: session, cwd: root });

/** A tree whose `secret/` nobody may not open: its AGENTS.md and a source file below it. */
function withSecretFolder(): string {
  const root = project({ "secret/AGENTS.md": "Secret folder instructions.\n", "secret/sub/x.ts": "export const x = 1;\n" });
  chmodSync(join(root, "secret"), 0o000);
  return root;
}
const SECRET_FOLDER = /warning: secret: .*cannot be read \(permission denied\)/;

it("a folder that cannot be read: build --all goes on and warns naming the folder (permission denied)", () => {
  const out = asNobody(withSecretFolder(), ["build", "--all"]);
  assertNoCrash(out, "build --all");
  assert.is(out.status, 0);
  assert.match(out.stdout, "Rule A always applies.");
  assert.match(out.stderr, SECRET_FOLDER);
});

for (const command of ["build", "explain"]) {
  it(`a folder that cannot be read: ${command} --files below it says permission denied for the file and the folder, never "no such file"`, () => {
    const out = asNobody(withSecretFolder(), [command, "--files", "secret/sub/x.ts"]);
    assertNoCrash(out, command);
    assert.is(out.status, 0);
    assert.match(out.stdout, "a.mdc");
    assert.match(out.stderr, /warning: secret\/sub\/x\.ts: cannot be read \(permission denied\)/);
    assert.match(out.stderr, SECRET_FOLDER);
    assert.not.match(out.stderr, "no such file");
  });
}

it("a folder that cannot be read: doctor and coverage go on and warn naming the folder", () => {
  const root = withSecretFolder();
  const doctor = asNobody(root, ["doctor"]);
  assertNoCrash(doctor, "doctor");
  assert.match(doctor.stderr, SECRET_FOLDER);
  const coverage = asNobody(root, ["coverage", "--format", "json"]);
  assertNoCrash(coverage, "coverage");
  assert.is(coverage.status, 0);
  assert.ok(JSON.parse(coverage.stdout), "coverage's stdout is JSON");
  assert.match(coverage.stderr, SECRET_FOLDER);
});

it("a folder that cannot be read: a hook whose prompt names a file below it answers with what it can read", () => {
  const root = withSecretFolder();
  const out = asNobody(root, ["hook", "claude"], { input: hookEvent(root, "fix the bug in secret/sub/x.ts") });
  assertNoCrash(out, "hook claude");
  assert.is(out.status, 0);
  assert.match(JSON.parse(out.stdout).hookSpecificOutput.additionalContext, "Rule A always applies.");
});

it("a rules folder that cannot be read: a targeted build and build --all warn naming it", () => {
  const root = project();
  chmodSync(join(root, ".cursor/rules"), 0o000);
  bothBuilds(root, "Keep handlers small.", /warning: \.cursor\/rules: .*cannot be read \(permission denied\)/);
});

/** build --all and a targeted build, as nobody: each ends 0 with `kept` built and a warning matching `warned`. */
function bothBuilds(root: string, kept: string, warned: RegExp): void {
  for (const args of [
    ["build", "--all"],
    ["build", "--files", "src/app.ts"],
  ]) {
    const out = asNobody(root, args);
    assertNoCrash(out, args.join(" "));
    assert.is(out.status, 0);
    assert.match(out.stdout, kept);
    assert.match(out.stderr, warned);
  }
}

for (const file of ["AGENTS.md", ".cursor/rules/a.mdc"]) {
  it(`a file that cannot be read (${file}): build --all and a targeted build warn naming it, the rest is built`, () => {
    const root = project();
    chmodSync(join(root, file), 0o000);
    const escaped = file.replace(/[.]/g, "\\.");
    bothBuilds(
      root,
      file === "AGENTS.md" ? "Rule A always applies." : "Keep handlers small.",
      new RegExp(`warning: ${escaped}: cannot be read \\(permission denied\\)`),
    );
  });
}

it("a .ctxinjectrc.json that cannot be read is a config error naming it, exit 2, as a broken one is", () => {
  const root = project({ ".ctxinjectrc.json": "{}\n" });
  chmodSync(join(root, ".ctxinjectrc.json"), 0o000);
  for (const args of [["build", "--all"], ["doctor"]]) {
    const out = asNobody(root, args);
    assertNoCrash(out, args.join(" "));
    assert.is(out.status, 2);
    assert.match(out.stderr, /\.ctxinjectrc\.json: .*permission denied/);
  }
});

/** One line naming `file` and "permission denied", exit 2. */
function assertRefusedWrite(out: CliResult, what: string, file: string): void {
  assertNoCrash(out, what);
  assert.is(out.status, 2, `${what}: ${out.stderr}`);
  assert.is(out.stderr.trim().split("\n").length, 1, `${what}: one line: ${out.stderr}`);
  assert.ok(out.stderr.includes(file) && out.stderr.includes("permission denied"), `${what}: ${out.stderr}`);
}

it("a project folder that cannot be written: init, init --claude and build --out say so in one line naming the file, exit 2", () => {
  const root = project();
  assertRefusedWrite(asNobody(root, ["init"]), "init", ".ctxinjectrc.yaml");
  assertRefusedWrite(asNobody(root, ["init", "--claude"]), "init --claude", ".claude");
  assertRefusedWrite(asNobody(root, ["build", "--all", "--out", ".context/x.md"]), "build --out", ".context/x.md");
});

it("a git hooks folder that cannot be written: init --git-hook says so in one line naming the hook, exit 2", () => {
  const root = project();
  git(root, "init", "-q");
  git(root, "add", "-A");
  // nobody's own repository (git trusts no other's), its hooks folder read-only.
  spawnSync("chown", ["-R", `${NOBODY.uid}:${NOBODY.gid}`, root]);
  chmodSync(join(root, ".git/hooks"), 0o555);
  assertRefusedWrite(asNobody(root, ["init", "--git-hook"]), "init --git-hook", ".git/hooks/pre-commit");
});

/** Nothing on stderr but warnings. */
const onlyWarnings = (stderr: string) =>
  stderr.trim() === "" ||
  stderr
    .trim()
    .split("\n")
    .every((l) => l.startsWith("ctxinject: warning:"));

for (const [mode, what] of [
  [0o555, "cannot be written"],
  [0o000, "cannot be read"],
] as const) {
  it(`a state folder that ${what}: a hook still answers, with at most a warning`, () => {
    const root = project();
    const state = folder("perm-state");
    chmodSync(state, mode);
    const out = asNobody(root, ["hook", "claude"], { input: hookEvent(root, "fix src/app.ts"), state });
    assertNoCrash(out, "hook claude");
    assert.is(out.status, 0, out.stderr);
    assert.match(JSON.parse(out.stdout).hookSpecificOutput.additionalContext, "Rule A always applies.");
    assert.ok(onlyWarnings(out.stderr), out.stderr);
  });

  it(`a state folder that ${what}: build --session still prints the block, with at most a warning`, () => {
    const root = project();
    const state = folder("perm-state");
    chmodSync(state, mode);
    const out = asNobody(root, ["build", "--session", "s1", "--files", "src/app.ts"], { state });
    assertNoCrash(out, "build --session");
    assert.is(out.status, 0, out.stderr);
    assert.match(out.stdout, "Rule A always applies.");
    assert.match(out.stdout, "Keep handlers small.");
    assert.ok(onlyWarnings(out.stderr), out.stderr);
  });
}

test.run();
