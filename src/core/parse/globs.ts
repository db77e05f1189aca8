import picomatch from "picomatch";
import { warmRegExp } from "../warm.js";
import { splitTopLevel } from "./split.js";

export interface GlobList {
  patterns: string[];
  /** Set when the field had a type no agent understands (a number, a map…). */
  problem?: string;
}

/** `globs`, `paths` and `applyTo` as a list of patterns: a string, a comma-separated string, or a list of either. */
export function readGlobList(value: unknown): GlobList {
  if (value === undefined || value === null || value === "") return { patterns: [] };
  if (typeof value === "string") return { patterns: splitTopLevel(value).map(unquote) };
  if (Array.isArray(value)) {
    const patterns: string[] = [];
    for (const item of value) {
      if (item === null || item === undefined) continue;
      if (typeof item !== "string") return { patterns, problem: `expected strings in the list, got ${JSON.stringify(item)}` };
      patterns.push(...splitTopLevel(item).map(unquote));
    }
    return { patterns };
  }
  return { patterns: [], problem: `expected a string or a list of strings, got ${JSON.stringify(value)}` };
}

/** The piece inside one pair of matching quotes on one line, else the piece (string checks: no regexp compile per run). */
function unquote(piece: string): string {
  const quote = piece[0];
  if ((quote !== '"' && quote !== "'") || piece.length < 2 || !piece.endsWith(quote)) return piece;
  return LINE_BREAKS.some((b) => piece.includes(b)) ? piece : piece.slice(1, -1);
}

const LINE_BREAKS = ["\n", "\r", "\u2028", "\u2029"];

export type GlobMatcher = (path: string) => string | null;

/**
 * Compiles patterns anchored at `base` (the folder that holds the rules folder; "" for the root).
 * A pattern with no `/` matches the basename at any depth below base; `!pattern` excludes.
 * Returns the first positive pattern that matched, for the explain trace.
 */
export function compileGlobs(patterns: string[], base: string): GlobMatcher {
  const include: Array<{ pattern: string; test: (p: string) => boolean }> = [];
  const exclude: Array<(p: string) => boolean> = [];
  for (const original of patterns) {
    const negated = original.startsWith("!");
    const pattern = normalizePattern(negated ? original.slice(1) : original);
    if (pattern === "") continue;
    const test = compiled(pattern);
    if (negated) exclude.push(test);
    else include.push({ pattern: original, test });
  }
  const prefix = base === "" ? "" : `${base}/`;
  return (path) => {
    if (!path.startsWith(prefix)) return null;
    const relative = path.slice(prefix.length);
    const hit = include.find((g) => g.test(relative));
    if (!hit || exclude.some((test) => test(relative))) return null;
    return hit.pattern;
  };
}

// Many rules share patterns (every package's `src/**/*.ts`); compiling one is the costly part of matching.
const cache = new Map<string, (path: string) => boolean>();
/** Kept for the process's life; a hook server's life can span many projects, so it is emptied when this large. */
const MAX_CACHED = 20_000;
function compiled(pattern: string): (path: string) => boolean {
  let test = cache.get(pattern);
  if (!test) {
    if (cache.size >= MAX_CACHED) cache.clear();
    const options = { dot: true, basename: !pattern.includes("/") };
    // What picomatch(pattern, options) returns, made from the regexp an earlier run compiled where there is one.
    const regex = warmRegExp(`${options.basename ? "b" : "p"}:${pattern}`, () => picomatch.makeRe(pattern, options));
    test = (path) => picomatch.test(path, regex, options, { glob: pattern }).isMatch;
    cache.set(pattern, test);
  }
  return test;
}

function normalizePattern(pattern: string): string {
  let p = pattern.trim().replaceAll("\\", "/");
  while (p.startsWith("./")) p = p.slice(2);
  while (p.startsWith("/")) p = p.slice(1);
  if (p.endsWith("/")) p += "**";
  return p;
}

/** Patterns that match every file (`**`, `**\/*`, `*`): such a rule applies with or without targets. */
export function matchesEverything(patterns: string[]): boolean {
  const positive = patterns.filter((p) => !p.startsWith("!")).map(normalizePattern);
  return positive.length > 0 && patterns.every((p) => !p.startsWith("!")) && positive.every((p) => p === "**" || p === "**/*" || p === "*");
}
