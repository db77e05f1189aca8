import type { AgentProfile, AgentSettings } from "../core/agents/profile.js";
import type { ProjectDirAccess } from "../core/command-line.js";
import type { Config, HostConfig, HostSettings } from "../core/config.js";

/**
 * One agent CLI ctxinject runs inside, described once (src/hosts/<host>.ts, one line in HOSTS): the hook dispatch,
 * `init`'s flags and the settings each writes, the names `--as` takes, doctor's agent tags and its config group
 * (`<short>.includeNative`, and `<short>.maxChars` where it declares `maxCharsSetting`) all follow from it. Pure like core (no fs, no process): what needs the disk (its settings files) is
 * handed in by io.
 */
export interface Host {
  /** The profile name: what `--as`, `hook` and `init --<name>` take, and doctor's tag. */
  name: string;
  /** The short name people type: `hook claude`, `init --claude` (the same as `name` where there is none). */
  short: string;
  /** For people: "Claude Code". */
  label: string;
  /** What it loads by itself with its defaults (core/agents/<agent>.ts). */
  profile: AgentProfile;
  /** Its profile as its own settings have it, for a host whose settings change what it loads. */
  configure?(settings: AgentSettings): AgentProfile;
  /** Its own settings that change what it loads, read through io's `files` (io/agent-settings.ts). */
  readSettings?(files: SettingsFiles): AgentSettings | undefined;
  /**
   * Its cap on injected text, in characters, where it has one: config `<short>.maxChars` is at most `cap` (the
   * host's own limit), `default` when unset; `doc` is its line in the docs.
   */
  maxCharsSetting?: { cap: number; default: number; doc: string };
  /** Its command hooks (`ctxinject hook <short>`): events → actions, and the answer's shape. */
  hook?: CommandHook;
  /**
   * Events as it writes them on a hook's standard input, one per kind it sends (a prompt, a file read…): the bundle's
   * code cache is trained on them (scripts/bundle.mjs), `npm run bench` times them (test/bench/host-events.ts) and
   * the hook test plays them (test/e2e/host-hooks.test.ts). A host with hooks declares at least one.
   */
  samples?: readonly HostSample[];
  /**
   * What `init --<short>` installs: command hooks merged into a settings file, a plugin of opencode's API with its
   * package, or one plugin file that hands events to `ctxinject hook <short>` (Cline's).
   */
  install: { settings: HookSettings; note?: string } | { plugin: PluginInstall } | { pluginFile: { file: string; writes: string } };
  /** Files at a repository's root that show it is set up for this host (`init` without a flag lists them). */
  markers: readonly string[];
  /**
   * Whether this host is the one running a hook, told by the environment it gives hooks; for a host that also runs
   * another host's hooks (Copilot CLI runs Claude Code's): that other host's hook then answers nothing.
   */
  runsHook?(env: Readonly<Record<string, string | undefined>>): boolean;
}

/** Where a sample event is played: the project, a file in it and a prompt that names that file. */
export interface SamplePlace {
  /** The project root, absolute. */
  root: string;
  /** The file, root-relative with "/" (`sampleFile(place)` is its absolute path). */
  file: string;
  prompt: string;
}

/** One event a host sends, as it writes it: every field but the session's id and the folder, which the player adds. */
export interface HostSample {
  /** The event and, for a tool's, the tool: "PostToolUse (Read)". */
  label: string;
  event(place: SamplePlace): Record<string, unknown>;
}

/** A file of the project by its absolute path, as most hosts name a file a tool read (pure: no node:path here). */
export const sampleFile = (place: SamplePlace): string => `${place.root.replace(/\/+$/, "")}/${place.file}`;

/** A host whose events `ctxinject hook <short>` answers: from command hooks in its settings, or from a plugin file. */
export type HookAnsweringHost = Host & { hook: CommandHook };

/** The host's config group as core's table takes it (HOST_CONFIG in src/hosts/index.ts). */
export function hostConfigOf(host: Host): HostConfig {
  return {
    key: host.short,
    label: host.label,
    doc: host.hook ? `ctxinject hook ${host.short}` : `the ${host.label} plugin`,
    ...(host.maxCharsSetting && { maxChars: host.maxCharsSetting }),
  };
}

/**
 * What a host's config group says in `config`: its defaults where the config has no such group (a config completed
 * without the hosts' groups, as a library caller's defaultConfig() may be).
 */
export function hostSettings(host: Host, config: Config): HostSettings {
  const group = config[host.short] as Partial<HostSettings> | undefined;
  const maxChars = group?.maxChars ?? host.maxCharsSetting?.default;
  return { includeNative: group?.includeNative ?? false, ...(maxChars !== undefined && { maxChars }) };
}

/**
 * A host that loads ctxinject as a plugin (opencode's plugin API): a loader file in its config folder, and the
 * host's own plugin package installed there, which it otherwise installs over the network at every start.
 */
