/** The library API: the collector, the pure pipeline, the renderers, and `gather` for the whole read side. */
export { ContextCollector, SEPARATOR } from "./core/collector.js";
export type { ContextEntry, PendingContext, RegisterContextOptions, DuplicateEntry } from "./core/collector.js";
import { defaultConfig as defaultsOf, validateConfig as checkAndComplete, type Config } from "./core/config.js";
import { SOURCE_MODULES } from "./core/sources/index.js";
import { HOST_CONFIG } from "./hosts/index.js";
export { defineConfig } from "./core/config.js";
export type { Config, UserConfig } from "./core/config.js";

/** A loaded config object checked (a CtxinjectError names the file, the key and what was expected), defaults filled in. */
export function validateConfig(raw: unknown, file: string): Config {
  return checkAndComplete(
    raw,
    file,
    SOURCE_MODULES.map((m) => m.name),
    HOST_CONFIG,
  );
}

/** Every default filled in, the hosts' groups (`<short>.includeNative`…) included. */
export function defaultConfig(): Config {
  return defaultsOf(HOST_CONFIG);
}
export { CtxinjectError } from "./core/errors.js";
export { parseFrontmatter } from "./core/parse/frontmatter.js";
export { readGlobList, compileGlobs } from "./core/parse/globs.js";
export { parseRule } from "./core/sources/rules.js";
export { locateSource } from "./core/sources/index.js";
export { SOURCE_MODULES } from "./core/sources/index.js";
export type { SourceModule, Draft, DraftContext } from "./core/sources/source.js";
export { selectContext } from "./core/select.js";
export { createRunMemo } from "./core/run-memo.js";
export type { RunMemo } from "./core/run-memo.js";
export type { SelectInput, Selection, CustomInput } from "./core/select.js";
export { render } from "./core/render/index.js";
export type { ContextDocument } from "./core/render/index.js";
export { renderExplainText, renderExplainJson } from "./core/render/explain.js";
export { approxTokens } from "./core/tokens.js";
import { runPipeline, type Gathered, type ReadRequest } from "./io/pipeline.js";
export type { Gathered } from "./io/pipeline.js";

export interface GatherOptions extends ReadRequest {
  cwd: string;
  /** The environment git and the ignore rules are read with (default: this process's). */
  env?: Record<string, string | undefined>;
  /** When the process started: reading, redaction and dedup stop at config hookDeadlineMs from it, with what they found. */
  startedAt?: number;
}

/**
 * The whole read side of a build (root, config, targets, discovery, reading, the pure selection): the pipeline up
 * to select, run for this process (its environment unless given, its platform).
 */
export function gather(options: GatherOptions): Promise<Gathered> {
  const { cwd, env = process.env, startedAt, ...request } = options;
  return runPipeline(
    { cwd, env, platform: process.platform, ...(startedAt !== undefined && { startedAt }) },
    { ...request, purpose: "explain", until: "select" },
  );
}
export * from "./core/types.js";
