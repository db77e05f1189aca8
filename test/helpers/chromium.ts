import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import * as assert from "uvu/assert";

/** Debian's `chromium` on PATH, or null. */
export function chromiumOnPath(): string | null {
  const found = spawnSync("sh", ["-c", "command -v chromium"], { encoding: "utf8" }).stdout.trim();
  return found === "" ? null : found;
}

/**
 * Headless Chromium on a local page (`file` with `#hash`), with a profile folder of its own beside the page and the
 * given flags (`--dump-dom`, `--screenshot=…`, `--window-size=…`); it must exit 0.
 */
export function runChromium(browser: string, file: string, hash: string, flags: readonly string[]): SpawnSyncReturns<string> {
  const home = join(file, "..", "chromium-home");
  mkdirSync(home, { recursive: true });
  const r = spawnSync(
    browser,
    ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", `--user-data-dir=${home}`, ...flags, `file://${file}#${hash}`],
    { encoding: "utf8", timeout: 120_000, env: { ...process.env, HOME: home } },
  );
  assert.is(r.status, 0, r.stderr);
  return r;
}
