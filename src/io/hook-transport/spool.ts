import {
  closeSync,
  constants as fsConstants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  renameSync,
  rmSync,
  unlinkSync,
  type Stats,
} from "node:fs";
import { writeFileAtomically } from "../fs/atomic-write.js";
import { readBoundedText } from "../fs/bounded-read.js";
import { lazyRequire } from "../lazy-node.js";
import { under } from "../fs/paths.js";

/**
 * The folder where `ctxinject hook` hands its event to the hook server (src/cli/hook-transport/server.ts) and takes the
 * answer back: files, because a socket would cost the hook Node's net module (~3.5 ms of each call). Per user, per
 * build of ctxinject and Node, and per set of namespaces (`namespaces`, from namespaceKey), so a server only ever
 * answers for the code that would have run in the hook, seeing what the hook would have seen.
 * In memory only (`$XDG_RUNTIME_DIR`, else /dev/shm): a request holds the prompt and the environment, which never
 * go to a disk. Null where there is no such folder of the user's alone (not Linux; a folder another user made):
 * hooks then answer in their own process, as they always did.
 */
export function spoolDir(env: Record<string, string | undefined>, build: string, namespaces: string): string | null {
  if (process.platform !== "linux" || typeof process.getuid !== "function") return null;
  const uid = process.getuid();
  const base = env.XDG_RUNTIME_DIR || "/dev/shm";
  const top = under(base, `ctxinject-${uid}`);
  if (!privateDir(top, uid)) return null;
  const dir = under(top, `${build}-${process.version}-${process.arch}@${namespaces}`);
  return privateDir(dir, uid) ? dir : null;
}

/**
 * The namespaces a server must share with a hook to answer as the hook's own process would: the same uids (user),
 * processes (pid), files (mnt) and network, where `127.0.0.1` leads (net). A sandbox or a container that shares
 * `/dev/shm` with the machine (`unshare -n -p --fork --mount-proc`, bubblewrap) has others: its hooks get a spool, and
 * a server, of their own, and a server outside is never chosen there. Null without `/proc/self/ns` (no procfs
 * mounted): nothing tells this process's namespaces from another's, so no server is used.
 */
export function namespaceKey(): string | null {
  let key = "";
  for (const kind of NAMESPACES) {
    let link: string;
    try {
      link = readlinkSync(`/proc/self/ns/${kind}`);
    } catch {
      return null;
    }
    // "pid:[4026531836]"
    const id = Number(link.slice(kind.length + 2, -1));
    if (!Number.isSafeInteger(id) || id <= 0) return null;
    key += `${key === "" ? "" : "."}${id.toString(36)}`;
  }
  return key;
}

const NAMESPACES = ["user", "pid", "mnt", "net"] as const;

/** A server in namespaces no hook shares any more (a sandbox that ended) leaves its spool: removed after this. */
const DEAD_SPOOL_MS = 10 * 60_000;
/** Servers of one build in namespaces of their own, at most: sandboxes made per call must not leave one each behind. */
export const MAX_SERVERS = 4;

/** The other spools beside this one (other builds, other namespaces), as paths. */
function otherSpools(spool: string): string[] {
  const slash = spool.lastIndexOf("/");
  const top = spool.slice(0, slash);
  const own = spool.slice(slash + 1);
  let names: string[];
  try {
    names = readdirSync(top);
  } catch {
    return [];
  }
  return names.filter((name) => name !== own && name.includes("@")).map((name) => under(top, name));
}

/** How many servers of this spool's build serve other namespaces now. */
export function serversElsewhere(spool: string): number {
  const build = spool.slice(spool.lastIndexOf("/") + 1, spool.lastIndexOf("@") + 1);
  return otherSpools(spool).filter((dir) => dir.slice(dir.lastIndexOf("/") + 1).startsWith(build) && liveServer(dir) !== null).length;
}

/** Removes the spools no server has held for DEAD_SPOOL_MS (their namespaces, or their build, gone). */
export function removeDeadSpools(spool: string, now = Date.now()): void {
  for (const dir of otherSpools(spool)) {
    const info = lstatSync(dir, { throwIfNoEntry: false });
    if (info === undefined || !info.isDirectory() || now - info.mtimeMs < DEAD_SPOOL_MS || liveServer(dir) !== null) continue;
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // taken up again meanwhile, or not ours to remove: left
    }
  }
}

/**
 * What the server checks before each request: the spool is still the folder it started with (same device and inode),
 * not a symlink, its user's, no access for others (0700). Where `$XDG_RUNTIME_DIR` is another user's (`sudo -E`, `su` without `-`),
 * that user can move the folder away and put one of their own in its place, with requests of their own.
 */
