import type { WorkBudget } from "../work-budget.js";

/**
 * Near copies: one text kept in two places with small edits (a rule in `.cursor/rules/x.mdc` and `.claude/rules/x.md`
 * differing in frontmatter and a link, two packages' READMEs differing in a name). Texts are compared by their
 * significant lines, so that the comparison costs a hash per line, never a diff.
 */

/** Shorter lines (headings, fences, "- Use pnpm", "## Setup") are shared by unrelated texts: they prove nothing. */
const MIN_LINE_CHARS = 20;
/** A text with fewer significant lines is too short to call a copy (a shared phrase, a pointer to another file). */
export const MIN_LINES = 5;
/** Nine tenths of a text's lines found in another makes it a copy of that one (a link or a name changed). */
const SHARE_TENTHS = 9;

/**
 * A text's significant lines, each once: trimmed, whitespace collapsed, blank and short lines left out. A link's
 * target is left out and `.mdc` read as `.md`: a copy made for another agent points at that agent's own files.
 */
export function significantLines(text: string): string[] {
  const lines = new Set<string>();
  // What a line may need done, asked once of the whole text (native searches): most texts need nothing, and a run
  // reads thousands of texts once each, so each step a line skips is one the interpreter does not run.
  const { spaced, linked, mdc, plain } = needs(text);
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end).trim();
    start = end + 1;
    if (line.length < MIN_LINE_CHARS) continue;
    if (plain) {
      lines.add(line);
      continue;
    }
    const normal = normalised(line, spaced, linked, mdc);
    if (normal.length >= MIN_LINE_CHARS) lines.add(normal);
  }
  return [...lines];
}

/** What the lines of `text` may need done to read as significant lines. */
function needs(text: string): { spaced: boolean; linked: boolean; mdc: boolean; plain: boolean } {
  const spaced = SPACED.test(text);
  const linked = text.includes("](");
  const mdc = text.includes(".mdc");
  return { spaced, linked, mdc, plain: !spaced && !linked && !mdc };
}

/**
 * Which of `texts` share a significant line with another of them: a text that shares none (most of --all's
 * thousands) is no copy of another, holds none and is inside none, so its lines are never made into a LineIndex
 * (every text's lines, sets and postings cost dedup most of its time and pushed --all's heap into a full garbage
 * collection). A plain text's lines are looked up as slices of it (no trimmed or normalised copies), so that V8
 * hashes them natively: a hash of each character in JavaScript cost --all ~15 ms, run cold. Texts with fewer than
 * three distinct lines are flagged too: a text with no line strictly inside it is searched for whole in every
 * longer text (dedup's dropContained).
 */
export function mayShareLines(texts: readonly string[]): boolean[] {
  const flagged = texts.map(() => false);
  /** A line → the one text holding it, or -1 once a second text holds it too. */
  const holder = new Map<string, number>();
  for (let id = 0; id < texts.length; id++) {
    const text = texts[id]!;
    const { spaced, linked, mdc, plain } = needs(text);
    // The first two distinct lines: a third proves the text has a line inside it.
    let first: string | undefined;
    let second: string | undefined;
    let third = false;
    let start = 0;
    while (start <= text.length) {
      let end = text.indexOf("\n", start);
      if (end < 0) end = text.length;
      let line: string;
      if (plain) {
        // Without two spaces, tabs or other white space in the text, trim() can only take one space off each end.
        let from = start;
        let to = end;
        if (to > from && text.charCodeAt(from) === 32) from++;
        if (to > from && text.charCodeAt(to - 1) === 32) to--;
        start = end + 1;
        if (to - from < MIN_LINE_CHARS) continue;
        line = text.slice(from, to);
      } else {
        const trimmed = text.slice(start, end).trim();
        start = end + 1;
        if (trimmed.length < MIN_LINE_CHARS) continue;
        line = normalised(trimmed, spaced, linked, mdc);
        if (line.length < MIN_LINE_CHARS) continue;
      }
      if (!third) {
        if (first === undefined) first = line;
        else if (line !== first) {
          if (second === undefined) second = line;
          else if (line !== second) third = true;
        }
      }
      const other = holder.get(line);
      if (other === undefined) holder.set(line, id);
      else if (other !== id) {
        flagged[id] = true;
        if (other >= 0) {
          flagged[other] = true;
          holder.set(line, -1);
        }
      }
    }
    if (!third) flagged[id] = true;
  }
  return flagged;
}

/**
 * What a run of white space (`\s\s`) on a line, or a tab, needs: two spaces, a tab, or white space other than a
 * plain space. One scan of the text (three scans cost --all ~5 ms over its megabytes).
 */
