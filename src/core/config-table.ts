import { FORMATS, PRIORITIES, SOURCES, TOKENIZERS, type Format, type Priority, type TokenizerName } from "./types.js";

/**
 * The config written once. Each setting is one row: its kind (the check, and the words its message and the docs
 * use), its default, the flag that overrides it, what a repository's config may not set (a weakening value: see
 * config-layers.ts) and one line of docs. The types (UserConfig, Config), the checks, the defaults, the layering,
 * init's template and the README's table are derived from it (config.ts, config-layers.ts, config-docs.ts).
 * Imports only leaf modules: the source modules' names come in at check time, so that the sources, which read the
 * config, are not tied into a cycle with it; the hosts' groups (`<short>.includeNative`…) come in the same way, each
 * host declaring its own (src/hosts, HOST_CONFIG), for core knows no host by name.
 */

export interface SourceSettings {
  enabled?: boolean;
  priority?: Priority;
}

export interface KeywordSettings {
  pattern?: string;
  content?: string;
  priority?: Priority;
  enabled?: boolean;
}

export interface CustomSetting {
  id: string;
  content?: string;
  file?: string;
  priority?: Priority;
}

/** What a check is handed: failures that name the file, and the source modules' names `sources.<name>` may use. */
export interface CheckContext {
  fail(key: string, expected: string, value: unknown): never;
  object(value: unknown, key: string): Record<string, unknown>;
  /** Refuses a key of `obj` that `checks` does not name, then checks each value given. */
  shape(obj: Record<string, unknown>, checks: Record<string, Check>, at: string): void;
  known(obj: Record<string, unknown>, keys: readonly string[], at: string): void;
  sourceNames: readonly string[];
}

export type Check = (value: unknown, key: string, c: CheckContext) => void;

/** A value's kind: `expected` is both the message's "must be ..." and the docs' type. `T` types it (never set). */
export interface Kind<T> {
  readonly expected: string;
  readonly check: Check;
  readonly value?: T;
}

const kind = <T>(expected: string, test: (value: unknown) => boolean): Kind<T> => ({
  expected,
  check: (v, k, c) => {
    if (!test(v)) c.fail(k, expected, v);
  },
});
const oneOf = <const C extends readonly string[]>(choices: C): Kind<C[number]> =>
  kind(`one of ${choices.join(", ")}`, (v) => typeof v === "string" && choices.includes(v));
const bool = kind<boolean>("true or false", (v) => typeof v === "boolean");
const text = kind<string>("a non-empty string", (v) => typeof v === "string" && v !== "");
const texts: Kind<string[]> = {
  expected: "a list of strings",
  check: (v, k, c) => {
    if (!Array.isArray(v)) c.fail(k, "a list of strings", v);
    (v as unknown[]).forEach((item, i) => text.check(item, `${k}[${i}]`, c));
  },
};
const whole = (expected: string, min: number, max = Infinity) =>
  kind<number>(expected, (v) => Number.isInteger(v) && (v as number) >= min && (v as number) <= max);
const priority = oneOf(PRIORITIES);
const regex: Kind<string> = {
  expected: "a regular expression",
  check: (v, k, c) => {
    text.check(v, k, c);
    try {
      new RegExp(v as string, "i");
    } catch (error) {
      // V8's message repeats the whole pattern: only the reason after it.
      c.fail(k, `a valid regular expression (${(error as Error).message.replace(/^Invalid regular expression: \/[\s\S]*\/[a-z]*: /, "")})`, v);
    }
  },
};

/** The user's embedding server (docs/relevance.md, "Embeddings"); io/embeddings.ts fills in what is left unset. */
export interface EmbeddingsSetting {
  provider: "ollama" | "openai";
  model: string;
  baseUrl?: string;
  timeoutMs?: number;
  queryPrefix?: string;
  documentPrefix?: string;
  minSimilarity?: number;
}

export const EMBEDDING_PROVIDERS = ["ollama", "openai"] as const;

