import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { BIN, cleanup, materialize, REPO } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";
import { sized } from "../helpers/lane.js";
import { tempFolders } from "../helpers/temp.js";

const { folder } = tempFolders(test);

const WORKER = join(REPO, "test/helpers/store-worker.mjs");
test.after(cleanup);

/** Runs a process to its end; resolves with its status and output. */
function run(cmd: string, args: string[], env: Record<string, string> = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env: { ...process.env, NO_COLOR: "1", ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/** Starts a process and SIGKILLs it after `ms`, or once its output matches `when`; resolves with what it printed. */
function runAndKill(args: string[], ms: number, when?: RegExp): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    const kill = () => child.kill("SIGKILL");
    // The delay counts from the worker's "ready" (its modules loaded, the store open), not from the spawn: on a busy
    // machine Node's start alone can outlast the delay, and then no round would kill anything mid-operation.
    let timer = setTimeout(kill, 60_000);
    child.stdout.on("data", (d) => {
      const first = stdout === "";
      stdout += d;
      if (first && stdout.startsWith("ready\n")) {
        clearTimeout(timer);
        timer = setTimeout(kill, ms);
      }
      if (when?.test(stdout)) kill();
    });
    child.on("close", () => {
      clearTimeout(timer);
      resolve(stdout);
    });
  });
}

const cli = (state: string, ...args: string[]) => run(process.execPath, [BIN, ...args], { CTXINJECT_STATE_DIR: state });
const pendingIds = async (state: string, session: string) => {
  const { status, stdout, stderr } = await cli(state, "pending", "--session", session, "--format", "json");
  assert.is(status, 0, stderr);
  return (JSON.parse(stdout).entries as Array<{ id: string }>).map((e) => e.id);
};

test("8 processes registering at once lose nothing", async () => {
  const state = folder("state");
  const cliRuns = Array.from({ length: 8 }, (_, i) =>
    cli(state, "register", "--session", "s", "--source", "cli", "--id", `cli-${i}`, "--content", `entry ${i}`),
  );
  const workers = Array.from({ length: 8 }, (_, i) => run(process.execPath, [WORKER, "register", state, "s", `w${i}`, "40"]));
  const results = await Promise.all([...cliRuns, ...workers]);
  for (const r of results) assert.is(r.status, 0, r.stderr);
  const ids = await pendingIds(state, "s");
  assert.is(ids.length, 8 + 8 * 40);
  assert.is(new Set(ids).size, ids.length);
});

test("two consumers at once get every entry exactly once between them", async () => {
  const state = folder("state");
  await Promise.all(Array.from({ length: 4 }, (_, i) => run(process.execPath, [WORKER, "register", state, "s", `w${i}`, "50"])));
  const [a, b] = await Promise.all([cli(state, "consume", "--session", "s", "--format", "json"), cli(state, "consume", "--session", "s", "--format", "json")]);
  assert.is(a!.status, 0, a!.stderr);
  assert.is(b!.status, 0, b!.stderr);
  const got = [...JSON.parse(a!.stdout).entries, ...JSON.parse(b!.stdout).entries].map((e: { id: string }) => e.id);
  assert.is(got.length, 200);
  assert.is(new Set(got).size, 200);
  assert.equal(await pendingIds(state, "s"), []);
});

test("a writer killed mid-registration leaves a readable store with every acknowledged entry", async () => {
  const state = folder("state");
  const acknowledged: string[] = [];
  for (let round = 0; round < sized(4, 12); round++) {
    const out = await runAndKill([WORKER, "register", state, "s", `r${round}`, "100000"], 60 + ((round * 37) % 120));
    acknowledged.push(
      ...out
        .split("\n")
        .filter((l) => l.startsWith("ok "))
        .map((l) => l.slice(3)),
    );
  }
  assert.ok(acknowledged.length > 0, "the workers got some registrations done before being killed");
  const ids = new Set(await pendingIds(state, "s"));
  for (const id of acknowledged) assert.ok(ids.has(id), `lost ${id}`);
});

test("a consumer killed after claiming loses nothing: the next consumer gets the entries", async () => {
  const state = folder("state");
  await run(process.execPath, [WORKER, "register", state, "s", "e", "30"]);
  const out = await runAndKill([WORKER, "claim-and-hang", state, "s"], 10_000, /claimed \d+/);
  assert.match(out, "claimed 30");
  const { stdout } = await cli(state, "consume", "--session", "s", "--format", "json");
  assert.is(JSON.parse(stdout).entries.length, 30);
  assert.equal(await pendingIds(state, "s"), []);
});

