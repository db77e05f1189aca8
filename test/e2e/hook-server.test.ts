import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as pause } from "node:timers/promises";
import { cleanup, cliStartUp, materialize, ownHookServer, REPO, runCli, spoolOf, alive, hookServerPid } from "../helpers/cli.js";
import { until } from "../helpers/wait.js";
import { tempFolders } from "../helpers/temp.js";

// Each test has a spool of its own (XDG_RUNTIME_DIR), so its server is its own, started and stopped here.

const { folder } = tempFolders(test);
const servers: number[] = [];
test.after.each(() => {
  for (const pid of servers.splice(0)) stop(pid, "SIGKILL");
});
test.after(cleanup);

function stop(pid: number, signal: NodeJS.Signals = "SIGTERM"): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

async function waitForServer(run: string): Promise<number> {
  await until(() => hookServerPid(run) !== null, "a hook server to start", 10_000);
  const pid = hookServerPid(run)!;
  servers.push(pid);
  return pid;
}

/** A project and a spool whose server is running (started by a first hook call). */
async function projectWithServer(): Promise<{ root: string; run: string; pid: number }> {
  const root = materialize("monorepo");
  const run = folder("run");
  hook(root, run, "warm");
  return { root, run, pid: await waitForServer(run) };
}

/** Each spool's hooks keep their sessions in a state folder of their own, outside the spool's folder. */
const states = new Map<string, string>();
function stateFor(run: string): string {
  let state = states.get(run);
  if (state === undefined) states.set(run, (state = folder("state")));
  return state;
}

function hook(root: string, run: string, session: string, env: Record<string, string> = {}) {
  const event = JSON.stringify({
    hook_event_name: "UserPromptSubmit",
    session_id: session,
    cwd: root,
    prompt: "fix the retry in packages/api/src/handlers/user.ts",
  });
  const started = Date.now();
  const result = runCli(["hook", "claude"], {
    cwd: root,
    input: event,
    env: { ...ownHookServer(run, stateFor(run)), CTXINJECT_DEBUG: "1", CTXINJECT_HOOK_SERVER_IDLE_MS: "30000", ...env },
  });
  return { ...result, ms: Date.now() - started };
}

test("the first hook starts a server and answers itself; the server then answers, byte for byte as a hook answering itself", async () => {
  const root = materialize("monorepo");
  const run = folder("run");
  const startUp = cliStartUp();
  const first = hook(root, run, "first");
  assert.is(first.status, 0, first.stderr);
  assert.match(first.stderr, "started one");
  // The server holds none of the hook's descriptors: the host's pipes close when the hook ends, not when the server does.
  assert.ok(first.ms < 5_000 + startUp, `the first hook took ${first.ms} ms (the CLI's bare start: ${Math.round(startUp)} ms)`);
  assert.match(first.stdout, "packages/api");
  const pid = await waitForServer(run);

  const served = hook(root, run, "second");
  assert.match(served.stderr, `answered by the hook server (pid ${pid})`);
  const itself = hook(root, run, "third", { CTXINJECT_HOOK_SERVER: "0" });
  assert.not.match(itself.stderr, "hook server");
  assert.is(served.stdout, itself.stdout);
  assert.is(served.stderr.replace(/.*debug.*\n/g, ""), itself.stderr.replace(/.*debug.*\n/g, ""));
  assert.is(served.stdout, first.stdout, "the same event in a new session, answered the same way wherever it ran");

  // The session is the same one whoever answers: nothing is repeated, whether the server or the hook answers.
  assert.is(hook(root, run, "second").stdout, "");
  assert.is(hook(root, run, "second", { CTXINJECT_HOOK_SERVER: "0" }).stdout, "");
  assert.is(hook(root, run, "third").stdout, "");
  // Nothing of a call stays in the spool: only the server's FIFO (its liveness) and its pid.
  assert.equal(readdirSync(spoolOf(run)), ["server.fifo", "server.pid"]);
});

