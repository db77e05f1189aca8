// Synchronous calls: a hook's handful of tiny files cost more in thread-pool round trips than in the calls.
import {
  chmodSync,
  linkSync,
  unlinkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
  type Stats,
} from "node:fs";
import { usageError } from "../../core/errors.js";
import type { Priority } from "../../core/types.js";
import { fingerprint } from "../../core/fingerprint.js";
import { homedir } from "../lazy-node.js";
import { under } from "../fs/paths.js";

/**
 * Session state shared by separate processes (a git hook, an agent hook, the next build).
 *
 * Layout, one folder per session (its name: sessionFolderName):
 *   sessions-2/<name>/id                                 the session's id as given, where the name is not the id itself
 *   sessions-2/<name>/pending/<hash of source:id>.json   one file per registered entry
 *   sessions-2/<name>/claims/<pid>-<nonce>/…             entries a consumer has taken and not yet delivered
 *   sessions-2/<name>/seen/<hash of key>-<content hash>  one name per text the session was given, each a link to
 *                                                        the file of what its call claimed: [{ key, hash }]
 *   sessions-2/<name>/<folder>/.tmp-<nonce>.json         a file being written (readers skip names starting with ".")
 *
 * No locks. Every write is a temp file renamed into place (rename is atomic), so a reader never sees half a
 * file and a crash leaves at worst a stray temp file. What a session was given is claimed, not recorded: each text
 * (its key and content hash) is one name made with link(2), which succeeds for exactly one process, so hooks
 * running at once on one session (an agent's parallel tool calls) give each text once between them; the one that
 * loses the race leaves the text out. Everything here is the user's alone: folders 0700, files 0600, whatever the
 * umask (sessions hold prompts' context and project paths). The temp file is written beside its target, and a session's
 * last use is the newest time of its folders (a write changes its folder's): no folder or marker file of their
 * own, because creating a file or folder is what a write costs most (~1 ms each on a slow disk; a hook's first
 * call in a session made five). One file per entry means concurrent writers never
 * overwrite each other, and re-registering a source:id replaces its file: the collector's overwrite rule.
 * A consumer claims entries by renaming them into its own claim folder; rename succeeds for exactly one
 * process, so two consumers never get the same entry. A claim is deleted only after the output is written;
 * a claim whose process died is put back, so a crashed consumer loses nothing.
 */

export interface StoredEntry {
  source: string;
  id: string;
  content: string;
  priority: Priority;
  /** Registration order across processes: milliseconds since the epoch times 1000 plus a per-process counter. */
  order: number;
}

export interface SessionSummary {
  id: string;
  pending: number;
  injected: number;
  /** ISO time of the last write. */
  updated: string;
}

export interface Claim {
  entries: StoredEntry[];
  /** The output is out: the entries are gone for good. */
  commit(): Promise<void>;
  /** The output never left: the entries go back to pending. */
  release(): Promise<void>;
}

let counter = 0;
// Unique among live processes by the pid, within one by the counter; the time part keeps names of a reused pid apart.
let nonces = 0;
const nonce = () => `${process.pid}-${Date.now().toString(36)}-${(nonces++).toString(36)}`;
export const contentHash = fingerprint;

/** `CTXINJECT_STATE_DIR`, else `$XDG_STATE_HOME/ctxinject`, else `~/.local/state/ctxinject`. */
export function stateDir(env: Record<string, string | undefined>): string {
  if (env.CTXINJECT_STATE_DIR) return env.CTXINJECT_STATE_DIR;
  const base = env.XDG_STATE_HOME || under(homedir(env), ".local/state");
  return under(base, "ctxinject");
}

/** The sessions folder of this layout; `sessions`, an earlier version's, is removed by the first collection. */
const SESSIONS = "sessions-2";
const OLD_SESSIONS = "sessions";

