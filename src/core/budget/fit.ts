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
  /**
   * Indexes into `entries`, weakest evidence first: the order in which entries give way to the budget
   * (budget/evidence.ts). Without it the last entry of the output goes first.
   */
  dropOrder?: number[];
}

export interface FitResult {
  entries: Entry[];
  omitted: Omitted[];
  /** Index items left out because even a list of names did not fit (a budget smaller than the names). */
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

/** An index line without its description: a name and a size, what every left-out entry gets at least. */
const nameOnly = (o: Omitted): Omitted => (o.description === null ? o : { ...o, description: null });

/**
 * Fits a document into maxTokens, in three steps:
 * 1. Entries give way in `dropOrder` (weakest evidence first) until the rest fits beside an index that names
 *    every left-out entry (names only, at this step): the fewest drops that fit, found by binary search since
 *    every try counts the whole document (one BPE pass).
 * 2. The last entry to give way is cut at the last clean boundary that fits (with a note naming the file) rather
 *    than dropped, when a cut fits: a long entry is cut before a shorter, stronger one is dropped.
 * 3. The index gets its descriptions back, entries that did not fit first, as many as the room left allows.
 * The output keeps the entries' order; only the choice of what gives way follows the evidence. Only a budget too
 * small for the names alone shortens the index to "… and N more" (lastResort).
 */
export function fitToBudget(input: FitInput): FitResult {
  const { entries, omitted, render, countTokens, maxTokens, describe } = input;
  const fits = (text: string) => countTokens(text) <= maxTokens;
  const whole = render(entries, omitted, 0);
  if (fits(whole)) return { entries, omitted, more: 0, trimmed: null, dropped: [], output: whole };

  const order = input.dropOrder ?? entries.map((_, i) => entries.length - 1 - i);
  const described = entries.map(describe);
  const shortOmitted = omitted.map(nameOnly);
  // The document with the first `drops` of the drop order left out (and `replace` standing in for one entry).
  const layout = (drops: number, replace?: { at: number; entry: Entry }) => {
    const gone = new Set(order.slice(0, drops));
    const kept: Entry[] = [];
    const index: Omitted[] = [];
    entries.forEach((e, i) => {
      if (gone.has(i)) index.push(described[i]!);
      else kept.push(replace?.at === i ? replace.entry : e);
    });
    return { kept, index: [...index, ...omitted], gone };
  };
  const shortRender = (drops: number, replace?: { at: number; entry: Entry }) => {
    const { kept, index } = layout(drops, replace);
    return render(kept, [...index.slice(0, index.length - omitted.length).map(nameOnly), ...shortOmitted], 0);
  };

  // 1. The fewest drops that fit. Dropping an entry almost always saves tokens; where it does not, the answer is
  // merely cautious.
  let lo = 0;
  let hi = entries.length;
  if (!fits(shortRender(hi))) return lastResort(input, order, described);
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (fits(shortRender(mid))) hi = mid;
    else lo = mid + 1;
  }
  let drops = lo;
  let trimmed: string | null = null;
  let replace: { at: number; entry: Entry } | undefined;
  // 2. The last to give way is cut rather than dropped, if a cut fits.
  if (drops > 0) {
    const at = order[drops - 1]!;
    const cut = largestFittingCut(entries[at]!, countTokens, (candidate) => fits(shortRender(drops - 1, { at, entry: candidate })));
    if (cut) {
      replace = { at, entry: cut };
      trimmed = key(entries[at]!);
      drops--;
    }
  }
  const { kept, index, gone } = layout(drops, replace);
  // 3. Descriptions back, from the top of the index, as many as fit.
  const withDescriptions = (n: number) => render(kept, [...index.slice(0, n), ...index.slice(n).map(nameOnly)], 0);
  let shown = 0;
  let top = index.length;
  while (shown < top) {
    const mid = (shown + top + 1) >> 1;
    if (fits(withDescriptions(mid))) shown = mid;
    else top = mid - 1;
  }
  const listed = [...index.slice(0, shown), ...index.slice(shown).map(nameOnly)];
  const dropped = entries.filter((_, i) => gone.has(i)).map(key);
  return { entries: kept, omitted: listed, more: 0, trimmed, dropped, output: render(kept, listed, 0) };
}

/**
 * A budget smaller than the names of what would be left out (`--all` under a small budget): entries still give
 * way weakest first, but against an index collapsed to "… and N more"; then the index names as many as fit.
 * Text for the agent is worth more than a complete list of what it does not get.
 */
function lastResort(input: FitInput, order: number[], described: Omitted[]): FitResult {
  const { entries, render, countTokens, maxTokens, omitted } = input;
  const fits = (text: string) => countTokens(text) <= maxTokens;
  const layout = (drops: number, replace?: { at: number; entry: Entry }) => {
    const gone = new Set(order.slice(0, drops));
    const kept: Entry[] = [];
    const index: Omitted[] = [];
    entries.forEach((e, i) => {
      if (gone.has(i)) index.push(nameOnly(described[i]!));
      else kept.push(replace?.at === i ? replace.entry : e);
    });
    return { kept, index: [...index, ...omitted.map(nameOnly)], gone };
  };
  const collapsed = (drops: number, replace?: { at: number; entry: Entry }) => {
    const { kept, index } = layout(drops, replace);
    return render(kept, [], index.length);
  };
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (fits(collapsed(mid))) hi = mid;
    else lo = mid + 1;
  }
  let drops = lo;
  let trimmed: string | null = null;
  let replace: { at: number; entry: Entry } | undefined;
  if (drops > 0 && drops <= entries.length) {
    const at = order[drops - 1]!;
    const cut = largestFittingCut(entries[at]!, countTokens, (candidate) => fits(collapsed(drops - 1, { at, entry: candidate })));
    if (cut) {
      replace = { at, entry: cut };
      trimmed = key(entries[at]!);
      drops--;
    }
  }
  const { kept, index, gone } = layout(drops, replace);
  const withIndex = (n: number) => render(kept, index.slice(0, n), index.length - n);
  let shown = 0;
  let top = index.length;
  while (shown < top) {
    const mid = (shown + top + 1) >> 1;
    if (fits(withIndex(mid))) shown = mid;
    else top = mid - 1;
  }
  let output = withIndex(shown);
  if (!fits(output)) output = "";
  const dropped = entries.filter((_, i) => gone.has(i)).map(key);
  return { entries: output === "" ? [] : kept, omitted: index.slice(0, shown), more: index.length - shown, trimmed: output === "" ? null : trimmed, dropped: output === "" ? entries.map(key) : dropped, output };
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
