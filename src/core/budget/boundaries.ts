import { inCode, scanCode } from "../parse/code.js";

/**
 * Where a text may be cut so that what is kept ends cleanly: after a paragraph, after a sentence, after a
 * heading or list-item line, after a closing code fence. Never inside a code fence or inline code, never
 * mid-sentence, and (since every cut follows ASCII punctuation or a line end) never inside a character.
 * Returns cut positions p (keep `text.slice(0, p)`), ascending, excluding 0 and the full length.
 */
export function cutPoints(text: string): number[] {
  const cuts = new Set<number>();
  const { lines, ranges } = scanCode(text);
  let previousBlank = true;
  for (const { text: line, start, end, fence } of lines) {
    if (fence !== null) {
      if (fence === "close") cuts.add(end);
      previousBlank = false;
      continue;
    }
    const blank = line.trim() === "";
    if (blank && !previousBlank) cuts.add(trimEndIndex(text, start));
    if (/^\s*(#{1,6}\s|[-*+]\s|\d+[.)]\s)/.test(line) && !inCode(ranges, end - 1)) cuts.add(end);
    for (const m of line.matchAll(/[.!?\u3002\uff01\uff1f]["')\]]*(?=\s|$)/g)) {
      const at = start + m.index + m[0].length;
      if (!inCode(ranges, at - 1)) cuts.add(at);
    }
    previousBlank = blank;
  }
  const lastContent = trimEndIndex(text, text.length);
  return [...cuts].filter((p) => p > 0 && p < lastContent).sort((a, b) => a - b);
}

function trimEndIndex(text: string, index: number): number {
  let i = index;
  while (i > 0 && /\s/.test(text[i - 1]!)) i--;
  return i;
}

/** The longest clean prefix of text no longer than maxChars (a cut point), or null if there is none. */
export function cutAtOrBefore(text: string, maxChars: number): number | null {
  let best: number | null = null;
  // Cut points before maxChars do not depend on what follows (a little slack for a sentence's closing quote).
  for (const p of cutPoints(text.slice(0, maxChars + 8))) {
    if (p > maxChars) break;
    best = p;
  }
  return best;
}
