import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { BIN, REPO, git, runCli, testEnvironment } from "../helpers/cli.js";
import { tempFolders } from "../helpers/temp.js";

// `init --<host>` in a project writes a command that runs where it is written: the project's own install, found
// as each package manager lays it out (no package manager runs here: the layouts are made by hand), else the
// ctxinject that ran, by its real path, with node. Never `npx --no-install ctxinject`, which in a project that does
// not install ctxinject prints `npm error 404` on every prompt.

const temp = tempFolders(test);
const folder = (prefix: string): string => realpathSync(temp.folder(`pm-${prefix}`));

/** The test's PATH without any folder that holds a ctxinject. */
const PATH = (process.env.PATH ?? "")
  .split(delimiter)
  .filter((dir) => dir !== "" && !existsSync(join(dir, "ctxinject")))
  .join(delimiter);
const REAL_BIN = realpathSync(BIN);

/** A git repository with an AGENTS.md (and a subfolder the host may run hooks from). */
function project(): string {
  const root = folder("project");
  writeFileSync(join(root, "AGENTS.md"), "# Project\n");
  writeFileSync(join(root, "package.json"), '{"name":"app","private":true}\n');
  mkdirSync(join(root, "src"));
  git(root, "init", "-q");
  return root;
}

/** ctxinject's package in `dir`'s node_modules, whose bin writes a marker (what it was run with) where it is told. */
function fakePackage(dir: string): string {
  const marker = join(dir, "RAN");
  const bin = join(dir, "node_modules/ctxinject/bin/ctxinject.js");
  mkdirSync(dirname(bin), { recursive: true });
  writeFileSync(bin, `#!/usr/bin/env node\nrequire("node:fs").writeFileSync(${JSON.stringify(marker)}, process.argv.slice(2).join(" "));\n`);
  chmodSync(bin, 0o755);
  mkdirSync(join(dir, "node_modules/.bin"), { recursive: true });
  return marker;
}

/** npm, yarn classic and bun: a link in node_modules/.bin. */
function linkedBin(dir: string): string {
  const marker = fakePackage(dir);
  symlinkSync("../ctxinject/bin/ctxinject.js", join(dir, "node_modules/.bin/ctxinject"));
  return marker;
}

/** pnpm: a shell script in node_modules/.bin that runs the package's bin with node. */
function pnpmBin(dir: string): string {
  const marker = fakePackage(dir);
  writeFileSync(
    join(dir, "node_modules/.bin/ctxinject"),
    `#!/bin/sh\nbasedir=$(dirname "$(echo "$0" | sed -e 's,\\\\,/,g')")\nexec node "$basedir/../ctxinject/bin/ctxinject.js" "$@"\n`,
  );
  chmodSync(join(dir, "node_modules/.bin/ctxinject"), 0o755);
  return marker;
}

const commandOf = (root: string): string => {
  const settings = JSON.parse(readFileSync(join(root, ".claude/settings.json"), "utf8")) as {
    hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>>;
  };
  const commands = [...new Set(Object.values(settings.hooks).flatMap((groups) => groups.flatMap((g) => g.hooks.map((h) => h.command))))];
  assert.is(commands.length, 1, commands.join("\n"));
  return commands[0]!;
};

/** Runs the command as Claude Code does: `sh -c`, from a folder below the project, $CLAUDE_PROJECT_DIR set. */
function runAsClaude(command: string, root: string, cwd = join(root, "src")) {
  const event = { hook_event_name: "UserPromptSubmit", session_id: "pm", cwd: root, prompt: "hello" };
  return spawnSync("/bin/sh", ["-c", command], {
    cwd,
    input: JSON.stringify(event),
    encoding: "utf8",
    env: testEnvironment({ PATH, CLAUDE_PROJECT_DIR: root, CTXINJECT_HOOK_SERVER: "0" }),
  });
}

function init(root: string, ...args: string[]) {
  const out = runCli(["init", "--claude", ...args], { cwd: root, env: { PATH } });
  assert.is(out.status, 0, out.stderr);
  return out;
}

test("npm: init --claude names the project's node_modules/.bin/ctxinject through $CLAUDE_PROJECT_DIR, and it runs", () => {
  const root = project();
  writeFileSync(join(root, "package-lock.json"), "{}\n");
  const marker = linkedBin(root);
  const out = init(root);
  assert.is(commandOf(root), '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/ctxinject hook claude');
  assert.match(out.stderr, "installed in this project (node_modules/.bin/ctxinject, npm)");
  assert.is(runAsClaude(commandOf(root), root).status, 0);
  assert.is(readFileSync(marker, "utf8"), "hook claude");
});

test("pnpm, at the workspace root: the root's node_modules/.bin/ctxinject (pnpm's shell script), and it runs", () => {
  const root = project();
  writeFileSync(join(root, "pnpm-workspace.yaml"), "packages:\n  - 'packages/*'\n");
  writeFileSync(join(root, "pnpm-lock.yaml"), "lockfileVersion: '9.0'\n");
  const marker = pnpmBin(root);
  const out = init(root);
  assert.is(commandOf(root), '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/ctxinject hook claude');
  assert.match(out.stderr, "(node_modules/.bin/ctxinject, pnpm)");
  const ran = runAsClaude(commandOf(root), root);
  assert.is(ran.status, 0, ran.stderr);
  assert.is(readFileSync(marker, "utf8"), "hook claude");
});

