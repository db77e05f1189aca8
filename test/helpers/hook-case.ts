import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cleanup, HOOK_SERVER_OFF, materialize, runCli, type CliResult } from "./cli.js";

const states: string[] = [];

/** For `test.after`: the fixtures' copies and every state folder hookCase made. */
export function cleanupHookCases(): void {
  cleanup();
  for (const dir of states.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * A copy of `fixture`, a state folder of its own, and `hook(event)`: `ctxinject hook <agent>` with the hook server
 * off, the event's fields over the ones every event of that host carries (`common`, given the copy's root and the
 * state folder), on standard input as the host writes it.
 */
export function hookCase(agent: string, fixture: string, common: (root: string, state: string) => Record<string, unknown>, env: Record<string, string> = {}) {
  const root = materialize(fixture);
  const state = mkdtempSync(join(tmpdir(), "ctxinject-hook-"));
  states.push(state);
  const base = common(root, state);
  const hook = (event: Record<string, unknown>, as = agent, more: Record<string, string> = {}): CliResult =>
    runCli(["hook", as], { cwd: "/", env: { ...HOOK_SERVER_OFF, CTXINJECT_STATE_DIR: state, ...env, ...more }, input: JSON.stringify({ ...base, ...event }) });
  return { root, state, hook };
}
