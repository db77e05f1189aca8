import { PRIORITIES, type Priority } from "./types.js";

export const SEPARATOR = "\n\n---\n\n";

export interface RegisterContextOptions {
  id: string;
  source: string;
  content: string;
  priority?: Priority;
}

export interface ContextEntry {
  id: string;
  source: string;
  content: string;
  priority: Priority;
  /** Registration sequence within the collector: the tie-breaker after priority (never the clock). */
  order: number;
}

export interface DuplicateEntry {
  entry: ContextEntry;
  /** `source:id` of the entry that kept the content. */
  keptAs: string;
}

export interface PendingContext {
  hasContent: boolean;
  entries: ContextEntry[];
  /** Contents joined with SEPARATOR, in order. */
  merged: string;
  /** Entries whose content an earlier entry already carries; left out of `entries` and `merged`. */
  duplicates: DuplicateEntry[];
}

// A table, not indexOf in the comparator: --all sorts thousands of entries.
const RANKS = Object.fromEntries(PRIORITIES.map((p, i) => [p, i])) as Record<Priority, number>;
const rank = (priority: Priority) => RANKS[priority];
export const keyOf = (entry: { source: string; id: string }) => `${entry.source}:${entry.id}`;

/**
 * The collector's order and its one copy of each text: priority first, then registration order (`orderOf`, else
 * the list's order); an item whose text (trimmed) an earlier one carries is a duplicate of that one. A build runs
 * its candidates through this directly (no `source:id` strings for thousands of --all entries).
 */
export function firstOfEachText<T extends { priority: Priority; content: string }>(
  items: T[],
  orderOf?: (item: T) => number,
): { kept: T[]; duplicates: Array<{ item: T; keptBy: T }> } {
  // Array sort is stable: without `orderOf`, items of one priority keep the list's order.
  const sorted = [...items].sort((a, b) => rank(a.priority) - rank(b.priority) || (orderOf ? orderOf(a) - orderOf(b) : 0));
  const seen = new Map<string, T>();
  const kept: T[] = [];
  const duplicates: Array<{ item: T; keptBy: T }> = [];
  for (const item of sorted) {
    const text = item.content.trim();
    const keptBy = seen.get(text);
    if (keptBy !== undefined) duplicates.push({ item, keptBy });
    else {
      seen.set(text, item);
      kept.push(item);
    }
  }
  return { kept, duplicates };
}

/**
 * Per-session context entries, ordered by priority then registration, one copy of each content.
 * Create one per run (or per host process); there is no shared singleton.
 */
export class ContextCollector {
  private readonly sessions = new Map<string, Map<string, ContextEntry>>();
  private sequence = 0;

  register(sessionID: string, options: RegisterContextOptions): void {
    let entries = this.sessions.get(sessionID);
    if (!entries) {
      entries = new Map();
      this.sessions.set(sessionID, entries);
    }
    const key = keyOf(options);
    // Re-registering a key replaces it and moves it to the end of its priority, as a fresh registration.
    entries.delete(key);
    entries.set(key, {
      id: options.id,
      source: options.source,
      content: options.content,
      priority: options.priority ?? "normal",
      order: this.sequence++,
    });
  }

  hasPending(sessionID: string): boolean {
    return (this.sessions.get(sessionID)?.size ?? 0) > 0;
  }

  getPending(sessionID: string): PendingContext {
    const { kept: entries, duplicates } = firstOfEachText([...(this.sessions.get(sessionID)?.values() ?? [])], (e) => e.order);
    return {
      hasContent: entries.length > 0,
      entries,
      // Joined when asked for: a build renders its own output, and --all's merged text is megabytes.
      get merged() {
        return entries.map((e) => e.content).join(SEPARATOR);
      },
      duplicates: duplicates.map(({ item, keptBy }) => ({ entry: item, keptAs: keyOf(keptBy) })),
    };
  }

  consume(sessionID: string): PendingContext {
    const pending = this.getPending(sessionID);
    this.sessions.delete(sessionID);
    return pending;
  }

  clear(sessionID: string): void {
    this.sessions.delete(sessionID);
  }
}
