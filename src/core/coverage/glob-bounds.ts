/**
 * What a path must start and end with for a rule's globs to have a chance of matching it, read from the literal
 * text at each end of its patterns: counting a rule over a 100k-file tree then tests only the files within those
 * bounds (`packages/**` the files under packages/, `**\/*.test.ts` those ending so) instead of every one.
 * Necessary, not sufficient: a path within them is still matched by the globs themselves.
 */
import { normalizePattern } from "../parse/globs.js";

interface GlobBound {
  /** Every path the pattern matches (below its anchor) starts with this. */
  start: string;
  /** …and ends with this. */
  end: string;
}

/**
 * One bound per positive pattern (a `!pattern` only takes paths away); none when no pattern can match anything.
 * Only plain characters count as literal (letters, digits, `_`, `-`, `.`, `/`): anything else may be glob syntax.
 */
export function globBounds(patterns: readonly string[]): GlobBound[] {
  const bounds: GlobBound[] = [];
  for (const original of patterns) {
    if (original.startsWith("!")) continue;
    const pattern = normalizePattern(original);
    if (pattern === "") continue;
    // A pattern with no `/` matches a file's name at any depth: nothing is known of where the path starts.
    bounds.push({ start: pattern.includes("/") ? leading(pattern) : "", end: trailing(pattern) });
  }
  return bounds;
}

/** The literal text a pattern starts with; short of a last `/` before glob syntax (`a/**` also matches `a`). */
function leading(pattern: string): string {
  let n = 0;
  while (n < pattern.length && isLiteral(pattern.charCodeAt(n))) n++;
  if (n === pattern.length) return pattern;
  return pattern.endsWith("/", n) ? pattern.slice(0, n - 1) : pattern.slice(0, n);
}

/** The literal text a pattern ends with, within its last segment (`**\/x.md` also matches `x.md`). */
function trailing(pattern: string): string {
  let n = pattern.length;
  while (n > 0 && isLiteral(pattern.charCodeAt(n - 1))) n--;
  const run = pattern.slice(n);
  return run.slice(run.lastIndexOf("/") + 1);
}

function isLiteral(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x5f ||
    code === 0x2d ||
    code === 0x2e ||
    code === 0x2f
  );
}
