/**
 * HOSTS, the one list of the agent CLIs ctxinject runs inside: its order is the order of `init`'s flags and of the
 * names `hook` lists. The hook dispatch, `init`'s flags, the names `--as` takes, the profiles doctor tags files
 * with and the hosts' config groups (HOST_CONFIG) are derived from it (hostRegistry); agents without a host (read-only: their files are sources) keep their
 * profiles in core/agents/index.ts.
 */
import { READ_ONLY_AGENTS } from "../core/agents/index.js";
import type { AgentProfile, AgentSettings } from "../core/agents/profile.js";
import { claudeCodeHost } from "./claude-code.js";
import { clineHost } from "./cline.js";
import { codexHost } from "./codex.js";
import { copilotCliHost } from "./copilot-cli.js";
import { cursorAgentHost } from "./cursor-agent.js";
import { droidHost } from "./droid.js";
import { geminiCliHost } from "./gemini-cli.js";
import { hostConfigOf, type HookAnsweringHost, type Host } from "./host.js";
import { kiloHost } from "./kilo.js";
import { opencodeHost } from "./opencode.js";
import { qwenCodeHost } from "./qwen-code.js";

export const HOSTS: readonly Host[] = [
  claudeCodeHost,
  codexHost,
  geminiCliHost,
  opencodeHost,
  clineHost,
  qwenCodeHost,
  droidHost,
  copilotCliHost,
  kiloHost,
  cursorAgentHost,
];

const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Everything the CLI derives from a list of hosts (and the agents without one). */
export function hostRegistry(hosts: readonly Host[], readOnly: typeof READ_ONLY_AGENTS = READ_ONLY_AGENTS) {
  /** Every agent profile, by the name `--as` takes: the one table explain, build, doctor and the hooks read. */
  const profiles: Readonly<Record<string, AgentProfile>> = Object.fromEntries(
    [...hosts.map((h) => h.profile), ...readOnly.map((a) => a.profile)].sort((a, b) => byCode(a.name, b.name)).map((p) => [p.name, p]),
  );
  /**
   * The short names people type (`init --claude`, `hook claude`): each is the same agent as its profile's name, in
   * `--as`, `hook` and `init` alike.
   */
  const shortNames: Readonly<Record<string, string>> = Object.fromEntries([
    // A short name that is another agent's profile name (`copilot`, GitHub Copilot of the IDE; `cursor`, the editor) stays that profile
    // for `--as`; `hook` and `init` take it for the host (hookHost, initFlags).
    ...hosts.filter((h) => h.short !== h.name && !Object.hasOwn(profiles, h.short)).map((h) => [h.short, h.name]),
    ...readOnly.flatMap((a) => (a.short === undefined ? [] : [[a.short, a.profile.name]])),
  ]);
  const names = Object.keys(profiles);
  /** The profile name for an agent's name or short name (any case), or undefined for none. */
  const agentName = (name: string): string | undefined => {
    const lower = name.toLowerCase();
    if (Object.hasOwn(profiles, lower)) return lower;
    return Object.hasOwn(shortNames, lower) ? shortNames[lower] : undefined;
  };
  const hostNamed = (name: string): Host | undefined => hosts.find((h) => h.name === name);
  // A plugin host whose plugin runs `hook <short>` (Cline) is answered like a command-hook host.
  const commandHookHosts = hosts.filter((host): host is HookAnsweringHost => host.hook !== undefined);
  return {
    hosts,
    profiles,
    /** Profile names. */
    names,
    /** Every name an agent is accepted by: profile names first, then short names. */
    accepted: [...names, ...Object.keys(shortNames)],
    agentName,
    /** The host of a profile name, if the agent has one. */
    hostNamed,
    /** The hosts `ctxinject hook <name>` answers. */
    commandHookHosts,
    /** The host `hook <name>` answers for (by its short or profile name, any case). */
    hookHost: (name: string): HookAnsweringHost | undefined =>
      commandHookHosts.find((h) => h.short === name.toLowerCase()) ?? commandHookHosts.find((h) => h.name === agentName(name)),
    /** The flags `init` takes for hosts: `--<short>`, and `--<name>` where it differs (hidden). */
    initFlags: hosts.flatMap((h) => [
      { flag: `--${h.short}`, host: h, hidden: false },
      ...(h.name === h.short ? [] : [{ flag: `--${h.name}`, host: h, hidden: true }]),
    ]),
    /** Each host's config group (`<short>.includeNative`, `<short>.maxChars`), as core's config table takes them. */
    configGroups: hosts.map(hostConfigOf),
    /** The named agent's profile as its own settings have it; its defaults when it has none that matter. */
    profileFor(name: string, settings: AgentSettings = {}): AgentProfile | undefined {
      const configure = hostNamed(name)?.configure;
      return configure && Object.keys(settings).length > 0 ? configure(settings) : profiles[name];
    },
  };
}

const REGISTRY = hostRegistry(HOSTS);

export const AGENT_PROFILES = REGISTRY.profiles;
export const AGENT_NAMES = REGISTRY.names;
export const AGENT_NAMES_ACCEPTED = REGISTRY.accepted;
export const COMMAND_HOOK_HOSTS = REGISTRY.commandHookHosts;
export const INIT_FLAGS = REGISTRY.initFlags;
/** The hosts' config groups: what io's config checks and merges, init's template and the docs take. */
export const HOST_CONFIG = REGISTRY.configGroups;
export const { agentName, hostNamed, hookHost, profileFor } = REGISTRY;
