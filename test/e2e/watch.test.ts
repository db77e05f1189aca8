import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as pause } from "node:timers/promises";
import { BIN, cleanup, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";
import { until } from "../helpers/wait.js";

test.after(cleanup);

/** How long a change may take to reach the output. */
const CHANGE_MS = 8000;

/** `build --all --out out.md --watch` in root: the child, what it said on stderr so far, and its exit. */
function startWatch(root: string) {
  const child = spawn(process.execPath, [BIN, "build", "--all", "--out", "out.md", "--watch"], {
    cwd: root,
    env: { ...process.env, NO_COLOR: "1" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const said = { text: "" };
  child.stderr.on("data", (chunk: Buffer) => (said.text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, said, exited };
}

test("build --out --watch follows a rules file created, changed, renamed and deleted, and a burst of 100 changes is a few rebuilds", async () => {
  // Outside git: --all walks the tree, so a new file counts without `git add`.
  const root = materialize("monorepo", { git: false });
  const out = join(root, "out.md");
  const { child, said, exited } = startWatch(root);
  const text = () => (existsSync(out) ? readFileSync(out, "utf8") : "");
  try {
    await until(
      () => said.text.includes("watching"),
      () => `"watching" on stderr, which said: ${said.text}`,
      CHANGE_MS,
    );
    assert.match(text(), ".cursor/rules/general.mdc");

    const rule = join(root, ".cursor/rules/watched.mdc");
    writeFileSync(rule, "---\nalwaysApply: true\n---\nCreated while watching. (MARK-CREATED)\n");
    await until(() => text().includes("MARK-CREATED"), "a new rule in the file", CHANGE_MS);
    writeFileSync(rule, "---\nalwaysApply: true\n---\nChanged while watching. (MARK-CHANGED)\n");
    await until(() => text().includes("MARK-CHANGED") && !text().includes("MARK-CREATED"), "a changed rule rewritten", CHANGE_MS);
    renameSync(rule, join(root, ".cursor/rules/renamed.mdc"));
    await until(() => text().includes(".cursor/rules/renamed.mdc") && !text().includes(".cursor/rules/watched.mdc"), "a renamed rule moved", CHANGE_MS);
    rmSync(join(root, ".cursor/rules/renamed.mdc"));
    await until(() => !text().includes("MARK-CHANGED"), "a deleted rule gone", CHANGE_MS);

    const writesBefore = said.text.split("wrote out.md").length;
    const burst = join(root, ".cursor/rules/burst.mdc");
    for (let i = 1; i <= 100; i++) writeFileSync(burst, `---\nalwaysApply: true\n---\nBurst ${i}. (MARK-BURST-${i}-END)\n`);
    await until(() => text().includes("MARK-BURST-100-END"), "the last write's content", CHANGE_MS);
    // A fixed pause: what it waits for is that no rebuild comes after the last one, which no condition shows.
    await pause(600);
    const rebuilds = said.text.split("wrote out.md").length - writesBefore;
    assert.ok(rebuilds >= 1 && rebuilds <= 5, `${rebuilds} rebuilds for 100 changes`);
    assert.not.match(text(), "MARK-BURST-99-END");
  } finally {
    child.kill("SIGTERM");
  }
  assert.is(await exited, 0, "SIGTERM ends it cleanly");
});

test("a config that breaks while watching keeps the last good output and says so; --watch needs --out", async () => {
  const root = materialize("monorepo", { git: false });
  const out = join(root, "out.md");
  const { child, said, exited } = startWatch(root);
  try {
    await until(
      () => said.text.includes("watching"),
      () => `"watching" on stderr, which said: ${said.text}`,
      CHANGE_MS,
    );
    const good = readFileSync(out, "utf8");
    writeFileSync(join(root, ".ctxinjectrc.json"), "{ not json");
    await until(
      () => said.text.includes("keeps its last good content"),
      () => `"keeps its last good content" on stderr, which said: ${said.text}`,
      CHANGE_MS,
    );
    assert.is(readFileSync(out, "utf8"), good);
  } finally {
    child.kill("SIGINT");
  }
  assert.is(await exited, 0);
  assert.is((await runMain(["build", "--watch"], { cwd: root })).status, 2);
});

test.run();