/** Ids kept as they are: Claude Code's, Codex's and Gemini CLI's UUIDs, opencode's `ses_…`, `<id>~agent~<agent id>`. */
const SAFE_ID = /^[A-Za-z0-9_~-]{1,100}$/;

/**
 * A session id as a folder name, bounded and collision-free: a short, safe id is its own name; any other id (dots,
 * separators, emoji, lone surrogates, thousands of characters) is a readable prefix of its safe characters, "+",
 * and a fingerprint of its UTF-16 code units (so `\uD800` and `\uDC00` differ, where UTF-8 would make both U+FFFD).
 * "+" never occurs in a kept id, so an encoded name never equals one; at most 70 bytes, never `.` or `..`.
 */
export function sessionFolderName(id: string): string {
  if (id === "") throw usageError("--session: expected a non-empty id");
  if (SAFE_ID.test(id)) return id;
  return `${id.replace(/[^A-Za-z0-9_~-]+/g, "").slice(0, 40)}+${fingerprint(id)}`;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Folders of the state are the user's alone: 0700 (Node applies the mode to every folder it makes on the way). */
export const makePrivateDir = (path: string): void => void mkdirSync(path, { recursive: true, mode: 0o700 });

/** The names in a folder, sorted, without temp files (names starting with "."); none if it does not exist. */
async function listDir(path: string): Promise<string[]> {
  return (await listAll(path)).filter((name) => !name.startsWith("."));
}

async function listAll(path: string): Promise<string[]> {
  // A new session has none of its folders yet: a stat saying so costs less than the error readdir would throw.
  if (statSync(path, { throwIfNoEntry: false }) === undefined) return [];
  try {
    return readdirSync(path).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

export class SessionStore {
  constructor(readonly dir: string) {}

  private sessionDir(session: string): string {
    return under(this.dir, `${SESSIONS}/${sessionFolderName(session)}`);
  }

  /** Makes a folder of the session for writing; the first write of a session whose name is not its id stores the id. */
  private makeSessionFolder(session: string, folder: string): string {
    const base = this.sessionDir(session);
    const path = under(base, folder);
    if (statSync(path, { throwIfNoEntry: false }) !== undefined) return path;
    makePrivateDir(path);
    const name = sessionFolderName(session);
    if (name !== session && statSync(under(base, "id"), { throwIfNoEntry: false }) === undefined) writeAtomicIn(base, "id", JSON.stringify(session));
    return path;
  }

  /** Writes `value` as JSON at `name` in the session's folder through a temp file beside it. */
  private async writeAtomic(session: string, folder: string, name: string, value: unknown): Promise<void> {
    writeAtomicIn(this.makeSessionFolder(session, folder), name, JSON.stringify(value));
  }

  /** When the session was last written: the newest of its folders' times. */
  private lastUsed(base: string): Date | undefined {
    let newest: Date | undefined;
    for (const path of [base, under(base, "seen"), under(base, "pending"), under(base, "claims")]) {
      const mtime = statOrNull(path)?.mtime;
      if (mtime !== undefined && (newest === undefined || mtime > newest)) newest = mtime;
    }
    return newest;
  }

  async register(session: string, entry: { source: string; id: string; content: string; priority?: Priority }): Promise<StoredEntry> {
    const stored: StoredEntry = {
      source: entry.source,
      id: entry.id,
      content: entry.content,
      priority: entry.priority ?? "normal",
      order: Date.now() * 1000 + (counter++ % 1000),
    };
    await this.writeAtomic(session, "pending", `${fingerprint(`${entry.source}:${entry.id}`)}.json`, stored);
    return stored;
  }

  /** Pending entries in registration order, without taking them. */
  async pending(session: string): Promise<StoredEntry[]> {
    await this.recoverAbandonedClaims(session);
    const folder = under(this.sessionDir(session), "pending");
    return sortEntries(await readEntries(folder, await listDir(folder)));
  }

  /** Takes every pending entry for this process; other consumers get none of them. */
  async claim(session: string): Promise<Claim> {
    await this.recoverAbandonedClaims(session);
    const base = this.sessionDir(session);
    const pendingDir = under(base, "pending");
    const names = await listDir(pendingDir);
    const claimDir = under(base, `claims/${nonce()}`);
    const taken: string[] = [];
    if (names.length > 0) {
      makePrivateDir(claimDir);
      for (const name of names) {
        try {
          renameSync(under(pendingDir, name), under(claimDir, name));
          taken.push(name);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
        }
      }
    }
    const entries = sortEntries(await readEntries(claimDir, taken));
    return {
      entries,
      commit: async () => {
        if (names.length > 0) rmSync(claimDir, { recursive: true, force: true });
      },
      release: async () => {
        if (names.length > 0) await putBack(claimDir, pendingDir);
      },
    };
  }

  /** Claims of processes that died (killed mid-consume) go back to pending. */
  private async recoverAbandonedClaims(session: string): Promise<void> {
    const base = this.sessionDir(session);
    for (const name of await listDir(under(base, "claims"))) {
      const pid = Number(name.split("-")[0]);
      if (Number.isInteger(pid) && pid !== process.pid && !isAlive(pid)) await putBack(under(base, `claims/${name}`), under(base, "pending"));
    }
  }

  /** What the session was given: read from the names of its records alone (a long session still reads one folder). */
  async injected(session: string): Promise<InjectedRecords> {
    return new InjectedRecords(await listDir(under(this.sessionDir(session), "seen")));
  }

  /** The keys the session was given (a compaction's digest lists them): each record's file is read. */
  async injectedKeys(session: string): Promise<string[]> {
    const folder = under(this.sessionDir(session), "seen");
    const keys = new Set<string>();
    for (const name of await listDir(folder)) {
      // The file holds every record its call claimed: the one this name stands for is the key.
      const records = readJson(under(folder, name));
      for (const record of Array.isArray(records) ? (records as Partial<InjectedRecord>[]) : []) {
        if (typeof record.key === "string" && typeof record.hash === "string" && recordName(record.key, record.hash) === name) keys.add(record.key);
      }
    }
    return [...keys];
  }

  /**
   * Claims each record for this call: of calls at once exactly one gets each. The call's records are written once,
   * to a temp file, and linked under each record's name: link(2) fails when the name exists, as an O_EXCL create
   * would, at a fraction of its cost (no file of its own per record: a session's first call claims a dozen).
   * Returns the records another call holds (their texts are left out of this answer) and `release`, which takes
   * back what this call claimed when its output never left. A claimed text supersedes the session's records of the
   * same key with other content (`seen`, as read before): an edit is given again, and so is the text it replaced,
   * if it comes back.
   */
  claimInjected(session: string, records: InjectedRecord[], seen?: InjectedRecords): { lost: InjectedRecord[]; release(): void } {
    const won: string[] = [];
    const lost: InjectedRecord[] = [];
    if (records.length === 0) return { lost, release: () => undefined };
    const folder = this.makeSessionFolder(session, "seen");
    const all = under(folder, `.tmp-${nonce()}.json`);
    writeFileSync(all, JSON.stringify(records), { mode: 0o600 });
    try {
      for (const record of records) {
        const keyName = fingerprint(record.key);
        const name = `${keyName}-${record.hash}`;
        try {
          linkSync(all, under(folder, name));
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
          lost.push(record);
          continue;
        }
        won.push(name);
        for (const older of seen?.namesOfKeyName(keyName) ?? []) if (older !== name) unlinkQuietly(under(folder, older));
      }
    } finally {
      unlinkQuietly(all);
    }
    return {
      lost,
      release: () => {
        for (const name of won.splice(0)) unlinkQuietly(under(folder, name));
      },
    };
  }

  /** Records what was given whoever else gave it too (`build --session --fresh`, tests). */
  async recordInjected(session: string, records: InjectedRecord[]): Promise<void> {
    this.claimInjected(session, records, await this.injected(session));
  }

  /** What the session has seen is forgotten (after a compaction or /clear): everything may be injected again. */
  async resetInjected(session: string): Promise<void> {
    await removeDir(under(this.sessionDir(session), "seen"), this.dir);
  }

  async clear(session: string): Promise<void> {
    await removeDir(this.sessionDir(session), this.dir);
  }

  async clearAll(): Promise<void> {
    for (const name of await listDir(under(this.dir, SESSIONS))) await removeDir(under(this.dir, `${SESSIONS}/${name}`), this.dir);
  }

  async sessions(): Promise<SessionSummary[]> {
    const out: SessionSummary[] = [];
    for (const name of await listDir(under(this.dir, SESSIONS))) {
      const base = under(this.dir, `${SESSIONS}/${name}`);
      const updated = this.lastUsed(base);
      if (updated === undefined) continue;
      out.push({
        id: sessionIdOf(base, name),
        pending: (await listDir(under(base, "pending"))).length,
        injected: (await listDir(under(base, "seen"))).length,
        updated: updated.toISOString(),
      });
    }
    return out;
  }

  /**
   * collectGarbage at most once per interval, whichever process asks: a marker's time says when it last ran. It
   * lists every session, so running it on every prompt would cost more the more sessions a machine keeps.
   */
  async collectGarbageOccasionally(maxAgeMs: number, intervalMs: number, now = Date.now(), keep?: string): Promise<string[]> {
    const marker = under(this.dir, `${SESSIONS}/.last-gc`);
    if (now - (statOrNull(marker)?.mtimeMs ?? 0) < intervalMs) return [];
    makePrivateDir(under(this.dir, SESSIONS));
    writeFileSync(marker, "", { mode: 0o600 });
    utimesSync(marker, now / 1000, now / 1000);
    await this.upgradeOnce();
    return this.collectGarbage(maxAgeMs, now, keep);
  }

  /**
   * What earlier versions left: their sessions folder (another layout and other folder names: a clean cut, as it
   * is state of a few hours' use), and a state folder others could read (made under the user's umask).
   */
  private async upgradeOnce(): Promise<void> {
    const info = lstatSync(this.dir, { throwIfNoEntry: false });
    if (info?.isDirectory() && (info.mode & 0o077) !== 0 && typeof process.getuid === "function" && info.uid === process.getuid()) chmodSync(this.dir, 0o700);
    if (statOrNull(under(this.dir, OLD_SESSIONS)) !== null) await removeDir(under(this.dir, OLD_SESSIONS), this.dir);
  }

  /** Removes sessions unused for longer than maxAgeMs, and temp files left by crashed writers. */
  async collectGarbage(maxAgeMs: number, now = Date.now(), keep?: string): Promise<string[]> {
    const removed: string[] = [];
    const kept = keep !== undefined ? sessionFolderName(keep) : null;
    for (const name of await listDir(under(this.dir, SESSIONS))) {
      if (name === kept) continue;
      const base = under(this.dir, `${SESSIONS}/${name}`);
      const used = this.lastUsed(base)?.getTime() ?? 0;
      if (now - used > maxAgeMs) {
        const id = sessionIdOf(base, name);
        await removeDir(base, this.dir);
        removed.push(id);
        continue;
      }
      // Temp files beside their targets.
      for (const folder of ["", "pending", "seen"]) {
        for (const file of await listAll(under(base, folder))) {
          if (!file.startsWith(".tmp-")) continue;
          const path = under(base, `${folder}/${file}`);
          const stat = statOrNull(path);
          if (stat !== null && now - stat.mtimeMs > 60 * 60 * 1000) rmSync(path, { force: true });
        }
      }
    }
    return removed;
  }
}

export interface InjectedRecord {
  key: string;
  hash: string;
}

/** A record's file name: its key's fingerprint and its content hash (a fingerprint, "shown" for a warning). */
const recordName = (key: string, hash: string): string => `${fingerprint(key)}-${hash}`;

/** What a session was given, from its records' names: a key is hashed for a look-up, never a file read. */
export class InjectedRecords {
  private readonly byKey = new Map<string, string[]>();
  constructor(names: string[]) {
    for (const name of names) {
      const cut = name.indexOf("-");
      if (cut <= 0) continue;
      const key = name.slice(0, cut);
      const list = this.byKey.get(key);
      if (list === undefined) this.byKey.set(key, [name]);
      else list.push(name);
    }
  }
  /**
   * Whether the session has any record of this key (a text is hashed only then). A new session has none: its
   * keys are not even hashed.
   */
  hasKey(key: string): boolean {
    return this.byKey.size > 0 && this.byKey.has(fingerprint(key));
  }
  has(key: string, hash: string): boolean {
    if (this.byKey.size === 0) return false;
    const keyName = fingerprint(key);
    return this.byKey.get(keyName)?.includes(`${keyName}-${hash}`) ?? false;
  }
  /** The hashes recorded under a key (a record whose hash carries more than the text's fingerprint). */
  hashesOf(key: string): string[] {
    const keyName = fingerprint(key);
    return (this.byKey.get(keyName) ?? []).map((name) => name.slice(keyName.length + 1));
  }
  /** The records of a key by its fingerprint, which a claim has made already for the record's own name. */
  namesOfKeyName(keyName: string): string[] {
    return this.byKey.get(keyName) ?? [];
  }
}

/** Writes `text` at `name` in `folder` through a temp file beside it, the user's alone. */
function writeAtomicIn(folder: string, name: string, text: string): void {
  const tmp = under(folder, `.tmp-${nonce()}.json`);
  writeFileSync(tmp, text, { mode: 0o600 });
  renameSync(tmp, under(folder, name));
}

/** A session's id as given: its folder's name, or the id stored beside an encoded one. */
function sessionIdOf(base: string, name: string): string {
  if (!name.includes("+")) return name;
  const stored = readJson(under(base, "id"));
  return typeof stored === "string" ? stored : name;
}

/** unlink without rmSync, which loads Node's rimraf module on every hook call that uses it. */
function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // gone already
  }
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as unknown;
  } catch {
    // A file is written whole (by rename or before anyone lists it); a vanished or damaged one is no record.
    return undefined;
  }
}

