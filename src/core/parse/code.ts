/**
 * Where a markdown text holds code: fenced blocks and inline code spans. The guard, compact, the budget's cut
 * points, the prompt's prose and `@import` detection all ask this one scanner, so they cannot disagree.
 *
 * CommonMark's rules, with one deliberate exception: a line that is only a run of backticks closes an inline
 * span opened earlier in the same paragraph by a run of the same length, instead of opening a fence. People
 * write ``explain this: ```⏎ulw⏎``` `` meaning "ulw is code"; CommonMark would start a fence at the last line
 * and leave `ulw` as prose.
 */

type FenceRole = "open" | "inside" | "close";

export interface ScannedLine {
  text: string;
  /** Offsets in the text: `end` is where the line's `\n` (or the text) ends. */
  start: number;
  end: number;
  /** The line's part in a fenced block, or null for a line of ordinary text. */
  fence: FenceRole | null;
}

interface CodeScan {
  lines: ScannedLine[];
  /** [start, end) of every fenced block (marker lines included) and inline code span, ascending. */
  ranges: Array<[number, number]>;
}

const OPENER = /^\s*(`{3,}|~{3,})(.*)$/;

interface Run {
  at: number;
  length: number;
}

export function scanCode(text: string): CodeScan {
  // A text without a backtick has no code span, one without a fence marker no fence: their patterns are not run
  // (each costs a compile on every run).
  const backticks = text.includes("`");
  const fences = backticks || text.includes("~~~");
  const lines: ScannedLine[] = [];
  const ranges: Array<[number, number]> = [];
  let fence: { marker: string; start: number } | null = null;
  let paragraph = -1;
  const endParagraph = (end: number) => {
    if (paragraph !== -1 && backticks) ranges.push(...inlineSpans(text, paragraph, end).spans);
    paragraph = -1;
  };
  let offset = 0;
  for (const line of text.split("\n")) {
    const start = offset;
    const end = start + line.length;
    offset = end + 1;
    if (fence !== null) {
      const marker = /^\s*(`{3,}|~{3,})\s*$/.exec(line)?.[1];
      const closes = marker !== undefined && marker[0] === fence.marker[0] && marker.length >= fence.marker.length;
      lines.push({ text: line, start, end, fence: closes ? "close" : "inside" });
      if (closes) {
        ranges.push([fence.start, end]);
        fence = null;
      }
      continue;
    }
    if (line.trim() === "") {
      endParagraph(start);
      lines.push({ text: line, start, end, fence: null });
      continue;
    }
    const opener = fences ? OPENER.exec(line) : null;
    // A backtick fence's info string may not hold a backtick (```` ```a``` ```` is inline code).
    const opens = opener !== null && !(opener[1]![0] === "`" && opener[2]!.includes("`"));
    if (opens && !(paragraph !== -1 && closesOpenSpan(text, paragraph, start, line, opener[1]!))) {
      endParagraph(start);
      fence = { marker: opener[1]!, start };
      lines.push({ text: line, start, end, fence: "open" });
      continue;
    }
    if (paragraph === -1) paragraph = start;
    lines.push({ text: line, start, end, fence: null });
  }
  endParagraph(text.length);
  if (fence !== null) ranges.push([fence.start, text.length]);
  ranges.sort((a, b) => a[0] - b[0]);
  return { lines, ranges };
}

/** A bare line of backticks that matches a run left open in the paragraph so far. */
function closesOpenSpan(text: string, paragraph: number, lineStart: number, line: string, marker: string): boolean {
  if (marker[0] !== "`" || line.trim() !== marker) return false;
  return inlineSpans(text, paragraph, lineStart).unmatched.some((run) => run.length === marker.length);
}

/** CommonMark code spans: a run of n backticks up to the next run of exactly n; an unmatched run is literal. */
function inlineSpans(text: string, from: number, to: number): { spans: Array<[number, number]>; unmatched: Run[] } {
  const runs: Run[] = [];
  const re = /`+/g;
  re.lastIndex = from;
  for (let m = re.exec(text); m !== null && m.index < to; m = re.exec(text)) runs.push({ at: m.index, length: m[0].length });
  // The next run of the same length, for every run: one pass from the end keeps long paragraphs linear.
  const next = new Array<number>(runs.length);
  const lastOfLength = new Map<number, number>();
  for (let i = runs.length - 1; i >= 0; i--) {
    next[i] = lastOfLength.get(runs[i]!.length) ?? -1;
    lastOfLength.set(runs[i]!.length, i);
  }
  const spans: Array<[number, number]> = [];
  const unmatched: Run[] = [];
  for (let i = 0; i < runs.length; i++) {
    const open = runs[i]!;
    const j = next[i]!;
    if (j === -1) {
      unmatched.push(open);
      continue;
    }
    spans.push([open.at, runs[j]!.at + open.length]);
    i = j;
  }
  return { spans, unmatched };
}

/** True when offset lies inside one of the ranges (binary search; ranges ascending and not overlapping). */
export function inCode(ranges: Array<[number, number]>, offset: number): boolean {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [s, e] = ranges[mid]!;
    if (offset < s) hi = mid - 1;
    else if (offset >= e) lo = mid + 1;
    else return true;
  }
  return false;
}

/** The text with every code range replaced by one space: what is left is prose. */
export function withoutCode(text: string, ranges = scanCode(text).ranges): string {
  let out = "";
  let at = 0;
  for (const [s, e] of ranges) {
    out += `${text.slice(at, s)} `;
    at = e;
  }
  return out + text.slice(at);
}
