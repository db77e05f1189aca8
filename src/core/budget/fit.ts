import type { CountTokens } from "../tokens.js";
import type { Entry, Omitted } from "../types.js";
import { cutPoints } from "./boundaries.js";

export interface FitInput {
  /** Included entries in final order: highest priority first. */
  entries: Entry[];
  /** Entries already left out (below the relevance threshold): they stay in the index. */
  omitted: Omitted[];
  /** Renders a document of these entries and this index; `more` counts index items cut for room. */
  render: (entries: Entry[], omitted: Omitted[], more: number) => string;
  countTokens: CountTokens;
  maxTokens: number;
  /** How an entry that does not fit is listed in the index. */
  describe: (entry: Entry) => Omitted;
}

export interface FitResult {
  entries: Entry[];
  omitted: Omitted[];
  /** Index items left out because even the index did not fit. */
  more: number;
  /** `source:id` of the entry cut short, if any. */
  trimmed: string | null;
  /** `source:id` of entries moved to the index. */
  dropped: string[];
  output: string;
}

export const trimNote = (entry: Entry) =>
  entry.path ? `[… trimmed to fit the token budget: read ${entry.path} for the rest]` : `[… trimmed to fit the token budget]`;

const key = (e: { source: string; id: string }) => `${e.source}:${e.id}`;

/**
 * Fits a document into maxTokens. Entries are taken in order while they fit whole; the first that does not is
 * cut at the last clean boundary that fits (with a note naming the file), or moved to the index; every entry
 * after it goes to the index, so nothing of lower priority is kept while something higher was dropped.
 * Entries come before index lines: they are fitted against an index collapsed to "… and N more", then the
 * index is filled, entries that did not fit first, with as many lines as the room left allows.
 */
export function fitToBudget(input: FitInput): FitResult {
  const { entries, omitted, render, countTokens, maxTokens, describe } = input;
  const fits = (text: string) => countTokens(text) <= maxTokens;
  const collapsed = (kept: Entry[], left: number) => render(kept, [], left);
  const leftAfter = (count: number) => omitted.length + entries.length - count;

  if (fits(render(entries, omitted, 0))) {
    return { entries, omitted, more: 0, trimmed: null, dropped: [], output: render(entries, omitted, 0) };
  }
  // How many whole entries fit: a binary search, since every try counts the whole document (one BPE pass).
  // Adding an entry almost always adds tokens; where it does not, the answer is merely cautious.
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (fits(collapsed(entries.slice(0, mid), leftAfter(mid)))) lo = mid;
    else hi = mid - 1;
  }
  const kept = entries.slice(0, lo);
  let next = lo;
  let trimmed: string | null = null;
  if (next < entries.length) {
    const entry = entries[next]!;
    const cut = largestFittingCut(entry, countTokens, (candidate) => fits(collapsed([...kept, candidate], leftAfter(next + 1))));
    if (cut) {
      kept.push(cut);
      trimmed = key(entry);
      next++;
    }
  }
  const overflow = entries.slice(next);
  const index = [...overflow.map(describe), ...omitted];
  // The longest head of the index that fits, the rest counted as "more".
  const withIndex = (n: number) => render(kept, index.slice(0, n), index.length - n);
  // With the whole index there is no "more" line, so try that first; below it, cost grows with n.
  let shown = 0;
  let top = index.length - 1;
  if (fits(withIndex(index.length))) shown = top = index.length;
  while (shown < top) {
    const mid = (shown + top + 1) >> 1;
    if (fits(withIndex(mid))) shown = mid;
    else top = mid - 1;
  }
  let output = withIndex(shown);
  if (!fits(output)) output = kept.length > 0 ? render(kept, [], 0) : "";
  if (!fits(output)) output = "";
  return { entries: kept, omitted: index.slice(0, shown), more: index.length - shown, trimmed, dropped: overflow.map(key), output };
}

function largestFittingCut(entry: Entry, countTokens: CountTokens, fits: (e: Entry) => boolean): Entry | null {
  const cuts = cutPoints(entry.content);
  const at = (p: number): Entry => {
    const content = `${entry.content.slice(0, p).trimEnd()}\n\n${trimNote(entry)}`;
    return { ...entry, content, tokens: countTokens(content), truncated: true };
  };
  let lo = 0;
  let hi = cuts.length - 1;
  let best: Entry | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const candidate = at(cuts[mid]!);
    if (fits(candidate)) {
      best = candidate;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}
