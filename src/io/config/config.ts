import { existsSync } from "node:fs";
import { basename, isAbsolute, join, resolve } from "node:path";
import { confineConfiguredNames, guardRepositorySettings, mergeConfigLayers, type ConfigLayer, type SettingOrigin } from "../../core/config-layers.js";
import { checkConfig, defaultConfig, type Config, type UserConfig } from "../../core/config.js";
import { parseConfigText, type DataConfigKind } from "../../core/config-text.js";
import { CtxinjectError } from "../../core/errors.js";
import { redactSecrets } from "../../core/redact.js";
import { SOURCE_MODULES } from "../../core/sources/index.js";
import { HOST_CONFIG } from "../../hosts/index.js";
import type { Warning } from "../../core/types.js";
import { readBoundedBytes, readBoundedText, unreadableReason } from "../fs/bounded-read.js";
import { runCodeConfig } from "../config-code.js";
import { homedir } from "../lazy-node.js";
import { realOrSelf, toRootRelative, under } from "../fs/paths.js";
import { isCodeConfig, isTrusted, sha256Of } from "./trust.js";

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

/** The user's own config, in its folder (userConfigDir): data only, the first found is read. */
export const USER_CONFIG_FILES = ["config.json", "config.yaml", "config.yml"] as const;

/** A config file is a few kilobytes; this is plenty, and bounds what a repository can make every prompt read. */
const MAX_CONFIG_BYTES = 1024 * 1024;

export interface LoadedConfig {
  config: Config;
  /** Absolute path of the repository's config file that was read, or null (none, or not read). */
  file: string | null;
  /** Absolute path of the user's config file that was read, or null. */
  userFile: string | null;
  /** Where each setting that is not a default came from, by dotted key (core/config-layers.ts). */
  origins: Record<string, SettingOrigin>;
  /** An untrusted JavaScript config that was not run, a config symlinked out of the project, a setting ignored. */
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
    const pkg = JSON.parse(readBoundedText(path, { maxBytes: MAX_CONFIG_BYTES })) as Record<string, unknown>;
    return pkg !== null && typeof pkg === "object" && MODULE_NAME in pkg;
  } catch {
    return false;
  }
}

/**
 * The folder of the user's own config: $XDG_CONFIG_HOME/ctxinject where XDG_CONFIG_HOME is set (an absolute path, as
 * the XDG spec asks); otherwise ~/.config/ctxinject, except on macOS (~/Library/Application Support/ctxinject) and
 * Windows (%APPDATA%\ctxinject), each platform's place for an application's settings.
 */
export function userConfigDir(env: Record<string, string | undefined>, platform: NodeJS.Platform): string {
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, MODULE_NAME);
  if (platform === "darwin") return join(homedir(env), "Library", "Application Support", MODULE_NAME);
  if (platform === "win32") return join(env.APPDATA || join(homedir(env), "AppData", "Roaming"), MODULE_NAME);
  return join(homedir(env), ".config", MODULE_NAME);
}

/** The user's config file, or null when there is none. */
export function userConfigFile(env: Record<string, string | undefined>, platform: NodeJS.Platform): string | null {
  const dir = userConfigDir(env, platform);
  // One stat for the common case of no folder at all.
  if (!existsSync(dir)) return null;
  for (const name of USER_CONFIG_FILES) {
    const file = join(dir, name);
    if (existsSync(file)) return file;
  }
  return null;
}

/**
 * What `sources.<name>` may name besides the contract's sources, and the hosts' groups (HOST_CONFIG): the core's
 * config imports neither the modules nor the hosts.
 */
const sourceNames = (): string[] => SOURCE_MODULES.map((m) => m.name);

const kindOf = (file: string): DataConfigKind => (basename(file) === "package.json" ? "package.json" : file.endsWith(".json") ? "json" : "yaml");

/** A config file's bytes, bounded; a read that fails is the config error naming the file and why, nothing of its text. */
function readConfigBytes(file: string): Buffer {
  try {
    return readBoundedBytes(file, { maxBytes: MAX_CONFIG_BYTES });
  } catch (error) {
    throw new CtxinjectError(`${file}: cannot load the config file: it ${unreadableReason(error)}`);
  }
}

