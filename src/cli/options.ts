import { Command, Option } from "commander";
import { FORMATS } from "../core/types.js";

/** Flags every selecting command shares (build, explain). */
export function addSelectionOptions(command: Command): Command {
  return command
    .option("--root <dir>", "project root (default: git top level, else the folder with the config file, else the current folder)")
    .option("--files <file...>", "target files: their rules, AGENTS.md and README chains apply")
    .option("--staged", "target the files staged in git")
    .option("--changed [ref]", "target the files changed since REF (default HEAD), untracked ones included")
    .option("--all", "include every rule whatever its kind, and every AGENTS.md and README (for generated files)")
    .option("--rule <name...>", "include manual rules by name");
}

export const formatOption = () => new Option("--format <format>", "output format").choices(FORMATS);

export interface SelectionFlags {
  root?: string;
  files?: string[];
  staged?: boolean;
  changed?: string | boolean;
  all?: boolean;
  rule?: string[];
}

/** Only what the user set: flags left out must not overwrite the config file. */
export function selectionOptions(flags: SelectionFlags) {
  return {
    ...(flags.root !== undefined && { root: flags.root }),
    ...(flags.files !== undefined && { files: flags.files }),
    ...(flags.staged === true && { staged: true }),
    ...(flags.changed !== undefined && { changed: flags.changed }),
    ...(flags.all === true && { all: true }),
    ...(flags.rule !== undefined && { rules: flags.rule }),
  };
}
