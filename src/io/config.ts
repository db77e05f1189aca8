import { existsSync, readFileSync } from "node:fs";
import { basename } from "node:path";
import { defaultConfig, validateConfig, type Config } from "../core/config.js";
import { CtxinjectError } from "../core/errors.js";
import type { Warning } from "../core/types.js";
import { lazyRequire } from "./lazy-node.js";
import { under } from "./paths.js";
import { isCodeConfig, isTrusted } from "./trust.js";

export const MODULE_NAME = "ctxinject";

/** DESIGN.md's config files, in the order the first one found wins. */
export const CONFIG_FILES = [
  "package.json",
  ".ctxinjectrc",
  ".ctxinjectrc.json",
  ".ctxinjectrc.yaml",
  ".ctxinjectrc.yml",
  ".ctxinjectrc.js",
  ".ctxinjectrc.mjs",
  ".ctxinjectrc.cjs",
  "ctxinject.config.js",
  "ctxinject.config.mjs",
  "ctxinject.config.cjs",
  "ctxinject.config.json",
  "ctxinject.config.yaml",
] as const;

export interface LoadedConfig {
  config: Config;
  /** Absolute path of the file it came from, or null for the defaults. */
  file: string | null;
  /** An untrusted JavaScript config that was not run. */
  warnings: Warning[];
}

/** The config file in `dir`, without loading anything heavy: package.json counts only with a "ctxinject" key. */
export function configFileIn(dir: string): string | null {
  for (const name of CONFIG_FILES) {
    const path = under(dir, name);
    if (!existsSync(path)) continue;
    if (name === "package.json") {
      if (packageHasKey(path)) return path;
      continue;
    }
    return path;
  }
  return null;
}

function packageHasKey(path: string): boolean {
  try {
    const pkg = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
    return pkg !== null && typeof pkg === "object" && MODULE_NAME in pkg;
  } catch {
    return false;
  }
}

/**
 * Loads and validates the config file of `dir`; cosmiconfig is imported only when there is one. A JavaScript config
 * runs only when trusted (io/trust.ts); otherwise the defaults apply, with a warning saying how to trust it.
 */
export async function loadConfig(dir: string, env: Record<string, string | undefined> = {}): Promise<LoadedConfig> {
  const file = configFileIn(dir);
  if (file === null) return { config: defaultConfig(), file: null, warnings: [] };
  if (isCodeConfig(file) && !isTrusted(file, env)) {
    const message = "is code from the repository and is not trusted on this machine, so it was not run (the defaults apply): run `ctxinject trust` in the project to trust it as it is now (CTXINJECT_TRUST_ALL=1 for automation)";
    return { config: defaultConfig(), file: null, warnings: [{ file: basename(file), message }] };
  }
  // JSON needs no loader: reading it here spares every prompt cosmiconfig's ~12 ms of start-up.
  if (file.endsWith(".json")) return { config: validateConfig(readJson(file), file), file, warnings: [] };
  const { cosmiconfig } = lazyRequire<typeof import("cosmiconfig")>("cosmiconfig");
  const explorer = cosmiconfig(MODULE_NAME, { searchPlaces: [...CONFIG_FILES], searchStrategy: "none", cache: false });
  let result;
  try {
    result = await explorer.load(file);
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new CtxinjectError(`${file}: cannot load the config file: ${message}`);
  }
  if (!result || result.isEmpty) return { config: defaultConfig(), file, warnings: [] };
  const raw = unwrapDefault(result.config);
  return { config: validateConfig(raw, file), file, warnings: [] };
}

function readJson(file: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new CtxinjectError(`${file}: cannot load the config file: ${(error as Error).message}`);
  }
  if (file.endsWith("package.json")) return (parsed as Record<string, unknown>)[MODULE_NAME];
  return parsed;
}

/** An ES module config may export `default`; cosmiconfig hands back the namespace for some loaders. */
function unwrapDefault(value: unknown): unknown {
  if (value && typeof value === "object" && "default" in value && Object.keys(value).length === 1) {
    return (value as { default: unknown }).default;
  }
  return value;
}
