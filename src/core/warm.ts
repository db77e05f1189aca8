import type { Stem } from "./prompt/words.js";

/**
 * What earlier runs in the same project worked out that a run can reuse: each glob's regular expression as picomatch
 * compiled it, and each word's stem. Both are pure functions of their key (for one picomatch and one stemmer: the
 * io edge keys the saved data by their versions), so a hit answers exactly as the work it saves. Most of a hook's
 * time after Node's start is code running for the first time; a hit skips that code, not just its result.
 * No file system here: io/warm-cache.ts loads and saves.
 */
export interface WarmData {
  /** Glob (with the options it was compiled under, see warmKey) → [regexp source, flags]. */
  globs: Record<string, [string, string]>;
  stems: Record<string, string>;
  /** A frontmatter block's text → its fields and warnings (core/parse/frontmatter.ts). */
  frontmatter?: Record<string, BlockReading>;
}

/** What a frontmatter block says: its fields, and what was wrong in it (file lines). */
export interface BlockReading {
  data: Record<string, unknown>;
  warnings: Array<{ line?: number; message: string }>;
}

// Bounds, so a long-lived process (mcp, --watch) or a huge tree cannot grow this without limit.
const MAX_GLOBS = 20_000;
const MAX_STEMS = 100_000;
const MAX_BLOCKS = 20_000;
/** Longer blocks are read each time: they are rare, and the saved file stays small. */
const MAX_BLOCK_CHARS = 4_000;

const globs = new Map<string, [string, string]>();
const stems = new Map<string, string>();
const blocks = new Map<string, BlockReading>();
let changed = false;

/** Adds saved data (an earlier run's) to what this process knows. */
export function primeWarm(data: WarmData): void {
  // Saved data is checked entry by entry: a damaged entry is no cache, not a wrong answer.
  for (const [key, value] of Object.entries(data.globs)) {
    if (globs.size < MAX_GLOBS && Array.isArray(value) && typeof value[0] === "string" && typeof value[1] === "string") globs.set(key, [value[0], value[1]]);
  }
  for (const [word, stem] of Object.entries(data.stems)) if (stems.size < MAX_STEMS && typeof stem === "string") stems.set(word, stem);
  for (const [raw, reading] of Object.entries(data.frontmatter ?? {})) if (blocks.size < MAX_BLOCKS && isReading(reading)) blocks.set(raw, reading);
}

/** A frontmatter block read by an earlier run, or read now (and remembered when its fields are plain JSON). */
export function warmFrontmatter(raw: string, read: () => BlockReading): BlockReading {
  const known = blocks.get(raw);
  if (known !== undefined) return known;
  const reading = read();
  if (raw.length <= MAX_BLOCK_CHARS && blocks.size < MAX_BLOCKS && isJson(reading.data)) {
    blocks.set(raw, reading);
    changed = true;
  }
  return reading;
}

const isReading = (value: unknown): value is BlockReading => {
  const r = value as BlockReading | null;
  return r !== null && typeof r === "object" && isJson(r.data) && r.data !== null && !Array.isArray(r.data) && Array.isArray(r.warnings) && r.warnings.every((w) => typeof w?.message === "string" && (w.line === undefined || typeof w.line === "number"));
};

/** Values that come back from JSON as they went in (YAML may give dates and other objects: those are not kept). */
function isJson(value: unknown): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJson);
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) return Object.values(value as object).every(isJson);
  return false;
}

/** A glob's regexp from an earlier run, or one compiled now (and remembered). */
export function warmRegExp(key: string, compile: () => RegExp): RegExp {
  const known = globs.get(key);
  if (known !== undefined) {
    try {
      return new RegExp(known[0], known[1]);
    } catch {
      globs.delete(key);
    }
  }
  const regex = compile();
  if (globs.size < MAX_GLOBS) {
    globs.set(key, [regex.source, regex.flags]);
    changed = true;
  }
  return regex;
}

/** The stemmer, answering from earlier runs where it can. */
export function warmStem(stem: Stem): Stem {
  return (word) => {
    let known = stems.get(word);
    if (known === undefined) {
      known = stem(word);
      if (stems.size < MAX_STEMS) {
        stems.set(word, known);
        changed = true;
      }
    }
    return known;
  };
}

/** Everything known, when this run added something worth saving; null otherwise. Resets the mark. */
export function takeWarmChanges(): WarmData | null {
  if (!changed) return null;
  changed = false;
  return { globs: Object.fromEntries(globs), stems: Object.fromEntries(stems), frontmatter: Object.fromEntries(blocks) };
}
