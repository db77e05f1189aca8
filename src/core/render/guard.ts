/**
 * Entry content may not pose as ctxinject's own markup: a provenance comment, a `---` separator between
 * entries, or a compact header line. Anything in a file that has that shape is defused, so a reader or a
 * parser splitting the output attributes every line to the entry it came from.
 */

const PROVENANCE = /<!--(?=\s*(?:ctxinject\b|[\w.@/-]+:\s[^\n]*\((?:critical|high|normal|low)\b[^\n]*-->))/g;
const SEPARATOR_LINE = /^\s*-{3,}\s*$/m;
const COMPACT_HEADER = /^(## .* \[[\w.@/-]+ (?:critical|high|normal|low)\]|## index: read on demand)$/;

/** A zero-width space inside `<!--` keeps the text readable but no longer a comment a parser would take for ours. */
const defuseComments = (text: string) => text.replace(PROVENANCE, "<!-\u200B-");

/**
 * Markdown: forged provenance comments are defused everywhere; a `---` line after a blank line (the shape of the
 * separator) becomes `***`, the same thematic break, outside code fences — inside a fence it is code and stays.
 */
export function guardMarkdown(content: string): string {
  // Most entries have no line of dashes at all: nothing to track, no lines to split.
  if (!SEPARATOR_LINE.test(content)) return defuseComments(content);
  let fence: string | null = null;
  let previousBlank = true;
  const lines = defuseComments(content).split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== null) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
    } else if (marker) fence = marker;
    else if (previousBlank && /^\s*-{3,}\s*$/.test(line)) lines[i] = line.replace(/-/g, "*");
    previousBlank = line.trim() === "";
  }
  return lines.join("\n");
}

/** Compact: a content line shaped like an entry header is escaped with a backslash. */
export function guardCompact(content: string): string {
  return defuseComments(content)
    .split("\n")
    .map((line) => (COMPACT_HEADER.test(line) ? `\\${line}` : line))
    .join("\n");
}

/** Control characters in an id (a file name may hold a newline) are written as escapes, so an id is one line. */
export const safeId = (id: string): string =>
  id.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