test("through the server, a README trimmed to the cap and the index reach a session once, not with every prompt (#44 item 1)", async () => {
  const root = materialize("monorepo");
  const long = Array.from({ length: 150 }, (_, i) => `Paragraph ${i} of the api package: it retries and logs each step.`).join("\n\n");
  writeFileSync(join(root, "packages/api/README.md"), `# api\n\n${long}\n`);
  writeFileSync(join(root, ".cursor/rules/deploys.mdc"), "---\ndescription: Deploying to the production clusters\n---\nDeploy on weekdays only.\n");
  const run = folder("run");
  hook(root, run, "warm");
  const pid = await waitForServer(run);
  const ask = (prompt: string) => {
    const event = JSON.stringify({ hook_event_name: "UserPromptSubmit", session_id: "once", cwd: root, prompt });
    return runCli(["hook", "claude"], { cwd: root, input: event, env: { ...ownHookServer(run, stateFor(run)), CTXINJECT_DEBUG: "1" } });
  };
  const first = ask("fix packages/api/src/handlers/user.ts");
  assert.match(first.stderr, `answered by the hook server (pid ${pid})`);
  assert.match(first.stdout, "read packages/api/README.md for the rest");
  assert.match(first.stdout, "deploys.mdc");
  for (const prompt of ["now the retries in packages/api/src/handlers/user.ts", "and the logs in packages/api/src/handlers/user.ts"]) {
    const again = ask(prompt);
    assert.match(again.stderr, "answered by the hook server");
    assert.not.match(again.stdout, "packages/api/README.md", prompt);
    assert.not.match(again.stdout, "deploys.mdc", prompt);
  }
});

test("the server answers with the hook's environment: its state folder, its config", async () => {
  const { root, run } = await projectWithServer();
  const stateA = folder("state");
  const stateB = folder("state");
  const a = hook(root, run, "env", { CTXINJECT_STATE_DIR: stateA });
  assert.match(a.stderr, "answered by the hook server");
  assert.match(a.stdout, "packages/api");
  assert.ok(readdirSync(stateA).length > 0, "the session was recorded in the hook's state folder");
  // Another state folder is another store: the same session id starts afresh there.
  const b = hook(root, run, "env", { CTXINJECT_STATE_DIR: stateB });
  assert.is(b.stdout, a.stdout);
});

test("a config error reaches the user from the server as from the hook's own process", async () => {
  const root = materialize("monorepo");
  writeFileSync(join(root, ".ctxinjectrc.json"), '{ "claude": { "maxChars": 30000 } }');
  const run = folder("run");
  hook(root, run, "warm");
  await waitForServer(run);
  const served = hook(root, run, "config");
  assert.match(served.stderr, "answered by the hook server");
  const itself = hook(root, run, "config-here", { CTXINJECT_HOOK_SERVER: "0" });
  assert.match(served.stdout, "systemMessage");
  assert.is(served.stdout, itself.stdout);
  assert.is(served.status, itself.status);
});

test("a stopped server costs a hook a fraction of a second, and the hook answers itself", async () => {
  const { root, run, pid } = await projectWithServer();
  const startUp = cliStartUp();
  process.kill(pid, "SIGSTOP");
  try {
    const result = hook(root, run, "stopped");
    assert.is(result.status, 0);
    assert.match(result.stderr, "did not take the event");
    assert.match(result.stdout, "packages/api");
    assert.ok(result.ms < 3_000 + startUp, `took ${result.ms} ms (the CLI's bare start: ${Math.round(startUp)} ms)`);
  } finally {
    process.kill(pid, "SIGCONT");
  }
  // The withdrawn request is not answered later: the session got its rules once, from the hook itself. A fixed pause:
  // what it waits for is that nothing happens (the resumed server leaves the withdrawn request alone), which no
  // condition shows.
  await pause(300);
  assert.is(hook(root, run, "stopped").stdout, "");
});

