import { test } from "uvu";
import * as assert from "uvu/assert";
import { testUnless } from "../helpers/lane.js";
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, cleanup, hookServerLocks, materialize, ownHookServer, runCli, spoolOf, alive, testEnvironment, hookServerPid } from "../helpers/cli.js";
import { until } from "../helpers/wait.js";
import { tempFolders } from "../helpers/temp.js";

// Issue 29 item 8: the hook server runs as its user, often root under `sudo -E`, with a spool folder in an
// XDG_RUNTIME_DIR that may be another user's. It serves only requests of its own user, from its own folder, and a
// request's environment never decides whether a repository's code runs.

const { folder } = tempFolders(test);
const servers: number[] = [];
test.after.each(() => {
  for (const pid of servers.splice(0)) stop(pid);
});
test.after(cleanup);

function stop(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/** No trust switch in the server's environment, whatever the test runner has (CI is set on CI machines). */
const UNTRUSTED = { CI: undefined, CTXINJECT_TRUST_ALL: undefined };

/** Each spool's hooks keep their sessions in a state folder of their own, outside the spool's folder. */
const states = new Map<string, string>();
function stateFor(run: string): string {
  let state = states.get(run);
  if (state === undefined) states.set(run, (state = folder("state")));
  return state;
}

function hook(root: string, run: string, session: string, env: Record<string, string | undefined> = {}) {
  const event = JSON.stringify({ hook_event_name: "UserPromptSubmit", session_id: session, cwd: root, prompt: "fix packages/api/src/handlers/user.ts" });
  return runCli(["hook", "claude"], { cwd: root, input: event, env: { ...ownHookServer(run, stateFor(run)), CTXINJECT_DEBUG: "1", ...UNTRUSTED, ...env } });
}

async function withServer(): Promise<{ run: string; spool: string; pid: number }> {
  const root = materialize("monorepo");
  const run = folder("run");
  hook(root, run, "warm");
  await until(() => hookServerPid(run) !== null, "a hook server to start", 10_000);
  const pid = hookServerPid(run);
  assert.ok(pid !== null, "a server started");
  servers.push(pid);
  return { run, spool: spoolOf(run), pid };
}

/** A repository whose JavaScript config, when it runs, leaves a file behind. */
function repoWithCodeConfig(): { root: string; ran: string } {
  const root = materialize("config-js");
  const ran = join(folder("config-ran"), "config-ran");
  writeFileSync(
    join(root, "ctxinject.config.mjs"),
    `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(ran)}, "ran");\nexport default { format: "compact" };\n`,
  );
  return { root, ran };
}

/** A request as another user would hand it: `hook claude` in their repository, with their environment. */
function request(root: string, env: Record<string, string | undefined> = {}): string {
  const base: Record<string, string | undefined> = { ...process.env, ...UNTRUSTED, ...env };
  for (const key of Object.keys(base)) if (base[key] === undefined) delete base[key];
  const event = { hook_event_name: "UserPromptSubmit", session_id: "forged", cwd: root, prompt: "hello" };
  return JSON.stringify({ argv: ["hook", "claude"], stdin: JSON.stringify(event), cwd: root, env: base, startedAt: Date.now(), self: BIN });
}

/** Hands a request in as `name`.req and waits until the server answered it, dropped it, or stopped. */
async function handIn(spool: string, pid: number, name: string, write: (tmp: string) => void): Promise<{ answered: boolean }> {
  const tmp = join(spool, `${name}.tmp`);
  write(tmp);
  renameSync(tmp, join(spool, `${name}.req`));
  const res = join(spool, `${name}.res`);
  await until(
    () => existsSync(res) || !alive(pid) || (!existsSync(join(spool, `${name}.req`)) && !existsSync(join(spool, `${name}.work`))),
    `the server to answer or drop ${name}.req`,
    10_000,
  );
  return { answered: existsSync(res) };
}

test("a request whose environment says CTXINJECT_TRUST_ALL=1 does not make the server run an untrusted JavaScript config", async () => {
  const { run, spool, pid } = await withServer();
  const { root, ran } = repoWithCodeConfig();
  const { answered } = await handIn(spool, pid, "trust-all", (tmp) => writeFileSync(tmp, request(root, { CTXINJECT_TRUST_ALL: "1" }), { mode: 0o600 }));
  assert.ok(answered);
  const answer = JSON.parse(readFileSync(join(spool, "trust-all.res"), "utf8")) as { handBack?: string };
  assert.not.ok(existsSync(ran), "the repository's config ran in the server");
  assert.match(answer.handBack ?? "", "CTXINJECT_TRUST_ALL");
  // Through the client, the hook answers in its own process, where its own environment (the same user's) decides.
  const own = hook(root, run, "via-client", { CTXINJECT_TRUST_ALL: "1" });
  assert.match(own.stderr, "handed the event back");
  assert.ok(existsSync(ran), "the hook's own process honoured its own CTXINJECT_TRUST_ALL");
});

test("a spool folder that is no longer 0700 is not served: the server stops", async () => {
  const { spool, pid } = await withServer();
  const { root, ran } = repoWithCodeConfig();
  chmodSync(spool, 0o755);
  const { answered } = await handIn(spool, pid, "open", (tmp) => writeFileSync(tmp, request(root, { CTXINJECT_TRUST_ALL: "1" })));
  assert.not.ok(answered, "answered from an open folder");
  assert.not.ok(existsSync(ran));
  await until(() => !alive(pid), "the server to stop", 10_000);
  assert.not.ok(alive(pid), "the server stopped");
});

test("a spool folder another user owns (swapped in under the server) is not served", async () => {
  const { spool, pid } = await withServer();
  const { root, ran } = repoWithCodeConfig();
  chownSync(spool, 65534, 65534);
  const { answered } = await handIn(spool, pid, "theirs", (tmp) => writeFileSync(tmp, request(root, { CTXINJECT_TRUST_ALL: "1" })));
  assert.not.ok(answered, "answered from another user's folder");
  assert.not.ok(existsSync(ran));
});

test("a request file that is a symlink is not served", async () => {
  const { spool, pid } = await withServer();
  const elsewhere = join(folder("elsewhere"), "request.json");
  writeFileSync(elsewhere, request(materialize("monorepo")));
  const { answered } = await handIn(spool, pid, "link", (tmp) => symlinkSync(elsewhere, tmp));
  assert.not.ok(answered, "answered a request reached through a symlink");
  assert.ok(alive(pid), "the server goes on serving its own user");
});

test("a request file owned by another user is not served", async () => {
  const { spool, pid } = await withServer();
  const { answered } = await handIn(spool, pid, "nobody", (tmp) => {
    writeFileSync(tmp, request(materialize("monorepo")), { mode: 0o600 });
    chownSync(tmp, 65534, 65534);
  });
  assert.not.ok(answered, "answered another user's request");
});

const canHideProc = process.getuid?.() === 0 && spawnSync("unshare", ["-m", "--propagation", "private", "sh", "-c", "mount -t tmpfs none /proc"]).status === 0;

testUnless(!canHideProc && "hiding /proc needs root and unshare")(
  "without a readable /proc, nothing tells a hook's namespaces from a server's: six calls answer in their own process and start no server",
  () => {
    const root = materialize("monorepo");
    const run = folder("run");
    const state = folder("state");
    const env: Record<string, string | undefined> = {
      ...process.env,
      ...UNTRUSTED,
      NO_COLOR: "1",
      XDG_RUNTIME_DIR: run,
      CTXINJECT_STATE_DIR: state,
      CTXINJECT_DEBUG: "1",
      CTXINJECT_HOOK_SERVER_IDLE_MS: "30000",
    };
    for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
    for (let i = 0; i < 6; i++) {
      const event = JSON.stringify({
        hook_event_name: "UserPromptSubmit",
        session_id: `no-proc-${i}`,
        cwd: root,
        prompt: "fix packages/api/src/handlers/user.ts",
      });
      // A mount namespace of its own, /proc covered by an empty folder.
      const r = spawnSync(
        "unshare",
        ["-m", "--propagation", "private", "sh", "-c", 'mount -t tmpfs none /proc && exec "$0" "$@"', process.execPath, BIN, "hook", "claude"],
        { cwd: root, env, input: event, encoding: "utf8" },
      );
      assert.is(r.status, 0, r.stderr);
      assert.match(r.stdout, "packages/api");
      assert.match(r.stderr, "no /proc/self/ns here");
      assert.not.match(r.stderr, "started one");
    }
    assert.equal(readdirSync(run), [], "no spool was made");
  },
);

const canUnshareNet = process.getuid?.() === 0 && spawnSync("unshare", ["-n", "true"]).status === 0;

/** `hook claude` in a network namespace of its own, as a sandbox without network runs it (a new one each call). */
function hookWithoutNetwork(root: string, run: string, session: string) {
  const event = JSON.stringify({ hook_event_name: "UserPromptSubmit", session_id: session, cwd: root, prompt: "fix packages/api/src/handlers/user.ts" });
  const env = testEnvironment({ ...ownHookServer(run, stateFor(run)), CTXINJECT_DEBUG: "1", ...UNTRUSTED });
  return spawnSync("unshare", ["-n", process.execPath, BIN, "hook", "claude"], { cwd: root, env, input: event, encoding: "utf8" });
}

/** The servers whose spools are under `run`, to be stopped after the test. */
function serversUnder(run: string): number[] {
  const pids = hookServerLocks(run).map((lock) => Number(readFileSync(lock, "utf8")));
  servers.push(...pids);
  return pids;
}

testUnless(!canUnshareNet && "needs root and unshare -n")(
  "a hook in a network namespace of its own (a sandbox without network) is never answered by a server outside it, which can reach the network",
  async () => {
    const { run, pid } = await withServer();
    const root = materialize("monorepo");
    const inside = hookWithoutNetwork(root, run, "no-network");
    assert.is(inside.status, 0, inside.stderr);
    assert.match(inside.stdout, "packages/api");
    assert.not.match(inside.stderr, `(pid ${pid})`);
    assert.match(inside.stderr, "no hook server for this build; started one");
    await until(() => serversUnder(run).length === 2, "the sandbox's own server to start", 10_000);
    // The server outside still serves the hooks outside: the sandbox's server has a spool of its own.
    assert.match(hook(root, run, "with-network").stderr, `answered by the hook server (pid ${pid})`);
  },
);

testUnless(!canUnshareNet && "needs root and unshare -n")(
  "sandboxes made per call leave at most four servers of a build running, then hooks there answer in their own process",
  async () => {
    const root = materialize("monorepo");
    const run = folder("run");
    const said: string[] = [];
    for (let i = 0; i < 6; i++) {
      const r = hookWithoutNetwork(root, run, `sandbox-${i}`);
      assert.is(r.status, 0, r.stderr);
      assert.match(r.stdout, "packages/api");
      said.push(r.stderr);
      // Each server in place before the next sandbox counts the others.
      if (i < 4) await until(() => serversUnder(run).length === i + 1, `server ${i + 1} to start`, 10_000);
    }
    assert.equal(
      said.map((stderr) => stderr.includes("started one")),
      [true, true, true, true, false, false],
    );
    assert.match(said[5]!, "no hook server in these namespaces, and 4 run in others");
    assert.is(new Set(serversUnder(run)).size, 4);
  },
);

test.run();
