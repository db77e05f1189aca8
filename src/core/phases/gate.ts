import { cutAtOrBefore } from "../budget/boundaries.js";
import type { Config } from "../config.js";
import type { GlobMatcher } from "../parse/globs.js";
import { setStatus } from "../sources/source.js";
import type { CountTokens } from "../tokens.js";
import type { Candidate, Warning } from "../types.js";
import type { Drafted } from "./drafted.js";
import type { LoadedContext } from "../agents/profile.js";

/** One entry's ceiling before any budget: a multi-megabyte README must not crowd out everything else. */
export const MAX_ENTRY_CHARS = 100_000;

/** A reason to leave a candidate out because the agent has it already (an agent profile's `loadsItself`). */
export type Exclude = (candidate: Candidate, context: LoadedContext) => string | null;

interface GateInput {
  config: Config;
  /** Config `ignore` globs, compiled; they apply to instruction files. */
  ignored: GlobMatcher | null;
  countTokens: CountTokens;
  exclude?: Exclude | undefined;
  /** The tree around the candidates, for what an agent's loader decides (see LoadedContext). */
  loaded: LoadedContext;
  alreadyInjected?: ((candidate: Candidate) => boolean) | undefined;
  /** Of a text alreadyInjected holds: how many of its characters the session was given, when the budget cut it. */
  givenCut?: ((candidate: Candidate) => number | undefined) | undefined;
  warn(warning: Warning): void;
}

/**
 * The checks every candidate passes whatever its source, in this order: size cap, config `ignore`, a disabled
 * module or source, empty text, what the agent loads itself, what the session already injected. Returns what
 * the agent already has: it still counts for deduplication (a copy of it elsewhere is a duplicate, not news).
 */
export function gatePhase(drafts: Drafted[], input: GateInput): Candidate[] {
  const known: Candidate[] = [];
  const settings = input.config.sources as Record<string, { enabled?: boolean } | undefined>;
  for (const { candidate, module } of drafts) {
    if (candidate.content.length > MAX_ENTRY_CHARS) {
      capEntry(candidate, input.countTokens);
      input.warn({
        ...(candidate.path && { file: candidate.path }),
        message: `larger than ${MAX_ENTRY_CHARS} characters; capped (read the file for the rest)`,
      });
    }
    // A skill the agent lists itself is not named again in the index either (its own list already has it).
    if (candidate.status === "below-threshold" && input.exclude) {
      const excluded = input.exclude(candidate, input.loaded);
      if (excluded !== null) setStatus(candidate, "disabled", excluded);
    }
    if (candidate.status !== "included") continue;
    const ignoreHit = module.files && candidate.path !== null ? input.ignored?.(candidate.path) : null;
    if (ignoreHit) {
      setStatus(candidate, "disabled", `matches ignore: ${ignoreHit}`);
      continue;
    }
    const off = [module.name, candidate.source].find((name) => settings[name]?.enabled === false);
    if (off !== undefined) {
      setStatus(candidate, "disabled", `source ${off} is disabled in the config`);
      continue;
    }
    if (candidate.content === "") {
      setStatus(candidate, "invalid", "empty file");
      input.warn({ ...(candidate.path !== null && { file: candidate.path }), message: "empty: nothing to inject" });
      continue;
    }
    const excluded = input.exclude?.(candidate, input.loaded) ?? null;
    if (excluded !== null) {
      setStatus(candidate, "disabled", excluded);
      known.push(candidate);
    } else if (candidate.source !== "keyword-detector" && input.alreadyInjected?.(candidate)) {
      setStatus(candidate, "already-injected", "injected earlier in this session and unchanged since");
      const sent = input.givenCut?.(candidate);
      if (sent !== undefined) candidate.sentChars = sent;
      known.push(candidate);
    }
  }
  return known;
}

function capEntry(candidate: Candidate, countTokens: CountTokens): void {
  const text = candidate.content;
  let at = cutAtOrBefore(text, MAX_ENTRY_CHARS) ?? text.lastIndexOf("\n", MAX_ENTRY_CHARS);
  if (at <= 0) at = MAX_ENTRY_CHARS - (/[\uD800-\uDBFF]/.test(text[MAX_ENTRY_CHARS - 1] ?? "") ? 1 : 0);
  const where = candidate.path ? `: read ${candidate.path} for the rest` : "";
  candidate.content = `${text.slice(0, at).trimEnd()}\n\n[… capped at ${MAX_ENTRY_CHARS} characters${where}]`;
  candidate.tokens = countTokens(candidate.content);
  candidate.truncated = true;
  // explain shows the cap whatever the candidate's status says next.
  candidate.reason = `${candidate.reason}; capped at ${MAX_ENTRY_CHARS} characters${where}`;
}
