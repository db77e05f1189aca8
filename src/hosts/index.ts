/**
 * HOSTS, the one list of the agent CLIs ctxinject runs inside: its order is the order of `init`'s flags and of the
 * names `hook` lists. The hook dispatch, `init`'s flags, the names `--as` takes and the profiles doctor tags files
 * with are derived from it (hostRegistry); agents without a host (read-only: their files are sources) keep their
 * profiles in core/agents/index.ts.
 */
import { READ_ONLY_AGENTS } from "../core/agents/index.js";
import type { AgentProfile, AgentSettings } from "../core/agents/profile.js";
import { claudeCodeHost } from "./claude-code.js";
import { codexHost } from "./codex.js";
import { cursorAgentHost } from "./cursor-agent.js";
import { geminiCliHost } from "./gemini-cli.js";
import type { CommandHookHost, Host } from "./host.js";
import { kiloHost } from "./kilo.js";
import { opencodeHost } from "./opencode.js";

export const HOSTS: readonly Host[] = [claudeCodeHost, codexHost, geminiCliHost, opencodeHost, kiloHost, cursorAgentHost];

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
    // A short name that is another agent's profile name (`cursor`, the editor; Cursor's CLI hooks as `cursor`) stays
    // that profile for `--as`: it names the host only in `hook` and `init`.
    ...hosts.filter((h) => h.short !== h.name && !hosts.some((o) => o.profile.name === h.short) && !readOnly.some((a) => a.profile.name === h.short)).map((h) => [h.short, h.name]),
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
  const commandHookHosts = hosts.filter((host): host is CommandHookHost => host.hook !== undefined && "settings" in host.install);
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
    hookHost: (name: string): CommandHookHost | undefined => commandHookHosts.find((h) => h.short === name.toLowerCase()) ?? commandHookHosts.find((h) => h.name === agentName(name)),
    /** The flags `init` takes for hosts: `--<short>`, and `--<name>` where it differs (hidden). */
    initFlags: hosts.flatMap((h) => [{ flag: `--${h.short}`, host: h, hidden: false }, ...(h.name === h.short ? [] : [{ flag: `--${h.name}`, host: h, hidden: true }])]),
    /** Each host's config group, `<short>.includeNative` and the like. */
    configGroups: hosts.map((h) => h.short),
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
export const { agentName, hostNamed, hookHost, profileFor } = REGISTRY;
