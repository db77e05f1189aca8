import type { KeywordSettings } from "../config.js";
import type { LinearEngine } from "../linear-regexp.js";
import type { Priority } from "../types.js";
import { proseOf } from "./prose.js";

export interface KeywordMode {
  name: string;
  /** A RegExp, or a configured pattern compiled for linear time (core/linear-regexp.ts). */
  patterns: Array<{ exec(text: string): { 0: string } | null }>;
  /**
   * A cheap test every pattern needs to pass: words in lower case, one of which each match contains. A prompt with
   * none of them skips the patterns: compiling them costs ~1 ms each on first use, on every hook call (and plain
   * words, not a regexp, cost no compile of their own).
   */
  hint?: string[];
  content: string;
  priority: Priority;
  enabled: boolean;
}

export interface KeywordHit {
  mode: KeywordMode;
  /** The words of the prompt that triggered it, or null when nothing did. */
  match: string | null;
}

// Word edges that also refuse `-`, `/` and `.`+word, so `ulw-plan`, `ulwx`, `src/ulw` and `ulw.ts` stay quiet.
const EDGE_BEFORE = "(?<![\\w./-])";
const EDGE_AFTER = "(?![\\w/-]|\\.\\w)";
const explicit = (word: string) => [
  new RegExp(`${EDGE_BEFORE}${word}[- ]mode${EDGE_AFTER}`, "i"),
  new RegExp(`(?:^|\\n)\\s*(?:\\[${word}\\]|/${word}${EDGE_AFTER}|${word}\\s*:)`, "i"),
];

/**
 * The built-in modes. Search and analyze fire on the word used as an instruction to the agent ("search the
 * codebase", "find all usages", "analyze why"), not on the word as the name of a feature ("the search box",
 * "the analyzer", "findings"): a mode that fires on every prompt mentioning search is noise.
 */
export const BUILTIN_MODES: Readonly<Record<string, Omit<KeywordMode, "name" | "enabled"> & { optIn?: true }>> = {
  ultrawork: {
    priority: "critical",
    hint: ["ultrawork", "ulw"],
    patterns: [new RegExp(`${EDGE_BEFORE}(?:ultrawork|ulw)${EDGE_AFTER}`, "i")],
    content:
      "ULTRAWORK MODE. Finish the whole task before you stop: write the plan as a checklist, work through every item, " +
      "run the tests and the build after each change and fix what fails, then report what you verified and how. " +
      "Do not hand back partial work, and do not ask for confirmation of routine steps.",
  },
  // Opt-in (a `keywords.search` entry in the config): "search" and "analyze" are words every prompt may use, and
  // a mode's text is not the repository's; only ultrawork/ulw say nothing else.
  search: {
    optIn: true,
    priority: "high",
    hint: ["search", "grep", "look", "find", "where"],
    patterns: [
      ...explicit("search"),
      /\b(?:search|grep|look)\s+(?:(?:through|across|in|over)\s+)?(?:the\s+|this\s+|our\s+|my\s+)?(?:whole\s+|entire\s+)?(?:code\s?base|repo(?:sitory)?|project|monorepo|workspace|source(?:\s+tree)?)\b/i,
      /\bfind\s+(?:all|every|each)\s+(?:the\s+)?(?:usages?|uses|references|occurrences|callers|call\s+sites|instances|implementations|definitions|places)\b/i,
      /\bwhere\s+(?:is|are)\s+\S+\s+(?:used|defined|called|implemented|declared|initiali[sz]ed)\b/i,
    ],
    content:
      "SEARCH MODE. Search before you answer: look through the whole repository — file names, symbols, strings, tests " +
      "and configuration — with several different queries, follow the references you find, and report every relevant " +
      "place as path:line. Say plainly when a search found nothing.",
  },
  analyze: {
    optIn: true,
    priority: "high",
    hint: ["analys", "analyz", "investigat"],
    patterns: [
      ...explicit("analy[sz]e"),
      /\banaly[sz]e\s+(?:the|this|these|that|our|my|why|how|whether|what|where)\b/i,
      /\b(?:deep|thorough|careful|detailed|in-depth|root[- ]cause)\s+analysis\b/i,
      /\binvestigate\s+(?:the|this|these|that|why|how|whether|what|where)\b/i,
    ],
    content:
      "ANALYZE MODE. Investigate before you change anything: gather the facts (code paths, logs, data, recent changes), " +
      "state your hypotheses and test each one against the evidence, and report the root cause with the evidence for it. " +
      "Propose a fix only once the cause is established.",
  },
};

