import picomatch from "picomatch";
import type { LinearEngine, LinearRegExp } from "../linear-regexp.js";
import { memoSlot, type RunMemo } from "../run-memo.js";
import { globProblem, globShape, isSimpleGlob } from "./glob-limits.js";
import { splitTopLevel } from "./split.js";

interface GlobList {
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

/** What compileGlobs needs for globs a repository supplies (core/parse/glob-limits.ts). */
interface GlobOptions {
  /** Runs the globs too rich for a backtracking regexp; without it they match nothing. */
  linear?: LinearEngine;
  /** Told of each glob that matches nothing because it was refused (as written, with the reason). */
  refused?: (pattern: string, reason: string) => void;
  /** The run's memo: each pattern compiled once a run, from an earlier run's regexp where there is one; without it, every time. */
  memo?: RunMemo;
}

/**
 * Compiles patterns anchored at `base` (the folder that holds the rules folder; "" for the root).
 * A pattern with no `/` matches the basename at any depth below base; `!pattern` excludes.
 * Returns the first positive pattern that matched, for the explain trace.
 */
export function compileGlobs(patterns: string[], base: string, options: GlobOptions = {}): GlobMatcher {
  const include: Array<{ pattern: string; test: (p: string) => boolean }> = [];
  const exclude: Array<(p: string) => boolean> = [];
  for (const original of patterns) {
    const negated = original.startsWith("!");
    const pattern = normalizePattern(negated ? original.slice(1) : original);
    if (pattern === "") continue;
    const test = compiled(pattern, options, original);
    if (negated) exclude.push(test);
    else include.push({ pattern: original, test });
  }
  const prefix = base === "" ? "" : `${base}/`;
  // Loops, not find/some with a closure: a matcher runs once per file of a 100k-file tree (coverage's rule counts).
  return (path) => {
    if (!path.startsWith(prefix)) return null;
    const relative = prefix === "" ? path : path.slice(prefix.length);
    let hit: string | null = null;
    for (let i = 0; i < include.length && hit === null; i++) if (include[i]!.test(relative)) hit = include[i]!.pattern;
    if (hit === null) return null;
    for (let i = 0; i < exclude.length; i++) if (exclude[i]!(relative)) return null;
    return hit;
  };
}

// Many rules share patterns (every package's `src/**/*.ts`); compiling one is the costly part of matching.
const COMPILED = memoSlot(() => new Map<string, (path: string) => boolean>());

function compiled(pattern: string, options: GlobOptions, original: string): (path: string) => boolean {
  const cache = options.memo?.get(COMPILED);
  let test = cache?.get(pattern);
  if (test) return test;
  const shape = globShape(pattern);
  const problem = globProblem(shape);
  if (problem !== null) {
    options.refused?.(original, problem);
    return never;
  }
  const picoOptions = { dot: true, basename: !pattern.includes("/") };
  if (isSimpleGlob(shape)) {
    // What picomatch(pattern, options) returns, made from the regexp an earlier run compiled where there is one.
    const makeRe = () => picomatch.makeRe(pattern, picoOptions);
    const regex = options.memo ? options.memo.warm.regExp(`${picoOptions.basename ? "b" : "p"}:${pattern}`, makeRe) : makeRe();
    test = (path) => picomatch.test(path, regex, picoOptions, { glob: pattern }).isMatch;
  } else {
    if (options.linear === undefined) {
      options.refused?.(original, "it needs a linear-time engine and none was given to run it");
      return never;
    }
    let linear: LinearRegExp;
    try {
      linear = options.linear(withoutDotGuards(picomatch.makeRe(pattern, picoOptions).source), { ignoreCase: false });
    } catch (error) {
      options.refused?.(original, (error as Error).message);
      return never;
    }
    const basename = picoOptions.basename;
    test = (path) => path === pattern || (isPlainPath(path) && linear.test(basename ? path.slice(path.lastIndexOf("/") + 1) : path));
  }
  cache?.set(pattern, test);
  return test;
}

const never = (): boolean => false;

/**
 * picomatch's regexp without its lookaheads, which a linear-time engine cannot run. With `dot: true` they only
 * refuse empty, `.` and `..` segments and an empty path, which a root-relative file path never has (isPlainPath
 * holds the linear test to such paths). A lookahead left over (a `!(…)` extglob) makes the engine refuse the glob.
 */
function withoutDotGuards(source: string): string {
  let out = source;
  for (const guard of DOT_GUARDS) out = out.replaceAll(guard, "");
  return out;
}

// picomatch 4's constants ONE_CHAR, NO_DOTS, NO_DOT_SLASH, NO_DOTS_SLASH and the globstar's per-character guard.
const DOT_GUARDS = ["(?!(?:^|\\/)\\.{1,2}(?:\\/|$))", "(?!\\.{0,1}(?:\\/|$))", "(?!\\.{1,2}(?:\\/|$))", "(?=.)"];

/** A path with no empty, `.` or `..` segment (what targets are): where withoutDotGuards's regexp means picomatch's. */
function isPlainPath(path: string): boolean {
  if (path === "" || path.startsWith("/") || path.endsWith("/") || path.includes("//")) return false;
  return !path.split("/").some((segment) => segment === "." || segment === "..");
}

/** A pattern as compileGlobs matches it: trimmed, `\\` as `/`, no leading `./` or `/`, a trailing `/` meaning everything below. */
export function normalizePattern(pattern: string): string {
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
