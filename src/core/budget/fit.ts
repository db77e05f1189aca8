import { keyOf } from "../collector.js";
import type { CountTokens } from "../tokens.js";
import type { Entry, Omitted } from "../types.js";
import { cutPoints } from "./boundaries.js";

interface FitInput {
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
   * The texts an entry carries for others (duplicates whose copy is this entry's text) that no longer reach the agent
   * when it gives way (`sent` null) or is cut to `sent`: listed in the index right after it, so every text left out
   * is named. Called only when the entries do not all fit.
   */
  carried?: (entry: Entry, sent: Entry | null) => Omitted[];
  /**
   * Indexes into `entries`, weakest evidence first: the order in which entries give way to the budget
   * (budget/evidence.ts). Without it the last entry of the output goes first. A function is called only when the
   * entries do not all fit (most builds fit: their evidence is never weighed).
   */
  dropOrder?: readonly number[] | (() => readonly number[]);
  /** An index line the reader was given before: an entry that gives way is then not listed again. */
  named?: (line: Omitted) => boolean;
}

interface FitResult {
  entries: Entry[];
  omitted: Omitted[];
  /** Index items left out because even a list of names did not fit (a budget smaller than the names). */
  more: number;
  /** `source:id` of the entry cut short, if any. */
  trimmed: string | null;
  /** `source:id` of entries moved to the index (or left out of it, when named before). */
  dropped: string[];
  /** `source:id` of the dropped entries not listed because the reader was given their index line before. */
  namedBefore: string[];
  output: string;
}

export const trimNote = (entry: Entry) =>
  entry.path ? `[… trimmed to fit the token budget: read ${entry.path} for the rest]` : `[… trimmed to fit the token budget]`;

/** How many characters of an entry's text its cut (largestFittingCut's) holds: what reaches the agent before the note. */
export const charsBeforeNote = (cut: Entry): number => cut.content.length - `\n\n${trimNote(cut)}`.length;

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
  if (fits(whole)) return { entries, omitted, more: 0, trimmed: null, dropped: [], namedBefore: [], output: whole };

  const order = (typeof input.dropOrder === "function" ? input.dropOrder() : input.dropOrder) ?? entries.map((_, i) => entries.length - 1 - i);
  // An entry whose index line the reader has is described as null: it gives way without a line.
  const described = entries.map((e) => {
    const line = describe(e);
    return input.named?.(line) === true ? null : line;
  });
  const unlisted = new Set(entries.filter((_, i) => described[i] === null).map(keyOf));
  const namedBefore = (dropped: string[]) => (unlisted.size === 0 ? [] : dropped.filter((k) => unlisted.has(k)));
  // Steps 1 and 2 against an index of names only; where even that cannot fit, the last resort.
  const namesOnly = (kept: Entry[], index: Omitted[]) => render(kept, index.map(nameOnly), 0);
  const carried = input.carried ?? (() => []);
  const everyName = [...described.flatMap((d, i) => [...(d ? [d] : []), ...carried(entries[i]!, null)]), ...omitted];
  if (!fits(namesOnly([], everyName))) {
    const last = lastResort(input, order, described);
    return { ...last, namedBefore: namedBefore(last.dropped) };
  }
  const { kept, index, dropped, trimmed } = giveWay(input, order, described, namesOnly, carried);
  // 3. Descriptions back, from the top of the index, as many as fit.
  const listedWith = (n: number) => [...index.slice(0, n), ...index.slice(n).map(nameOnly)];
  const listed = listedWith(mostThatFit(index.length, (n) => fits(render(kept, listedWith(n), 0))));
  return { entries: kept, omitted: listed, more: 0, trimmed, dropped, namedBefore: namedBefore(dropped), output: render(kept, listed, 0) };
}

/**
 * A budget smaller than the names of what would be left out (`--all` under a small budget): entries still give
 * way weakest first, but against an index collapsed to "… and N more"; then the index names as many as fit.
 * Text for the agent is worth more than a complete list of what it does not get.
 */
function lastResort(input: FitInput, order: readonly number[], described: Array<Omitted | null>): Omit<FitResult, "namedBefore"> {
  const { entries, render, countTokens, maxTokens } = input;
  const fits = (text: string) => countTokens(text) <= maxTokens;
  const named = described.map((d) => d && nameOnly(d));
  const carried = input.carried ?? (() => []);
  const { kept, index, dropped, trimmed } = giveWay(
    { ...input, omitted: input.omitted.map(nameOnly) },
    order,
    named,
    (k, i) => render(k, [], i.length),
    (e, sent) => carried(e, sent).map(nameOnly),
  );
  const withIndex = (n: number) => render(kept, index.slice(0, n), index.length - n);
  const shown = mostThatFit(index.length, (n) => fits(withIndex(n)));
  const output = fits(withIndex(shown)) ? withIndex(shown) : "";
  if (output === "") return { entries: [], omitted: [], more: index.length, trimmed: null, dropped: entries.map(keyOf), output };
  return { entries: kept, omitted: index.slice(0, shown), more: index.length - shown, trimmed, dropped, output };
}

/**
 * Steps 1 and 2: the fewest entries, in `order`, that give way for the rest to fit as `trial` renders them (a binary
 * search: every try counts the whole document, one BPE pass; dropping an entry almost always saves tokens, and where
 * it does not the answer is merely cautious), then the last of them cut instead of dropped when a cut fits.
 */
function giveWay(
  input: FitInput,
  order: readonly number[],
  described: Array<Omitted | null>,
  trial: (kept: Entry[], index: Omitted[]) => string,
  carried: (entry: Entry, sent: Entry | null) => Omitted[],
) {
  const { entries, omitted, countTokens, maxTokens } = input;
  const fits = (text: string) => countTokens(text) <= maxTokens;
  const layout = (drops: number, replace?: { at: number; entry: Entry }) => {
    const gone = new Set(order.slice(0, drops));
    const kept: Entry[] = [];
    const index: Omitted[] = [];
    entries.forEach((e, i) => {
      if (gone.has(i)) {
        const line = described[i];
        if (line) index.push(line);
        index.push(...carried(e, null));
      } else if (replace?.at === i) {
        kept.push(replace.entry);
        index.push(...carried(e, replace.entry));
      } else kept.push(e);
    });
    return { kept, index: [...index, ...omitted], gone };
  };
  const tryDrops = (drops: number, replace?: { at: number; entry: Entry }) => {
    const { kept, index } = layout(drops, replace);
    return fits(trial(kept, index));
  };
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (tryDrops(mid)) hi = mid;
    else lo = mid + 1;
  }
  let drops = lo;
  let trimmed: string | null = null;
  let replace: { at: number; entry: Entry } | undefined;
  if (drops > 0) {
    const at = order[drops - 1]!;
    const cut = largestFittingCut(entries[at]!, countTokens, (candidate) => tryDrops(drops - 1, { at, entry: candidate }));
    if (cut) {
      replace = { at, entry: cut };
      trimmed = keyOf(entries[at]!);
      drops--;
    }
  }
  const { kept, index, gone } = layout(drops, replace);
  return { kept, index, trimmed, dropped: entries.filter((_, i) => gone.has(i)).map(keyOf) };
}

/** The largest n from 0 to `length` for which `fitsWith(n)` holds (it holds for every smaller n). */
function mostThatFit(length: number, fitsWith: (n: number) => boolean): number {
  let shown = 0;
  let top = length;
  while (shown < top) {
    const mid = (shown + top + 1) >> 1;
    if (fitsWith(mid)) shown = mid;
    else top = mid - 1;
  }
  return shown;
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