const anyString = kind<string>("a string", (v) => typeof v === "string");
const httpUrl = kind<string>("an http:// or https:// address", (v) => typeof v === "string" && /^https?:\/\/[^\s/]+/i.test(v));
const embeddings: Kind<EmbeddingsSetting> = {
  expected: "{ provider, model, baseUrl, timeoutMs, queryPrefix, documentPrefix, minSimilarity }",
  check: (v, k, c) => {
    const obj = c.object(v, k);
    c.shape(
      obj,
      {
        provider: oneOf(EMBEDDING_PROVIDERS).check,
        model: text.check,
        baseUrl: httpUrl.check,
        timeoutMs: whole("a whole number of milliseconds from 1 to 10000", 1, 10_000).check,
        queryPrefix: anyString.check,
        documentPrefix: anyString.check,
        minSimilarity: kind<number>("a number from -1 to 1", (n) => typeof n === "number" && n >= -1 && n <= 1).check,
      },
      k,
    );
    if (obj.provider === undefined) c.fail(`${k}.provider`, "one of ollama, openai", undefined);
    if (obj.model === undefined) c.fail(`${k}.model`, "a non-empty string", undefined);
  },
};

/** Modes the keyword detector knows without configuration (their text lives in core/prompt/keywords.ts). */
export const BUILTIN_KEYWORDS = ["ultrawork", "search", "analyze"];

const sources: Kind<Partial<Record<string, SourceSettings>>> = {
  expected: "{ enabled, priority }",
  check: (v, k, c) => {
    const obj = c.object(v, k);
    c.known(obj, [...SOURCES, ...c.sourceNames], k);
    for (const [name, settings] of Object.entries(obj)) {
      c.shape(c.object(settings, `${k}.${name}`), { enabled: bool.check, priority: priority.check }, `${k}.${name}`);
    }
  },
};
const keywords: Kind<Record<string, KeywordSettings>> = {
  expected: "{ pattern, content, priority, enabled }",
  check: (v, k, c) => {
    for (const [mode, settings] of Object.entries(c.object(v, k))) {
      const at = `${k}.${mode}`;
      const entry = c.object(settings, at);
      c.shape(entry, { pattern: regex.check, content: text.check, priority: priority.check, enabled: bool.check }, at);
      if (!BUILTIN_KEYWORDS.includes(mode) && (entry.pattern === undefined || entry.content === undefined)) {
        c.fail(at, "a new mode with both pattern and content", settings);
      }
    }
  },
};
const custom: Kind<CustomSetting[]> = {
  expected: "a list of { id, content | file, priority }",
  check: (v, k, c) => {
    if (!Array.isArray(v)) c.fail(k, "a list of { id, content | file, priority }", v);
    (v as unknown[]).forEach((item, i) => {
      const at = `${k}[${i}]`;
      const entry = c.object(item, at);
      c.shape(entry, { id: text.check, content: text.check, file: text.check, priority: priority.check }, at);
      if (entry.id === undefined) c.fail(`${at}.id`, "a non-empty string", undefined);
      if ((entry.content === undefined) === (entry.file === undefined)) c.fail(at, "an entry with exactly one of content or file", item);
    });
  },
};

/** A repository's config may not set a value that `weakens` ctxinject (config-layers.ts): `guarded` says which, `why` why. */
interface UserOnly {
  weakens(value: unknown): boolean;
  guarded: string;
  why: string;
}

interface Leaf<T, Defaulted extends boolean> {
  readonly kind: Kind<T>;
  /** Filled into Config when no layer sets it; none: unset means "decided elsewhere" (`unset` says what happens). */
  readonly default: Defaulted extends true ? T : undefined;
  readonly doc: string;
  /** What an unset value comes to (init's template and the docs show it). */
  readonly unset?: T;
  /** The flag that wins over the config. */
  readonly flag?: string;
  readonly userOnly?: UserOnly;
  /** A record keyed by this (`sources.<name>`), as the docs name it. */
  readonly each?: string;
  /** Commented examples under the key in init's template. */
  readonly example?: readonly string[];
}

export interface Group<M extends Record<string, AnyLeaf>> {
  readonly members: M;
  readonly doc: string;
}

// biome-ignore lint/suspicious/noExplicitAny: a table row of any value type
type AnyLeaf = Leaf<any, boolean>;
export type Entry = AnyLeaf | Group<Record<string, AnyLeaf>>;