export interface PluginInstall {
  /** The project's config folder (`.opencode`), and the plugin file in it (`plugins/ctxinject.js`). */
  folder: string;
  file: string;
  /** The user's config folder under $XDG_CONFIG_HOME (or ~/.config), for `init --user`, where the host has one. */
  user?: string;
  /** ctxinject's module the loader imports: `ctxinject/<entry>` (package.json's exports). */
  entry: string;
  /** The host's plugin package it installs into each config folder at start (offline: it waits for it). */
  package: { name: string; version: string };
}

/** A host that runs ctxinject as a command hook. */
export type CommandHookHost = Host & { hook: CommandHook; install: { settings: HookSettings; note?: string } };

export interface CommandHook {
  /** The event in the fields ctxinject reads, for a host whose events name them otherwise (Cursor's `conversation_id`). */
  event?(raw: Record<string, unknown>): HookEvent;
  action(event: HookEvent): HookAction;
  /** The JSON the host expects on stdout for context on this event. */
  answer(eventName: string, context: string): unknown;
}

/**
 * The fields of a command-hook event that ctxinject reads (Claude Code's wire format, which Codex shares and
 * Gemini CLI follows closely); everything else is ignored.
 */
export interface HookEvent {
  hook_event_name?: string;
  session_id?: string;
  cwd?: string;
  prompt?: string;
  tool_name?: string;
  tool_input?: Record<string, unknown>;
  source?: string;
  reason?: string;
  agent_id?: string;
  agent_type?: string;
}

/** What one event asks of ctxinject. */
export type HookAction =
  | { select: { prompt?: string; files?: string[]; readByAgent?: boolean } }
  /** The files a shell command names, when any exists; nothing otherwise. */
  | { mentions: string }
  /** Forget what was injected (/clear): the rules come back. */
  | { reset: "injected" }
  /** A compaction: forget what was injected, and give a digest of what was in force (compaction-digest.ts). */
  | { digest: true }
  /** Forget the session altogether. */
  | { reset: "session" }
  | null;

/** One host's hook settings: where they live, which events ctxinject answers, how a command names the project. */
export interface HookSettings {
  /** The settings file, relative to the project root or to HOME (`user`). */
  project: string;
  user: string;
  /** A variable that moves the user's folder (`$COPILOT_HOME`), and the file under it then. */
  userVariable?: { name: string; file: string };
  /** Top-level fields the settings file carries besides `hooks` (Copilot CLI's `version`). */
  fields?: Readonly<Record<string, unknown>>;
  /** The events, and the tools each one is for. */
  events: ReadonlyArray<{ event: string; matcher?: string }>;
  /** The timeout field's value in the host's unit (seconds for Claude Code and Codex, milliseconds for Gemini CLI). */
  timeout: number;
  /** How a command reaches the project folder, for a project's install named without PATH. */
  projectDir: ProjectDirAccess;
  /**
   * Cursor's hooks.json: `{"version": 1, "hooks": {"<event>": [{command, timeout, matcher}]}}`, one entry per
   * command instead of Claude's matcher groups, and the file's version.
   */
  flat?: { version: number };
}

/** A host's settings files as io reads them: bounded, a file that does not parse is a warning naming it. */
export interface SettingsFiles {
  root: string;
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  platform: string;
  /** `rel` under `base`. */
  under(base: string, rel: string): string;
  /** A project file by its root-relative path, a home file with ~. */
  shown(file: string): string;
  /** A JSON (with comments) file's object; undefined when absent, unreadable or not an object (warned). */
  json(file: string): Record<string, unknown> | undefined;
  /** A TOML file's object, parsed only when `worth(text)` (else {}); undefined as for json. */
  toml(file: string, worth: (text: string) => boolean): Record<string, unknown> | undefined;
}

/** A string or a list of strings, trimmed, empty ones dropped; undefined for anything else. */
export const strings = (value: unknown): string[] | undefined =>
  typeof value === "string" && value.trim() !== ""
    ? [value.trim()]
    : Array.isArray(value) && value.every((v) => typeof v === "string")
      ? value.map((v) => v.trim()).filter(Boolean)
      : undefined;

/** The path a file tool's input names (`file_path`, `notebook_path`, `path`, `absolute_path`), if any. */
export function filePathOf(input: Record<string, unknown> | undefined): string | undefined {
  for (const key of ["file_path", "notebook_path", "path", "absolute_path", "filePath"]) {
    const value = input?.[key];
    if (typeof value === "string" && value !== "") return value;
  }
  return undefined;
}

/** Claude Code's answer shape, shared by Codex: `hookSpecificOutput.additionalContext`. */
export const additionalContext = (hookEventName: string, context: string) => ({ hookSpecificOutput: { hookEventName, additionalContext: context } });
