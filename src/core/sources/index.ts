/**
 * Every source module, in registration order: within one folder, a module listed earlier registers first, so
 * (at equal priority) its text comes first. Adding a source is adding its module file and a line here.
 */
import { agentsFiles } from "./agents.js";
import { augmentGuidelines, augmentRules } from "./augment.js";
import { claudeMemory } from "./claude-md.js";
import { clineRules, clinerulesFile } from "./cline.js";
import { continueRules } from "./continue.js";
import { aiderConventions } from "./conventions-md.js";
import { crushContext } from "./crush-md.js";
import { geminiContext } from "./gemini-md.js";
import { gooseHints } from "./goosehints.js";
import { junieGuidelines } from "./junie.js";
import { kiroSteering } from "./kiro.js";
import { rooRules } from "./roo.js";
import { kilocodeRules } from "./kilocode.js";
import { skillFiles } from "./skills.js";
import { warpRules } from "./warp-md.js";
import { windsurfRules, windsurfrulesFile } from "./windsurf.js";
import { zedRules } from "./zed.js";
import { customEntries } from "./custom.js";
import { keywordDetector } from "./keywords.js";
import { readmeFiles } from "./readme.js";
import { claudeRules, configuredRules, copilotFile, copilotInstructions, cursorRules, cursorrulesFile, kordRules } from "./rules.js";
import { discoveryNames, locate, locator, type Location, type Locator } from "./locate.js";
import type { RunMemo } from "../run-memo.js";
import type { Config } from "../config.js";
import type { LocateOptions, SourceModule } from "./source.js";

export const SOURCE_MODULES: readonly SourceModule[] = [
  keywordDetector,
  cursorRules,
  claudeRules,
  kordRules,
  copilotInstructions,
  configuredRules,
  windsurfRules,
  clineRules,
  rooRules,
  kilocodeRules,
  kiroSteering,
  continueRules,
  augmentRules,
  copilotFile,
  cursorrulesFile,
  windsurfrulesFile,
  clinerulesFile,
  augmentGuidelines,
  junieGuidelines,
  zedRules,
  agentsFiles,
  claudeMemory,
  geminiContext,
  crushContext,
  warpRules,
  gooseHints,
  aiderConventions,
  readmeFiles,
  skillFiles,
  customEntries,
];

export type { LocateOptions } from "./source.js";

/** `locate` over every module: which source a root-relative path belongs to, or null. */
export const locateSource = (path: string, options: LocateOptions, memo?: RunMemo): Location | null => locate(path, SOURCE_MODULES, options, memo);

/** locateSource for many paths: the run's locator for these options, looked up once. */
export const sourceLocator = (options: LocateOptions, memo?: RunMemo): Locator => locator(SOURCE_MODULES, options, memo);

/** Every folder and file name any module reads, for discovery. */
export const instructionNames = (options: LocateOptions) => discoveryNames(SOURCE_MODULES, options);

/** Where the modules look, as the config (and `--mode`) says. */
export function locateOptionsOf(config: Config, mode?: string): LocateOptions {
  return { agentFiles: config.agents.files, ruleDirs: config.rules.dirs, skillDirs: config.skills.dirs, ...(mode !== undefined && { mode }) };
}
