/**
 * A hook served inside a PID namespace (`unshare -n -p --fork --mount-proc`, as a sandbox or a container that shares
 * /dev/shm and the runtime folder with the host runs it), with the bench's own hook server alive outside it in the
 * same spool root (issue 46: every call there waited 300 ms for a server whose pid meant nothing inside). Inside, a
 * driver runs `node -e 0` and the hook taking turns, each timed from spawn to exit; the first call of each starts the
 * namespace's own server and is the warm-up. Needs root and unshare: null where they are missing.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import type { Timing } from "./measure.js";

const DRIVER = `
const { spawnSync } = require("node:child_process");
const { readFileSync } = require("node:fs");
const [bin, cwd, eventsFile] = process.argv.slice(1);
const events = JSON.parse(readFileSync(eventsFile, "utf8"));
const timed = (args, input, env) => {
  const t = performance.now();
  const r = spawnSync(process.execPath, args, { cwd, input, encoding: "utf8", env: env ?? process.env });
  if (r.status !== 0) throw new Error(args.join(" ") + " failed: " + r.stderr);
  return { ms: performance.now() - t, stderr: r.stderr };
};
const bare = [], hook = [];
events.forEach((event, run) => {
  const b = timed(["-e", "0"]).ms;
  const h = timed([bin, "hook", "claude"], event).ms;
  if (run > 0) bare.push(b), hook.push(h);
});
// One more call with the debug line on: was it the namespace's server that answered?
const last = timed([bin, "hook", "claude"], events[events.length - 1], { ...process.env, CTXINJECT_DEBUG: "1" });
process.stdout.write(JSON.stringify({ bare, hook, served: /answered by the hook server/.test(last.stderr), stderr: last.stderr }));
`;

export const canUnshare = (): boolean => process.getuid?.() === 0 && spawnSync("unshare", ["-n", "-p", "--fork", "--mount-proc", "true"]).status === 0;

const summary = (list: number[]): Timing => {
  const sorted = [...list].sort((a, b) => a - b);
  return { ms: sorted[sorted.length >> 1]!, fastest: sorted[0]!, rssMiB: null, cpuMs: null };
};

/**
 * `runs` timed calls of each after a warm-up: `event(run)` is the hook's standard input, `eventsFile` a scratch
 * file, `env` the hooks' environment. The namespace's processes (its hook server too) end with the driver.
 */
export function servedInPidNamespace(
  bin: string,
  cwd: string,
  runs: number,
  event: (run: number) => string,
  eventsFile: string,
  env: Record<string, string | undefined>,
): { floor: Timing; hook: Timing; served: boolean; stderr: string } | null {
  if (!canUnshare()) return null;
  writeFileSync(eventsFile, JSON.stringify(Array.from({ length: runs + 1 }, (_, run) => event(run))));
  const environment: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...process.env, NO_COLOR: "1", CI: "true", ...env })) if (value !== undefined) environment[key] = value;
  const r = spawnSync("unshare", ["-n", "-p", "--fork", "--mount-proc", process.execPath, "-e", DRIVER, bin, cwd, eventsFile], {
    env: environment,
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`the PID-namespace measurement failed (${r.status}): ${r.stderr}`);
  const out = JSON.parse(r.stdout) as { bare: number[]; hook: number[]; served: boolean; stderr: string };
  return { floor: summary(out.bare), hook: summary(out.hook), served: out.served, stderr: out.stderr };
}
