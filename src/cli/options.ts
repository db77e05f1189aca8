import { type Command, InvalidArgumentError, Option } from "commander";
import { FORMATS, TOKENIZERS, type Format, type TokenizerName } from "../core/types.js";
import type { SelectionRequest } from "../io/pipeline.js";

/** The values doctor's and coverage's --format take, apart from the commands: the command tree lists them without loading those (commands/occasional.ts). */
export const DOCTOR_FORMATS = ["text", "json", "sarif", "github"] as const;
export const COVERAGE_FORMATS = ["markdown", "json", "html"] as const;

const positiveInteger = (value: string): number => {
  if (!/^\d+$/.test(value) || Number(value) <= 0) throw new InvalidArgumentError("expected a positive whole number of tokens, e.g. --max-tokens 8000.");
  return Number(value);
};

const unitInterval = (value: string): number => {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0 || n > 1) throw new InvalidArgumentError("expected a number from 0 to 1, e.g. --min-relevance 0.3.");
  return n;
};

/** Flags every selecting command shares (build, explain). */
export function addSelectionOptions(command: Command): Command {
  return command
    .option("--root <dir>", "project root (default: git top level, else the folder with the config file, else the current folder)")
    .option("--files <file...>", "target files: their rules, AGENTS.md and README chains apply")
    .option("--staged", "target the files staged in git")
    .option("--changed [ref]", "target the files changed since REF (default HEAD), untracked ones included")
    .option("--all", "include every rule whatever its kind, and every AGENTS.md and README (for generated files)")
    .option("--rule <name...>", "include manual rules by name")
    .option("--mode <name>", "the agent mode in use, for mode rules (Roo Code's .roo/rules-<mode>)")
    .option("--prompt <text>", "the prompt (default: standard input when it is a pipe or a file)")
    .option("--max-tokens <n>", "token budget for the output", positiveInteger)
    .addOption(new Option("--tokenizer <name>", "how tokens are counted").choices(TOKENIZERS))
    .option("--min-relevance <x>", "threshold (0-1) for description-only rules", unitInterval)
    .addOption(new Option("--format <format>", "output format").choices(FORMATS))
    .option("--session <id>", "join the session's pending entries and skip what it already injected")
    .option("--fresh", "with --session, ignore what the session already injected");
}

export interface SelectionFlags {
  /** An agent profile's name (explain: its column; build: its own view). */
  as?: string;
  session?: string;
  fresh?: boolean;
  format?: Format;
  provenance?: boolean;
  root?: string;
  files?: string[];
  staged?: boolean;
  changed?: string | boolean;
  all?: boolean;
  rule?: string[];
  mode?: string;
  prompt?: string;
  maxTokens?: number;
  tokenizer?: TokenizerName;
  minRelevance?: number;
}

/** Only what the user set: flags left out must not overwrite the config file. */
export function selectionOptions(flags: SelectionFlags): SelectionRequest {
  return {
    ...(flags.root !== undefined && { root: flags.root }),
    ...(flags.files !== undefined && { files: flags.files, warnMissing: true }),
    ...(flags.staged === true && { staged: true }),
    ...(flags.changed !== undefined && { changed: flags.changed }),
    ...(flags.all === true && { all: true }),
    ...(flags.rule !== undefined && { rules: flags.rule }),
    ...(flags.mode !== undefined && { mode: flags.mode }),
    ...(flags.tokenizer !== undefined && { tokenizer: flags.tokenizer }),
    ...(flags.minRelevance !== undefined && { minRelevance: flags.minRelevance }),
    ...(flags.maxTokens !== undefined && { maxTokens: flags.maxTokens }),
    ...(flags.session !== undefined && { session: flags.session }),
    ...(flags.fresh === true && { fresh: true }),
    ...(flags.format !== undefined && { format: flags.format }),
    ...(flags.provenance === false && { provenance: false }),
    ...(flags.as !== undefined && { as: flags.as }),
  };
}