/** UTF-8 without a byte order mark. */
function decode(bytes: Buffer): string {
  const text = bytes.toString("utf8");
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

const readConfigText = (file: string): string => decode(readConfigBytes(file));

/**
 * Defaults < the user's config < the repository's config (of `dir`). Data configs (JSON, YAML, package.json) are
 * parsed here, never through a loader that could run something. A JavaScript config in the repository runs only
 * when trusted (io/config/trust.ts); otherwise it is left out, with a warning saying how to trust it. The repository's config
 * is not followed through a symlink out of the project, and cannot set what userOnlySettings guards.
 */
export async function loadConfig(dir: string, env: Record<string, string | undefined>, platform: NodeJS.Platform): Promise<LoadedConfig> {
  const warnings: Warning[] = [];
  const layers: ConfigLayer[] = [];
  const userFile = userConfigFile(env, platform);
  let user: UserConfig | undefined;
  if (userFile !== null) {
    const confined = confineConfiguredNames(
      checkConfig(parseConfigText(readConfigText(userFile), kindOf(userFile), userFile), userFile, sourceNames(), HOST_CONFIG),
      userFile,
    );
    warnings.push(...confined.warnings);
    user = confined.settings;
    layers.push({ from: "user", file: userFile, settings: user });
  }
  const ignored: Record<string, string> = {};
  let file = configFileIn(dir);
  if (file !== null) {
    const settings = await readRepositoryConfig(dir, file, env, user?.allowOutside ?? [], warnings);
    if (settings === null) {
      file = null;
    } else {
      const confined = confineConfiguredNames(settings, basename(file));
      const guarded = guardRepositorySettings(confined.settings, basename(file));
      warnings.push(...confined.warnings, ...guarded.warnings);
      for (const key of guarded.ignored) ignored[key] = file;
      layers.push({ from: "repository", file, settings: guarded.settings });
    }
  }
  if (layers.length === 0) return { config: defaultConfig(HOST_CONFIG), file: null, userFile: null, origins: {}, warnings };
  const { config, origins } = mergeConfigLayers(layers, ignored, HOST_CONFIG);
  return { config, file, userFile, origins, warnings };
}

/** The repository's settings, or null when its file is not to be read (symlinked out, untrusted code). */
async function readRepositoryConfig(
  dir: string,
  file: string,
  env: Record<string, string | undefined>,
  allowOutside: string[],
  warnings: Warning[],
): Promise<UserConfig | null> {
  const name = basename(file);
  const real = realOrSelf(file);
  const inside = (folder: string) => toRootRelative(realOrSelf(folder), real) !== null;
  if (real !== file && !inside(dir) && !allowOutside.some((p) => inside(resolve(dir, p)))) {
    warnings.push({ file: name, message: `is a symlink to a file outside the project (${real}); not followed, the defaults apply` });
    return null;
  }
  const bytes = readConfigBytes(file);
  if (!isCodeConfig(file)) return checkConfig(parseConfigText(decode(bytes), kindOf(file), file), file, sourceNames(), HOST_CONFIG);
  // Trust is checked against these bytes, and (CommonJS) these bytes are what runs.
  const hash = sha256Of(bytes);
  if (!isTrusted(file, env, hash)) {
    const message =
      "is code from the repository and is not trusted on this machine, so it was not run (the defaults apply): run `ctxinject trust` in the project to trust it as it is now (CTXINJECT_TRUST_ALL=1 for automation)";
    warnings.push({ file: name, message });
    return null;
  }
  let exported: unknown;
  try {
    exported = await runCodeConfig(file, decode(bytes));
  } catch (error) {
    // Trusted code's own message, its first line, redacted like any text that leaves ctxinject.
    const message = redactSecrets(error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error)).text;
    throw new CtxinjectError(`${file}: cannot load the config file: ${message.slice(0, 200)}`);
  }
  return checkConfig(exported, file, sourceNames(), HOST_CONFIG);
}
