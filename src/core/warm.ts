import type { Stem } from "./prompt/words.js";
import type { Warning } from "./types.js";

/**
 * What earlier runs in the same project worked out that a run can reuse: each glob's regular expression as picomatch
 * compiled it, each word's stem, each frontmatter block's reading, and the ignore files' answer for each path. Each is
 * a pure function of its key (for one picomatch and one stemmer: the io edge keys the saved data by their versions;
 * the ignore answers by a fingerprint of the ignore files), so a hit answers exactly as the work it saves. Most of a hook's
 * time after Node's start is code running for the first time; a hit skips that code, not just its result.
 * No file system and no state here: io/warm-cache.ts loads and saves, and each run holds its own (core/run-memo.ts).
 */
export interface WarmData {
  /** Glob (with the options it was compiled under, see warmKey) → [regexp source, flags]. */
  globs: Record<string, [string, string]>;
  stems: Record<string, string>;
  /** A frontmatter block's text → its fields and warnings (core/parse/frontmatter.ts). */
  frontmatter?: Record<string, BlockReading>;
  /** The READING_FORMAT `frontmatter` was saved in. */
  readings?: number;
  /** Fingerprint of a set of ignore files → path → ignored (1) or not (0) (core/gitignore.ts). */
  ignored?: Record<string, Record<string, 0 | 1>>;
  /** A text a session was given → its fingerprint (core/fingerprint.ts). */
  hashes?: Record<string, string>;
}

/** What a frontmatter block says: its fields, and what was wrong in it (file lines). */
export interface BlockReading {
  data: Record<string, unknown>;
  warnings: Array<Omit<Warning, "file">>;
}

/**
 * The shape of a saved reading: readings saved in another (an earlier version's, whose warnings had no kind for
 * doctor) are read again, not reused. Raised when what a block reads as changes.
 */
export const READING_FORMAT = 2;

/**
 * The saved file is read by every run, so it stays small: about this many characters of keys and values in all.
 * Once full, what is known stays and nothing is added until the file is rebuilt (io/warm-cache.ts removes a file
 * not written for a week). A hook touches a handful of rules; a tree's worth would cost more to read than to redo.
 */
export const MAX_WARM_CHARS = 96_000;
/** Longer texts are hashed each time: they would crowd the file every run reads. */
const MAX_HASHED_CHARS = 8_000;
/** Longer blocks are read each time: they are rare. */
const MAX_BLOCK_CHARS = 2_000;
// Sets of ignore files: a changed .gitignore is a new set.
const MAX_IGNORE_SETS = 16;

/** One run's use of what earlier runs saved, and what it adds to it (a run's memo holds one: core/run-memo.ts). */
export interface Warm {
  /** A glob's regexp from an earlier run, or one compiled now (and remembered). */
  regExp(key: string, compile: () => RegExp): RegExp;
  /** The stemmer, answering from earlier runs where it can. */
  stem(stem: Stem): Stem;
  /** A frontmatter block read by an earlier run, or read now (and remembered when its fields are plain JSON). */
  frontmatter(raw: string, read: () => BlockReading): BlockReading;
  /** Whether a path is ignored by the set of ignore files fingerprinted `set`: an earlier run's answer, or `decide`'s. */
  ignored(set: string, path: string, decide: () => boolean): boolean;
  /**
   * A text's fingerprint from an earlier run, or `hash`'s. The texts a hook gives are the same rules prompt after
   * prompt: hashing them in JS tiers the loop up to an optimising compile (a few milliseconds of CPU a call), where
   * a look-up by the text is a native hash and compare.
   */
  hash(text: string, hash: () => string): string;
  /** Everything known (saved entries that are sound, then this run's), when this run added something worth saving; null otherwise. Resets the mark. */
  takeChanges(): WarmData | null;
}

/**
 * What an earlier run saved, as read (`chars`: the length of its text, what it counts against the size limit), or
 * nothing. Its entries are looked up one by one when asked, never copied whole (a hook asks for a few dozen of
 * them; copying and checking all of them cost more than the lookups they saved). What this run adds goes in maps of
 * its own.
 */
