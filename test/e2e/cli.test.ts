import { test } from "uvu";
import * as assert from "uvu/assert";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanup, git, materialize, runCli } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";

test.after(cleanup);

const rootOf = (stdout: string) => JSON.parse(stdout).root as string;

test("without --root, the git top level is the root even from a subfolder", async () => {
  const root = materialize("monorepo");
  const { stdout } = await runMain(["build", "--format", "json"], { cwd: join(root, "packages/web/src") });
  assert.is(rootOf(stdout), root);
});

test("a .git file (worktree or submodule) marks the root too", async () => {
  const root = materialize("configured", { git: false });
  writeFileSync(join(root, ".git"), "gitdir: /nonexistent/worktree\n");
  const { status, stdout, stderr } = await runMain(["build", "--format", "json"], { cwd: join(root, "src") });
  assert.is(status, 0, stderr);
  assert.is(rootOf(stdout), root);
});

test("outside git, the folder holding the config file is the root", async () => {
  const root = materialize("configured", { git: false });
  const { stdout } = await runMain(["build", "--format", "json"], { cwd: join(root, "src") });
  assert.is(rootOf(stdout), root);
});

test("--files is read relative to the current folder, or to --root when it would leave the root", async () => {
  const root = materialize("monorepo");
  const fromInside = JSON.parse(
    (await runMain(["build", "--format", "json", "--files", "src/components/Button.tsx"], { cwd: join(root, "packages/web") })).stdout,
  );
  assert.equal(fromInside.targets, ["packages/web/src/components/Button.tsx"]);
  const viaRoot = JSON.parse((await runMain(["build", "--format", "json", "--root", root, "--files", "packages/web/src/components/Button.tsx"])).stdout);
  assert.equal(viaRoot.targets, ["packages/web/src/components/Button.tsx"]);
});

test("--staged targets the files staged in git", async () => {
  const root = materialize("monorepo");
  git(root, "commit", "-qm", "fixture");
  writeFileSync(join(root, "packages/api/src/handlers/user.ts"), "export const user = 2;\n");
  git(root, "add", "packages/api/src/handlers/user.ts");
  const value = JSON.parse((await runMain(["build", "--staged", "--format", "json"], { cwd: root })).stdout);
  assert.equal(value.targets, ["packages/api/src/handlers/user.ts"]);
  assert.ok(value.entries.some((e: { id: string }) => e.id === "packages/api/.cursor/rules/handlers.mdc"));
});

test("--changed targets files changed since a ref, untracked ones included", async () => {
  const root = materialize("monorepo");
  git(root, "commit", "-qm", "fixture");
  writeFileSync(join(root, "packages/web/src/components/Button.tsx"), "export const Button = () => 1;\n");
  writeFileSync(join(root, "packages/api/src/new.ts"), "export {};\n");
  const value = JSON.parse((await runMain(["build", "--changed", "--format", "json"], { cwd: root })).stdout);
  assert.equal(value.targets, ["packages/api/src/new.ts", "packages/web/src/components/Button.tsx"]);
  const withRef = JSON.parse((await runMain(["build", "--changed", "HEAD", "--format", "json"], { cwd: root })).stdout);
  assert.equal(withRef.targets, value.targets);
});

test("a usage error ends the process with exit 2, its message and no stack (the mapping cases run in-process: cli-mapping.test.ts)", () => {
  const { status, stdout, stderr } = runCli(["frobnicate"]);
  assert.is(status, 2);
  assert.match(stderr, /unknown command 'frobnicate'/);
  assert.not.match(stderr, /\n\s+at /, "no stack trace");
  assert.is(stdout, "");
});

test("a JavaScript config that throws exits 2 naming the file", async () => {
  const root = materialize("config-throws");
  const { status, stderr } = await runMain(["build"], { cwd: root, env: { CTXINJECT_TRUST_ALL: "1" } });
  assert.is(status, 2);
  assert.match(stderr, /ctxinject\.config\.mjs: cannot load the config file: config exploded/);
  assert.not.match(stderr, /\n\s+at /);
});

test("a JavaScript config sets the format and the agent file names", async () => {
  const root = materialize("config-js");
  const trusted = { CTXINJECT_TRUST_ALL: "1" };
  const { status, stdout } = await runMain(["build"], { cwd: root, env: trusted });
  assert.is(status, 0);
  assert.match(stdout, "## GEMINI.md [directory-agents normal]\nGemini-specific notes.");
  assert.is((await runMain(["build", "--format", "markdown"], { cwd: root, env: trusted })).stdout.startsWith("<!--"), true, "the flag wins over the config");
});

