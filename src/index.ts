/** The library API: the collector, the pure pipeline, the renderers, and `gather` for the whole read side. */
export { ContextCollector, SEPARATOR } from "./core/collector.js";
export type { ContextEntry, PendingContext, RegisterContextOptions, DuplicateEntry } from "./core/collector.js";
export { defineConfig, validateConfig, defaultConfig } from "./core/config.js";
export type { Config, UserConfig } from "./core/config.js";
export { CtxinjectError } from "./core/errors.js";
export { parseFrontmatter } from "./core/parse/frontmatter.js";
export { readGlobList, compileGlobs } from "./core/parse/globs.js";
export { parseRule } from "./core/sources/rules.js";
export { locate } from "./core/sources/locate.js";
export { selectContext } from "./core/select.js";
export type { SelectInput, Selection, CustomInput } from "./core/select.js";
export { render } from "./core/render/index.js";
export type { ContextDocument } from "./core/render/index.js";
export { renderExplainText, renderExplainJson } from "./core/render/explain.js";
export { approxTokens } from "./core/tokens.js";
export { gather } from "./io/gather.js";
export type { GatherOptions, Gathered } from "./io/gather.js";
export * from "./core/types.js";
