import { CtxinjectError } from "../../core/errors.js";
import { readTarget, writeTarget, type WriteTarget } from "./confine.js";

/**
 * A JSON object file read as it is (a package manifest, a lock file), or null when there is none. A file that is not
 * a JSON object is the user's to fix: the error names it, and init writes nothing after it.
 */
export function readJsonObject(target: WriteTarget): Record<string, unknown> | null {
  const text = readTarget(target);
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CtxinjectError(`${target.path}: not valid JSON (${(error as Error).message}); fix it first, nothing was written`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new CtxinjectError(`${target.path}: expected a JSON object; nothing was written`);
  return value as Record<string, unknown>;
}

/** A JSON settings file about to be merged into: its object, {} when there is no file; nothing is written over one that is no JSON object. */
export const readJsonToMerge = (target: WriteTarget): Record<string, unknown> => readJsonObject(target) ?? {};

/**
 * Writes text to a target only when it differs from what is there (so the mtime, and make or git, see no change),
 * through a temp file in the same folder and a rename (io/fs/confine.ts: a project's file never through a link).
 */
export function writeIfChanged(target: WriteTarget, text: string): boolean {
  if (readTarget(target) === text) return false;
  writeTarget(target, text);
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
