import { appendFileSync, existsSync, readdirSync, renameSync, statSync, watch } from "node:fs";
import {
  claimSpool,
  readOwnFile,
  releaseSpool,
  removeDeadSpools,
  requestFiles,
  spoolIdentity,
  spoolStillOurs,
  stillServing,
  TRUST_SWITCHES,
  unlinkQuietly,
  writeSpoolFile,
  type SpoolAnswer,
  type SpoolRequest,
} from "../../io/hook-transport/spool.js";
import { under } from "../../io/fs/paths.js";
import { collectedOutput } from "../collected-output.js";
import type { CliContext } from "../context.js";

/** How long a server waits for the next hook before it ends (CTXINJECT_HOOK_SERVER_IDLE_MS): a pause between prompts. */
const IDLE_MS = 30 * 60_000;
/** Answers nobody took (a hook killed by its host) and requests left half-way are removed after this. */
const STALE_MS = 60_000;

/**
 * The hook server (`ctxinject --hook-server <spool>`, started by src/cli/hook-transport/client.ts): one warm process per user
 * and build that answers `ctxinject hook <agent>` calls handed to it through the spool folder, one at a time, as
 * the hook's own process would — same command, standard input, working folder and environment (set as the process's
 * own for the call, so git and everything else see what the hook saw), same deadline. Nothing is kept between calls
 * but compiled code: every call reads the tree, the config and the session again. It is alive for hooks as long as it
 * holds its spool's FIFO open (spool.ts: liveServer). Ends after IDLE_MS without a call, when another server has taken
 * the spool, when the spool folder goes or is no longer its user's alone, or when its
 * own install does.
 *
 * What it trusts: only its own start. Before each request it checks that the spool is the folder it started with,
 * its user's, mode 0700, and that the request file is its user's (opened without following links); switches that
 * let a repository's code run (TRUST_SWITCHES) are never taken from a request (spool.ts).
 */
export async function serveHooks(spool: string, answer: (argv: string[], ctx: CliContext) => Promise<number>): Promise<void> {
  const claim = claimSpool(spool);
  if (claim === null) return;
  const identity = spoolIdentity(spool);
  removeDeadSpools(spool);
  const self = process.argv[1] ?? "";
  // The trust switches as this server started: a request's own never count here.
  const trustAtStart = Object.fromEntries(TRUST_SWITCHES.map((key) => [key, process.env[key]]));
  // Read once, from the environment the server started with (each call's own is set for that call only).
  const idleMs = Number(process.env.CTXINJECT_HOOK_SERVER_IDLE_MS) > 0 ? Number(process.env.CTXINJECT_HOOK_SERVER_IDLE_MS) : IDLE_MS;
  const log = process.env.CTXINJECT_HOOK_SERVER_LOG || undefined;
  const queue: string[] = [];
  let busy = false;
  let done: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (done = resolve));
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    // Requests taken and not answered are let go: their hooks, seeing neither request nor answer, answer themselves.
    for (const id of queue.splice(0)) unlinkQuietly(requestFiles(spool, id).taken);
    watcher.close();
    clearTimeout(idle);
    releaseSpool(spool, claim);
    done();
  };
  const idle = setTimeout(stop, idleMs);
  let swept = Date.now();
  // Whether take() asked stillServing with nothing answered since: the request it just took is not asked again.
  let askedNow = false;
  const take = () => {
    if (Date.now() - swept > STALE_MS) {
      swept = Date.now();
      removeStale(spool);
    }
    let names: string[];
    try {
      names = readdirSync(spool);
    } catch {
      return stop();
    }
    const requests = names.filter((name) => name.endsWith(".req"));
    // The watcher sees this server's own renames (`.req` to `.work`) too: a look that finds no request asks nothing.
    if (requests.length === 0) return;
    // A server whose FIFO another has replaced takes nothing more: two servers never answer from one spool.
    if (!stillServing(spool, claim)) return stop();
    askedNow = true;
    for (const name of requests) {
      const id = name.slice(0, -".req".length);
      const files = requestFiles(spool, id);
      try {
        renameSync(files.request, files.taken);
        queue.push(id);
      } catch {
        // withdrawn by its hook, or taken by another server
      }
    }
    void drain();
  };
  const drain = async () => {
    if (busy) return;
    busy = true;
    while (queue.length > 0) {
      const id = queue.shift()!;
      idle.refresh();
      // Another server took over (asked again for a request that waited while another was answered), or this
      // one's install went away (an upgrade, a removed clone): it stops here. Nor does it answer into a folder that
      // is no longer its user's alone (another user swapped or opened it).
      const serving = askedNow || stillServing(spool, claim);
      askedNow = false;
      if (!serving || !existsSync(self) || !spoolStillOurs(spool, identity)) {
        queue.unshift(id);
        return stop();
      }
      await answerOne(spool, id, answer, log, trustAtStart);
      askedNow = false;
    }
    busy = false;
  };
  const watcher = watch(spool, (_event, name) => {
    if (typeof name === "string" && name.endsWith(".req")) take();
  });
  watcher.on("error", stop);
  removeStale(spool);
  take();
  await finished;
}

