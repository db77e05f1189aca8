import { scanCode, type ScannedLine } from "../parse/code.js";
import { LIKELY_TITLE } from "./tiers.js";

/**
 * Entry content may not pose as ctxinject's own markup: a provenance comment, a `---` separator between
 * entries, or a compact header line. Anything in a file that has that shape is defused, so a reader or a
 * parser splitting the output attributes every line to the entry it came from.
 */

const PROVENANCE = /<!--(?=\s*(?:ctxinject\b|[\w.@/-]+:\s[^\n]*\((?:critical|high|normal|low)\b[^\n]*-->))/g;
const SEPARATOR_LINE = /^\s*-{3,}\s*$/m;
const COMPACT_HEADER = /^(## .* \[[\w.@/-]+ (?:critical|high|normal|low)\]|## index: read on demand)$/;
const LIKELY_HEADER = `## ${LIKELY_TITLE}`;

/**
 * A zero-width space inside `<!--` keeps the text readable but no longer a comment a parser would take for ours.
 * A native search first: --all renders thousands of entries, and few hold a comment at all.
 */
const defuseComments = (text: string) => (text.includes("<!--") ? text.replace(PROVENANCE, "<!-\u200B-") : text);

/**
 * Markdown: forged provenance comments are defused everywhere; a `---` line after a blank line (the shape of the
 * separator) becomes `***`, the same thematic break, outside code fences — inside a fence it is code and stays.
 */
export function guardMarkdown(content: string): string {
  // Most entries have no line of dashes and no fence at all: nothing to track, no lines to split (and no three
  // dashes anywhere is a native search, cheaper than the line pattern).
  const fenced = mayFence(content);
  if (!fenced && (!content.includes("---") || !SEPARATOR_LINE.test(content))) return defuseComments(content);
  let previousBlank = true;
  const out: string[] = [];
  const { lines } = scanCode(defuseComments(content));
  const unclosed = unclosedFenceAt(lines);
  lines.forEach((line, i) => {
    // A fence the entry never closes is no code to a reader splitting at separators: its lines are guarded as text.
    const code = line.fence !== null && (unclosed === -1 || i < unclosed);
    const separatorShaped = !code && previousBlank && /^\s*-{3,}\s*$/.test(line.text);
    out.push(separatorShaped ? line.text.replace(/-/g, "*") : line.text);
    previousBlank = line.text.trim() === "";
  });
  return closeFence(out.join("\n"), lines, unclosed);
}

const mayFence = (text: string) => text.includes("```") || text.includes("~~~");

/** The index of the line opening a fence the text never closes, or -1. */
function unclosedFenceAt(lines: readonly ScannedLine[]): number {
  for (let i = lines.length - 1; i >= 0; i--) {
    const fence = lines[i]!.fence;
    if (fence === "close" || fence === null) return -1;
    if (fence === "open") return i;
  }
  return -1;
}

/**
 * Fence state never carries past an entry's end: a fence the entry leaves open is closed at its end, so the
 * separator and the entries after it stay outside the code block for a markdown reader.
 */
function closeFence(text: string, lines: readonly ScannedLine[], unclosed: number): string {
  if (unclosed === -1) return text;
  const marker = /^\s*(`{3,}|~{3,})/.exec(lines[unclosed]!.text)![1]!;
  return `${text}${text.endsWith("\n") ? "" : "\n"}${marker}`;
}

/** A text with its open fence closed at its end (compact's entries; markdown's guardMarkdown does it itself). */
export function withFenceClosed(text: string): string {
  if (!mayFence(text)) return text;
  const { lines } = scanCode(text);
  return closeFence(text, lines, unclosedFenceAt(lines));
}

/**
 * Compact: a content line shaped like an entry header is escaped with a backslash, after its leading spaces (a
 * reader that trims lines would take `  ## x [rules-injector critical]` for one).
 */
export function guardCompact(content: string): string {
  return defuseComments(content)
    .split("\n")
    .map((line) => {
      const text = line.trimStart();
      return COMPACT_HEADER.test(text) || text === LIKELY_HEADER ? `${line.slice(0, line.length - text.length)}\\${text}` : line;
    })
    .join("\n");
}

/** Control characters in an id (a file name may hold a newline) are written as escapes, so an id is one line. */
export const safeId = (id: string): string => id.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
