import { statSync } from "node:fs";
import { profileFor } from "../core/agents/index.js";
import type { AgentProfile, AgentSettings } from "../core/agents/profile.js";
import type { Warning } from "../core/types.js";
import { BoundedReadError, readBoundedText, unreadableReason } from "./bounded-read.js";
import { homedir, lazyRequire } from "./lazy-node.js";
import { under } from "./paths.js";

type Env = Record<string, string | undefined>;

/**
 * The settings of an agent that change what it loads by itself, read from its own config files: Gemini CLI's
 * `context.fileName`, Codex's `project_doc_fallback_filenames` and `project_doc_max_bytes`, opencode's
 * `instructions`. A file that does not parse is a warning naming it; the profile then keeps the agent's defaults.
 */
export function readAgentSettings(agent: string, root: string, env: Env): { settings: AgentSettings; warnings: Warning[] } {
  const warnings: Warning[] = [];
  const home = homedir(env);
  // A project file by its root-relative path, a home file with ~.
  const shown = (file: string) => (file.startsWith(`${root}/`) ? file.slice(root.length + 1) : file.startsWith(`${home}/`) ? `~${file.slice(home.length)}` : file);
  const read = (file: string, parse: (text: string) => unknown): Record<string, unknown> | undefined => {
    let text: string;
    // Most of these files do not exist: a stat that says so costs less than the error a failed read throws.
    if (statSync(file, { throwIfNoEntry: false }) === undefined) return undefined;
    try {
      text = readBoundedText(file);
    } catch (error) {
      // A project's settings file may be a FIFO, a device or huge: said once, never waited on or held in memory.
      if (error instanceof BoundedReadError) warnings.push({ file: shown(file), message: `${unreadableReason(error)}; what ${agent} loads by itself is judged by its defaults` });
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
  const strings = (value: unknown): string[] | undefined =>
    typeof value === "string" && value.trim() !== "" ? [value.trim()] : Array.isArray(value) && value.every((v) => typeof v === "string") ? value.map((v) => v.trim()).filter(Boolean) : undefined;

  if (agent === "gemini-cli") {
    // Gemini CLI's precedence: the system's settings over the project's over the user's over the system's
    // defaults. `contextFileName` is the setting's older place.
    const system = process.platform === "darwin" ? "/Library/Application Support/GeminiCli" : process.platform === "win32" ? "C:\\ProgramData\\gemini-cli" : "/etc/gemini-cli";
    const files = [
      env.GEMINI_CLI_SYSTEM_SETTINGS_PATH || under(system, "settings.json"),
      under(root, ".gemini/settings.json"),
      under(home, ".gemini/settings.json"),
      env.GEMINI_CLI_SYSTEM_DEFAULTS_PATH || under(system, "system-defaults.json"),
    ];
    for (const file of files) {
      const value = read(file, parseJsonc);
      const context = value?.context as Record<string, unknown> | undefined;
      const names = strings(context?.fileName) ?? strings(value?.contextFileName);
      if (names?.length) return { settings: { contextFileNames: names, from: shown(file) }, warnings };
    }
  } else if (agent === "codex") {
    const settings: AgentSettings = {};
    const toml = (text: string) => lazyRequire<typeof import("smol-toml")>("smol-toml").parse(text);
    const userFile = under(env.CODEX_HOME || under(home, ".codex"), "config.toml");
    const projectFile = under(root, ".codex/config.toml");
    // Most config.toml files set none of this: they are not parsed at all.
    const user = read(userFile, (text) => (text.includes("project_doc_") || text.includes("trust_level") ? toml(text) : {}));
    // A project's .codex/config.toml counts only in a project the user trusts (Codex ignores it elsewhere).
    const projects = user?.projects as Record<string, { trust_level?: unknown }> | undefined;
    const trusted = projects?.[root]?.trust_level === "trusted";
    for (const [file, value] of [
      [userFile, user],
      [projectFile, trusted ? read(projectFile, (text) => (text.includes("project_doc_") ? toml(text) : {})) : undefined],
    ] as const) {
      const names = strings(value?.project_doc_fallback_filenames);
      const bytes = value?.project_doc_max_bytes;
      if (names) settings.fallbackFileNames = names;
      if (typeof bytes === "number" && Number.isFinite(bytes) && bytes >= 0) settings.maxBytes = bytes;
      if (names || typeof bytes === "number") settings.from = shown(file);
    }
    return { settings, warnings };
  } else if (agent === "opencode") {
    // opencode merges its global and project configs; instructions from both apply.
    const configHome = env.XDG_CONFIG_HOME || under(home, ".config");
    const files = ["opencode.json", "opencode.jsonc"].flatMap((name) => [under(configHome, `opencode/${name}`), under(root, name), under(root, `.opencode/${name}`)]);
    const instructions: string[] = [];
    let from: string | undefined;
    for (const file of files) {
      // An absolute path inside the project is the project's file; others lie outside, where no candidate is.
      const found = strings(read(file, parseJsonc)?.instructions)?.map((i) => (i.startsWith(`${root}/`) ? i.slice(root.length + 1) : i));
      if (found?.length) {
        instructions.push(...found);
        from = shown(file);
      }
    }
    if (instructions.length > 0) return { settings: { instructions, ...(from && { from }) }, warnings };
  }
  return { settings: {}, warnings };
}

/** The agent's profile as this user's settings have it, with what reading them had to say. */
export function agentProfileAt(agent: string, root: string, env: Env): { profile: AgentProfile | undefined; warnings: Warning[] } {
  const { settings, warnings } = readAgentSettings(agent, root, env);
  return { profile: profileFor(agent, settings), warnings };
}

/** The agent `--as` names (none without it), as its settings here have it; what reading them warns goes to `warn`. */
export function profileForAs(agent: string | undefined, root: string, env: Env, warn: (warnings: Warning[]) => void): AgentProfile | undefined {
  if (agent === undefined) return undefined;
  const { profile, warnings } = agentProfileAt(agent, root, env);
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