/** Answers one request; with CTXINJECT_HOOK_SERVER_LOG set, a line per call goes to that file (after the answer). */
async function answerOne(
  spool: string,
  id: string,
  answer: (argv: string[], ctx: CliContext) => Promise<number>,
  log: string | undefined,
  trustAtStart: Record<string, string | undefined>,
): Promise<void> {
  const files = requestFiles(spool, id);
  let result: SpoolAnswer;
  let argv: string[] = [];
  const started = performance.now();
  // A link, or a file of another user: not a request of this user's hooks. Dropped unanswered.
  const text = readOwnFile(files.taken);
  if (text === null) {
    unlinkQuietly(files.taken);
    return;
  }
  try {
    const request = JSON.parse(text) as SpoolRequest;
    argv = request.argv;
    const differs = TRUST_SWITCHES.filter((key) => request.env?.[key] !== trustAtStart[key]);
    result =
      differs.length > 0
        ? { stdout: "", stderr: "", code: 0, handBack: `${differs.join(" and ")} differ from the hook server's own; answering in this process` }
        : await answerAs(request, answer);
  } catch (error) {
    result = { stdout: "", stderr: `ctxinject: hook server: ${(error as Error).message}\n`, code: 1 };
  }
  try {
    writeSpoolFile(files.answer, JSON.stringify(result));
  } catch {
    // No room for the answer: the hook, seeing neither its request nor an answer, answers itself.
  } finally {
    unlinkQuietly(files.taken);
  }
  if (log === undefined) return;
  try {
    const firstLine = result.stderr.split("\n", 1)[0];
    appendFileSync(
      log,
      `${new Date().toISOString()} pid ${process.pid} ${argv.join(" ")}: exit ${result.code}, ${result.stdout.length} characters out in ${(performance.now() - started).toFixed(2)} ms${firstLine ? `; ${firstLine}` : ""}\n`,
    );
  } catch {
    // a log that cannot be written is no reason to stop answering
  }
}

/** Runs one command as the hook's own process would have: `hook <agent>` only, what the client hands over. */
async function answerAs(request: SpoolRequest, answer: (argv: string[], ctx: CliContext) => Promise<number>): Promise<SpoolAnswer> {
  if (request.argv.length !== 2 || request.argv[0] !== "hook")
    throw new Error(`answers ctxinject hook <agent> only, not ${JSON.stringify(request.argv.join(" "))}`);
  adoptEnvironment(request.env);
  try {
    process.chdir(request.cwd);
  } catch {
    // a folder that went away: the command meets it as the hook would have
  }
  const output = collectedOutput();
  const ctx: CliContext = {
    cwd: request.cwd,
    env: process.env,
    stdout: output.stdout,
    stderr: output.stderr,
    self: request.self,
    startedAt: request.startedAt,
    readStdin: async () => request.stdin ?? undefined,
  };
  const code = await answer(request.argv, ctx);
  return { ...output.text(), code };
}

/** Makes the process's environment the hook's: what it lacks goes, what differs is set. */
function adoptEnvironment(env: Record<string, string>): void {
  for (const key of Object.keys(process.env)) if (!Object.hasOwn(env, key)) delete process.env[key];
  for (const [key, value] of Object.entries(env)) if (process.env[key] !== value) process.env[key] = value;
}

/** Files of hooks that went away before reading their answer, or of a server that stopped mid-call. */
function removeStale(spool: string): void {
  const now = Date.now();
  let names: string[];
  try {
    names = readdirSync(spool);
  } catch {
    return;
  }
  for (const name of names) {
    if (!(name.endsWith(".res") || name.endsWith(".work") || name.endsWith(".tmp"))) continue;
    const path = under(spool, name);
    const info = statSync(path, { throwIfNoEntry: false });
    if (info !== undefined && now - info.mtimeMs > STALE_MS) unlinkQuietly(path);
  }
}
