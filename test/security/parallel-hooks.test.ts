import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { BIN, cleanup, materialize } from "../helpers/cli.js";
import { FULL } from "../helpers/lane.js";
import { tempFolders } from "../helpers/temp.js";

// Issue 29 item 7: an agent's parallel tool calls run hooks at once on one session. Without the hook server (macOS
// and Windows never have one) each is its own process; the always-applied rule must reach the agent once in all.

const { folder } = tempFolders(test);
test.after(cleanup);

/** The text of fixtures/monorepo/.cursor/rules/general.mdc, an alwaysApply rule. */
const ALWAYS = "Keep functions short and name them for what they return.";
const DEADLINE_MS = 1500;
/** Two cores, as the issue measured; the whole machine where taskset is missing. */
const PINNED = spawnSync("taskset", ["-c", "0,1", "true"]).status === 0 ? ["taskset", "-c", "0,1"] : [];

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

function startAll(count: number, args: (i: number) => string[], env: Record<string, string>, input: (i: number) => string): Promise<Run[]> {
  return Promise.all(
    Array.from({ length: count }, (_, i) => {
      const command = [...PINNED, process.execPath, ...args(i)];
      return new Promise<Run>((resolve) => {
        const started = Date.now();
        const child = spawn(command[0]!, command.slice(1), { env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
        child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
        child.on("close", (status) => resolve({ status, stdout, stderr, ms: Date.now() - started }));
        child.stdin.end(input(i));
      });
    }),
  );
}

// 32 at once only in the slow lane (npm run test:hosts): its start-up alone is seconds on a loaded two-core machine.
for (const count of FULL ? [8, 32] : [8]) {
  test(`${count} hook calls at once on one session, without a hook server, give the always-applied rule once between them, and all answer`, async () => {
    const root = materialize("monorepo");
    const state = folder("parallel");
    const files = ["packages/api/src/handlers/user.ts", "packages/web/src/components/Button.tsx", "README.md", "package.json"];
    const event = (i: number) => {
      const file = files[i % files.length]!;
      const what =
        i % 2 === 0
          ? { hook_event_name: "PostToolUse", tool_name: "Read", tool_input: { file_path: join(root, file) } }
          : { hook_event_name: "UserPromptSubmit", prompt: `tidy ${file}` };
      return JSON.stringify({ session_id: `parallel-${count}`, cwd: root, ...what });
    };
    // Beside them as many bare Node processes: what starting a process costs at that moment, before any of
    // ctxinject's code runs (the deadline counts from there), on a machine whose load the test does not choose.
    const [bare, runs] = await Promise.all([
      startAll(
        count,
        () => ["-e", "0"],
        {},
        () => "",
      ),
      startAll(count, () => [BIN, "hook", "claude"], { NO_COLOR: "1", CTXINJECT_HOOK_SERVER: "0", CTXINJECT_STATE_DIR: state }, event),
    ]);
    const startUp = Math.max(...bare.map((r) => r.ms));
    let given = 0;
    for (const run of runs) {
      assert.is(run.status, 0, run.stderr);
      if (run.stdout === "") continue;
      const answer = JSON.parse(run.stdout) as { hookSpecificOutput: { additionalContext: string } };
      given += answer.hookSpecificOutput.additionalContext.split(ALWAYS).length - 1;
    }
    assert.is(given, 1, `the always-applied rule was given ${given} times by ${count} calls at once`);
    const slowest = Math.max(...runs.map((r) => r.ms));
    assert.ok(slowest <= DEADLINE_MS + startUp + 1000, `the slowest call took ${slowest} ms (start-up alone: ${startUp} ms)`);
  });
}

test.run();
