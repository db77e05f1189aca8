/**
 * Every source module, in registration order: within one folder, a module listed earlier registers first, so
 * (at equal priority) its text comes first. Adding a source is adding its module file and a line here.
 */
import { agentsFiles } from "./agents.js";
import { customEntries } from "./custom.js";
import { keywordDetector } from "./keywords.js";
import { readmeFiles } from "./readme.js";
import { claudeRules, configuredRules, copilotFile, copilotInstructions, cursorRules, cursorrulesFile, kordRules } from "./rules.js";
import { discoveryNames, locate, type Location } from "./locate.js";
import type { LocateOptions, SourceModule } from "./source.js";

export const SOURCE_MODULES: readonly SourceModule[] = [
  keywordDetector,
  cursorRules,
  claudeRules,
  kordRules,
  copilotInstructions,
  configuredRules,
  copilotFile,
  cursorrulesFile,
  agentsFiles,
  readmeFiles,
  customEntries,
];

export type { LocateOptions } from "./source.js";

/** `locate` over every module: which source a root-relative path belongs to, or null. */
export const locateSource = (path: string, options: LocateOptions): Location | null => locate(path, SOURCE_MODULES, options);

/** Every folder and file name any module reads, for discovery. */
export const instructionNames = (options: LocateOptions) => discoveryNames(SOURCE_MODULES, options);
