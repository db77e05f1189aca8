import type { Config } from "../config.js";
import type { ImportSyntax } from "../parse/imports.js";
import type { RelevanceDoc } from "../prompt/relevance.js";
import type { LinearEngine } from "../linear-regexp.js";
import type { RunMemo } from "../run-memo.js";
import type { GateOptions } from "../text-gate.js";
import type { CountTokens } from "../tokens.js";
import type { Candidate, Priority, SourceFile, SourceName, Status, Warning } from "../types.js";

/**
 * A source module: one kind of instruction (Cursor rules, AGENTS.md, a keyword mode…). It turns what it is given
 * into drafts — candidates with a first decision and a sort key — and knows nothing of the phases after.
 */
export interface SourceModule {
  /** The module's own name: `sources.<name>` in the config turns it off or changes its priority. */
  name: string;
  /** The contract name written on its candidates (DESIGN.md "Sources"); several modules may share one. */
  source: SourceName;
  /** Which files it reads; absent for sources that are not files (keywords, custom entries). */
  files?: (options: LocateOptions) => FileSpec;
  draft(ctx: DraftContext, located: Located[]): Draft[];
}

/** Where a file module's files are, relative to every folder on a target's path (and anywhere, for --all). */
export interface FileSpec {
  /** Folders read whole, e.g. `.cursor/rules`; `accepts` says which files in them count. */
  folders: string[];
  /** Single files, e.g. `AGENTS.md` or `.github/copilot-instructions.md`. */
  names: string[];
  /** For files under `folders`: the path below the folder (`sub/x.mdc`). Default: every file. */
  accepts?: (inFolder: string) => boolean;
}

export interface LocateOptions {
  /** Agent file names, e.g. ["AGENTS.md", "CLAUDE.md"]. */
  agentFiles: string[];
  /** Extra rules folders from the config, relative to any directory (like `.cursor/rules`). */
  ruleDirs: string[];
  /** Extra skills folders from the config (like `.claude/skills`). */
  skillDirs?: string[];
  /** The agent mode in use (Roo Code's `.roo/rules-{mode}`), from `--mode` or the config. */
  mode?: string;
}

/** A file a module claimed: `anchor` is the folder holding the module's folder or name (the file's scope). */
export interface Located {
  file: SourceFile;
  module: SourceModule;
  anchor: string;
  /** The folder or name of the spec that matched, e.g. `.cursor/rules` or `AGENTS.override.md`. */
  matched: string;
}

/**
 * Registration order, general before specific (DESIGN.md "Register, dedup, order"). The order phase compares
 * the contract source's place, then the folder's depth and name, then the module's place in SOURCE_MODULES,
 * then `rank`, then `path`.
 */
interface SortKey {
  /** The folder the text belongs to ("" for the root and for text that is not a file). */
  folder: string;
  /** Order among one module's drafts in one folder (AGENTS.md before AGENTS.override.md, custom entries by index). */
  rank: number;
  path: string;
}

export interface Draft {
  candidate: Candidate;
  key: SortKey;
  /** A description-only rule's text as the relevance scorer reads it. */
  relevance?: RelevanceDoc;
}

/** Everything a module may decide from: plain values, no file system. */
export interface DraftContext {
  config: Config;
  /** Root-relative targets, sorted and unique, and their folders. */
  targets: string[];
  targetDirs: string[];
  /** Every located path (an override file replaces its sibling only when it is there). */
  present: Set<string>;
  all: boolean;
  prompt: string | undefined;
  /** Manual rules asked for by name (`--rule`) and `@name` mentions in the prompt. */
  requested: Set<string>;
  mentioned: Set<string>;
  /** A module records here which requested names it found (the rest are warned about). */
  requestedFound: Set<string>;
  custom: CustomInput[];
  /** Every file handed in by path, located or not: what `@imports` may name. */
  files: ReadonlyMap<string, SourceFile>;
  mode?: string;
  /** --all: the folders holding a package manifest (package.json, Cargo.toml…); absent means every folder counts. */
  packageRoots?: ReadonlySet<string>;
  countTokens: CountTokens;
  /** The linear-time engine for repository-supplied patterns (SelectInput.linear). */
  linear?: LinearEngine;
  /** The run's memo (SelectInput.memo): frontmatter readings and compiled globs, each worked out once. */
  memo: RunMemo;
  /** The config file, for warnings about its keys. */
  configFile?: string;
  warn(warning: Warning): void;
  /** Credentials replaced (unless config says otherwise), each with a warning naming `where`. */
  redact(text: string, where: string): string;
  /** The gate's switches from the user's config, which `redact` applies: frontmatter applies them to what its escapes spell. */
  gate: GateOptions;
}

export interface CustomInput {
  id: string;
  content: string;
  priority?: Priority;
  /** Root-relative file the content was read from, if any. */
  path?: string | null;
  source?: string;
  /** `session` for entries registered into a session; `custom` otherwise. */
  kind?: "custom" | "session";
  /** Why it is included (explain). */
  reason?: string;
}

/** Agent files (AGENTS.md, CLAUDE.md, GEMINI.md…) have their `@imports` expanded; in a README `@` is just text. */
export const expandsImports = (module: SourceModule | undefined): boolean => module?.source === "directory-agents";

/** How a module's files bring other files in: `@path` for agent files, `#[[file:path]]` for Kiro's steering; null: they do not. */
export const importSyntaxOf = (module: SourceModule | undefined): ImportSyntax | null =>
  expandsImports(module) ? "at" : module?.name === "kiro" ? "kiro-file" : null;

const DEFAULT_PRIORITY: Record<SourceName, Priority> = {
  "keyword-detector": "high",
  "rules-injector": "normal",
  "directory-agents": "normal",
  "directory-readme": "low",
  skills: "normal",
  custom: "normal",
};

type CandidateFields = Pick<Candidate, "source" | "id" | "priority" | "kind" | "path" | "content"> &
  Partial<Pick<Candidate, "description" | "globs">> & { countTokens: CountTokens };

// Field by field, one shape for every candidate: a spread of varied inputs goes through V8's slow path each time.
export function makeCandidate(fields: CandidateFields): Candidate {
  return {
    source: fields.source,
    id: fields.id,
    priority: fields.priority,
    kind: fields.kind,
    path: fields.path,
    content: fields.content,
    description: fields.description ?? null,
    globs: fields.globs ?? [],
    tokens: fields.countTokens(fields.content),
    status: "included",
    reason: "",
    truncated: false,
  };
}

export function setStatus(candidate: Candidate, status: Status, reason: string): void {
  candidate.status = status;
  candidate.reason = reason;
}

/** The priority a module's candidates get unless their file says otherwise: module setting, source setting, default. */
export function modulePriority(config: Config, module: Pick<SourceModule, "name" | "source">): Priority {
  const settings = config.sources as Record<string, { priority?: Priority } | undefined>;
  return settings[module.name]?.priority ?? settings[module.source]?.priority ?? DEFAULT_PRIORITY[module.source];
}
