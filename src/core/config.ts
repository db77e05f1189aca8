import { CtxinjectError } from "./errors.js";
import { redactSecrets } from "./redact.js";
import {
  CONFIG_TABLE,
  derivedHosts,
  hostGroupDefaults,
  isGroup,
  tableEntries,
  type Check,
  type CheckContext,
  type Config,
  type Entry,
  type HostConfig,
  type UserConfig,
} from "./config-table.js";

export {
  BUILTIN_KEYWORDS,
  DEFAULT_AGENT_FILES,
  DEFAULT_HOOK_DEADLINE_MS,
  type Config,
  type CustomSetting,
  type HostConfig,
  type HostSettings,
  type KeywordSettings,
  type SourceSettings,
  type UserConfig,
} from "./config-table.js";

/** A default as a config of its own: lists and objects copied, so that a run's changes stay in that run. */
const fresh = (value: unknown): unknown => (Array.isArray(value) ? [...value] : value !== null && typeof value === "object" ? { ...value } : value);

/** Every default (core/config-table.ts) filled in; `hosts`: the hosts' groups (src/hosts HOST_CONFIG). */
export function defaultConfig(hosts: readonly HostConfig[] = []): Config {
  return completeConfig({}, hosts);
}

export function defineConfig(config: UserConfig): UserConfig {
  return config;
}

/**
 * Checks a loaded config object and fills in defaults. Any unknown key or wrong type is a CtxinjectError
 * (exit 2) naming the file, the key and what was expected. `sourceNames`: the source modules' names
 * (core/sources SOURCE_MODULES) a `sources.<name>` may use besides the contract's source names; `hosts`: the
 * hosts' config groups (src/hosts HOST_CONFIG), which are known keys.
 */
export function validateConfig(raw: unknown, file: string, sourceNames: readonly string[] = [], hosts: readonly HostConfig[] = []): Config {
  return completeConfig(checkConfig(raw, file, sourceNames, hosts), hosts);
}

/**
 * Checks a loaded config object (any unknown key or wrong type is a CtxinjectError naming the file, the key and what
 * was expected) and returns it as the settings it holds, nothing filled in: layers (user, repository) merge these.
 */
export function checkConfig(raw: unknown, file: string, sourceNames: readonly string[], hosts: readonly HostConfig[] = []): UserConfig {
  const c: CheckContext = {
    sourceNames,
    fail(key, expected, value) {
      throw new CtxinjectError(`${file}: "${key}" must be ${expected}, got ${describe(value)}`);
    },
    object(value, key) {
      if (value === null || typeof value !== "object" || Array.isArray(value)) c.fail(key, "an object", value);
      return value as Record<string, unknown>;
    },
    known(obj, keys, at) {
      for (const key of Object.keys(obj)) {
        if (!keys.includes(key)) {
          // The key is the file's text too: shown short and redacted, like a value.
          const where = at ? `${at}.${configExcerpt(key)}` : configExcerpt(key);
          throw new CtxinjectError(`${file}: unknown key "${where}" (expected one of: ${keys.join(", ")})`);
        }
      }
    },
    shape(obj, checks, at) {
      c.known(obj, Object.keys(checks), at);
      for (const [key, value] of Object.entries(obj)) {
        if (value !== undefined) checks[key]!(value, at ? `${at}.${key}` : key, c);
      }
    },
  };
  // A file that is not an object at all is most likely not a config (a symlink to some other file): its text is not shown.
  if (raw !== null && raw !== undefined && (typeof raw !== "object" || Array.isArray(raw))) {
    throw new CtxinjectError(`${file}: must hold an object of settings, got ${Array.isArray(raw) ? "a list" : `a ${typeof raw}`}`);
  }
  const top = c.object(raw ?? {}, "(config)");
  c.shape(top, topChecks(hosts), "");
  return top as UserConfig;
}

/** The table's checks by key: a group's is its members' shape. */
function topChecks(hosts: readonly HostConfig[]): Record<string, Check> {
  return Object.fromEntries(
    tableEntries(hosts).map(([name, entry]): [string, Check] => {
      if (!isGroup(entry)) return [name, entry.kind.check];
      const members = Object.fromEntries(Object.entries(entry.members).map(([member, leaf]) => [member, leaf.kind.check]));
      return [name, (v, k, c) => c.shape(c.object(v, k), members, k)];
    }),
  );
}

/** The settings with every default filled in, the hosts' groups (`hosts`) included. */
export function completeConfig(user: UserConfig, hosts: readonly HostConfig[] = []): Config {
  const given = user as Record<string, unknown>;
  const config: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(CONFIG_TABLE) as Array<[string, Entry]>) {
    if (!isGroup(entry)) {
      const value = given[name] ?? fresh(entry.default);
      if (value !== undefined) config[name] = value;
      continue;
    }
    const parts = (given[name] ?? {}) as Record<string, unknown>;
    const filled: Record<string, unknown> = {};
    for (const [member, leaf] of Object.entries(entry.members)) {
      const value = parts[member] ?? fresh(leaf.default);
      if (value !== undefined) filled[member] = value;
    }
    config[name] = filled;
  }
  // The hosts' groups by their defaults alone: tableEntries would make each group's checks and docs, unused here.
  for (const host of derivedHosts(hosts)) {
    const parts = (given[host.key] ?? {}) as Record<string, unknown>;
    const filled: Record<string, unknown> = {};
    for (const [member, value] of Object.entries(hostGroupDefaults(host))) filled[member] = parts[member] ?? value;
    config[host.key] = filled;
  }
  return config as Config;
}

/** Longest excerpt of a wrong value a message shows: enough to recognise it, never a file's worth. */
const EXCERPT_CHARS = 40;

/**
 * A wrong value as a message shows it. A config may be a symlink to a file of secrets: a string is redacted before it
 * is cut short (a cut token would no longer look like one), and never shown whole beyond EXCERPT_CHARS.
 */
function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return "a list";
  if (value === null) return "null";
  if (typeof value === "object") return "an object";
  if (typeof value !== "string") return `${typeof value} ${String(value)}`;
  return `string ${JSON.stringify(configExcerpt(value))}`;
}

/** A short, redacted excerpt of text from a config file, for a message. */
function configExcerpt(text: string): string {
  const redacted = redactSecrets(text).text;
  return redacted.length > EXCERPT_CHARS ? `${redacted.slice(0, EXCERPT_CHARS)}...` : redacted;
}
