/**
 * What an agent can use of a README: READMEs are written for people, and their HTML blocks (centred logos,
 * tables of contributors, a Product Hunt embed), badges and images are tokens that say nothing to an agent.
 * Code (fences, inline spans) is never touched: the one scanner of core/parse/code.ts decides where it is.
 */
import { inCode, scanCode } from "../parse/code.js";

// An HTML block starts a line with a tag or a comment (CommonMark's HTML blocks, kinds 1-7, simplified): it runs to
// the next blank line, or for comments to their end.
const HTML_START = /^ {0,3}<(?:!--|\/?[A-Za-z][A-Za-z0-9-]*(?:\s|\/?>|$))/;
// A line made only of images and links around images: badges, shields, logos.
const BADGE_LINE = /^\s*(?:\[?!\[[^\]]*\]\([^)]*\)\]?(?:\([^)]*\))?\s*)+$/;
// Reference-style badges: `[![build][ci-badge]][ci-link]`.
const REF_BADGE_LINE = /^\s*(?:\[?!\[[^\]]*\]\[[^\]]*\]\]?(?:\[[^\]]*\]|\([^)]*\))?\s*)+$/;
const IMAGE = /!\[[^\]]*\]\([^)]*\)/g;
// Inline HTML elements inside prose (`[<kbd>Jobs</kbd>](…)`, `<sub>`, `<a href>`): the tags go, their text stays.
// Lowercase names only, so a generic type written in prose (`List<U>`, `Map<string, T>`) is not taken for a tag.
const INLINE_TAG = /<\/?(?:a|abbr|b|br|code|del|em|i|img|ins|kbd|mark|s|samp|small|span|strike|strong|sub|sup|u|var|wbr)\b[^<>]*>/g;

export function readmeForAgents(text: string): string {
  // Plain text with no markup to strip (most nested READMEs): as it is.
  if (!text.includes("<") && !text.includes("![")) return text;
  const out: string[] = [];
  let inHtml: "block" | "comment" | null = null;
  for (const line of scanCode(text).lines) {
    if (line.fence !== null) {
      inHtml = null;
      out.push(line.text);
      continue;
    }
    const trimmed = line.text.trim();
    if (inHtml === "comment") {
      if (trimmed.includes("-->")) inHtml = null;
      continue;
    }
    if (inHtml === "block") {
      if (trimmed === "") inHtml = null;
      else continue;
    }
    // Each pattern only where its first character is there: a pattern run costs its compile on every run, and
    // most lines of a README are prose.
    if (line.text.includes("<") && HTML_START.test(line.text)) {
      const comment = trimmed.startsWith("<!--");
      inHtml = comment ? (trimmed.includes("-->") ? null : "comment") : "block";
      continue;
    }
    if (line.text.includes("![") && (BADGE_LINE.test(line.text) || REF_BADGE_LINE.test(line.text))) continue;
    out.push(line.text.includes("![") || line.text.includes("<") ? withoutMarkup(line.text) : line.text);
  }
  const joined = out.join("\n");
  return (joined.includes("\n\n\n") ? joined.replace(/\n{3,}/g, "\n\n") : joined).trim();
}

/** Inline images and HTML tags out of a line of prose, never out of its code spans. */
function withoutMarkup(line: string): string {
  const { ranges } = scanCode(line);
  const images = line.includes("![") ? line.replace(IMAGE, (image, at: number) => (inCode(ranges, at) ? image : "")) : line;
  // Code spans are found again: removing images moved them.
  const spans = images === line ? ranges : scanCode(images).ranges;
  const tags = images.includes("<") ? images.replace(INLINE_TAG, (tag, at: number) => (inCode(spans, at) ? tag : tag.startsWith("<br") ? " " : "")) : images;
  return tags.replace(/[ \t]{2,}/g, " ").trimEnd();
}

/** Whether a README says anything beyond headings (empty, or `## API` alone): such a file is skipped, not warned about. */
export function hasBody(text: string): boolean {
  // Line by line in place: the answer is nearly always on the first lines of a long file.
  const lineFrom = (at: number) => {
    const end = text.indexOf("\n", at);
    return end === -1 ? { line: text.slice(at).trim(), next: -1 } : { line: text.slice(at, end).trim(), next: end + 1 };
  };
  for (let at = 0; at !== -1; ) {
    const { line: t, next } = lineFrom(at);
    at = next;
    if (t === "" || (t[0] === "#" && /^#{1,6}(\s|$)/.test(t)) || isUnderline(t)) continue;
    // A setext heading: a line underlined with = or -.
    if (next !== -1 && isUnderline(lineFrom(next).line)) continue;
    return true;
  }
  return false;
}

const UNDERLINE = /^(=+|-+)$/;
/** The pattern only for a line that starts as an underline does (most lines are prose). */
const isUnderline = (line: string) => (line[0] === "=" || line[0] === "-") && UNDERLINE.test(line);
