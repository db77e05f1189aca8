/**
 * Lists of numbers as the coverage model's folder loop keeps them: made so that V8 keeps one compiled form of the
 * code that fills them, emptied without losing their room, compared and hashed as numbers.
 */

/**
 * A new empty list, made by a builtin: an array literal kept past a collection has an allocation site whose "old
 * space or new" decision V8 takes at a later one, and that decision threw away every compiled function holding the
 * site (the folder loop's, each 30-100 ms of compiling to do again on a 100k-file tree).
 */
export function fresh<T>(): T[] {
  return (NOTHING as T[]).slice();
}
/** Never written: `fresh` copies it. */
const NOTHING: readonly unknown[] = [];

/**
 * `fresh` for a list of objects or strings: a copy of an empty list whose elements kind is already "any value". A
 * list of small integers (fresh's) turns into one on its first object, and optimised code that pushed onto the first
 * kind is thrown away there ("not a Smi": rowHere, summaryId, madeRow each compiled once more on the large tree).
 */
export function freshObjects<T>(): T[] {
  return (OBJECTS as T[]).slice();
}
/** Never written: `freshObjects` copies it (a slice keeps the "any value" kind of `[null]`). */
const OBJECTS: readonly unknown[] = [null].slice(1);

export const NO_IDS: readonly number[] = Object.freeze([]);

/** A list kept in a cell: its own copy, or the shared empty one. */
export function copyOf(ids: number[]): number[] {
  return ids.length === 0 ? (NO_IDS as number[]) : ids.slice();
}

/**
 * Empties a list reused from folder to folder, keeping its room: `length = 0` drops the backing store, so the next
 * push allocated a new one (several lists per folder and agent: ~40 MB of a 100k-file tree's garbage, and each
 * young collection it caused copied the growing model again).
 */
export function clear(list: unknown[]): void {
  while (list.length > 0) list.pop();
}

export function pushAll(to: number[], from: readonly number[]): void {
  for (let i = 0; i < from.length; i++) to.push(from[i]!);
}

/** The ids in `by`'s order, each once. */
export function uniqueSorted(ids: number[], by: (x: number, y: number) => number): void {
  ids.sort((x, y) => by(x, y) || x - y);
  let end = 0;
  for (let i = 0; i < ids.length; i++) if (i === 0 || ids[i] !== ids[end - 1]) ids[end++] = ids[i]!;
  ids.length = end;
}

/** FNV-1a over a list of numbers, then a separator. */
export function hashIds(seed: number, ids: readonly number[]): number {
  let h = seed ^ 0x811c9dc5;
  for (const id of ids) h = Math.imul(h ^ id, 0x01000193);
  // Kept within a small integer, so a map key is no boxed number.
  return Math.imul(h ^ 0xffffffff, 0x01000193) & 0x3fffffff;
}

export function sameIds(x: readonly number[], y: readonly number[]): boolean {
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}
