import type { Entry, Format, Omitted, TokenizerName } from "../types.js";

/** What every format renders: the selected entries, the index of what was left out, and the facts of the run. */
export interface ContextDocument {
  root: string;
  targets: string[];
  tokenizer: TokenizerName;
  maxTokens: number | null;
  entries: Entry[];
  omitted: Omitted[];
  /** Index items left out because even the index did not fit the budget. */
  omittedMore?: number;
  /** Markdown: a provenance comment before each entry. */
  provenance: boolean;
  /** Built with --all: provenance also names each rule's kind and globs. */
  all: boolean;
}

export type { Format };
