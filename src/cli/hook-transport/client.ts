import { existsSync as exists, readFileSync } from "node:fs";
import {
  liveServer,
  MAX_SERVERS,
  namespaceKey,
  requestFiles,
  serverPid,
  serversElsewhere,
  spoolDir,
  unlinkQuietly,
  writeSpoolFile,
  type SpoolAnswer,
  type SpoolRequest,
} from "../../io/hook-transport/spool.js";
import { lazyRequire } from "../../io/lazy-node.js";
import { NEEDS_STREAM, readPipedSync } from "../stdin.js";
import { exitWith, processContext } from "../process-context.js";

/** The build of the main bundle, whose server answers (written in by scripts/bundle.mjs). */
declare const CTXINJECT_SERVER_BUILD: string | undefined;

/** What the bin hands the in-process hook when the server does not answer: standard input, if it was read here. */
export interface Handover {
  stdin?: string | undefined;
}

/** A server that has not taken a request by then is stopped or stuck: the hook answers itself. */
const TAKE_MS = 300;
/** Past this, a taken request is given up on (a hook's own deadline is 1.5 s by default). */
const ANSWER_MS = 30_000;
const ALIVE_EVERY_MS = 100;

/**
 * `ctxinject hook <agent>` (dist/bundle/client.cjs, which the bin runs first): hands the event to the warm hook
 * server of this build (src/cli/hook-transport/server.ts) and prints its answer, so that a hook costs Node's start and a few
 * file operations instead of loading and running the pipeline cold (bin to exit: ~9 ms against ~18 ms on the
 * benchmark's medium tree). Returns undefined when answered (the process is ending), else what the in-process hook
 * needs. Where no server of these namespaces runs, one is started for the next call (up to MAX_SERVERS in all).
 * CTXINJECT_HOOK_SERVER=0 turns all of it off.
 */
export function run(): Handover | undefined {
  const env = process.env;
  const debug = env.CTXINJECT_DEBUG !== undefined ? (line: string) => process.stderr.write(`ctxinject: debug: ${line}\n`) : () => undefined;
  const off = ["0", "off", "false", "no"].includes((env.CTXINJECT_HOOK_SERVER ?? "").toLowerCase());
  if (off || typeof CTXINJECT_SERVER_BUILD !== "string") return {};
  // Elsewhere than Linux spoolDir finds no folder (and there is no /proc to read).
  const namespaces = process.platform === "linux" ? namespaceKey() : "";
  if (namespaces === null) {
    debug("no /proc/self/ns here to tell this process's namespaces from a hook server's; answering in this process");
    return {};
  }
  const spool = spoolDir(env, CTXINJECT_SERVER_BUILD, namespaces);
  if (spool === null) {
    debug("no private in-memory folder for a hook server here; answering in this process");
    return {};
  }
  const stdin = readPipedSync();
  if (stdin === NEEDS_STREAM) return {};
  const handover = { stdin };
  const server = liveServer(spool);
  if (server === null) {
    const elsewhere = serversElsewhere(spool);
    if (elsewhere >= MAX_SERVERS) debug(`no hook server in these namespaces, and ${elsewhere} run in others; answering in this process`);
    else startServer(spool, debug);
    return handover;
  }
  // For the messages only: whether the server lives is the FIFO's answer (liveServer), never a pid's.
  const pid = env.CTXINJECT_DEBUG !== undefined ? serverPid(spool) : "";
  const id = `${process.pid}-${Date.now().toString(36)}`;
  const files = requestFiles(spool, id);
  const ctx = processContext();
  const request: SpoolRequest = {
    argv: process.argv.slice(2),
    stdin: stdin ?? null,
    cwd: ctx.cwd,
    env: env as Record<string, string>,
    startedAt: ctx.startedAt!,
    self: ctx.self,
  };
  try {
    writeSpoolFile(files.request, JSON.stringify(request));
  } catch (error) {
    // A full or read-only folder: nothing was handed over.
    debug(`the event could not be handed to the hook server (${(error as Error).message}); answering in this process`);
    unlinkQuietly(files.request);
    return handover;
  }
  let answer: SpoolAnswer | null;
  try {
    answer = awaitAnswer(files, server, pid, spool, debug);
  } catch (error) {
    // As the in-process hook fails: one line, exit 1 (never 2, which would block the prompt).
    answer = { stdout: "", stderr: `ctxinject ${request.argv.join(" ")}: ${(error as Error).message}\n`, code: 1 };
  }
  if (answer === null) return handover;
  if (answer.handBack !== undefined) {
    debug(`the hook server (pid ${pid}) handed the event back: ${answer.handBack}`);
    return handover;
  }
  if (answer.stderr !== "") ctx.stderr.write(answer.stderr);
  if (answer.stdout !== "") ctx.stdout.write(answer.stdout, () => undefined);
  debug(`answered by the hook server (pid ${pid})`);
  exitWith(ctx, answer.code);
  return undefined;
}

/**
 * Waits for the answer, sleeping a twentieth of a millisecond between looks (a server answers in a few). Null when
 * the hook must answer itself: the request was not taken in time (and is withdrawn before the server can take it),
 * or the server is gone.
 */
function awaitAnswer(files: ReturnType<typeof requestFiles>, server: number, pid: string, spool: string, debug: (line: string) => void): SpoolAnswer | null {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  const start = Date.now();
  let taken = false;
  let lastAlive = start;
  for (;;) {
    if (exists(files.answer)) break;
    const now = Date.now();
    if (!taken && !exists(files.request)) taken = true;
    if (!taken && now - start > TAKE_MS) {
      if (unlinkQuietly(files.request)) {
        debug(`the hook server (pid ${pid}) did not take the event within ${TAKE_MS} ms; answering in this process`);
        return null;
      }
      taken = true;
    }
    if (taken && now - lastAlive > ALIVE_EVERY_MS) {
      lastAlive = now;
      // The answer is in place before the taken request goes: neither means the server dropped it.
      const dropped = !exists(files.taken) && !exists(files.answer);
      if (dropped || (!exists(files.answer) && liveServer(spool) !== server)) {
        debug(`the hook server (pid ${pid}) ${dropped ? "dropped the event" : "ended before answering"}; answering in this process`);
        return null;
      }
    }
    if (now - start > ANSWER_MS) throw new Error(`the hook server (pid ${pid}) did not answer within ${ANSWER_MS / 1000} s`);
    Atomics.wait(cell, 0, 0, 0.05);
  }
  try {
    return JSON.parse(readFileSync(files.answer, "utf8")) as SpoolAnswer;
  } finally {
    unlinkQuietly(files.answer);
  }
}

/** Starts this build's server, detached and holding none of the hook's descriptors (the host waits for those to close). */
function startServer(spool: string, debug: (line: string) => void): void {
  const self = process.argv[1];
  if (self === undefined) return;
  try {
    const { spawn } = lazyRequire<typeof import("node:child_process")>("node:child_process");
    const child = spawn(process.execPath, [self, "--hook-server", spool], { detached: true, stdio: "ignore", cwd: "/" });
    child.unref();
    debug(`no hook server for this build; started one (pid ${child.pid}) and answering in this process`);
  } catch (error) {
    debug(`no hook server could be started: ${(error as Error).message}`);
  }
}