type LeafSpec<T> = Omit<Leaf<T, boolean>, "kind" | "default">;
function setting<T>(kind: Kind<T>, spec: LeafSpec<T> & { default: T }): Leaf<T, true>;
function setting<T>(kind: Kind<T>, spec: LeafSpec<T>): Leaf<T, false>;
function setting<T>(kind: Kind<T>, spec: LeafSpec<T> & { default?: T }): Leaf<T, boolean> {
  return { ...spec, kind, default: spec.default } as Leaf<T, boolean>;
}
const group = <M extends Record<string, AnyLeaf>>(doc: string, members: M): Group<M> => ({ doc, members });

export const DEFAULT_AGENT_FILES = ["AGENTS.md"];
/** A hook's deadline unless the user sets another (config hookDeadlineMs). */
export const DEFAULT_HOOK_DEADLINE_MS = 1500;

/** What an unset format and tokenizer come to (core/options.ts resolveOptions). */
export const DEFAULT_FORMAT: Format = "markdown";
export const DEFAULT_TOKENIZER: TokenizerName = "approx";

/**
 * The token budget of a targeted build when neither a flag nor the config sets one: one target in a real monorepo
 * gathered 26,952 tokens (round 3), a quarter of a model's window before the user's own words. `--all` (generated
 * files) and the hooks (their host's cap) have none unless one is set.
 */
export const DEFAULT_MAX_TOKENS = 8000;

/**
 * A description-only rule is included when its score reaches this threshold (and phases/score.ts's RELATIVE_TO_BEST
 * of the best score of the same prompt). Chosen in round 3 on every split written before it (npm run relevance),
 * then frozen.
 */
export const DEFAULT_MIN_RELEVANCE = 0.35;

const INCLUDE_NATIVE_DEFAULT = false;
const includeNative = (host: string) => setting(bool, { default: INCLUDE_NATIVE_DEFAULT, doc: `also send what ${host} loads itself` });

