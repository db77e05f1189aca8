import { lstatSync, mkdirSync, readFileSync, unlinkSync } from "node:fs";
import { writeFileAtomically } from "./atomic-write.js";
import { under } from "./paths.js";

/**
 * The folder where `ctxinject hook` hands its event to the hook server (src/cli/hook-server.ts) and takes the
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
  /** When the hook's process started (ms since the epoch): its deadline counts from there. */
  startedAt: number;
  self: string;
}

export interface SpoolAnswer {
  stdout: string;
  stderr: string;
  code: number;
}

const LOCK = "server.pid";

/** The pid of the live server of this spool, or null. A pid is only trusted when that process's command line names the spool (pids are reused). */
export function liveServer(spool: string): number | null {
  let pid: number;
  try {
    pid = Number(readFileSync(under(spool, LOCK), "utf8"));
  } catch {
    return null;
  }
  return Number.isInteger(pid) && pid > 0 && serves(pid, spool) ? pid : null;
}

function serves(pid: number, spool: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").includes(spool);
  } catch {
    return false;
  }
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