/** How configured patterns are compiled, and where a pattern that cannot run is reported. */
export interface KeywordPatternOptions {
  /** The linear-time engine (io/linear-regexp.ts); without it a pattern that needs one never fires. */
  linear?: LinearEngine;
  /** Called with the mode's name and why its pattern is not run (the mode then never fires). */
  refused?: (mode: string, reason: string) => void;
}

/**
 * Built-in modes merged with the config's `keywords` (which may change, disable or add modes). An opt-in built-in
 * mode (search, analyze) is there only when the config names it (`search: {}` turns it on).
 */
export function keywordModes(config: Record<string, KeywordSettings>, options: KeywordPatternOptions = {}): KeywordMode[] {
  const names = [...new Set([...Object.keys(BUILTIN_MODES), ...Object.keys(config)])];
  return names.flatMap((name) => {
    const builtin = BUILTIN_MODES[name];
    if (builtin?.optIn && config[name] === undefined) return [];
    const settings = config[name] ?? {};
    const content = settings.content ?? builtin?.content;
    const patterns = settings.pattern !== undefined ? configuredPattern(name, settings.pattern, options) : builtin?.patterns;
    if (content === undefined || patterns === undefined) return [];
    const hint = settings.pattern === undefined ? builtin?.hint : undefined;
    return [
      { name, patterns, ...(hint && { hint }), content, priority: settings.priority ?? builtin?.priority ?? "high", enabled: settings.enabled !== false },
    ];
  });
}

export function detectKeywords(prompt: string, modes: KeywordMode[]): KeywordHit[] {
  const prose = proseOf(prompt);
  const lower = prose.toLowerCase();
  return modes.map((mode) => {
    if (mode.hint && !mode.hint.some((word) => lower.includes(word))) return { mode, match: null };
    for (const pattern of mode.patterns) {
      const m = pattern.exec(prose);
      if (m) return { mode, match: m[0].trim() };
    }
    return { mode, match: null };
  });
}

/**
 * A configured pattern as a matcher. The config is the repository's, so its pattern may be built to backtrack for
 * minutes (`^(\w+\s?)*$` took 20 s on a 53-character prompt) and nothing stops a running regexp: it runs on the
 * linear-time engine. One that cannot backtrack far (`\b(?:deploy|release)\b`, the usual kind) stays a native
 * RegExp, so that it loads nothing. A pattern the engine refuses never matches.
 */
function configuredPattern(name: string, pattern: string, options: KeywordPatternOptions): KeywordMode["patterns"] {
  if (backtracksLittle(pattern)) return [new RegExp(pattern, "i")];
  if (options.linear === undefined) {
    options.refused?.(name, "it needs a linear-time engine and none was given to run it");
    return [];
  }
  try {
    return [options.linear(pattern, { ignoreCase: true })];
  } catch (error) {
    options.refused?.(name, (error as Error).message);
    return [];
  }
}

/** Most ways a native match may try at one place in the text (a list of 256 alternative words is one group). */
const MAX_NATIVE_WAYS = 256;

/**
 * Whether a JavaScript regexp source cannot make a backtracking engine work long: it repeats nothing (no `*`, `+`,
 * `{n…}`, and no `?` but a group's `(?`), and its alternations multiply to few ways (`(a|a)(a|a)…` thirty times is
 * 2^30 without a single quantifier). Escapes and classes are skipped (`\*`, `[*+|]` are characters).
 * Erring towards false only costs a linear match.
 */
export function backtracksLittle(source: string): boolean {
  let inClass = false;
  let groupOpen = false;
  let ways = 1;
  const alternatives = [1];
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    const opened = groupOpen;
    groupOpen = false;
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "*" || c === "+" || (c === "?" && !opened)) return false;
    else if (c === "{" && (source[i + 1] ?? "") >= "0" && (source[i + 1] ?? "") <= "9") return false;
    else if (c === "(") {
      groupOpen = true;
      alternatives.push(1);
    } else if (c === "|") alternatives[alternatives.length - 1]!++;
    else if (c === ")" && alternatives.length > 1) ways *= alternatives.pop()!;
    if (ways > MAX_NATIVE_WAYS) return false;
  }
  for (const n of alternatives) ways *= n;
  return ways <= MAX_NATIVE_WAYS;
}