/** Every setting, in the order init's template, the docs and explain list them. */
export const CONFIG_TABLE = {
  format: setting(oneOf(FORMATS), { unset: DEFAULT_FORMAT, flag: "--format", doc: "output format" }),
  maxTokens: setting(whole("a positive whole number", 1), {
    unset: DEFAULT_MAX_TOKENS,
    flag: "--max-tokens",
    doc: "token budget of a targeted build; `--all` and hooks have none unless set (hosts keep their own caps)",
  }),
  tokenizer: setting(oneOf(TOKENIZERS), { unset: DEFAULT_TOKENIZER, flag: "--tokenizer", doc: "how tokens are counted" }),
  minRelevance: setting(
    kind<number>("a number from 0 to 1", (v) => typeof v === "number" && !(v < 0 || v > 1)),
    {
      unset: DEFAULT_MIN_RELEVANCE,
      flag: "--min-relevance",
      doc: "threshold for description-only rules and skills",
    },
  ),
  mode: setting(text, { flag: "--mode", doc: "the agent mode, for Roo Code's `.roo/rules-<mode>` and Kilo Code's `.kilocode/rules-<mode>`" }),
  sources: setting(sources, {
    default: {},
    each: "name",
    doc: "turn a source (`rules-injector`) or a format (`windsurf`) off, or set its priority",
    example: ["directory-readme: { enabled: false }", "rules-injector: { priority: high }"],
  }),
  rules: group("extra rules folders", {
    dirs: setting(texts, { default: [], doc: "extra rules folders, read like `.cursor/rules` at the root and above each target" }),
  }),
  skills: group("extra skills folders", { dirs: setting(texts, { default: [], doc: "extra skills folders" }) }),
  agents: group("agent instruction files read from the root down to each target", {
    files: setting(texts, { default: DEFAULT_AGENT_FILES, doc: "per-folder agent files, e.g. `[AGENTS.md, CLAUDE.md, GEMINI.md]`" }),
    skipRoot: setting(bool, { default: false, doc: "leave the root file to the agent that loads it itself" }),
    readIgnored: setting(bool, { default: true, doc: "read git-ignored agent files (`CLAUDE.local.md`, `AGENTS.override.md`)" }),
  }),
  keywords: setting(keywords, {
    default: {},
    each: "mode",
    doc: "change, disable or add keyword modes (a pattern is a case-insensitive regular expression); only `ultrawork`/`ulw` fire by default, `search: {}` or `analyze: {}` turns one on",
    example: ["search: {}", 'review: { pattern: "\\\\breview (this|my) pr\\\\b", content: "Review like a maintainer.", priority: high }'],
  }),
  custom: setting(custom, {
    default: [],
    doc: "entries of your own, always included",
    example: ["- id: house-style", '  content: "Answer in British English."', "  priority: high", "- id: glossary", "  file: docs/glossary.md"],
  }),
  ignore: setting(texts, { default: [], doc: "paths that are never a source (globs, relative to the root)", example: ['- "legacy/**"'] }),
  redact: setting(bool, {
    default: true,
    doc: "replace credentials by `[REDACTED:<kind>]`",
    userOnly: { weakens: (v) => v === false, guarded: "false", why: "it turns the redaction of credentials off" },
  }),
  hiddenCharacters: setting(oneOf(["strip", "keep"]), {
    default: "strip",
    doc: "remove invisible characters (tags, bidi overrides, zero-width inside words), with a warning",
    userOnly: { weakens: (v) => v === "keep", guarded: "keep", why: "it keeps invisible characters in the output" },
  }),
  allowOutside: setting(texts, {
    default: [],
    doc: "folders outside the root that symlinks may lead to",
    userOnly: { weakens: (v) => Array.isArray(v) && v.length > 0, guarded: "any folder", why: "it lets symlinks lead to files outside the project" },
  }),
  sessions: group("sessions", {
    maxAgeHours: setting(
      kind<number>("a positive number", (v) => typeof v === "number" && v > 0),
      { default: 24 * 7, doc: "unused sessions are removed after this many hours" },
    ),
  }),
  hookDeadlineMs: setting(whole("a whole number of milliseconds from 1 to 600000", 1, 600_000), {
    default: DEFAULT_HOOK_DEADLINE_MS,
    doc: "a hook stops reading, redacting and comparing at this long and answers with what it found by then: it never holds the host up",
    userOnly: {
      weakens: (v) => typeof v === "number" && v > DEFAULT_HOOK_DEADLINE_MS,
      guarded: `above ${DEFAULT_HOOK_DEADLINE_MS}`,
      why: `above ${DEFAULT_HOOK_DEADLINE_MS} ms it lets a repository hold the agent up on every prompt`,
    },
  }),
  doctor: group("ctxinject doctor", {
    maxChainTokens: setting(whole("a positive whole number of tokens", 1), {
      default: 8000,
      doc: "`doctor` reports agent-file chains longer than this many tokens",
    }),
  }),
  compaction: group("after a host compacts a conversation", {
    budgetFraction: setting(
      kind<number>("a number above 0 and at most 1", (v) => typeof v === "number" && v > 0 && v <= 1),
      {
        default: 0.25,
        doc: "share of a hook's cap for the digest of what was in force",
      },
    ),
  }),
  relevance: group("description-only rules and skills scored against the prompt", {
    embeddings: setting(embeddings, {
      doc: "opt-in semantic scoring through your own embedding server (`ollama` or `openai`-compatible): it reorders and widens the likely tier, never injects; your own config or `CTXINJECT_EMBEDDINGS_*` only (docs/relevance.md)",
      example: ['embeddings: { provider: ollama, model: nomic-embed-text, baseUrl: "http://127.0.0.1:11434" }'],
      userOnly: {
        weakens: (v) => v !== undefined,
        guarded: "any value",
        why: "it would send your prompts to an address the repository chooses",
      },
    }),
  }),
  allReadmes: setting(bool, { unset: false, doc: "`--all` reads every README, not only the root's and package roots'" }),
};

/**
 * A host's config group as its Host declares it (src/hosts/host.ts hostConfigOf): `<key>.includeNative` always,
 * `<key>.maxChars` where the host caps what a hook adds. The groups follow the table's own settings, in HOSTS' order.
 */
