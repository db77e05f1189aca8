import { claudeCode } from "./agents/claude-code.js";
import { CtxinjectError } from "./errors.js";
import { redactSecrets } from "./redact.js";
import { SOURCE_MODULES } from "./sources/index.js";
import {
  FORMATS,
  PRIORITIES,
  SOURCES,
  TOKENIZERS,
  type Format,
  type Priority,
  type TokenizerName,
} from "./types.js";

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

/** The config file as a user writes it: every key optional. `defineConfig` types it. */
export interface UserConfig {
  format?: Format;
  maxTokens?: number;
  tokenizer?: TokenizerName;
  minRelevance?: number;
  sources?: Partial<Record<string, SourceSettings>>;
  rules?: { dirs?: string[] };
  skills?: { dirs?: string[] };
  agents?: { files?: string[]; skipRoot?: boolean; readIgnored?: boolean };
  /** The agent mode in use, for mode-specific rules (Roo Code's `.roo/rules-{mode}`). */
  mode?: string;
  keywords?: Record<string, KeywordSettings>;
  custom?: CustomSetting[];
  ignore?: string[];
  redact?: boolean;
  hiddenCharacters?: "strip" | "keep";
  allowOutside?: string[];
  sessions?: { maxAgeHours?: number };
  hookDeadlineMs?: number;
  /** --all: every folder's README (default: the root's and package roots' only). */
  allReadmes?: boolean;
  doctor?: { maxChainTokens?: number };
  compaction?: { budgetFraction?: number };
  claude?: { includeNative?: boolean; maxChars?: number };
  opencode?: { includeNative?: boolean };
  codex?: { includeNative?: boolean };
  gemini?: { includeNative?: boolean };
}

export interface Config {
  format?: Format;
  maxTokens?: number;
  tokenizer?: TokenizerName;
  minRelevance?: number;
  /** By contract source name (`rules-injector`) or by module name (`windsurf`, `claude-md`…). */
  sources: Partial<Record<string, SourceSettings>>;
  rules: { dirs: string[] };
  skills: { dirs: string[] };
  /** `readIgnored`: read agent files (CLAUDE.local.md, AGENTS.override.md…) even where git ignores them. */
  agents: { files: string[]; skipRoot: boolean; readIgnored: boolean };
  mode?: string;
  keywords: Record<string, KeywordSettings>;
  custom: CustomSetting[];
  ignore: string[];
  redact: boolean;
  /** Invisible characters in instruction files (core/hidden.ts): removed from the output, or kept. */
  hiddenCharacters: "strip" | "keep";
  /** Folders outside the root that symlinks in the tree may lead to. */
  allowOutside: string[];
  sessions: { maxAgeHours: number };
  /** A hook answers within this long from its start, with nothing if it has to: it must not hold the host up. */
  hookDeadlineMs: number;
  /** --all reads every folder's README; otherwise the root's and package roots' only. */
  allReadmes?: boolean;
  /** `doctor`: an agent-file chain (AGENTS.md from the root down to a folder) longer than this is reported. */
  doctor: { maxChainTokens: number };
  /** After a host compacts a conversation: the digest of what was in force, within this share of the hook's cap. */
  compaction: { budgetFraction: number };
  /** `hook claude`: include what Claude Code loads itself; cap on additionalContext. */
  claude: { includeNative: boolean; maxChars: number };
  /** The other hosts' adapters: include what the host loads itself (default false). */
  opencode: { includeNative: boolean };
  codex: { includeNative: boolean };
  gemini: { includeNative: boolean };
}

/** Claude Code cuts additionalContext above its cap (the profile's); stay under it with room to spare. */
const CLAUDE_CAP = claudeCode.maxChars ?? 10_000;
export const CLAUDE_MAX_CHARS = CLAUDE_CAP - 500;

export const DEFAULT_AGENT_FILES = ["AGENTS.md"];
/** Modes the keyword detector knows without configuration (their text lives in core/prompt/keywords.ts). */
export const BUILTIN_KEYWORDS = ["ultrawork", "search", "analyze"];

/** A hook's deadline unless the user sets another (config hookDeadlineMs). */
export const DEFAULT_HOOK_DEADLINE_MS = 1500;

export function defaultConfig(): Config {
  return {
    sources: {},
    rules: { dirs: [] },
    skills: { dirs: [] },
    agents: { files: [...DEFAULT_AGENT_FILES], skipRoot: false, readIgnored: true },
    keywords: {},
    custom: [],
    ignore: [],
    redact: true,
    hiddenCharacters: "strip",
    allowOutside: [],
    sessions: { maxAgeHours: 24 * 7 },
    hookDeadlineMs: DEFAULT_HOOK_DEADLINE_MS,
    doctor: { maxChainTokens: 8000 },
    compaction: { budgetFraction: 0.25 },
    claude: { includeNative: false, maxChars: CLAUDE_MAX_CHARS },
    opencode: { includeNative: false },
    codex: { includeNative: false },
    gemini: { includeNative: false },
  };
}

