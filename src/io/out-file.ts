// fs.promises, not node:fs/promises: it loads on first use instead of at every start of the bundled CLI.
import { promises as fs } from "node:fs";
import { dirname } from "node:path";
import { CtxinjectError } from "../core/errors.js";
import { BoundedReadError, readBoundedText, unreadableReason } from "./bounded-read.js";
import { randomHex } from "./lazy-node.js";

/** An output file or a settings file is ctxinject's own kind of text: far larger than this is no such file. */
const MAX_OUT_BYTES = 64 * 1024 * 1024;

/**
 * The current text of a file, or null when there is none. Bounded: the path may be the repository's (a symlink to
 * /dev/zero or a FIFO named like the output), which is refused with its name instead of read without end.
 */
export async function readIfExists(path: string): Promise<string | null> {
  try {
    return readBoundedText(path, { maxBytes: MAX_OUT_BYTES });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    if (error instanceof BoundedReadError) throw new CtxinjectError(`${path} ${unreadableReason(error)}; ctxinject neither reads nor replaces it`);
    throw error;
  }
}

/**
 * A JSON settings file about to be merged into: its object, {} when there is no file. A file that is not a JSON
 * object is the user's to fix; nothing is written over it.
 */
export async function readJsonToMerge(path: string): Promise<Record<string, unknown>> {
  const text = await readIfExists(path);
  if (text === null) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CtxinjectError(`${path}: not valid JSON (${(error as Error).message}); fix it first, nothing was written`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new CtxinjectError(`${path}: expected a JSON object; nothing was written`);
  return value as Record<string, unknown>;
}

/**
 * Writes text to path only when it differs from what is there (so the mtime, and make or git, see no change),
 * through a temp file in the same folder and a rename: a reader sees the old file or the new one, never half.
 */
export async function writeIfChanged(path: string, text: string): Promise<boolean> {
  if ((await readIfExists(path)) === text) return false;
  await fs.mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}-${randomHex(4)}`;
  try {
    await fs.writeFile(tmp, text);
    await fs.rename(tmp, path);
  } catch (error) {
    await fs.rm(tmp, { force: true });
    throw error;
  }
  return true;
}

/** A one-line summary of how `next` differs from `current`: lines added, removed, and the first difference. */
export function diffSummary(current: string | null, next: string): string {
  if (current === null) return `missing (would be ${next.split("\n").length} lines)`;
  const a = current.split("\n");
  const b = next.split("\n");
  let first = 0;
  while (first < a.length && first < b.length && a[first] === b[first]) first++;
  const counts = new Map<string, number>();
  for (const line of a) counts.set(line, (counts.get(line) ?? 0) + 1);
  let added = 0;
  for (const line of b) {
    const n = counts.get(line) ?? 0;
    if (n > 0) counts.set(line, n - 1);
    else added++;
  }
  const removed = [...counts.values()].reduce((sum, n) => sum + n, 0);
  return `${added} line${added === 1 ? "" : "s"} added, ${removed} removed, first difference at line ${first + 1}`;
}