const SPACED = / {2}|[\t\v\f\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/;

function normalised(line: string, spaced: boolean, linked: boolean, mdc: boolean): string {
  let out = spaced && /\s\s|\t/.test(line) ? line.replace(/\s+/g, " ") : line;
  // Each pattern runs only on lines that can hold it (a regexp costs its compilation on first use).
  if (linked && out.includes("](")) out = out.replace(/\]\([^)\s]*\)/g, "]()");
  if (mdc && out.includes(".mdc")) out = out.replace(/\.mdc\b/g, ".md");
  return out;
}

/** How many of `lines` (one text's significant lines) another text holds. */
export interface Holder<T> {
  item: T;
  shared: number;
  /** The holder's own count of significant lines. */
  lines: number;
}

/** Whether `shared` of `of` lines is enough to call one text a copy held in another. */
export function isHeld(shared: number, of: number): boolean {
  return of >= MIN_LINES && shared * 10 >= of * SHARE_TENTHS;
}

/**
 * Texts by their significant lines, with an inverted index from a line to the texts holding it, so that finding
 * which texts hold most of a given text costs a lookup per line of that text, not a comparison with every text
 * (--all sends thousands). One index serves both of dedup's passes (whole texts inside others, near copies).
 */
export class LineIndex<T> {
  private readonly items: T[] = [];
  private readonly lines: Array<readonly string[]> = [];
  /** Each text's lines as a set, made when the text is first compared line by line. */
  private readonly sets: Array<Set<string> | undefined> = [];
  /** A line's texts: one text's id as it is (most lines are in one text), an array from the second on. */
  private readonly postings = new Map<string, number | number[]>();

  /** Adds a text (its significantLines); one without any holds nothing worth naming and is left out. */
  add(item: T, lines: readonly string[]): void {
    if (lines.length === 0) return;
    const id = this.items.length;
    this.items.push(item);
    this.lines.push(lines);
    this.sets.push(undefined);
    for (const line of lines) {
      const list = this.postings.get(line);
      if (list === undefined) this.postings.set(line, id);
      else if (typeof list === "number") this.postings.set(line, [list, id]);
      else list.push(id);
    }
  }

  get size(): number {
    return this.items.length;
  }

  /** How many texts hold `line`. */
  holdingCount(line: string): number {
    return countOf(this.postings.get(line));
  }

  private idsOf(line: string): readonly number[] {
    const list = this.postings.get(line);
    return list === undefined ? [] : typeof list === "number" ? [list] : list;
  }

  /** The texts holding `line`, in the order they were added. */
  holding(line: string): T[] {
    return this.idsOf(line).map((id) => this.items[id]!);
  }

  /**
   * The texts (other than `self`, and those `skip` rules out) that hold nine tenths of `lines`, in the order they
   * were added. A holder must hold at least one of any (misses allowed + 1) of the lines, so only the texts holding
   * one of that many of the rarest lines are compared line by line. Each text looked at and each line compared
   * spends `budget`: once it is spent, the holders found so far.
   */
  holders(lines: readonly string[], self?: T, skip?: (item: T) => boolean, budget?: WorkBudget): Array<Holder<T>> {
    const n = lines.length;
    if (n < MIN_LINES || this.items.length === 0) return [];
    const allowedMisses = n - Math.ceil((n * SHARE_TENTHS) / 10);
    // Most texts share almost no line with any other: found without sorting anything.
    // A line no other text holds is a miss for every holder: past the misses allowed, there is none.
    const alone = self === undefined ? 0 : 1;
    let misses = 0;
    for (const line of lines) if (countOf(this.postings.get(line)) <= alone && ++misses > allowedMisses) return [];
    const rarest = lines
      .map((line) => this.idsOf(line))
      .sort((a, b) => a.length - b.length)
      .slice(0, allowedMisses + 1);
    const seen = new Set<number>();
    for (const list of rarest) {
      if (budget !== undefined && !budget.take(LIST_WORK * list.length)) return [];
      for (const id of list) seen.add(id);
    }
    const found: Array<Holder<T>> = [];
    for (const id of [...seen].sort((a, b) => a - b)) {
      const item = this.items[id]!;
      if (item === self || skip?.(item) === true || this.lines[id]!.length < MIN_LINES) continue;
      if (budget !== undefined && !budget.take(LIST_WORK + LINE_WORK * n)) break;
      const set = (this.sets[id] ??= new Set(this.lines[id]));
      let shared = 0;
      for (const line of lines) if (set.has(line)) shared++;
      if (isHeld(shared, n)) found.push({ item, shared, lines: set.size });
    }
    return found;
  }
}

/** What a text listed and a line compared cost of a WorkBudget (dedup.ts's units: a character searched). */
export const LIST_WORK = 64;
export const LINE_WORK = 16;

const countOf = (list: number | number[] | undefined): number => (list === undefined ? 0 : typeof list === "number" ? 1 : list.length);
