import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Test } from "uvu";

/**
 * A state folder of its own as CTXINJECT_STATE_DIR while this file's tests run, for code that reads it from
 * `process.env` in process (the opencode and Kilo plugins). Set in `before`, not at import: uvu imports every test
 * file before it runs any, so a file setting it at import would hand its folder to another file's tests, and the
 * first file's `after` would take it away from the rest.
 */
export function stateDirWhileRunning(suite: Test, prefix: string): string {
  const state = mkdtempSync(join(tmpdir(), prefix));
  let previous: string | undefined;
  suite.before(() => {
    previous = process.env.CTXINJECT_STATE_DIR;
    process.env.CTXINJECT_STATE_DIR = state;
  });
  suite.after(() => {
    rmSync(state, { recursive: true, force: true });
    if (previous === undefined) delete process.env.CTXINJECT_STATE_DIR;
    else process.env.CTXINJECT_STATE_DIR = previous;
  });
  return state;
}
