import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { test as uvuTest } from "uvu";
import * as assert from "uvu/assert";
import { defaultConfig } from "../../src/core/config.js";
import { BIN, cliStartUp } from "./cli.js";

/** The hook's deadline; a run is killed at four of them, so code that backtracks for minutes fails in seconds. */
export const DEADLINE_MS = defaultConfig().hookDeadlineMs;
const KILL_MS = 4 * DEADLINE_MS;

export interface TimedRun {
  status: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** What starting the CLI cost on this machine just before (`ctxinject --version`). */
  startUp: number;
}

/**
 * For suites that hold the CLI to the hook's deadline on hostile input: `tree` lays files in a temp git-looking root
 * (removed after the suite), `timed` runs the CLI there with no hook server, and `withinDeadline` asserts the run took
 * less than the deadline past the CLI's own start at that moment (a loaded machine's start alone can outlast it).
 */
export function deadlineRuns(test: typeof uvuTest, prefix: string) {
  const made: string[] = [];
  test.after(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const temp = (what: string) => {
    const dir = mkdtempSync(join(tmpdir(), `ctxinject-${prefix}-${what}`));
    made.push(dir);
    return dir;
  };
  const tree = (files: Record<string, string>): string => {
    const root = temp("");
    mkdirSync(join(root, ".git"));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return root;
  };
  const timed = (args: string[], cwd: string, input = ""): TimedRun => {
    const env = { ...process.env, NO_COLOR: "1", CTXINJECT_HOOK_SERVER: "0", CTXINJECT_STATE_DIR: temp("state-") };
    const startUp = cliStartUp();
    const started = performance.now();
    const run = spawnSync(process.execPath, [BIN, ...args], { cwd, env, input, encoding: "utf8", timeout: KILL_MS });
    return { status: run.status, stdout: run.stdout, stderr: run.stderr, ms: performance.now() - started, startUp };
  };
  const withinDeadline = (run: TimedRun, what: string): void => {
    assert.ok(
      run.ms < DEADLINE_MS + run.startUp,
      `${what} took ${Math.round(run.ms)} ms (the hook deadline is ${DEADLINE_MS} ms; the CLI's bare start took ${Math.round(run.startUp)} ms just before)`,
    );
    assert.is(run.status, 0, run.stderr);
  };
  return { tree, timed, withinDeadline };
}