// 100 rounds in the slow lane (npm run test:hosts), a tenth of them in the fast one.
const ROUNDS = sized(10, 100);
test(`${ROUNDS} rounds of kill -9 in the middle of register and consume: readable store, nothing acknowledged lost, nothing consumed twice`, async () => {
  const state = folder("state");
  const acknowledged = new Set<string>();
  const consumed: string[] = [];
  // Printed by any consumer, even one killed before it committed (its claim goes back: at least once) or right
  // after (the entries are gone and were delivered, but "committed" never made it out).
  const delivered = new Set<string>();
  for (let round = 0; round < ROUNDS; round++) {
    const delay = 15 + ((round * 53) % 110);
    if (round % 2 === 0) {
      const out = await runAndKill([WORKER, "register", state, "s", `r${round}`, "100000"], delay);
      for (const line of out.split("\n")) if (line.startsWith("ok ")) acknowledged.add(line.slice(3));
    } else {
      const out = await runAndKill([WORKER, "consume", state, "s"], delay);
      for (const line of out.split("\n")) if (line.startsWith("got ")) delivered.add(line.slice(4));
      // Only a consumer that got to "committed" consumed anything; a killed one's claim goes back.
      if (out.includes("committed")) for (const line of out.split("\n")) if (line.startsWith("got ")) consumed.push(line.slice(4));
    }
  }
  const sessions = await cli(state, "sessions", "--json");
  assert.is(sessions.status, 0, sessions.stderr);
  const rest = await pendingIds(state, "s");
  assert.is(new Set(consumed).size, consumed.length, "no entry consumed twice");
  for (const id of rest) assert.not.ok(consumed.includes(id), `${id} consumed and still pending`);
  for (const id of acknowledged) assert.ok(delivered.has(id) || rest.includes(id), `acknowledged ${id} was lost`);
  assert.ok(acknowledged.size > 0);
});

test("build --session joins pending entries once, and does not inject unchanged files again", async () => {
  const state = folder("state");
  const root = materialize("monorepo");
  const env = { CTXINJECT_STATE_DIR: state };
  assert.is(
    (
      await runMain(["register", "--session", "s1", "--source", "git-hook", "--id", "branch", "--content", "On branch feature/x", "--priority", "high"], {
        cwd: root,
        env,
      })
    ).status,
    0,
  );
  const first = await runMain(["build", "--session", "s1", "--format", "json"], { cwd: root, env });
  assert.is(first.status, 0, first.stderr);
  const ids = JSON.parse(first.stdout).entries.map((e: { id: string }) => e.id);
  assert.ok(ids.includes("branch"));
  assert.ok(ids.includes("AGENTS.md"));
  const second = JSON.parse((await runMain(["build", "--session", "s1", "--format", "json"], { cwd: root, env })).stdout);
  assert.equal(second.entries, [], "nothing new the second time");
  const explain = JSON.parse((await runMain(["explain", "--json", "--session", "s1"], { cwd: root, env })).stdout);
  assert.is(explain.candidates.find((c: { id: string }) => c.id === "AGENTS.md").status, "already-injected");
  const fresh = JSON.parse((await runMain(["build", "--session", "s1", "--fresh", "--format", "json"], { cwd: root, env })).stdout);
  assert.ok(
    fresh.entries.some((e: { id: string }) => e.id === "AGENTS.md"),
    "--fresh ignores the history",
  );
});

test("a changed file is injected again in the same session", async () => {
  const state = folder("state");
  const root = materialize("monorepo");
  const env = { CTXINJECT_STATE_DIR: state };
  await runMain(["build", "--session", "s"], { cwd: root, env });
  const { writeFileSync } = await import("node:fs");
  writeFileSync(join(root, "AGENTS.md"), "# Changed\n\nNew instructions.\n");
  const again = JSON.parse((await runMain(["build", "--session", "s", "--format", "json"], { cwd: root, env })).stdout);
  assert.equal(
    again.entries.map((e: { id: string }) => e.id),
    ["AGENTS.md"],
  );
});

test("sessions are isolated from each other", async () => {
  const state = folder("state");
  await cli(state, "register", "--session", "a", "--source", "x", "--id", "1", "--content", "for a");
  await cli(state, "register", "--session", "b", "--source", "x", "--id", "1", "--content", "for b");
  const a = JSON.parse((await cli(state, "consume", "--session", "a", "--format", "json")).stdout);
  assert.equal(
    a.entries.map((e: { content: string }) => e.content),
    ["for a"],
  );
  assert.equal(await pendingIds(state, "b"), ["1"]);
});

test("register overwrites the same source and id; clear and sessions work", async () => {
  const state = folder("state");
  await cli(state, "register", "--session", "s", "--source", "x", "--id", "1", "--content", "old");
  await cli(state, "register", "--session", "s", "--source", "x", "--id", "1", "--content", "new");
  const pending = JSON.parse((await cli(state, "pending", "--session", "s", "--format", "json")).stdout);
  assert.equal(
    pending.entries.map((e: { content: string }) => e.content),
    ["new"],
  );
  const listed = JSON.parse((await cli(state, "sessions", "--json")).stdout).sessions;
  assert.equal(
    listed.map((s: { id: string; pending: number }) => [s.id, s.pending]),
    [["s", 1]],
  );
  assert.is((await cli(state, "clear", "--session", "s")).status, 0);
  assert.equal(JSON.parse((await cli(state, "sessions", "--json")).stdout).sessions, []);
});

test("register without content, or clear without a target, is a usage error", async () => {
  const state = folder("state");
  const noContent = await cli(state, "register", "--session", "s", "--source", "x", "--id", "1");
  assert.is(noContent.status, 2);
  assert.match(noContent.stderr, /no content/);
  assert.is((await cli(state, "clear")).status, 2);
  assert.is((await cli(state, "register", "--session", "s", "--source", "x", "--id", "1", "--content", "c", "--priority", "urgent")).status, 2);
});

test("session ids with any characters stay inside the state folder", async () => {
  const state = folder("state");
  await cli(state, "register", "--session", "../../evil/../id ✓", "--source", "x", "--id", "1", "--content", "c");
  const listed = JSON.parse((await cli(state, "sessions", "--json")).stdout).sessions;
  assert.equal(
    listed.map((s: { id: string }) => s.id),
    ["../../evil/../id ✓"],
  );
});

test.run();