export function defineConfig(config: UserConfig): UserConfig {
  return config;
}

type Check = (value: unknown, key: string) => void;

/**
 * Checks a loaded config object and fills in defaults. Any unknown key or wrong type is a CtxinjectError
 * (exit 2) naming the file, the key and what was expected.
 */
export function validateConfig(raw: unknown, file: string): Config {
  return completeConfig(checkConfig(raw, file));
}

/**
 * Checks a loaded config object (any unknown key or wrong type is a CtxinjectError naming the file, the key and what
 * was expected) and returns it as the settings it holds, nothing filled in: layers (user, repository) merge these.
 */
export function checkConfig(raw: unknown, file: string): UserConfig {
  const fail = (key: string, expected: string, value: unknown): never => {
    throw new CtxinjectError(`${file}: "${key}" must be ${expected}, got ${describe(value)}`);
  };
  const object = (value: unknown, key: string): Record<string, unknown> => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) fail(key, "an object", value);
    return value as Record<string, unknown>;
  };
  const known = (obj: Record<string, unknown>, keys: string[], at: string) => {
    for (const key of Object.keys(obj)) {
      if (!keys.includes(key)) {
        // The key is the file's text too: shown short and redacted, like a value.
        const where = at ? `${at}.${configExcerpt(key)}` : configExcerpt(key);
        throw new CtxinjectError(`${file}: unknown key "${where}" (expected one of: ${keys.join(", ")})`);
      }
    }
  };
  const oneOf = (choices: readonly string[]): Check => (v, k) => {
    if (typeof v !== "string" || !choices.includes(v)) fail(k, `one of ${choices.join(", ")}`, v);
  };
  const bool: Check = (v, k) => typeof v !== "boolean" && fail(k, "true or false", v);
  const str: Check = (v, k) => (typeof v !== "string" || v === "") && fail(k, "a non-empty string", v);
  const strings: Check = (v, k) => {
    if (!Array.isArray(v)) fail(k, "a list of strings", v);
    (v as unknown[]).forEach((item, i) => str(item, `${k}[${i}]`));
  };
  const positiveInt: Check = (v, k) => (!Number.isInteger(v) || (v as number) <= 0) && fail(k, "a positive whole number", v);
  const positiveNumber: Check = (v, k) => (typeof v !== "number" || !(v > 0)) && fail(k, "a positive number", v);
  const unitNumber: Check = (v, k) => (typeof v !== "number" || v < 0 || v > 1) && fail(k, "a number from 0 to 1", v);
  const priority = oneOf(PRIORITIES);
  const regex: Check = (v, k) => {
    str(v, k);
    try {
      new RegExp(v as string, "i");
    } catch (error) {
      // V8's message repeats the whole pattern: only the reason after it.
      fail(k, `a valid regular expression (${(error as Error).message.replace(/^Invalid regular expression: \/[\s\S]*\/[a-z]*: /, "")})`, v);
    }
  };

  const shape = (obj: Record<string, unknown>, checks: Record<string, Check>, at: string) => {
    known(obj, Object.keys(checks), at);
    for (const [key, value] of Object.entries(obj)) {
      if (value !== undefined) checks[key]!(value, at ? `${at}.${key}` : key);
    }
  };

  // A file that is not an object at all is most likely not a config (a symlink to some other file): its text is not shown.
  if (raw !== null && raw !== undefined && (typeof raw !== "object" || Array.isArray(raw))) {
    throw new CtxinjectError(`${file}: must hold an object of settings, got ${Array.isArray(raw) ? "a list" : `a ${typeof raw}`}`);
  }
  const top = object(raw ?? {}, "(config)");
  shape(
    top,
    {
      format: oneOf(FORMATS),
      maxTokens: positiveInt,
      tokenizer: oneOf(TOKENIZERS),
      minRelevance: unitNumber,
      sources: (v, k) => {
        const sources = object(v, k);
        known(sources, [...SOURCES, ...SOURCE_MODULES.map((m) => m.name)], k);
        for (const [name, settings] of Object.entries(sources)) {
          shape(object(settings, `${k}.${name}`), { enabled: bool, priority }, `${k}.${name}`);
        }
      },
      rules: (v, k) => shape(object(v, k), { dirs: strings }, k),
      skills: (v, k) => shape(object(v, k), { dirs: strings }, k),
      agents: (v, k) => shape(object(v, k), { files: strings, skipRoot: bool, readIgnored: bool }, k),
      mode: str,
      keywords: (v, k) => {
        for (const [mode, settings] of Object.entries(object(v, k))) {
          const at = `${k}.${mode}`;
          const entry = object(settings, at);
          shape(entry, { pattern: regex, content: str, priority, enabled: bool }, at);
          if (!BUILTIN_KEYWORDS.includes(mode) && (entry.pattern === undefined || entry.content === undefined)) {
            fail(at, "a new mode with both pattern and content", settings);
          }
        }
      },
      custom: (v, k) => {
        if (!Array.isArray(v)) fail(k, "a list of { id, content | file, priority }", v);
        (v as unknown[]).forEach((item, i) => {
          const at = `${k}[${i}]`;
          const entry = object(item, at);
          shape(entry, { id: str, content: str, file: str, priority }, at);
          if (entry.id === undefined) fail(`${at}.id`, "a non-empty string", undefined);
          if ((entry.content === undefined) === (entry.file === undefined)) fail(at, "an entry with exactly one of content or file", item);
        });
      },
      ignore: strings,
      redact: bool,
      allReadmes: bool,
      hiddenCharacters: oneOf(["strip", "keep"]),
      allowOutside: strings,
      sessions: (v, k) => shape(object(v, k), { maxAgeHours: positiveNumber }, k),
      compaction: (v, k) => shape(object(v, k), { budgetFraction: (x, key) => (typeof x !== "number" || !(x > 0 && x <= 1)) && fail(key, "a number above 0 and at most 1", x) }, k),
      doctor: (v, k) => shape(object(v, k), { maxChainTokens: (x, key) => (!Number.isInteger(x) || (x as number) < 1) && fail(key, "a positive whole number of tokens", x) }, k),
      hookDeadlineMs: (v, k) => (!Number.isInteger(v) || (v as number) < 1 || (v as number) > 600_000) && fail(k, "a whole number of milliseconds from 1 to 600000", v),
      claude: (v, k) =>
        shape(object(v, k), { includeNative: bool, maxChars: (x, key) => (!Number.isInteger(x) || (x as number) < 100 || (x as number) > CLAUDE_CAP) && fail(key, `a whole number from 100 to ${CLAUDE_CAP}`, x) }, k),
      opencode: (v, k) => shape(object(v, k), { includeNative: bool }, k),
      codex: (v, k) => shape(object(v, k), { includeNative: bool }, k),
      gemini: (v, k) => shape(object(v, k), { includeNative: bool }, k),
    },
    "",
  );
  return top as UserConfig;
}

