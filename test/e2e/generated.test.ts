import { test } from "uvu";
import * as assert from "uvu/assert";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { BIN, cleanup, git, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";

test.after(cleanup);
const OUT = ".context/AGENTS.generated.md";

test("--out writes the block to the file and nothing to stdout", async () => {
  const root = materialize("monorepo");
  const { status, stdout, stderr } = await runMain(["build", "--all", "--out", OUT], { cwd: root });
  assert.is(status, 0, stderr);
  assert.is(stdout, "");
  assert.is(readFileSync(join(root, OUT), "utf8"), (await runMain(["build", "--all"], { cwd: root })).stdout);
});

test("--out leaves an unchanged file alone, mtime included", async () => {
  const root = materialize("monorepo");
  await runMain(["build", "--all", "--out", OUT], { cwd: root });
  const past = new Date("2020-01-01T00:00:00Z");
  utimesSync(join(root, OUT), past, past);
  const { stderr } = await runMain(["build", "--all", "--out", OUT], { cwd: root });
  assert.match(stderr, `unchanged ${OUT}`);
  assert.is(statSync(join(root, OUT)).mtimeMs, past.getTime());
});

test("--check exits 0 when fresh and 1 with a short summary when stale, writing nothing", async () => {
  const root = materialize("monorepo");
  await runMain(["build", "--all", "--out", OUT], { cwd: root });
  assert.is((await runMain(["build", "--all", "--out", OUT, "--check"], { cwd: root })).status, 0);
  writeFileSync(join(root, "AGENTS.md"), "# Changed\n\nNew rules for everyone.\n");
  const before = readFileSync(join(root, OUT), "utf8");
  const stale = await runMain(["build", "--all", "--out", OUT, "--check"], { cwd: root });
  assert.is(stale.status, 1);
  assert.match(stale.stderr, new RegExp(`${OUT.replace(/\./g, "\\.")} is stale: \\d+ lines? added, \\d+ removed, first difference at line \\d+`));
  assert.is(readFileSync(join(root, OUT), "utf8"), before, "--check writes nothing");
  const missing = await runMain(["build", "--all", "--out", "other.md", "--check"], { cwd: root });
  assert.is(missing.status, 1);
  assert.match(missing.stderr, "other.md is stale: missing");
});

test("a failed build leaves the old file as it was", async () => {
  const root = materialize("monorepo");
  await runMain(["build", "--all", "--out", OUT], { cwd: root });
  const before = readFileSync(join(root, OUT), "utf8");
  writeFileSync(join(root, ".ctxinjectrc.json"), "{ broken json");
  const failed = await runMain(["build", "--all", "--out", OUT], { cwd: root });
  assert.is(failed.status, 2);
  assert.is(readFileSync(join(root, OUT), "utf8"), before);
});

test("--check without --out is a usage error", async () => {
  const root = materialize("monorepo");
  const { status, stderr } = await runMain(["build", "--check"], { cwd: root });
  assert.is(status, 2);
  assert.match(stderr, "--check needs --out FILE");
});

test("init --git-hook installs a pre-commit hook that regenerates and stages the file", async () => {
  const root = materialize("monorepo");
  const { status, stderr } = await runMain(["init", "--git-hook"], { cwd: root });
  assert.is(status, 0, stderr);
  const hook = join(root, ".git/hooks/pre-commit");
  assert.ok(statSync(hook).mode & 0o100, "executable");
  // The hook calls `ctxinject`: put this checkout's CLI on PATH under that name, as an install would.
  const bin = join(root, ".test-bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "ctxinject"), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, "ctxinject"), 0o755);
  git(root, "add", "AGENTS.md");
  const env = { ...process.env, PATH: `${bin}:${process.env.PATH}` };
  const commit = spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "first"], { cwd: root, env, encoding: "utf8" });
  assert.is(commit.status, 0, commit.stderr);
  const committed = git(root, "show", "--name-only", "--format=", "HEAD");
  assert.match(committed, OUT);
  assert.ok(existsSync(join(root, OUT)));
});

test("init --git-hook respects core.hooksPath and keeps an existing hook", async () => {
  const root = materialize("monorepo");
  git(root, "config", "core.hooksPath", ".githooks");
  mkdirSync(join(root, ".githooks"));
  writeFileSync(join(root, ".githooks/pre-commit"), "#!/bin/sh\necho existing-check\n");
  assert.is((await runMain(["init", "--git-hook", "--out", "AGENTS.generated.md"], { cwd: root })).status, 0);
  const text = readFileSync(join(root, ".githooks/pre-commit"), "utf8");
  assert.match(text, "echo existing-check");
  assert.match(text, "--out 'AGENTS.generated.md'");
  assert.ok(text.indexOf("# >>> ctxinject >>>") < text.indexOf("echo existing-check"), "ours runs before an exit in theirs");
  await runMain(["init", "--git-hook", "--out", "AGENTS.generated.md"], { cwd: root });
  assert.is(readFileSync(join(root, ".githooks/pre-commit"), "utf8").split("# >>> ctxinject >>>").length, 2, "installing twice keeps one block");
});

test.run();
