import type { KeywordSettings } from "../config.js";
import type { Priority } from "../types.js";
import { proseOf } from "./prose.js";

export interface KeywordMode {
  name: string;
  patterns: RegExp[];
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

/**
 * Built-in modes merged with the config's `keywords` (which may change, disable or add modes). An opt-in built-in
 * mode (search, analyze) is there only when the config names it (`search: {}` turns it on).
 */
export function keywordModes(config: Record<string, KeywordSettings>): KeywordMode[] {
  const names = [...new Set([...Object.keys(BUILTIN_MODES), ...Object.keys(config)])];
  return names.flatMap((name) => {
    const builtin = BUILTIN_MODES[name];
    if (builtin?.optIn && config[name] === undefined) return [];
    const settings = config[name] ?? {};
    const content = settings.content ?? builtin?.content;
    const patterns = settings.pattern !== undefined ? [new RegExp(settings.pattern, "i")] : builtin?.patterns;
    if (content === undefined || patterns === undefined) return [];
    const hint = settings.pattern === undefined ? builtin?.hint : undefined;
    return [{ name, patterns, ...(hint && { hint }), content, priority: settings.priority ?? builtin?.priority ?? "high", enabled: settings.enabled !== false }];
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
