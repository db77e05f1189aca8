/**
 * HOSTS, the one list of the agent CLIs ctxinject runs inside: its order is the order of `init`'s flags and of the
 * names `hook` lists. The hook dispatch, `init`'s flags and settings, the names `--as` takes and the profiles doctor
 * tags files with are derived here; agents without a host (read-only: their files are sources) keep their
 * profiles in core/agents/index.ts.
 */
import { READ_ONLY_AGENTS } from "../core/agents/index.js";
import type { AgentProfile, AgentSettings } from "../core/agents/profile.js";
import { claudeCodeHost } from "./claude-code.js";
import { codexHost } from "./codex.js";
import { geminiCliHost } from "./gemini-cli.js";
import type { CommandHookHost, Host } from "./host.js";
import { opencodeHost } from "./opencode.js";

export const HOSTS: readonly Host[] = [claudeCodeHost, codexHost, geminiCliHost, opencodeHost];

/** The hosts `ctxinject hook <name>` answers. */
export const COMMAND_HOOK_HOSTS = HOSTS.filter((host): host is CommandHookHost => host.hook !== undefined && "settings" in host.install);

const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Every agent profile, by the name `--as` takes: the one table explain, build, doctor and the hooks read. */
export const AGENT_PROFILES: Readonly<Record<string, AgentProfile>> = Object.fromEntries(
  [...HOSTS.map((h) => h.profile), ...READ_ONLY_AGENTS.map((a) => a.profile)].sort((a, b) => byCode(a.name, b.name)).map((p) => [p.name, p]),
);

export const AGENT_NAMES = Object.keys(AGENT_PROFILES);

/**
 * The short names people type (`init --claude`, `hook claude`): each is the same agent as its profile's name, in
 * `--as`, `hook` and `init` alike.
 */
const SHORT_NAMES: Readonly<Record<string, string>> = Object.fromEntries([
  ...HOSTS.filter((h) => h.short !== h.name).map((h) => [h.short, h.name]),
  ...READ_ONLY_AGENTS.flatMap((a) => (a.short === undefined ? [] : [[a.short, a.profile.name]])),
]);

/** Every name an agent is accepted by: profile names first, then short names. */
export const AGENT_NAMES_ACCEPTED = [...AGENT_NAMES, ...Object.keys(SHORT_NAMES)];

/** The profile name for an agent's name or short name (any case), or undefined for none. */
export function agentName(name: string): string | undefined {
  const lower = name.toLowerCase();
  if (Object.hasOwn(AGENT_PROFILES, lower)) return lower;
  return Object.hasOwn(SHORT_NAMES, lower) ? SHORT_NAMES[lower] : undefined;
}

/** The host of a profile name, if the agent has one. */
export const hostNamed = (name: string): Host | undefined => HOSTS.find((h) => h.name === name);

/** The named agent's profile as its own settings have it; its defaults when it has none that matter. */
export function profileFor(name: string, settings: AgentSettings = {}): AgentProfile | undefined {
  const configure = hostNamed(name)?.configure;
  return configure && Object.keys(settings).length > 0 ? configure(settings) : AGENT_PROFILES[name];
}