test("a server that died leaves its lock: the next hook answers itself and starts another", async () => {
  const { root, run, pid } = await projectWithServer();
  process.kill(pid, "SIGKILL");
  await until(() => !alive(pid), "the killed server to end");
  const result = hook(root, run, "after-death");
  assert.match(result.stderr, "started one");
  assert.match(result.stdout, "packages/api");
  await until(() => hookServerPid(run) !== pid && hookServerPid(run) !== null, "another server to start", 10_000);
  const next = hookServerPid(run)!;
  servers.push(next);
  assert.is.not(next, pid);
  assert.match(hook(root, run, "after-death-2").stderr, `answered by the hook server (pid ${next})`);
});

test("a lock naming a live process that is no server (a dead server's pid, reused) costs a hook no wait: it answers itself and starts a server", async () => {
  const { root, run, pid } = await projectWithServer();
  process.kill(pid, "SIGKILL");
  await until(() => !alive(pid), "the killed server to end");
  // Fresh, and naming a live process of this user: all a pid can say of a server.
  writeFileSync(join(spoolOf(run), "server.pid"), String(process.pid));
  const result = hook(root, run, "reused-pid");
  assert.is(result.status, 0, result.stderr);
  assert.not.match(result.stderr, "did not take the event");
  assert.match(result.stderr, "no hook server for this build; started one");
  assert.match(result.stdout, "packages/api");
  await until(() => hookServerPid(run) !== process.pid, "a server to take the lock", 10_000);
  const next = hookServerPid(run)!;
  servers.push(next);
  assert.match(hook(root, run, "reused-pid-2").stderr, `answered by the hook server (pid ${next})`);
});

test("two servers started at once on one spool: one answers, the other ends without answering", async () => {
  const { root, run, pid } = await projectWithServer();
  process.kill(pid, "SIGKILL");
  await until(() => !alive(pid), "the killed server to end");
  const spool = spoolOf(run);
  // Started through a shell that ends at once: the servers are not this process's children (no zombie reads alive).
  const twice = 'for i in 1 2; do "$0" "$1" --hook-server "$2" </dev/null >/dev/null 2>&1 & echo $!; done';
  const shell = spawnSync("sh", ["-c", twice, process.execPath, join(REPO, "bin/ctxinject.js"), spool], {
    encoding: "utf8",
    env: { ...process.env, CTXINJECT_HOOK_SERVER_IDLE_MS: "30000" },
  });
  const started = shell.stdout.trim().split("\n").map(Number);
  servers.push(...started);
  await until(
    () => hookServerPid(run) !== pid && hookServerPid(run) !== null && existsSync(join(spool, "server.fifo")),
    "one of the two servers to take the spool",
    10_000,
  );
  const answers = [0, 1, 2].map((i) => hook(root, run, `two-${i}`));
  for (const answer of answers) {
    assert.match(answer.stdout, "packages/api");
    assert.not.match(answer.stderr, /did not take|dropped|ended before/);
  }
  const owner = hookServerPid(run)!;
  for (const answer of answers) assert.match(answer.stderr, "answered by the hook server");
  // The pid file (messages only) names the owner once it has taken a call, whichever server wrote it last.
  assert.match(answers[2]!.stderr, `answered by the hook server (pid ${owner})`);
  const other = started.find((p) => p !== owner)!;
  await until(() => !alive(other), "the second server to end", 5_000);
  assert.not.ok(alive(other), "the second server ended");
});

test("a server sweeps the spools of namespaces gone for ten minutes, and leaves a live one's and a recent one's", async () => {
  const root = materialize("monorepo");
  const run = folder("run");
  const top = join(run, `ctxinject-${process.getuid!()}`);
  mkdirSync(top, { mode: 0o700 });
  const gone = join(top, "0123abcd-v20.0.0-x64@1.2.3.4");
  const recent = join(top, "0123abcd-v20.0.0-x64@5.6.7.8");
  for (const dir of [gone, recent]) {
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(join(dir, "server.pid"), "1");
  }
  const hourAgo = new Date(Date.now() - 3_600_000);
  utimesSync(gone, hourAgo, hourAgo);
  hook(root, run, "sweep");
  const own = () => readdirSync(top).find((name) => !name.startsWith("0123abcd"));
  await until(() => own() !== undefined && existsSync(join(top, own()!, "server.pid")), "the hook's own server to start", 10_000);
  const spool = join(top, own()!);
  servers.push(Number(readFileSync(join(spool, "server.pid"), "utf8")));
  await until(() => !existsSync(gone), "the sweep of the dead namespace's spool", 5_000);
  assert.not.ok(existsSync(gone), "the dead namespace's spool was removed");
  assert.ok(existsSync(recent), "a spool used within ten minutes is left");
  assert.ok(existsSync(spool));
});

