import { test } from "uvu";
import * as assert from "uvu/assert";
import { chmodSync, mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanup, git } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";
import { tempFolders } from "../helpers/temp.js";

const { folder } = tempFolders(test);

/**
 * A repository whose .git/config names programs for git to run: core.fsmonitor, a required filter driver (clean,
 * smudge) and a process filter, diff.external, a textconv, a pager, hooks (through core.hooksPath), and a promisor
 * remote reached through core.sshCommand. Each program writes a file named after itself into `marks`; no ctxinject
 * command may leave one.
 */
test.after(cleanup);

/** An executable that records its run as `marks/<name>`, then passes its input on (a filter must give content). */
function marker(bin: string, marks: string, name: string, options: { exitCode?: number; passInput?: boolean } = {}): string {
  const path = join(bin, name);
  writeFileSync(path, `#!/bin/sh\necho "$*" >> '${join(marks, name)}'\n${options.passInput === false ? "" : "cat\n"}exit ${options.exitCode ?? 0}\n`);
  chmodSync(path, 0o755);
  return path;
}

function write(root: string, path: string, text: string): void {
  mkdirSync(join(root, path, ".."), { recursive: true });
  writeFileSync(join(root, path), text);
}

/** Sets repository config with git's own `config` (which runs nothing), as the hostile repository would ship it. */
function configure(root: string, settings: Record<string, string>): void {
  for (const [key, value] of Object.entries(settings)) git(root, "config", key, value);
}

interface Hostile {
  root: string;
  marks: string;
  bin: string;
}

function hostileRepository(): Hostile {
  const root = folder("git-hostile");
  const outside = folder("git-programs");
  const marks = join(outside, "marks");
  const bin = join(outside, "bin");
  mkdirSync(marks);
  mkdirSync(bin);
  write(root, "AGENTS.md", "Root rule ROOT-MARK.\n");
  write(root, "src/AGENTS.md", "Source rule SRC-MARK.\n");
  write(root, "src/a.ts", "export const a = 1;\n");
  write(root, ".cursor/rules/ts.mdc", "---\nglobs: src/**/*.ts\nalwaysApply: false\n---\nTypeScript rule TS-MARK.\n");
  write(root, "docs/AGENTS.md", "Docs rule DOCS-MARK.\n");
  write(root, "docs/guide.md", "A guide.\n");
  write(root, ".gitattributes", "* filter=evil diff=evil\n*.md filter=proc diff=evil\n");
  // `.git` is a file (as in a linked worktree): ctxinject's own index reader steps aside, and `build --all` asks
  // `git ls-files`.
  git(root, "init", "-q", "--separate-git-dir", join(outside, "git-dir"));
  git(root, "add", "-A");
  git(root, "commit", "-qm", "init");
  write(root, "docs/guide.md", "A longer guide.\n");
  git(root, "add", "docs/guide.md");
  const hooks = join(root, ".githooks");
  mkdirSync(hooks);
  for (const hook of ["post-index-change", "pre-commit", "post-checkout", "reference-transaction", "pre-auto-gc"]) marker(hooks, marks, hook);
  configure(root, {
    "core.fsmonitor": marker(bin, marks, "fsmonitor"),
    "filter.evil.clean": marker(bin, marks, "clean"),
    "filter.evil.smudge": marker(bin, marks, "smudge"),
    "filter.evil.required": "true",
    "filter.proc.process": marker(bin, marks, "process"),
    "diff.external": marker(bin, marks, "external-diff"),
    "diff.evil.textconv": marker(bin, marks, "textconv"),
    "diff.evil.command": marker(bin, marks, "diff-command"),
    "core.pager": marker(bin, marks, "pager"),
    "core.hooksPath": ".githooks",
    // Names another excludes file: the targeted build's ignore check is then git's own (`check-ignore`).
    "core.excludesFile": join(outside, "excludes"),
  });
  // Work-tree changes: one edit, and stat data changed on files whose content did not (git then hashes them again,
  // through the clean filter).
  write(root, "src/a.ts", "export const a = 2;\n");
  const later = new Date(Date.now() + 5000);
  for (const path of ["AGENTS.md", "src/AGENTS.md", "docs/AGENTS.md", ".gitattributes"]) utimesSync(join(root, path), later, later);
  return { root, marks, bin };
}

const ran = (marks: string): string[] => readdirSync(marks).sort();
/** Each test starts with no marks (the setup's own git calls ran nothing: the config came last). */
const clear = (marks: string): void => {
  for (const name of readdirSync(marks)) rmSync(join(marks, name));
};