test("a repository's JavaScript config does not run until trusted; trust is for the text as it is, and CI trusts", async () => {
  const root = materialize("config-js");
  const state = join(root, ".state-for-test");
  // Neither CI nor CTXINJECT_TRUST_ALL: a user's hook running in a freshly cloned repository.
  const env = { CI: undefined, CTXINJECT_TRUST_ALL: undefined, CTXINJECT_STATE_DIR: state };
  const untrusted = await runMain(["build"], { cwd: root, env });
  assert.is(untrusted.status, 0);
  assert.ok(untrusted.stdout.startsWith("<!--"), "the defaults apply: markdown, not the config's compact format");
  assert.match(untrusted.stderr, "ctxinject.config.mjs: is code from the repository and is not trusted on this machine");
  assert.match(untrusted.stderr, "ctxinject trust");

  const trusted = await runMain(["trust"], { cwd: root, env });
  assert.is(trusted.status, 0, trusted.stderr);
  assert.match(trusted.stdout, /trusted .*ctxinject\.config\.mjs \(sha256 [0-9a-f]{64}\)/);
  const after = await runMain(["build"], { cwd: root, env });
  assert.match(after.stdout, "## GEMINI.md [directory-agents normal]");
  assert.not.match(after.stderr, "not trusted");

  appendFileSync(join(root, "ctxinject.config.mjs"), "\n// changed after it was trusted\n");
  const changed = await runMain(["build"], { cwd: root, env });
  assert.ok(changed.stdout.startsWith("<!--"), "a changed config needs trust again");
  assert.match(changed.stderr, "not trusted");

  assert.match((await runMain(["build"], { cwd: root, env: { ...env, CI: "true" } })).stdout, "## GEMINI.md", "CI trusts");
  assert.match((await runMain(["build"], { cwd: root, env: { ...env, CTXINJECT_TRUST_ALL: "1" } })).stdout, "## GEMINI.md");
  assert.match((await runMain(["trust", "--revoke"], { cwd: root, env })).stdout, "no longer trusted");
  assert.match((await runMain(["trust", "--revoke"], { cwd: root, env })).stdout, "was not trusted");
});

test("a data config needs no trust", async () => {
  const result = await runMain(["trust"], { cwd: materialize("configured") });
  assert.is(result.status, 0);
  assert.match(result.stdout, "is a data config (JSON or YAML): ctxinject parses it and runs nothing from it");
});

test("config rule dirs, custom entries, disabled sources and ignore globs all take effect", async () => {
  const root = materialize("configured");
  const value = JSON.parse((await runMain(["build", "--all", "--format", "json"], { cwd: root })).stdout);
  const ids = value.entries.map((e: { id: string; priority: string }) => `${e.id}:${e.priority}`);
  assert.equal(ids, ["house-style:critical", "docs/rules/errors.md:high", "AGENTS.md:normal", "glossary:normal"]);
  const glossary = value.entries.find((e: { id: string }) => e.id === "glossary");
  assert.is(glossary.path, "docs/glossary.md");
  const explain = JSON.parse((await runMain(["explain", "--all", "--json"], { cwd: root })).stdout);
  const status = Object.fromEntries(explain.candidates.map((c: { id: string; status: string }) => [c.id, c.status]));
  assert.is(status["README.md"], "disabled");
  assert.is(status["legacy/AGENTS.md"], "disabled");
});

test("init writes a commented config that loads, and does not overwrite one", async () => {
  const root = materialize("monorepo");
  const bare = join(root, "packages/web");
  mkdirSync(join(bare, ".git"));
  const first = await runMain(["init"], { cwd: bare });
  assert.is(first.status, 0, first.stderr);
  const written = readFileSync(join(bare, ".ctxinjectrc.yaml"), "utf8");
  assert.match(written, /^# ctxinject configuration/);
  assert.is((await runMain(["build"], { cwd: bare })).status, 0);
  writeFileSync(join(bare, ".ctxinjectrc.yaml"), "format: xml\n");
  const second = await runMain(["init"], { cwd: bare });
  assert.is(second.status, 0, second.stderr);
  assert.match(second.stderr, /already configures ctxinject; nothing written/);
  assert.is(readFileSync(join(bare, ".ctxinjectrc.yaml"), "utf8"), "format: xml\n");
});

test.run();
