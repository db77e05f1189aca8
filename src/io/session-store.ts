// Synchronous calls: a hook's handful of tiny files cost more in thread-pool round trips than in the calls.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync, type Stats } from "node:fs";
import { usageError } from "../core/errors.js";
import type { Priority } from "../core/types.js";
import { fingerprint } from "../core/fingerprint.js";
import { dirOf } from "../core/rel-path.js";
import { homedir } from "./lazy-node.js";
import { under } from "./paths.js";

/**
 * Session state shared by separate processes (a git hook, an agent hook, the next build).
 *
 * Layout, one folder per session:
 *   sessions/<id>/pending/<hash of source:id>.json   one file per registered entry
 *   sessions/<id>/claims/<pid>-<nonce>/…             entries a consumer has taken and not yet delivered
 *   sessions/<id>/injected/<time>-<nonce>.json       what one build --session injected: [{ key, hash }]
 *   sessions/<id>/<folder>/.tmp-<nonce>.json         a file being written (readers skip names starting with ".")
 *
 * No locks. Every write is a temp file renamed into place (rename is atomic), so a reader never sees half a
 * file and a crash leaves at worst a stray temp file. The temp file is written beside its target, and a session's
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

/** A session id as a folder name: reversible, no separators, never `.` or `..`. */
export function encodeSessionId(id: string): string {
  if (id === "" || id.length > 200) throw usageError(`--session: expected an id of 1 to 200 characters, got ${JSON.stringify(id)}`);
  return id.replace(/[^A-Za-z0-9_-]/g, (ch) => `%${[...Buffer.from(ch)].map((b) => b.toString(16).toUpperCase().padStart(2, "0")).join("%")}`);
}

export function decodeSessionId(name: string): string {
  return decodeURIComponent(name);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

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
    return under(this.dir, `sessions/${encodeSessionId(session)}`);
  }

  /** Writes `value` as JSON at `target` through a temp file beside it. */
  private async writeAtomic(target: string, value: unknown): Promise<void> {
    const folder = dirOf(target);
    const tmp = under(folder, `.tmp-${nonce()}.json`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(tmp, JSON.stringify(value));
    renameSync(tmp, target);
  }

  /** When the session was last written: the newest of its folders' times (and of the marker older versions wrote). */
  private lastUsed(base: string): Date | undefined {
    let newest: Date | undefined;
    for (const path of [base, under(base, "injected"), under(base, "pending"), under(base, "claims"), under(base, "last-used")]) {
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
    await this.writeAtomic(under(this.sessionDir(session), `pending/${fingerprint(`${entry.source}:${entry.id}`)}.json`), stored);
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
      mkdirSync(claimDir, { recursive: true });
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

  /**
   * What the session injected: key -> content hash, later records over earlier ones. Records are written one file
   * per build (a hook answers with many at once), named so that names sort in writing order; once there are more
   * than INJECTED_FILES_TO_MERGE of them they are merged into one, so a long session still reads a few files.
   */
  async injected(session: string): Promise<Map<string, string>> {
    const folder = under(this.sessionDir(session), "injected");
    const { map, names } = await readInjected(folder);
    if (names.length > INJECTED_FILES_TO_MERGE) await this.mergeInjected(folder, names, map);
    return map;
  }

  /** The merged records go in under a new name first; only then are the files they came from removed. */
  private async mergeInjected(folder: string, names: string[], map: Map<string, string>): Promise<void> {
    await this.writeAtomic(under(folder, injectedName()), [...map].map(([key, hash]) => ({ key, hash })));
    for (const name of names) rmSync(under(folder, name), { force: true });
  }

  async recordInjected(session: string, records: InjectedRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.writeAtomic(under(this.sessionDir(session), `injected/${injectedName()}`), records);
  }

  /** What the session has seen is forgotten (after a compaction or /clear): everything may be injected again. */
  async resetInjected(session: string): Promise<void> {
    await removeDir(under(this.sessionDir(session), "injected"), this.dir);
  }

  async clear(session: string): Promise<void> {
    await removeDir(this.sessionDir(session), this.dir);
  }

  async clearAll(): Promise<void> {
    for (const name of await listDir(under(this.dir, "sessions"))) await removeDir(under(this.dir, `sessions/${name}`), this.dir);
  }

  async sessions(): Promise<SessionSummary[]> {
    const out: SessionSummary[] = [];
    for (const name of await listDir(under(this.dir, "sessions"))) {
      const base = under(this.dir, `sessions/${name}`);
      const updated = this.lastUsed(base);
      if (updated === undefined) continue;
      out.push({
        id: decodeSessionId(name),
        pending: (await listDir(under(base, "pending"))).length,
        injected: (await readInjected(under(base, "injected"))).map.size,
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
    const marker = under(this.dir, "last-gc");
    if (now - (statOrNull(marker)?.mtimeMs ?? 0) < intervalMs) return [];
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(marker, "");
    utimesSync(marker, now / 1000, now / 1000);
    return this.collectGarbage(maxAgeMs, now, keep);
  }

  /** Removes sessions unused for longer than maxAgeMs, and temp files left by crashed writers. */
  async collectGarbage(maxAgeMs: number, now = Date.now(), keep?: string): Promise<string[]> {
    const removed: string[] = [];
    const kept = keep !== undefined ? encodeSessionId(keep) : null;
    for (const name of await listDir(under(this.dir, "sessions"))) {
      if (name === kept) continue;
      const base = under(this.dir, `sessions/${name}`);
      const used = this.lastUsed(base)?.getTime() ?? 0;
      if (now - used > maxAgeMs) {
        await removeDir(base, this.dir);
        removed.push(decodeSessionId(name));
        continue;
      }
      // Temp files beside their targets, and in the tmp folder older versions wrote them to.
      for (const folder of ["injected", "pending", "tmp"]) {
        for (const file of await listAll(under(base, folder))) {
          if (folder !== "tmp" && !file.startsWith(".tmp-")) continue;
          const path = under(base, `${folder}/${file}`);
          const stat = statOrNull(path);
          if (stat !== null && now - stat.mtimeMs > 60 * 60 * 1000) rmSync(path, { force: true });
        }
      }
    }
    return removed;
  }
}

interface InjectedRecord {
  key: string;
  hash: string;
}

const INJECTED_FILES_TO_MERGE = 16;

async function readInjected(folder: string): Promise<{ map: Map<string, string>; names: string[] }> {
  const map = new Map<string, string>();
  const names = await listDir(folder);
  for (const name of names) {
    try {
      // An array since records are written one file per build; a single record in files of earlier versions.
      const parsed = JSON.parse(readFileSync(under(folder, name), "utf8")) as InjectedRecord | InjectedRecord[];
      for (const record of Array.isArray(parsed) ? parsed : [parsed]) map.set(record.key, record.hash);
    } catch {
      // A file is written whole by rename; an unreadable or vanished one only means "not seen": injected again.
    }
  }
  return { map, names };
}

/** Sorts in writing order within a process and, by the clock, across processes (fixed width until 2059). */
const injectedName = () => `${Date.now().toString(36).padStart(9, "0")}-${nonce()}.json`;

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
  mkdirSync(pendingDir, { recursive: true });
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
    mkdirSync(under(stateRoot, "trash"), { recursive: true });
    renameSync(path, trash);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  rmSync(trash, { recursive: true, force: true });
}