async function readEntries(folder: string, names: string[]): Promise<StoredEntry[]> {
  const entries: StoredEntry[] = [];
  for (const name of names) {
    try {
      entries.push(JSON.parse(readFileSync(under(folder, name), "utf8")) as StoredEntry);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
      throw error;
    }
  }
  return entries;
}

function sortEntries(entries: StoredEntry[]): StoredEntry[] {
  return entries.sort((a, b) => a.order - b.order || (`${a.source}:${a.id}` < `${b.source}:${b.id}` ? -1 : 1));
}

/** Moves claimed entries back; a newer registration of the same key already in pending wins. */
async function putBack(claimDir: string, pendingDir: string): Promise<void> {
  makePrivateDir(pendingDir);
  for (const name of await listDir(claimDir)) {
    const back = under(pendingDir, name);
    if (statOrNull(back) !== null) rmSync(under(claimDir, name), { force: true });
    else {
      try {
        renameSync(under(claimDir, name), back);
      } catch {
        // Another process put it back first.
      }
    }
  }
  rmSync(claimDir, { recursive: true, force: true });
}

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

/** Renames a folder aside before deleting it, so no reader sees it half-deleted. */
async function removeDir(path: string, stateRoot: string): Promise<void> {
  const trash = under(stateRoot, `trash/${nonce()}`);
  try {
    makePrivateDir(under(stateRoot, "trash"));
    renameSync(path, trash);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  rmSync(trash, { recursive: true, force: true });
}
