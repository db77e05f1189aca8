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
 * after it goes to the index, so nothing of lower priority is kept while something higher was dropped. The
 * index is inside the budget too: when even it does not fit, its last items are counted as "more".
 */
export function fitToBudget(input: FitInput): FitResult {
  const { entries, omitted, render, countTokens, maxTokens, describe } = input;
  const fits = (text: string) => countTokens(text) <= maxTokens;
  const docWith = (count: number, extra: Entry[] = []) =>
    render([...entries.slice(0, count), ...extra], [...omitted, ...entries.slice(count + extra.length).map(describe)], 0);
  // How many whole entries fit: binary search, since each render counts the whole document (one BPE pass
  // per try). Adding an entry almost always adds tokens; where it does not, the answer is merely cautious.
  let lo = 0;
  let hi = entries.length;
  if (!fits(docWith(entries.length))) {
    hi = entries.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (fits(docWith(mid))) lo = mid;
      else hi = mid - 1;
    }
  } else lo = entries.length;
  let i = lo;
  const kept = entries.slice(0, i);
  let trimmed: string | null = null;
  if (i < entries.length) {
    const entry = entries[i]!;
    const cut = largestFittingCut(entry, countTokens, (candidate) => fits(docWith(i, [candidate])));
    if (cut) {
      kept.push(cut);
      trimmed = key(entry);
      i++;
    }
  }
  const overflow = entries.slice(i);
  let index = [...omitted, ...overflow.map(describe)];
  let more = 0;
  let output = render(kept, index, 0);
  while (!fits(output) && index.length > 0) {
    index = index.slice(0, -1);
    more++;
    output = render(kept, index, more);
  }
  if (!fits(output)) output = "";
  return { entries: kept, omitted: index, more, trimmed, dropped: overflow.map(key), output };
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
