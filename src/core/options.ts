import type { Config } from "./config.js";
import { DEFAULT_FORMAT, DEFAULT_MAX_TOKENS, DEFAULT_MIN_RELEVANCE, DEFAULT_TOKENIZER } from "./config-table.js";
import type { Format, TokenizerName } from "./types.js";

/** What the user set on the command line (or a host passed in); absent means "not said". */
export interface OptionFlags {
  format?: Format;
  maxTokens?: number;
  tokenizer?: TokenizerName;
  minRelevance?: number;
  provenance?: boolean;
  all?: boolean;
  rules?: string[];
  mode?: string;
  /** A host caps what it takes (an agent hook's character limit): no default token budget on top of it. */
  hostCap?: boolean;
}

export { DEFAULT_MAX_TOKENS };

/** The options a run works with: every value decided. */
export interface ResolvedOptions {
  format: Format;
  maxTokens: number | null;
  tokenizer: TokenizerName;
  minRelevance: number;
  provenance: boolean;
  all: boolean;
  rules: string[];
  mode: string | undefined;
}

/** The one place where flags are applied: a flag wins over the config (the repository's over the user's: core/config-layers.ts), the config over the default. */
export function resolveOptions(flags: OptionFlags, config: Config): ResolvedOptions {
  return {
    format: flags.format ?? config.format ?? DEFAULT_FORMAT,
    maxTokens: flags.maxTokens ?? config.maxTokens ?? (flags.all === true || flags.hostCap === true ? null : DEFAULT_MAX_TOKENS),
    tokenizer: flags.tokenizer ?? config.tokenizer ?? DEFAULT_TOKENIZER,
    minRelevance: flags.minRelevance ?? config.minRelevance ?? DEFAULT_MIN_RELEVANCE,
    provenance: flags.provenance ?? true,
    all: flags.all ?? false,
    rules: flags.rules ?? [],
    mode: flags.mode ?? config.mode,
  };
}
