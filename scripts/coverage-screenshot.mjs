#!/usr/bin/env node
// Regenerates docs/coverage.png: `ctxinject coverage --format html` of fixtures/monorepo (copied into a fresh git
// repository), opened on one cell in headless Chromium (the Debian package `chromium`). Run after `npm run build`.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const dir = mkdtempSync(join(tmpdir(), "ctxinject-coverage-shot-"));
const run = (cmd, args, cwd = dir) => {
  const r = spawnSync(cmd, args, {
    cwd,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, CTXINJECT_HOOK_SERVER: "0", CTXINJECT_STATE_DIR: join(dir, "state") },
  });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed`);
};
try {
  cpSync(join(repo, "fixtures/monorepo"), join(dir, "repo"), { recursive: true, verbatimSymlinks: true });
  run("git", ["init", "-q"], join(dir, "repo"));
  run("git", ["add", "-A"], join(dir, "repo"));
  run(process.execPath, [join(repo, "bin/ctxinject.js"), "coverage", "--format", "html", "--out", join(dir, "coverage.html")], join(dir, "repo"));
  run("chromium", [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--hide-scrollbars",
    `--user-data-dir=${join(dir, "home")}`,
    "--window-size=1366,768",
    `--screenshot=${join(repo, "docs/coverage.png")}`,
    `file://${join(dir, "coverage.html")}#open=packages/api/src/handlers|claude-code`,
  ]);
  console.log("wrote docs/coverage.png");
} finally {
  rmSync(dir, { recursive: true, force: true });
}