export function createWarm(saved?: WarmData, chars = saved === undefined ? 0 : JSON.stringify(saved).length): Warm {
  let size = chars;
  /** Whether `more` characters fit, counting them if so. */
  const fits = (more: number): boolean => (size + more <= MAX_WARM_CHARS ? ((size += more), true) : false);
  const globs = new Map<string, [string, string]>();
  const stems = new Map<string, string>();
  const blocks = new Map<string, BlockReading>();
  const ignoredBy = new Map<string, Map<string, 0 | 1>>();
  const hashes = new Map<string, string>();
  let changed = false;
  const savedBlocks = saved?.readings === READING_FORMAT ? saved.frontmatter : undefined;

  /** Every set of ignore files with answers, saved or this run's. */
  const ignoreSets = (): Set<string> =>
    new Set([...(saved?.ignored !== null && typeof saved?.ignored === "object" ? Object.keys(saved.ignored) : []), ...ignoredBy.keys()]);

  return {
    ignored(set, path, decide) {
      let known = ignoredBy.get(set);
      const answer = known?.get(path) ?? savedEntry(savedEntry(saved?.ignored, set), path);
      if (isDecision(answer)) return answer === 1;
      const ignored = decide();
      if (known === undefined) {
        const sets = ignoreSets();
        if (!sets.has(set) && sets.size >= MAX_IGNORE_SETS) return ignored;
        ignoredBy.set(set, (known = new Map()));
      }
      if (fits(path.length + 4)) {
        known.set(path, ignored ? 1 : 0);
        changed = true;
      }
      return ignored;
    },

    frontmatter(raw, read) {
      const known = blocks.get(raw);
      if (known !== undefined) return known;
      const earlier = savedEntry(savedBlocks, raw);
      if (isReading(earlier)) {
        blocks.set(raw, earlier);
        return earlier;
      }
      const reading = read();
      if (raw.length <= MAX_BLOCK_CHARS && isJson(reading.data) && fits(2 * raw.length)) {
        blocks.set(raw, reading);
        changed = true;
      }
      return reading;
    },

    hash(text, hash) {
      const known = hashes.get(text) ?? savedEntry(saved?.hashes, text);
      if (isHash(known)) return known;
      const answer = hash();
      if (text.length <= MAX_HASHED_CHARS && fits(text.length + answer.length)) {
        hashes.set(text, answer);
        changed = true;
      }
      return answer;
    },

    regExp(key, compile) {
      const earlier = savedEntry(saved?.globs, key);
      const known = globs.get(key) ?? (isGlob(earlier) ? earlier : undefined);
      if (known !== undefined) {
        try {
          return new RegExp(known[0], known[1]);
        } catch {
          // compiled afresh below, and what it compiles replaces the damaged entry
        }
      }
      const regex = compile();
      if (fits(key.length + regex.source.length)) {
        globs.set(key, [regex.source, regex.flags]);
        changed = true;
      }
      return regex;
    },

    stem(stem) {
      return (word) => {
        let known = stems.get(word);
        if (known === undefined) {
          const earlier = savedEntry(saved?.stems, word);
          if (isStem(earlier)) return earlier;
          known = stem(word);
          if (fits(word.length + known.length)) {
            stems.set(word, known);
            changed = true;
          }
        }
        return known;
      };
    },

    takeChanges() {
      if (!changed) return null;
      changed = false;
      const ignored = [...ignoreSets()].map((set) => [
        set,
        Object.fromEntries([...soundEntries(savedEntry(saved?.ignored, set), isDecision), ...(ignoredBy.get(set) ?? [])]),
      ]);
      return {
        globs: Object.fromEntries([...soundEntries(saved?.globs, isGlob), ...globs]),
        stems: Object.fromEntries([...soundEntries(saved?.stems, isStem), ...stems]),
        frontmatter: Object.fromEntries([...soundEntries(savedBlocks, isReading), ...blocks]),
        readings: READING_FORMAT,
        ignored: Object.fromEntries(ignored),
        hashes: Object.fromEntries([...soundEntries(saved?.hashes, isHash), ...hashes]),
      };
    },
  };
}

// Saved data is checked entry by entry as it is asked for: a damaged entry is no cache, not a wrong answer.
const savedEntry = (part: unknown, key: string): unknown =>
  part !== null && typeof part === "object" && Object.hasOwn(part, key) ? (part as Record<string, unknown>)[key] : undefined;
const isGlob = (value: unknown): value is [string, string] =>
  Array.isArray(value) && value.length === 2 && typeof value[0] === "string" && typeof value[1] === "string";
const isStem = (value: unknown): value is string => typeof value === "string";
const isHash = (value: unknown): value is string => typeof value === "string" && /^[0-9a-f]{28}$/.test(value);
const isDecision = (value: unknown): value is 0 | 1 => value === 0 || value === 1;

const isReading = (value: unknown): value is BlockReading => {
  const r = value as BlockReading | null;
  return (
    r !== null &&
    typeof r === "object" &&
    isJson(r.data) &&
    r.data !== null &&
    !Array.isArray(r.data) &&
    Array.isArray(r.warnings) &&
    r.warnings.every(
      (w) => typeof w?.message === "string" && (w.line === undefined || typeof w.line === "number") && (w.kind === undefined || typeof w.kind === "string"),
    )
  );
};

/** Values that come back from JSON as they went in (YAML may give dates and other objects: those are not kept). */
function isJson(value: unknown): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJson);
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) return Object.values(value as object).every(isJson);
  return false;
}

function soundEntries<T>(part: unknown, sound: (value: unknown) => value is T): Array<[string, T]> {
  if (part === null || typeof part !== "object") return [];
  return Object.entries(part).filter((entry): entry is [string, T] => sound(entry[1]));
}
