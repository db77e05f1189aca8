import { scanCode } from "../parse/code.js";
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
  // Most entries have no line of dashes at all: nothing to track, no lines to split (and no three dashes anywhere
  // is a native search, cheaper than the line pattern).
  if (!content.includes("---") || !SEPARATOR_LINE.test(content)) return defuseComments(content);
  let previousBlank = true;
  const out: string[] = [];
  for (const line of scanCode(defuseComments(content)).lines) {
    const separatorShaped = line.fence === null && previousBlank && /^\s*-{3,}\s*$/.test(line.text);
    out.push(separatorShaped ? line.text.replace(/-/g, "*") : line.text);
    previousBlank = line.text.trim() === "";
  }
  return out.join("\n");
}

/** Compact: a content line shaped like an entry header is escaped with a backslash. */
export function guardCompact(content: string): string {
  return defuseComments(content)
    .split("\n")
    .map((line) => (COMPACT_HEADER.test(line) || line === LIKELY_HEADER ? `\\${line}` : line))
    .join("\n");
}

/** Control characters in an id (a file name may hold a newline) are written as escapes, so an id is one line. */
export const safeId = (id: string): string =>
  id.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
