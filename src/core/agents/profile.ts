import type { Candidate } from "../types.js";

/** What an agent's own loader already gives it, judged for one candidate with the tree around it. */
export interface LoadedContext {
  /** Every located instruction file of the tree (root-relative). */
  present: ReadonlySet<string>;
  /** The folder the agent runs in, root-relative ("" for the root). */
  workingFolder: string;
  /** Files the agent's own read tool has just read (root-relative): some agents add their folders' files to the result. */
  reads: readonly string[];
  /**
   * At prompt time, the existing files the user's prompt names (root-relative; folders left out): the agent is about
   * to read them, and an agent whose read tool adds a file's folder memory to the result will have it then.
   */
  mentioned?: readonly string[];
  /** The size in bytes of a located file (UTF-8), for agents that load within a byte budget. */
  bytesOf(path: string): number;
}

/**
 * An agent that reads instructions by itself, described once: the hooks skip what it loads, `explain --as`
 * shows it. `loadsItself` returns why the agent already has a candidate, or null.
 */
export interface AgentProfile {
  name: string;
  /**
   * The agent it is one surface of, where that is another profile's name (copilot-cli is Copilot, cursor-agent is
   * Cursor): doctor names the agent, once, whichever of its surfaces reads the file.
   */
  agent?: string;
  /** The version whose behaviour this profile was written from, and how it was established. */
  version: string;
  basis: string;
  loadsItself(candidate: Candidate, context: LoadedContext): string | null;
  /** Why the agent leaves out a file of its own kind (for `explain --as`), where it says so itself. */
  skips?(candidate: Candidate): string | null;
  /** The host's cap on injected text, in characters, where it has one. */
  maxChars?: number;
  /** Whether it expands the `@imports` of the files it loads (so it reads the imported files too). */
  expandsImports?: true;
}

/**
 * The agent's own settings that change what it loads, read from its config files at the edge (io/agent-settings):
 * a profile made with them describes the agent as this user set it up, not only its defaults.
 */
export interface AgentSettings {
  /** Gemini CLI `context.fileName`: the context file names it loads instead of GEMINI.md. */
  contextFileNames?: readonly string[];
  /** Codex `project_doc_fallback_filenames`: names tried after AGENTS.override.md and AGENTS.md in each folder. */
  fallbackFileNames?: readonly string[];
  /** Codex `project_doc_max_bytes`: the budget of its AGENTS.md chain. */
  maxBytes?: number;
  /** opencode `instructions`: files and globs (root-relative) it loads at start. */
  instructions?: readonly string[];
  /** The config file each setting came from, for the reasons `explain --as` gives. */
  from?: string;
}

/**
 * Whether the agent has a file through any of the paths that reach it: `.agents/skills/x/SKILL.md` drafted once is
 * also `.claude/skills/x/SKILL.md` when `.claude` links to `.agents`, and Claude Code loads it by that name.
 */
/**
 * Whether a glob rule's globs matched a file of this run: an agent that applies such rules by their globs loads it
 * only then (not when no target matched, nor when it was weighed by its description instead).
 */
export function matchedByGlobs(candidate: Candidate): boolean {
  return candidate.status !== "unmatched" && candidate.byDescription !== true;
}

export function loadsThroughAnyPath(loadsItself: AgentProfile["loadsItself"], candidate: Candidate, context: LoadedContext): string | null {
  const own = loadsItself(candidate, context);
  if (own !== null || candidate.aliases === undefined) return own;
  for (const alias of candidate.aliases) {
    const reason = loadsItself({ ...candidate, path: alias }, context);
    if (reason !== null) return `${reason} (as ${alias}, the same file)`;
  }
  return null;
}