const ctx = hostileRepository();
const env = { CTXINJECT_HOOK_SERVER: "0" };
test.before.each(() => clear(ctx.marks));

test("build --changed runs nothing the repository's git config names, and still finds the changed files", async () => {
  const result = await runMain(["build", "--changed", "--format", "markdown"], { cwd: ctx.root, env });
  assert.is(result.status, 0, result.stderr);
  assert.equal(ran(ctx.marks), []);
  assert.match(result.stdout, "SRC-MARK");
  assert.match(result.stdout, "DOCS-MARK");
});

test("build --staged runs nothing the repository's git config names, and still finds the staged files", async () => {
  const result = await runMain(["build", "--staged", "--format", "markdown"], { cwd: ctx.root, env });
  assert.is(result.status, 0, result.stderr);
  assert.equal(ran(ctx.marks), []);
  assert.match(result.stdout, "DOCS-MARK");
  assert.not.match(result.stdout, "SRC-MARK");
});

test("build --all that asks git for the tracked files runs nothing the repository's git config names", async () => {
  const result = await runMain(["build", "--all", "--format", "markdown"], { cwd: ctx.root, env });
  assert.is(result.status, 0, result.stderr);
  assert.equal(ran(ctx.marks), []);
  for (const text of ["ROOT-MARK", "SRC-MARK", "DOCS-MARK"]) assert.match(result.stdout, text);
});

test("doctor runs nothing the repository's git config names", async () => {
  const result = await runMain(["doctor"], { cwd: ctx.root, env });
  assert.equal(ran(ctx.marks), []);
  assert.not.match(result.stderr, /Error|at .*\.js/);
});

test("a hook answering a prompt that names a file runs nothing the repository's git config names", async () => {
  const input = JSON.stringify({ session_id: "git-hostile", cwd: ctx.root, hook_event_name: "UserPromptSubmit", prompt: "fix src/a.ts" });
  const result = await runMain(["hook", "claude"], { cwd: "/", env, input });
  assert.is(result.status, 0, result.stderr);
  assert.equal(ran(ctx.marks), []);
  assert.match(result.stdout, "TS-MARK");
});

test("build --changed in a submodule-holding repository runs nothing the submodule's git config names", async () => {
  const sub = folder("git-sub");
  write(sub, "s.md", "sub\n");
  write(sub, ".gitattributes", "* filter=subf\n");
  git(sub, "init", "-q");
  git(sub, "add", "-A");
  git(sub, "commit", "-qm", "sub");
  const top = folder("git-top");
  write(top, "AGENTS.md", "Top rule TOP-MARK.\n");
  git(top, "init", "-q");
  git(top, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "sub");
  git(top, "add", "-A");
  git(top, "commit", "-qm", "top");
  const marks = join(folder("git-sub-marks"), "marks");
  mkdirSync(marks);
  configure(join(top, "sub"), {
    "core.fsmonitor": marker(join(marks, ".."), marks, "sub-fsmonitor"),
    "filter.subf.clean": marker(join(marks, ".."), marks, "sub-clean"),
  });
  const later = new Date(Date.now() + 5000);
  utimesSync(join(top, "sub/s.md"), later, later);
  const result = await runMain(["build", "--changed", "--format", "markdown"], { cwd: top, env });
  assert.is(result.status, 0, result.stderr);
  assert.equal(ran(marks), []);
});

test("build --changed with a commit missing from a partial clone fetches nothing (no transport the config names runs)", async () => {
  const root = folder("git-promisor");
  write(root, "AGENTS.md", "Root rule.\n");
  git(root, "init", "-q");
  git(root, "add", "-A");
  git(root, "commit", "-qm", "init");
  const marks = join(folder("git-promisor-marks"), "marks");
  mkdirSync(marks);
  const bin = join(marks, "..");
  configure(root, {
    "core.repositoryformatversion": "1",
    "extensions.partialClone": "origin",
    "remote.origin.promisor": "true",
    "remote.origin.url": "ssh://example.invalid/x",
    "core.sshCommand": marker(bin, marks, "ssh", { exitCode: 1, passInput: false }),
    "protocol.ssh.allow": "always",
  });
  const result = await runMain(["build", "--changed", "1234567890123456789012345678901234567890"], { cwd: root, env });
  assert.equal(ran(marks), []);
  assert.is(result.status, 2);
  assert.match(result.stderr, "--changed 1234567890123456789012345678901234567890: git said");
  assert.not.match(result.stderr, /at .*\.js/);
});

test.run();
