import { closeSync, futimesSync, lstatSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, type Stats } from "node:fs";
import { writeFileAtomically } from "../atomic-write.js";
import { readBoundedText } from "../bounded-read.js";
import { under } from "../paths.js";

/**
 * The folder where `ctxinject hook` hands its event to the hook server (src/cli/hook-transport/server.ts) and takes the
 * answer back: files, because a socket would cost the hook Node's net module (~3.5 ms of each call). Per user and
 * per build of ctxinject and Node, so a server only ever answers for the code that would have run in the hook.
 * In memory only (`$XDG_RUNTIME_DIR`, else /dev/shm): a request holds the prompt and the environment, which never
 * go to a disk. Null where there is no such folder of the user's alone (not Linux; a folder another user made):
 * hooks then answer in their own process, as they always did.
 */
export function spoolDir(env: Record<string, string | undefined>, build: string): string | null {
  if (process.platform !== "linux" || typeof process.getuid !== "function") return null;
  const uid = process.getuid();
  const base = env.XDG_RUNTIME_DIR || "/dev/shm";
  const top = under(base, `ctxinject-${uid}`);
  if (!privateDir(top, uid)) return null;
  const dir = under(top, `${build}-${process.version}-${process.arch}`);
  return privateDir(dir, uid) ? dir : null;
}

/**
 * What the server checks before each request: the spool is still the folder it started with (same device and inode),
 * not a symlink, its user's, no access for others (0700). Where `$XDG_RUNTIME_DIR` is another user's (`sudo -E`, `su` without `-`),
 * that user can move the folder away and put one of their own in its place, with requests of their own.
 */
export function spoolStillOurs(spool: string, first: { dev: number; ino: number }): boolean {
  const info = lstatSync(spool, { throwIfNoEntry: false });
  return info !== undefined && info.isDirectory() && info.dev === first.dev && info.ino === first.ino && info.uid === process.getuid?.() && (info.mode & 0o077) === 0;
}

/**
 * A request file's text, or null when it is not one this server may take: it is opened without following a link
 * and checked on the open descriptor (a regular file, this user's, one link: not a hard link to a file elsewhere).
 */
export function readOwnFile(path: string): string | null {
  const uid = process.getuid?.();
  try {
    return readBoundedText(path, { maxBytes: MAX_REQUEST_BYTES, noFollow: true, accept: (info) => info.uid === uid && info.nlink === 1 });
  } catch {
    return null;
  }
}

/** A prompt and an environment: far below this. */
const MAX_REQUEST_BYTES = 16 * 1024 * 1024;

/** A folder that is this user's alone (made so if missing): not a symlink, owned by uid, no access for others. */
function privateDir(dir: string, uid: number): boolean {
  let info = lstatSync(dir, { throwIfNoEntry: false });
  if (info === undefined) {
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch {
      // made at the same moment by another run, or not makeable: the check below decides
    }
    info = lstatSync(dir, { throwIfNoEntry: false });
  }
  return info !== undefined && info.isDirectory() && info.uid === uid && (info.mode & 0o077) === 0;
}

/** What a hook hands the server: everything the command's answer depends on. */
export interface SpoolRequest {
  argv: string[];
  /** Standard input as read (null: none, a terminal). */
  stdin: string | null;
  cwd: string;
  env: Record<string, string>;
  /** When the hook's code started running (ms since the epoch, process-context.ts): its deadline counts from there. */
  startedAt: number;
  self: string;
}

export interface SpoolAnswer {
  stdout: string;
  stderr: string;
  code: number;
  /** Not answered by the server, for this reason: the hook answers in its own process. */
  handBack?: string;
}

/**
 * The variables that let a repository's code run (io/trust.ts: CTXINJECT_TRUST_ALL, CI). The server never takes
 * them from a request: a request whose values differ from the server's own start environment is handed back, and the
 * hook's own process (the same user, its own environment) decides. Keep in step with io/trust.ts.
 */
export const TRUST_SWITCHES = ["CTXINJECT_TRUST_ALL", "CI"] as const;

const LOCK = "server.pid";
/** A live server touches its lock this often; a lock untouched for STALE_MS is a dead server's. */
export const HEARTBEAT_MS = 5_000;
const STALE_MS = 3 * HEARTBEAT_MS;

/**
 * The pid of the live server of this spool, or null. Without /proc (a container, a hardened system, macOS one day)
 * a process's command line cannot be read, so the lock is trusted when that pid is a live process of this user
 * and the server has touched the lock within STALE_MS (it does every HEARTBEAT_MS). A pid reused by another process
 * after a server died unannounced (killed: a server that ends removes its lock) fools it for STALE_MS at most,
 * and costs a hook only the wait for its request to be taken (TAKE_MS) before it answers itself.
 */
export function liveServer(spool: string, now = Date.now()): number | null {
  const path = under(spool, LOCK);
  const info = statSync(path, { throwIfNoEntry: false });
  if (info === undefined || now - info.mtimeMs > STALE_MS) return null;
  let pid: number;
  try {
    pid = Number(readFileSync(path, "utf8"));
  } catch {
    return null;
  }
  return Number.isInteger(pid) && pid > 0 && ownLiveProcess(pid) ? pid : null;
}

/** EPERM means another user's process: never this user's server. */
function ownLiveProcess(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Keeps the lock fresh while the server lives (see liveServer): a descriptor's times, so a replaced lock is left alone. */
export function heartbeat(spool: string): () => void {
  let fd: number | null = null;
  try {
    fd = openSync(under(spool, LOCK), "r");
  } catch {
    return () => undefined;
  }
  const timer = setInterval(() => {
    const now = Date.now() / 1000;
    try {
      futimesSync(fd!, now, now);
    } catch {
      // a lock that went: the next call finds it (ownsSpool) and the server stops
    }
  }, HEARTBEAT_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    closeSync(fd!);
  };
}

/** The device and inode of the spool as the server found it at its start (spoolStillOurs compares them). */
export function spoolIdentity(spool: string): Pick<Stats, "dev" | "ino"> {
  const info = lstatSync(spool);
  return { dev: info.dev, ino: info.ino };
}

/**
 * Makes this process the spool's server: false when a live one already is. The lock is written to a temp file and
 * renamed over a dead server's. Of two servers starting at once the last rename wins; the other finds the lock no
 * longer names it at its next call (ownsSpool) and stops there, letting that call go (its hook answers itself).
 */
export function claimSpool(spool: string): boolean {
  if (liveServer(spool) !== null) return false;
  writeSpoolFile(under(spool, LOCK), String(process.pid));
  return ownsSpool(spool);
}

/** Whether the lock still names this process (another server may have replaced a stopped one). */
export function ownsSpool(spool: string): boolean {
  try {
    return readFileSync(under(spool, LOCK), "utf8") === String(process.pid);
  } catch {
    return false;
  }
}

export function releaseSpool(spool: string): void {
  if (ownsSpool(spool)) unlinkQuietly(under(spool, LOCK));
}

/** A spool file: whole or not there for its reader, and the user's alone. */
export const writeSpoolFile = (path: string, text: string): void => writeFileAtomically(path, text, 0o600);

export function unlinkQuietly(path: string): boolean {
  try {
    unlinkSync(path);
    return true;
  } catch {
    return false;
  }
}

/** A request's files: handed in (`.req`), taken by the server (`.work`), answered (`.res`). */
export const requestFiles = (spool: string, id: string) => ({ request: under(spool, `${id}.req`), taken: under(spool, `${id}.work`), answer: under(spool, `${id}.res`) });
