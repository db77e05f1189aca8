import { accessSync, constants, existsSync, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import { chooseHookCommand, type HookCommandChoice, type ProjectDirAccess } from "../core/command-line.js";
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
  /** How a command reaches the project folder, for a project's install named without PATH. */
  projectDir: ProjectDirAccess;
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
  projectDir: { variable: "CLAUDE_PROJECT_DIR" },
};

/**
 * Codex reads hooks.json beside each config layer; `Edit|Write` are its aliases for apply_patch. It runs a hook in
 * the session's folder, which may be below the project whose .codex/hooks.json it found, and sets no variable.
 */
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
  projectDir: "none",
};

/**
 * Gemini CLI reads the project's .gemini/settings.json in the folder it starts in, and runs hooks there. Its own
 * $GEMINI_PROJECT_DIR is no better: it replaces the text with a shell-quoted path before the shell runs, which a
 * path with a space would break inside our quotes.
 */
export const GEMINI_SETTINGS: HookSettings = {
  agent: "gemini",
  project: ".gemini/settings.json",
  user: ".gemini/settings.json",
  events: [{ event: "BeforeAgent" }, { event: "AfterTool", matcher: "read_file|write_file|replace|read_many_files" }, { event: "SessionStart" }],
  timeout: 10_000,
  projectDir: "cwd",
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

/** A hook command of ctxinject's for `agent`, in any of the forms init writes (or wrote before). */
export const ourHook = (agent: HookSettings["agent"]) => new RegExp(`ctxinject(\\.js)?["']?\\s+hook\\s+${agent}\\b`);

/**
 * Merges ctxinject's hooks into a host's settings file: other keys and other hooks stay as they are, an earlier
 * ctxinject entry is replaced (so running it twice changes nothing). Returns whether the file changed.
 */
export async function mergeHooks(settingsFile: string, host: HookSettings, command: string): Promise<boolean> {
  const ours = ourHook(host.agent);
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
 * The command the host runs (core/command-line.ts chooses the form) and why: from what is installed where, seen
 * through this process's PATH and the project's node_modules.
 */
export function hookCommand(host: HookSettings, hostName: string, root: string, self: string, forProject: boolean, env: Readonly<Record<string, string | undefined>>, platform: string = process.platform): HookCommandChoice {
  const localInstall = existsSync(join(root, "node_modules/.bin/ctxinject"));
  const onPath = forProject && !localInstall ? pathFolderOf("ctxinject", env, platform) : null;
  return chooseHookCommand({ agent: host.agent, hostName, platform, forProject, projectDir: host.projectDir, localInstall, onPath, self });
}

/**
 * The PATH folder with an executable `name`, or null. A node_modules/.bin folder does not count: npm puts those on
 * PATH for one run (npx, npm run), and the hook runs later without them.
 */
export function pathFolderOf(name: string, env: Readonly<Record<string, string | undefined>>, platform: string): string | null {
  const windows = platform === "win32";
  const path = (windows ? (env.Path ?? env.PATH) : env.PATH) ?? "";
  const extensions = windows ? (env.PATHEXT ?? ".COM;.EXE;.BAT;.CMD").split(";").filter((e) => e !== "") : [""];
  for (const folder of path.split(windows ? ";" : delimiter)) {
    if (folder === "" || /[\\/]node_modules[\\/]\.bin[\\/]?$/.test(folder)) continue;
    for (const extension of extensions) {
      const file = join(folder, name + extension);
      try {
        if (statSync(file, { throwIfNoEntry: false })?.isFile() !== true) continue;
        if (!windows) accessSync(file, constants.X_OK);
        return folder;
      } catch {
        // A folder we may not read, or a file we may not run: the shell would not find it there either.
      }
    }
  }
  return null;
}
