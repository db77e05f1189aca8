import { test } from "uvu";
import * as assert from "uvu/assert";
import { testUnless } from "../helpers/lane.js";
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { alive, BIN, cleanup, materialize, ownHookServer, runCli, testEnvironment, hookServerPid } from "../helpers/cli.js";
import { tempFolders } from "../helpers/temp.js";
import { until } from "../helpers/wait.js";

// Slow lane (a measurement, ~10 s): Claude Code's prompt hook run eleven times inside `unshare -n -p --fork
// --mount-proc`, as a sandbox or a container sharing /dev/shm runs it, while a hook server of the same build runs
// outside it with the same spool root (issue 46). Its pid means nothing inside: the server outside must never be
// chosen there, and no call may wait for a server that cannot take its event. Needs root and unshare; prints the
// median ratio to `node -e 0` measured in the same namespace, taking turns.

const RUNS = 11;
const servers: number[] = [];
test.after(() => {
  for (const pid of servers) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // ended already
    }
  }
  cleanup();
});
// After the servers are stopped: their spools are in these folders.
const { folder } = tempFolders(test);

const canUnshare = process.getuid?.() === 0 && spawnSync("unshare", ["-n", "-p", "--fork", "--mount-proc", "true"]).status === 0;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

/** Runs inside the namespace: `node -e 0` and the hook, taking turns, each timed from spawn to exit. */
const DRIVER = `
const { spawnSync } = require("node:child_process");
const [bin, root, runs] = process.argv.slice(1);
const out = [];
for (let i = 0; i < Number(runs); i++) {
  let t = performance.now();
  spawnSync(process.execPath, ["-e", "0"]);
  const bare = performance.now() - t;
  const event = JSON.stringify({ hook_event_name: "UserPromptSubmit", session_id: "pidns-" + i, cwd: root, prompt: "fix the retry in packages/api/src/handlers/user.ts" });
  t = performance.now();
  const r = spawnSync(process.execPath, [bin, "hook", "claude"], { cwd: root, input: event, encoding: "utf8" });
  out.push({ bare, hook: performance.now() - t, status: r.status, stdout: r.stdout, stderr: r.stderr });
}
process.stdout.write(JSON.stringify(out));
`;

testUnless(!canUnshare && "needs root and unshare -n -p --fork --mount-proc")(
  "in a PID namespace sharing the spool root with a live server outside it, no hook waits for that server, and the hooks are served by one of their own",
  async () => {
    const root = materialize("monorepo");
    const runtime = folder("pidns-run");
    const env = { ...ownHookServer(runtime, folder("pidns-state")), CTXINJECT_DEBUG: "1" };
    const warm = (session: string) => {
      const event = JSON.stringify({
        hook_event_name: "UserPromptSubmit",
        session_id: session,
        cwd: root,
        prompt: "fix the retry in packages/api/src/handlers/user.ts",
      });
      return runCli(["hook", "claude"], { cwd: root, input: event, env });
    };
    // A server outside the namespace, alive and fresh all along.
    warm("outside-0");
    await until(() => hookServerPid(runtime) !== null, "a server to start outside the namespace", 10_000);
    const outside = hookServerPid(runtime);
    assert.ok(outside !== null, "a server started outside the namespace");
    servers.push(outside);
    assert.match(warm("outside-1").stderr, `answered by the hook server (pid ${outside})`);

    const inside = spawnSync("unshare", ["-n", "-p", "--fork", "--mount-proc", process.execPath, "-e", DRIVER, BIN, root, String(RUNS)], {
      env: testEnvironment(env),
      encoding: "utf8",
      timeout: 120_000,
    });
    assert.is(inside.status, 0, inside.stderr);
    const runs = JSON.parse(inside.stdout) as { bare: number; hook: number; status: number; stdout: string; stderr: string }[];
    const bare = median(runs.map((r) => r.bare));
    const hook = median(runs.map((r) => r.hook));
    console.log(
      `  inside unshare -n -p --fork --mount-proc: hook claude median ${hook.toFixed(0)} ms, node -e 0 ${bare.toFixed(0)} ms: ${(hook / bare).toFixed(2)} x (${RUNS} runs each, taking turns)`,
    );

    for (const [i, run] of runs.entries()) {
      assert.is(run.status, 0, run.stderr);
      assert.match(run.stdout, "packages/api", `run ${i} answered`);
      assert.not.match(
        run.stderr,
        /did not take the event|dropped the event|ended before answering/,
        `run ${i} waited for a server that could not answer: ${run.stderr}`,
      );
      assert.not.match(run.stderr, `(pid ${outside})`, `run ${i} chose the server outside the namespace`);
    }
    assert.match(runs[0]!.stderr, "started one", "the first call inside starts a server of the namespace's own");
    const served = runs.filter((r) => r.stderr.includes("answered by the hook server")).length;
    assert.ok(served >= RUNS - 3, `only ${served} of ${RUNS} calls were served by the namespace's server:\n${runs.map((r) => r.stderr).join("")}`);

    // Outside, the server there still serves: the namespace's server (gone with it) never took its place.
    assert.ok(alive(outside));
    assert.match(warm("outside-2").stderr, `answered by the hook server (pid ${outside})`);
    const spools = readdirSync(join(runtime, `ctxinject-${process.getuid!()}`));
    assert.is(spools.length, 2, `one spool for each namespace: ${spools.join(", ")}`);
  },
);

test.run();