export interface HostConfig {
  /** The group's key: the host's short name. */
  key: string;
  /** For people: the host's label, in its members' docs. */
  label: string;
  /** The group's line in init's template: `ctxinject hook <short>`. */
  doc: string;
  /** Config `<key>.maxChars`: at most `cap` (the host's own limit), `default` when unset, `doc` its line. */
  maxChars?: { cap: number; default: number; doc: string };
}

/** What a host's group holds once the config is complete. */
export interface HostSettings {
  includeNative: boolean;
  maxChars?: number;
}

export function hostGroup(host: HostConfig): Group<Record<string, AnyLeaf>> {
  const cap = host.maxChars;
  return group(host.doc, {
    includeNative: includeNative(host.label),
    ...(cap && { maxChars: setting(whole(`a whole number from 100 to ${cap.cap}`, 100, cap.cap), { default: cap.default, doc: cap.doc }) }),
  });
}

/**
 * A host's group's defaults, as hostGroup's members have them, without making its checks and docs: what every run
 * fills in (completeConfig), ten hosts' groups otherwise made on each start.
 */
export function hostGroupDefaults(host: HostConfig): Record<string, unknown> {
  return host.maxChars ? { includeNative: INCLUDE_NATIVE_DEFAULT, maxChars: host.maxChars.default } : { includeNative: INCLUDE_NATIVE_DEFAULT };
}

/** The hosts whose groups follow the table's own settings: a group written in CONFIG_TABLE under a host's key is that host's. */
export const derivedHosts = (hosts: readonly HostConfig[]): readonly HostConfig[] => hosts.filter((h) => !Object.hasOwn(CONFIG_TABLE, h.key));

/**
 * The table's entries with the hosts' groups after them. A group written by hand in CONFIG_TABLE under a host's key
 * is that host's group (the derived one is not added): the two can never both be there.
 */
export function tableEntries(hosts: readonly HostConfig[] = []): Array<[string, Entry]> {
  const own = Object.entries(CONFIG_TABLE) as Array<[string, Entry]>;
  return [...own, ...derivedHosts(hosts).map((h): [string, Entry] => [h.key, hostGroup(h)])];
}

type Table = typeof CONFIG_TABLE;

type UserValue<E> = E extends Group<infer M> ? { [K in keyof M]?: UserValue<M[K]> } : E extends Leaf<infer T, boolean> ? T : never;
type FullValue<E> = E extends Group<infer M> ? Filled<M> : E extends Leaf<infer T, boolean> ? T : never;
type Unset<M> = { [K in keyof M]: M[K] extends Leaf<unknown, false> ? K : never }[keyof M];
type Filled<M> = { [K in Exclude<keyof M, Unset<M>>]: FullValue<M[K]> } & { [K in Unset<M>]?: FullValue<M[K]> };
type Flat<T> = { [K in keyof T]: T[K] };

/**
 * A host's group (`<short>: { includeNative }`), by its host's short name: the hosts are not known here, so the types
 * leave them open; src/hosts reads them with hostSettings.
 */
type HostGroups = { [hostGroup: string]: unknown };

/** The config file as a user writes it: every key optional. `defineConfig` types it. */
export type UserConfig = { [K in keyof Table]?: UserValue<Table[K]> } & HostGroups;

/** The settings a run works with: every default filled in; a key without a default stays unset ("decided elsewhere"). */
export type Config = Flat<Filled<Table>> & HostGroups;

export const isGroup = (entry: Entry): entry is Group<Record<string, AnyLeaf>> => "members" in entry;

/** Every leaf setting by its dotted key (`agents.files`), in the table's order, the hosts' groups last. */
export function configLeaves(hosts: readonly HostConfig[] = []): Array<{ key: string; leaf: AnyLeaf; group?: string }> {
  const out: Array<{ key: string; leaf: AnyLeaf; group?: string }> = [];
  for (const [name, entry] of tableEntries(hosts)) {
    if (isGroup(entry)) for (const [member, leaf] of Object.entries(entry.members)) out.push({ key: `${name}.${member}`, leaf, group: name });
    else out.push({ key: name, leaf: entry });
  }
  return out;
}