test("pnpm, a package of a workspace installed at its root (pnpm add -w): the root's bin, from the package's folder", () => {
  const workspace = project();
  writeFileSync(join(workspace, "pnpm-workspace.yaml"), "packages:\n  - 'packages/*'\n");
  const marker = pnpmBin(workspace);
  const app = join(workspace, "packages/app");
  mkdirSync(join(app, "src"), { recursive: true });
  writeFileSync(join(app, "package.json"), '{"name":"app"}\n');
  writeFileSync(join(app, "AGENTS.md"), "# App\n");
  init(app, "--root", app);
  assert.is(commandOf(app), '"$CLAUDE_PROJECT_DIR"/../../node_modules/.bin/ctxinject hook claude');
  const ran = runAsClaude(commandOf(app), app);
  assert.is(ran.status, 0, ran.stderr);
  assert.is(readFileSync(marker, "utf8"), "hook claude");
});

test("yarn classic: node_modules/.bin, said as yarn's", () => {
  const root = project();
  writeFileSync(join(root, "yarn.lock"), "# yarn lockfile v1\n");
  const marker = linkedBin(root);
  const out = init(root);
  assert.is(commandOf(root), '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/ctxinject hook claude');
  assert.match(out.stderr, "(node_modules/.bin/ctxinject, yarn)");
  assert.is(runAsClaude(commandOf(root), root).status, 0);
  assert.is(readFileSync(marker, "utf8"), "hook claude");
});

test("bun: node_modules/.bin, said as bun's", () => {
  const root = project();
  writeFileSync(join(root, "bun.lock"), "{}\n");
  const marker = linkedBin(root);
  const out = init(root);
  assert.is(commandOf(root), '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/ctxinject hook claude');
  assert.match(out.stderr, "(node_modules/.bin/ctxinject, bun)");
  assert.is(runAsClaude(commandOf(root), root).status, 0);
  assert.is(readFileSync(marker, "utf8"), "hook claude");
});

test("yarn berry with Plug'n'Play (no node_modules): `yarn ctxinject` when package.json depends on it, else the ctxinject that ran", () => {
  const root = project();
  writeFileSync(join(root, ".yarnrc.yml"), "nodeLinker: pnp\n");
  writeFileSync(join(root, ".pnp.cjs"), "// Plug'n'Play map\n");
  const bare = init(root);
  assert.is(commandOf(root), `node ${REAL_BIN} hook claude`, bare.stderr);
  writeFileSync(join(root, "package.json"), '{"name":"app","devDependencies":{"ctxinject":"^0.1.0"}}\n');
  const out = init(root);
  assert.is(commandOf(root), "yarn ctxinject hook claude");
  assert.match(out.stderr, "Yarn Plug'n'Play");
});

test("a global install (a prefix's bin linking into its lib/node_modules): a project without ctxinject gets node and the real path, and it runs", () => {
  const prefix = folder("prefix");
  mkdirSync(join(prefix, "lib/node_modules"), { recursive: true });
  mkdirSync(join(prefix, "bin"));
  symlinkSync(REPO, join(prefix, "lib/node_modules/ctxinject"));
  symlinkSync("../lib/node_modules/ctxinject/bin/ctxinject.js", join(prefix, "bin/ctxinject"));
  const root = project();
  // On PATH (as `npm install -g` leaves it), and run by an absolute path with PATH not holding it.
  for (const path of [[join(prefix, "bin"), PATH].join(delimiter), PATH]) {
    const out = spawnSync(join(prefix, "bin/ctxinject"), ["init", "--claude"], { cwd: root, encoding: "utf8", env: testEnvironment({ PATH: path }) });
    assert.is(out.status, 0, out.stderr);
    assert.is(commandOf(root), `node ${REAL_BIN} hook claude`, out.stderr);
    assert.match(out.stderr, "not installed in this project");
  }
  const ran = runAsClaude(commandOf(root), root);
  assert.is(ran.status, 0, ran.stderr);
  assert.not.match(ran.stderr, "npm error");
});

test("a dangling node_modules/.bin/ctxinject link is no install", () => {
  const root = project();
  mkdirSync(join(root, "node_modules/.bin"), { recursive: true });
  symlinkSync("../ctxinject/bin/ctxinject.js", join(root, "node_modules/.bin/ctxinject"));
  init(root);
  assert.is(commandOf(root), `node ${REAL_BIN} hook claude`);
});

test("a node_modules that is a file is no install either: init and doctor go on (it stopped them as an internal error)", () => {
  const root = project();
  writeFileSync(join(root, "node_modules"), "not a folder\n");
  init(root);
  assert.is(commandOf(root), `node ${REAL_BIN} hook claude`);
  const doctor = runCli(["doctor", "--fail-on", "none"], { cwd: root, env: { PATH } });
  assert.is(doctor.status, 0, doctor.stderr);
  assert.not.match(doctor.stderr, "internal error");
});

test.run();