/** The settings with every default filled in. */
export function completeConfig(user: UserConfig): Config {
  const config = defaultConfig();
  return {
    ...config,
    ...(user.format !== undefined && { format: user.format }),
    ...(user.maxTokens !== undefined && { maxTokens: user.maxTokens }),
    ...(user.tokenizer !== undefined && { tokenizer: user.tokenizer }),
    ...(user.minRelevance !== undefined && { minRelevance: user.minRelevance }),
    sources: user.sources ?? {},
    ...(user.mode !== undefined && { mode: user.mode }),
    ...(user.allReadmes !== undefined && { allReadmes: user.allReadmes }),
    rules: { dirs: user.rules?.dirs ?? [] },
    skills: { dirs: user.skills?.dirs ?? [] },
    agents: {
      files: user.agents?.files ?? config.agents.files,
      skipRoot: user.agents?.skipRoot ?? false,
      readIgnored: user.agents?.readIgnored ?? true,
    },
    keywords: user.keywords ?? {},
    custom: user.custom ?? [],
    ignore: user.ignore ?? [],
    redact: user.redact ?? true,
    hiddenCharacters: user.hiddenCharacters ?? "strip",
    allowOutside: user.allowOutside ?? [],
    sessions: { maxAgeHours: user.sessions?.maxAgeHours ?? config.sessions.maxAgeHours },
    hookDeadlineMs: user.hookDeadlineMs ?? config.hookDeadlineMs,
    doctor: { maxChainTokens: user.doctor?.maxChainTokens ?? config.doctor.maxChainTokens },
    compaction: { budgetFraction: user.compaction?.budgetFraction ?? config.compaction.budgetFraction },
    claude: { includeNative: user.claude?.includeNative ?? false, maxChars: user.claude?.maxChars ?? CLAUDE_MAX_CHARS },
    opencode: { includeNative: user.opencode?.includeNative ?? false },
    codex: { includeNative: user.codex?.includeNative ?? false },
    gemini: { includeNative: user.gemini?.includeNative ?? false },
  };
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
export function configExcerpt(text: string): string {
  const redacted = redactSecrets(text).text;
  return redacted.length > EXCERPT_CHARS ? `${redacted.slice(0, EXCERPT_CHARS)}...` : redacted;
}
