import type { AgentProfile, AgentSettings } from "../core/agents/profile.js";
import type { Warning } from "../core/types.js";
import type { SettingsFiles } from "../hosts/host.js";
import { hostNamed, profileFor } from "../hosts/index.js";
import { BoundedReadError, readBoundedText, unreadableReason } from "./fs/bounded-read.js";
import { homedir, lazyRequire } from "./lazy-node.js";
import { entryAt, under } from "./fs/paths.js";

type Env = Record<string, string | undefined>;
/** The outside world the agent's settings are found in (a run's RunEnvironment): its environment and platform. */
type Outside = { env: Env; platform: string };

/**
 * The settings of an agent that change what it loads by itself, read from its own config files (which files and
 * which fields: its host's readSettings, src/hosts/<host>.ts). A file that does not parse is a warning naming it;
 * the profile then keeps the agent's defaults.
 */
export function readAgentSettings(agent: string, root: string, outside: Outside): { settings: AgentSettings; warnings: Warning[] } {
  const { env, platform } = outside;
  const warnings: Warning[] = [];
  const home = homedir(env);
  // A project file by its root-relative path, a home file with ~.
  const shown = (file: string) =>
    file.startsWith(`${root}/`) ? file.slice(root.length + 1) : file.startsWith(`${home}/`) ? `~${file.slice(home.length)}` : file;
  const read = (file: string, parse: (text: string) => unknown): Record<string, unknown> | undefined => {
    let text: string;
    // Most of these files do not exist: a stat that says so costs less than the error a failed read throws. One under
    // a file (`.gemini` a file) is not there either; a link loop is said.
    const loop = () => warnings.push({ file: shown(file), message: `is a symlink loop; what ${agent} loads by itself is judged by its defaults` });
    if (entryAt(file, loop) === undefined) return undefined;
    try {
      text = readBoundedText(file);
    } catch (error) {
      // A project's settings file may be a FIFO, a device or huge: said once, never waited on or held in memory.
      if (error instanceof BoundedReadError)
        warnings.push({ file: shown(file), message: `${unreadableReason(error)}; what ${agent} loads by itself is judged by its defaults` });
      return undefined;
    }
    try {
      const value = parse(text);
      if (value !== null && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // told below
    }
    warnings.push({ file: shown(file), message: `${agent}'s own settings do not parse; what ${agent} loads by itself is judged by its defaults` });
    return undefined;
  };
  const files: SettingsFiles = {
    root,
    home,
    env,
    platform,
    under,
    shown,
    json: (file) => read(file, parseJsonc),
    toml: (file, worth) => read(file, (text) => (worth(text) ? lazyRequire<typeof import("smol-toml")>("smol-toml").parse(text) : {})),
  };
  return { settings: hostNamed(agent)?.readSettings?.(files) ?? {}, warnings };
}

/** The agent's profile as this user's settings have it, with what reading them had to say. */
export function agentProfileAt(agent: string, root: string, outside: Outside): { profile: AgentProfile | undefined; warnings: Warning[] } {
  const { settings, warnings } = readAgentSettings(agent, root, outside);
  return { profile: profileFor(agent, settings), warnings };
}

/** The agent `--as` names (none without it), as its settings here have it; what reading them warns goes to `warn`. */
export function profileForAs(agent: string | undefined, root: string, outside: Outside, warn: (warnings: Warning[]) => void): AgentProfile | undefined {
  if (agent === undefined) return undefined;
  const { profile, warnings } = agentProfileAt(agent, root, outside);
  warn(warnings);
  return profile;
}

/** JSON with comments and trailing commas, as agents' settings files are written; plain JSON costs no parser load. */
function parseJsonc(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const errors: unknown[] = [];
    const value = lazyRequire<typeof import("jsonc-parser")>("jsonc-parser").parse(text, errors as never, { allowTrailingComma: true });
    if (errors.length > 0) throw new Error("not JSON");
    return value;
  }
}
