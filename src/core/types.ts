/** One file an `@import` brought in, with what it brought in itself (core/parse/imports.ts expands them). */
export interface ImportNode {
  path: string;
  imports: ImportNode[];
}

export const PRIORITIES = ["critical", "high", "normal", "low"] as const;
export type Priority = (typeof PRIORITIES)[number];

export const SOURCES = ["keyword-detector", "rules-injector", "directory-agents", "directory-readme", "skills", "custom"] as const;
export type SourceName = (typeof SOURCES)[number];

/** How a rule decides whether it applies (DESIGN.md "Rule semantics"); `directory` is an AGENTS.md/README on a target's path. */
export type Kind = "always" | "auto" | "agent-requested" | "manual" | "directory" | "custom" | "keyword" | "session";

export const STATUSES = [
  "included",
  "trimmed",
  "over-budget",
  "overwritten",
  "duplicate",
  "unmatched",
  "below-threshold",
  "manual",
  "already-injected",
  "disabled",
  "invalid",
] as const;
export type Status = (typeof STATUSES)[number];

export const FORMATS = ["markdown", "xml", "compact", "json"] as const;
export type Format = (typeof FORMATS)[number];

export const TOKENIZERS = ["approx", "o200k", "cl100k"] as const;
export type TokenizerName = (typeof TOKENIZERS)[number];

/** A file as discover hands it to the pure core: root-relative path with `/` separators, decoded text. */
export interface SourceFile {
  path: string;
  text: string;
  /** Root-relative real path when the file is reached through a symlink. */
  realPath?: string;
}

export interface Warning {
  file?: string;
  line?: number;
  message: string;
  /** What doctor reports it as (its finding's kind, core/doctor/index.ts); absent: no finding of its own. */
  kind?: WarningKind;
}

export type WarningKind =
  | "frontmatter-unclosed"
  | "unquoted-glob"
  | "frontmatter-yaml"
  | "always-apply-string"
  | "hidden-characters"
  | "secret"
  | "import-cycle"
  | "import-depth"
  | "bad-glob-field";

/** The fields rule formats write their globs in: a problem with one of them is doctor's `bad-glob-field`. */
export const GLOB_FIELDS: ReadonlySet<string> = new Set(["globs", "paths", "applyTo"]);

/** One thing that could be injected, with the decision taken about it. */
export interface Candidate {
  source: string;
  id: string;
  priority: Priority;
  kind: Kind;
  path: string | null;
  content: string;
  description: string | null;
  globs: string[];
  tokens: number;
  status: Status;
  reason: string;
  truncated: boolean;
  /** A description-only candidate's relevance score (0..1), once scored: the budget drops the lowest first. */
  score?: number;
  /**
   * A description-only candidate below the injection threshold that the prompt still likely needs: listed first in
   * the index, as "likely relevant", with this line saying why (the prompt's words as the user wrote them).
   */
  likely?: string;
  /** Files whose text an agent file's `@imports` brought in, as a tree (explain shows it). */
  imports?: ImportNode[];
  /**
   * Such a file's text as written, the import lines left as they are, and its tokens: what an agent that does not
   * expand imports reads (`build --as copilot` of a CLAUDE.md holding `@AGENTS.md`).
   */
  asWritten?: { content: string; tokens: number };
  /** Copilot's `excludeAgent`: the Copilot agents that leave this file out (`--as copilot` honours it). */
  excludeAgent?: string[];
  /** Other paths that reach the same file through a symlink (core/same-file.ts): one entry, several names. */
  aliases?: string[];
  /**
   * A glob rule that no target matched, offered by its description instead (scored like a description-only rule):
   * its kind stays `auto`, so an agent that applies it by its globs is still said to do so only on a match.
   */
  byDescription?: boolean;
  /**
   * A duplicate that is a near copy of another text (phases/dedup.ts): that text's path (or id), and how many of this
   * one's significant lines it holds. Doctor's drift check reads it.
   */
  nearCopyOf?: { of: string; shared: number; lines: number };
  /**
   * A duplicate's copy that is sent: `source:id` of the entry whose text holds this one's (the same text, an import,
   * a text inside it). When the budget leaves that entry out or cuts it, this one is left out too, and named.
   */
  heldBy?: string;
  /**
   * An importing file sent as written, its imported files entries of their own (core/phases/unfold.ts): its text with
   * its imports was over the entry cap, or did not fit the budget whole. `imports` still names the tree (explain).
   */
  unfolded?: boolean;
  /** An imported file sent on its own as part of an unfolded importer: that importer's `source:id` (the budget weighs it as that importer at least). */
  importedBy?: string;
  /**
   * How many characters of its text reached the agent when the budget cut it (the rest after a note naming the file):
   * set by compose on the entry it cuts, and by the gate on a text the session was given cut earlier.
   */
  sentChars?: number;
}

export interface Entry {
  source: string;
  id: string;
  priority: Priority;
  kind: Kind;
  path: string | null;
  tokens: number;
  content: string;
  truncated: boolean;
  /** Shown in markdown provenance when building with --all. */
  globs: string[];
  imports?: ImportNode[];
}

export interface Omitted {
  source: string;
  id: string;
  priority: Priority;
  path: string | null;
  description: string | null;
  tokens: number;
  reason: string;
  /** "likely": listed first in the index, to be read before the task starts (absent for the plain index). */
  tier?: "likely";
  /** For the likely tier: why, in the prompt's own words. */
  why?: string;
}