test("the server answers hook calls only: another command handed to it is refused, and runs nowhere", async () => {
  const { root, run } = await projectWithServer();
  const spool = spoolOf(run);
  const request = { argv: ["init", "--claude"], stdin: null, cwd: root, env: { ...process.env }, startedAt: Date.now(), self: "ctxinject" };
  writeFileSync(join(spool, "probe.tmp"), JSON.stringify(request));
  renameSync(join(spool, "probe.tmp"), join(spool, "probe.req"));
  await until(() => existsSync(join(spool, "probe.res")), "the server's answer to the probe", 5_000);
  const answer = JSON.parse(readFileSync(join(spool, "probe.res"), "utf8")) as { code: number; stderr: string };
  assert.is(answer.code, 1);
  assert.match(answer.stderr, "answers ctxinject hook <agent> only");
  assert.not.ok(existsSync(join(root, ".claude/settings.json")), "init did not run");
});

test("a server whose install went away stops, and the hook it had taken answers itself", async () => {
  const root = materialize("monorepo");
  const run = folder("run");
  // An install of the same build elsewhere (as an upgrade or a removed clone leaves it): its server is this build's.
  const install = folder("install");
  cpSync(join(REPO, "bin"), join(install, "bin"), { recursive: true });
  cpSync(join(REPO, "dist/bundle"), join(install, "dist/bundle"), { recursive: true });
  symlinkSync(join(REPO, "node_modules"), join(install, "node_modules"));
  const event = JSON.stringify({ hook_event_name: "UserPromptSubmit", session_id: "gone-warm", cwd: root, prompt: "hello" });
  spawnSync(process.execPath, [join(install, "bin/ctxinject.js"), "hook", "claude"], {
    cwd: root,
    input: event,
    env: { ...process.env, XDG_RUNTIME_DIR: run, CTXINJECT_STATE_DIR: folder("state") },
  });
  const pid = await waitForServer(run);
  rmSync(install, { recursive: true, force: true });
  const result = hook(root, run, "gone");
  assert.match(result.stderr, `the hook server (pid ${pid}) dropped the event`);
  assert.match(result.stdout, "packages/api");
  await until(() => !alive(pid), "the server of a removed install to stop", 5_000);
  assert.not.ok(alive(pid), "the server stopped");
});

test("an idle server ends and takes its lock with it", async () => {
  const root = materialize("monorepo");
  const run = folder("run");
  hook(root, run, "idle", { CTXINJECT_HOOK_SERVER_IDLE_MS: "400" });
  const pid = await waitForServer(run);
  await until(() => !alive(pid), "the idle server to end", 10_000);
  assert.not.ok(alive(pid), "the server ended");
  assert.is(hookServerPid(run), null);
});

test("no server where the spool folder is not the user's alone, nor with CTXINJECT_HOOK_SERVER=0", () => {
  const root = materialize("monorepo");
  const run = folder("run");
  const top = join(run, `ctxinject-${process.getuid!()}`);
  mkdirSync(top);
  chmodSync(top, 0o755);
  const open = hook(root, run, "open");
  assert.match(open.stderr, "no private in-memory folder");
  assert.match(open.stdout, "packages/api");
  assert.equal(readdirSync(top), []);

  const off = folder("run");
  const result = hook(root, off, "off", { CTXINJECT_HOOK_SERVER: "0" });
  assert.match(result.stdout, "packages/api");
  assert.not.match(result.stderr, "hook server");
  assert.equal(readdirSync(off), []);
});

test.run();