export function spoolStillOurs(spool: string, first: { dev: number; ino: number }): boolean {
  const info = lstatSync(spool, { throwIfNoEntry: false });
  return (
    info !== undefined && info.isDirectory() && info.dev === first.dev && info.ino === first.ino && info.uid === process.getuid?.() && (info.mode & 0o077) === 0
  );
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
 * The variables that let a repository's code run (io/config/trust.ts: CTXINJECT_TRUST_ALL, CI). The server never takes
 * them from a request: a request whose values differ from the server's own start environment is handed back, and the
 * hook's own process (the same user, its own environment) decides. Keep in step with io/config/trust.ts.
 */
export const TRUST_SWITCHES = ["CTXINJECT_TRUST_ALL", "CI"] as const;

/** The server holds this FIFO open for reading while it lives: whether it is alive is the kernel's answer, not a pid's. */
const FIFO = "server.fifo";
/** Which process the server is (for messages, and for whoever stops it), never whether it lives. */
const PID = "server.pid";
const { O_RDONLY, O_WRONLY, O_NONBLOCK } = fsConstants;

/**
 * The live server of this spool (its FIFO's inode), or null. Opening a FIFO for writing without blocking fails at
 * once (ENXIO) when no process holds it open for reading, and the server's descriptor goes with its process however
 * it ends (killed, or with its PID namespace). No pid is read: pids are per PID namespace where the spool folder may
 * not be, and a dead server's pid may name a live process. A server stopped (SIGSTOP) or stuck still holds it: the
 * hook then waits TAKE_MS for its request to be taken (client.ts).
 */
export function liveServer(spool: string): number | null {
  let fd: number;
  try {
    fd = openSync(under(spool, FIFO), O_WRONLY | O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const info = fstatSync(fd);
    return info.isFIFO() ? info.ino : null;
  } finally {
    closeSync(fd);
  }
}

/** The pid the server wrote, for a message ("?" when it cannot be read). */
export function serverPid(spool: string): string {
  try {
    return readFileSync(under(spool, PID), "utf8");
  } catch {
    return "?";
  }
}

/** The device and inode of the spool as the server found it at its start (spoolStillOurs compares them). */
export function spoolIdentity(spool: string): Pick<Stats, "dev" | "ino"> {
  const info = lstatSync(spool);
  return { dev: info.dev, ino: info.ino };
}

/** A server's hold on its spool: the read end of the FIFO it put in place. */
export interface SpoolClaim {
  fd: number;
  dev: number;
  ino: number;
}

/**
 * Makes this process the spool's server, or null when a live one already is (or no FIFO can be made here: then hooks
 * answer in their own process). The FIFO is made under a temp name, opened for reading, and renamed over a dead
 * server's: from then on every hook sees this server alive. Of two servers starting at once the last rename wins; the
 * other finds the FIFO no longer its own before it takes a request (stillServing) and stops, so two servers never answer
 * from one spool.
 */
export function claimSpool(spool: string): SpoolClaim | null {
  if (liveServer(spool) !== null) return null;
  const fifo = under(spool, FIFO);
  const tmp = `${fifo}.${process.pid}.tmp`;
  unlinkQuietly(tmp);
  let fd: number;
  try {
    // Node has no mkfifo; the server (not the hook) pays for the child process, once.
    lazyRequire<typeof import("node:child_process")>("node:child_process").execFileSync("mkfifo", ["-m", "600", tmp], { stdio: "ignore" });
    fd = openSync(tmp, O_RDONLY | O_NONBLOCK);
    renameSync(tmp, fifo);
  } catch {
    unlinkQuietly(tmp);
    return null;
  }
  const info = fstatSync(fd);
  const claim = { fd, dev: info.dev, ino: info.ino };
  if (!ownsSpool(spool, claim)) {
    closeSync(fd);
    return null;
  }
  writeSpoolFile(under(spool, PID), String(process.pid));
  return claim;
}

/** Whether the spool's FIFO is still the one this server holds (another server may have replaced it). */
function ownsSpool(spool: string, claim: SpoolClaim): boolean {
  const info = lstatSync(under(spool, FIFO), { throwIfNoEntry: false });
  return info !== undefined && info.ino === claim.ino && info.dev === claim.dev;
}

/**
 * What the server asks once per request before it takes one: whether it still owns the spool. While it does, the
 * pid file names it: a server that lost the race to rename may have written its own after this one's, and only then
 * is it written again.
 */
export function stillServing(spool: string, claim: SpoolClaim): boolean {
  if (!ownsSpool(spool, claim)) return false;
  if (serverPid(spool) !== String(process.pid)) writeSpoolFile(under(spool, PID), String(process.pid));
  return true;
}

export function releaseSpool(spool: string, claim: SpoolClaim): void {
  if (ownsSpool(spool, claim)) {
    unlinkQuietly(under(spool, FIFO));
    unlinkQuietly(under(spool, PID));
  }
  closeSync(claim.fd);
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
export const requestFiles = (spool: string, id: string) => ({
  request: under(spool, `${id}.req`),
  taken: under(spool, `${id}.work`),
  answer: under(spool, `${id}.res`),
});
