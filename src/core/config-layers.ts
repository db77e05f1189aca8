import { completeConfig, type Config, type UserConfig } from "./config.js";
import { CONFIG_TABLE, configLeaves, type HostConfig } from "./config-table.js";
import { lazyConstant } from "./lazy-constant.js";
import type { OptionFlags } from "./options.js";
import type { Warning } from "./types.js";
import { configuredName } from "./confined-path.js";

/**
 * Where config comes from, lowest first: defaults < the user's own config < the repository's config < flags. A
 * repository is untrusted input (it is cloned, not written by the user), so the settings that widen what ctxinject
 * reads or weaken one of its defences are taken from the user's config and flags only.
 */
type ConfigLayerKind = "user" | "repository";

export interface ConfigLayer {
  from: ConfigLayerKind;
  /** Absolute path of the file. */
  file: string;
  settings: UserConfig;
}

/** Where one setting's value came from, as explain shows it. */
export interface SettingOrigin {
  from: "default" | ConfigLayerKind | "flag";
  /** The config file (user or repository). */
  file?: string;
  /** A repository config set it and was not listened to (userOnlySettings). */
  ignored?: string;
}

/**
 * The settings a repository's config may not change in the direction that weakens ctxinject: the key, the values
 * that would (`weakens`), and why; from the config table's `userOnly` (core/config-table.ts). A repository may still
 * set a harmless value (`redact: true`); a weakening one is ignored with one warning naming the key.
 * Not there, on purpose: a host's `<short>.maxChars` (capped by the host's own limit in the checks), `custom[].file` (never
 * read outside the root: io/custom.ts, and symlinks only where the user's `allowOutside` says), `agents.readIgnored`
 * (files inside the tree), `keywords` patterns (bounded by the pattern engine).
 */
export const userOnlySettings = lazyConstant(
  (): ReadonlyArray<{ key: string; weakens: (value: unknown) => boolean; why: string }> =>
    configLeaves().flatMap(({ key, leaf }) => (leaf.userOnly ? [{ key, weakens: leaf.userOnly.weakens, why: leaf.userOnly.why }] : [])),
);

// Made when a repository has a config (few have): a walk of the whole table otherwise paid on every start.
const userOnly = lazyConstant((): ReadonlyMap<string, ReturnType<typeof userOnlySettings>[number]> => new Map(userOnlySettings().map((s) => [s.key, s])));

/** A repository's settings without the weakening ones, and one warning for each left out. */
export function guardRepositorySettings(settings: UserConfig, file: string): { settings: UserConfig; warnings: Warning[]; ignored: string[] } {
  const warnings: Warning[] = [];
  const ignored: string[] = [];
  let kept: UserConfig = settings;
  // In the file's order: the warnings follow what the user reads there.
  // A group's member (`relevance.embeddings`) by its dotted key: the group stays with its other members.
  const given = (Object.keys(settings) as Array<keyof UserConfig>).flatMap((top) => {
    const value = settings[top];
    const members = value !== null && typeof value === "object" && !Array.isArray(value) ? Object.keys(value).map((m) => `${top}.${m}`) : [];
    return [top as string, ...members];
  });
  for (const key of given) {
    const guard = userOnly().get(key);
    const [top, member] = key.split(".") as [keyof UserConfig, string | undefined];
    const value = member === undefined ? settings[top] : (settings[top] as Record<string, unknown>)[member];
    if (guard === undefined || !guard.weakens(value)) continue;
    const { why } = guard;
    if (kept === settings) kept = { ...settings };
    if (member === undefined) delete kept[top];
    else {
      const rest: Record<string, unknown> = { ...(kept[top] as Record<string, unknown>) };
      delete rest[member];
      // An empty group would replace the user's whole group in the merge (an empty object is a value there).
      if (Object.keys(rest).length === 0) delete kept[top];
      else (kept as Record<string, unknown>)[top] = rest;
    }
    ignored.push(key);
    warnings.push({
      file,
      message: `"${key}" is ignored in a repository's config (${why}); set it in your own config (see ctxinject init) or on the command line`,
    });
  }
  return { settings: kept, warnings, ignored };
}

/** The settings that name files and folders below the root, each name read under every folder on a target's path. */
const NAMED_PATHS = [
  ["agents", "files"],
  ["rules", "dirs"],
  ["skills", "dirs"],
] as const;

/**
 * A config's settings with every name in NAMED_PATHS clean (core/confined-path.ts: no `..`, `.` or empty segment,
 * not absolute, no backslash), and a warning naming the file and key for each name left out: `agents.files:
 * ["x/../../../.aws/config"]` would otherwise be joined under a folder and read outside the root. The user's own
 * config too: such a name never named a file below the root there either.
 */
