import { test } from "uvu";
import * as assert from "uvu/assert";
import type { CliContext } from "../../src/cli/context.js";
import { startProgress } from "../../src/cli/progress.js";
import { until } from "../helpers/wait.js";

function context(isTTY: boolean, env: Record<string, string> = {}) {
  const written: string[] = [];
  const ctx: CliContext = {
    cwd: "/",
    env,
    stdout: { write: () => true },
    stderr: { write: (s: string) => void written.push(s), isTTY },
    self: "/usr/local/bin/ctxinject",
    readStdin: async () => undefined,
  };
  return { ctx, written };
}

// The fast and quiet cases wait a fixed time: what they wait for is that nothing is written, which no condition shows.
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

test("a slow run on a terminal shows a spinner on stderr and clears it at the end", async () => {
  const { ctx, written } = context(true);
  const stop = startProgress(ctx, "working", 10);
  await until(() => written.some((w) => w.includes("working")), "the spinner on stderr", 5_000);
  stop();
  assert.ok(written.some((w) => w.includes("working")));
  assert.is(written.at(-1), "\r\u001b[K");
});

test("a fast run shows nothing", async () => {
  const { ctx, written } = context(true);
  startProgress(ctx, "working", 200)();
  await wait(50);
  assert.equal(written, []);
});

test("nothing on a pipe or under CI", async () => {
  for (const { ctx, written } of [context(false), context(true, { CI: "true" })]) {
    const stop = startProgress(ctx, "working", 5);
    await wait(60);
    stop();
    assert.equal(written, []);
  }
});

test.run();
