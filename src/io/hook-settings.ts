import { existsSync } from "node:fs";
import { join } from "node:path";
import { commandLine } from "../core/command-line.js";
import { readJsonToMerge, writeIfChanged } from "./out-file.js";

/** One host's hook settings: where they live, which events ctxinject answers, how a command names the project. */
export interface HookSettings {
  agent: "claude" | "codex" | "gemini";
  /** The settings file, relative to the project root or to HOME (`user`). */
  project: string;
  user: string;
  /** The events, and the tools each one is for. */
  events: ReadonlyArray<{ event: string; matcher?: string }>;
  /** The timeout field's value in the host's unit (seconds for Claude Code and Codex, milliseconds for Gemini CLI). */
  timeout: number;
  /** The environment variable the host sets to the project folder, for a command that needs no PATH. */
  projectDirVariable?: string;
}

export const CLAUDE_SETTINGS: HookSettings = {
  agent: "claude",
  project: ".claude/settings.json",
  user: ".claude/settings.json",
  events: [
    { event: "UserPromptSubmit" },
    { event: "PreToolUse", matcher: "Write|Edit|MultiEdit|NotebookEdit" },
    { event: "PostToolUse", matcher: "Read|Write|Edit|MultiEdit|NotebookEdit" },
    { event: "SubagentStart" },
    { event: "SessionStart" },
    { event: "SessionEnd" },
  ],
  timeout: 10,
  projectDirVariable: "CLAUDE_PROJECT_DIR",
};

/** Codex reads hooks.json beside each config layer; `Edit|Write` are its aliases for apply_patch. */
export const CODEX_SETTINGS: HookSettings = {
  agent: "codex",
  project: ".codex/hooks.json",
  user: ".codex/hooks.json",
  events: [
    { event: "UserPromptSubmit" },
    { event: "PreToolUse", matcher: "apply_patch|Edit|Write" },
    { event: "PostToolUse", matcher: "Bash|apply_patch|Edit|Write" },
    { event: "SubagentStart" },
    { event: "SessionStart" },
    { event: "PostCompact" },
  ],
  timeout: 10,
};

export const GEMINI_SETTINGS: HookSettings = {
  agent: "gemini",
  project: ".gemini/settings.json",
  user: ".gemini/settings.json",
  events: [{ event: "BeforeAgent" }, { event: "AfterTool", matcher: "read_file|write_file|replace|read_many_files" }, { event: "SessionStart" }],
  timeout: 10_000,
  projectDirVariable: "GEMINI_PROJECT_DIR",
};

interface HookCommand {
  type: string;
  command?: string;
  [key: string]: unknown;
}
interface MatcherGroup {
  matcher?: string;
  hooks: HookCommand[];
  [key: string]: unknown;
}

/**
 * Merges ctxinject's hooks into a host's settings file: other keys and other hooks stay as they are, an earlier
 * ctxinject entry is replaced (so running it twice changes nothing). Returns whether the file changed.
 */
export async function mergeHooks(settingsFile: string, host: HookSettings, command: string): Promise<boolean> {
  const ours = new RegExp(`ctxinject(\\.js)?["']?\\s+hook\\s+${host.agent}\\b`);
  const settings = await readJsonToMerge(settingsFile);
  const hooks = (settings.hooks ?? {}) as Record<string, MatcherGroup[]>;
  for (const { event, matcher } of host.events) {
    const groups = (Array.isArray(hooks[event]) ? hooks[event] : [])
      .map((g) => ({ ...g, hooks: (g.hooks ?? []).filter((h) => !(typeof h.command === "string" && ours.test(h.command))) }))
      .filter((g) => g.hooks.length > 0);
    groups.push({ ...(matcher && { matcher }), hooks: [{ type: "command", command, timeout: host.timeout }] });
    hooks[event] = groups;
  }
  settings.hooks = hooks;
  return writeIfChanged(settingsFile, `${JSON.stringify(settings, null, 2)}\n`);
}

/**
 * The command the host runs, resolvable without PATH: the project's own install through the host's project-folder
 * variable when there is one (and the settings are the project's), else this very executable by its absolute path.
 * On Windows no one way of naming a variable works in cmd.exe, PowerShell and Git Bash alike, so the path is
 * always absolute there; commandLine quotes it for the platform.
 */
export function hookCommand(host: HookSettings, root: string, self: string, forProject: boolean, platform: string = process.platform): string {
  if (platform !== "win32" && forProject && host.projectDirVariable && existsSync(join(root, "node_modules/.bin/ctxinject"))) return `"$${host.projectDirVariable}"/node_modules/.bin/ctxinject hook ${host.agent}`;
  return commandLine(platform, self, ["hook", host.agent]);
}