export function confineConfiguredNames(settings: UserConfig, file: string): { settings: UserConfig; warnings: Warning[] } {
  const warnings: Warning[] = [];
  let kept: UserConfig = settings;
  for (const [group, key] of NAMED_PATHS) {
    const members = settings[group] as Record<string, unknown> | undefined;
    const names = members?.[key];
    if (!Array.isArray(names)) continue;
    const clean: string[] = [];
    for (const name of names as string[]) {
      const result = configuredName(name);
      if ("path" in result) clean.push(result.path);
      else
        warnings.push({
          file,
          message: `"${group}.${key}": ${JSON.stringify(name)} ${result.why}, so it could name a file outside the project root; left out (a name is a path below the root)`,
        });
    }
    if (clean.length === names.length && clean.every((c, i) => c === names[i])) continue;
    if (kept === settings) kept = { ...settings };
    (kept as Record<string, unknown>)[group] = { ...members, [key]: clean };
  }
  return { settings: kept, warnings };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * The layers merged in order (later wins): objects key by key (`agents.files` from the repository keeps the user's
 * `agents.skipRoot`), lists and values whole. Records where each leaf came from, by dotted key.
 */
export function mergeConfigLayers(
  layers: ConfigLayer[],
  ignored: Record<string, string> = {},
  hosts: readonly HostConfig[] = [],
): { config: Config; origins: Record<string, SettingOrigin> } {
  const merged: Record<string, unknown> = {};
  const origins: Record<string, SettingOrigin> = {};
  const into = (target: Record<string, unknown>, source: Record<string, unknown>, at: string, origin: SettingOrigin) => {
    for (const [key, value] of Object.entries(source)) {
      if (value === undefined) continue;
      const path = at === "" ? key : `${at}.${key}`;
      if (isPlainObject(value) && Object.keys(value).length > 0) {
        const existing = target[key];
        const next: Record<string, unknown> = isPlainObject(existing) ? { ...existing } : {};
        target[key] = next;
        into(next, value, path, origin);
        continue;
      }
      target[key] = value;
      origins[path] = origin;
    }
  };
  for (const layer of layers) into(merged, layer.settings as Record<string, unknown>, "", { from: layer.from, file: layer.file });
  for (const [key, file] of Object.entries(ignored)) if (origins[key] === undefined) origins[key] = { from: "default", ignored: file };
  return { config: completeConfig(merged as UserConfig, hosts), origins };
}

/** The flags a run was given, over the config's origins: what explain reports. */
export function settingOrigins(origins: Record<string, SettingOrigin>, flags: OptionFlags): Record<string, SettingOrigin> {
  const out: Record<string, SettingOrigin> = { ...origins };
  // Most runs set no config flag (`build --files`, every hook): the table's flags are walked only when one is set.
  if (!Object.entries(flags).some(([key, value]) => value !== undefined && Object.hasOwn(CONFIG_TABLE, key))) return out;
  for (const key of flagKeys()) {
    if ((flags as Record<string, unknown>)[key] !== undefined) out[key] = { from: "flag" };
  }
  return out;
}

/** The settings a flag can set (OptionFlags uses the same names). */
const flagKeys = lazyConstant(() => configLeaves().flatMap(({ key, leaf }) => (leaf.flag === undefined ? [] : [key])));

/**
 * Every setting with a default or a flag, with its origin, in the table's order: a group by its parts
 * (`agents.files`), a setting a config or flag gave by the key it was given at (`sources.windsurf.enabled`); the
 * hosts' groups (`hosts`) last. Done twice, the second adds nothing.
 */
export function everySettingOrigin(origins: Record<string, SettingOrigin>, hosts: readonly HostConfig[] = []): Record<string, SettingOrigin> {
  const keys = configLeaves(hosts).flatMap(({ key, leaf }) => (leaf.default !== undefined || leaf.flag !== undefined ? [key] : []));
  const out: Record<string, SettingOrigin> = {};
  const given = Object.keys(origins);
  for (const key of keys) {
    const below = given.filter((k) => k.startsWith(`${key}.`));
    if (below.length > 0) for (const k of below) out[k] = origins[k]!;
    else out[key] = origins[key] ?? { from: "default" };
  }
  // A key the defaults do not name (a source's switch under `sources` when that is listed whole, say).
  for (const key of given) if (!(key in out)) out[key] = origins[key]!;
  return out;
}

/** An origin as explain's text says it. */
export function describeOrigin(origin: SettingOrigin): string {
  if (origin.from === "flag") return "flag";
  if (origin.from === "default") return origin.ignored ? `default (ignored in the repository's config ${origin.ignored})` : "default";
  return `${origin.from === "user" ? "user config" : "repository config"} ${origin.file}`;
}
