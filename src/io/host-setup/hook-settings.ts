import { delimiter, join } from "node:path";
import { chooseHookCommand, type HookCommandChoice } from "../../core/command-line.js";
import type { CommandHookHost } from "../../hosts/host.js";
import { readJsonToMerge, writeIfChanged } from "../fs/out-file.js";
import type { WriteTarget } from "../fs/confine.js";
import { realOrSelf, runnableFile, toRootRelative } from "../fs/paths.js";
import { findProjectInstall } from "./project-install.js";

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

/** A hook command of ctxinject's for `agent` (a host's short name), in any of the forms init writes (or wrote before). */
export const ourHook = (agent: string) => new RegExp(`ctxinject(\\.js)?["']?\\s+hook\\s+${agent}\\b`);

/**
 * Merges ctxinject's hooks into a host's settings file: other keys and other hooks stay as they are, an earlier
 * ctxinject entry is replaced (so running it twice changes nothing). Returns whether the file changed.
 */
/**
 * Where a host keeps the user's own settings: its variable's folder where the user set it (CLAUDE_CONFIG_DIR…), else
 * under HOME; null with neither.
 */
export function userSettingsPath(settings: CommandHookHost["install"]["settings"], env: Readonly<Record<string, string | undefined>>): string | null {
  const moved = settings.userVariable && env[settings.userVariable.name];
  if (moved) return join(moved, settings.userVariable!.file);
  return env.HOME ? join(env.HOME, settings.user) : null;
}

export function mergeHooks(settingsFile: WriteTarget, host: CommandHookHost, command: string): boolean {
  const ours = ourHook(host.short);
  const { events, timeout, fields, flat } = host.install.settings;
  // The host's own fields fill in what the file lacks; what is there stays.
  const settings = { ...fields, ...readJsonToMerge(settingsFile) };
  if (flat) return mergeFlatHooks(settingsFile, settings, host, command, ours);
  const hooks = (settings.hooks ?? {}) as Record<string, MatcherGroup[]>;
  for (const { event, matcher } of events) {
    const groups = (Array.isArray(hooks[event]) ? hooks[event] : [])
      .map((g) => ({ ...g, hooks: (g.hooks ?? []).filter((h) => !(typeof h.command === "string" && ours.test(h.command))) }))
      .filter((g) => g.hooks.length > 0);
    groups.push({ ...(matcher && { matcher }), hooks: [{ type: "command", command, timeout }] });
    hooks[event] = groups;
  }
  settings.hooks = hooks;
  return writeIfChanged(settingsFile, `${JSON.stringify(settings, null, 2)}\n`);
}

/** Cursor's hooks.json: an entry per command under each event, and the file's version (kept when it has one). */
function mergeFlatHooks(settingsFile: WriteTarget, settings: Record<string, unknown>, host: CommandHookHost, command: string, ours: RegExp): boolean {
  const { events, timeout, flat } = host.install.settings;
  const hooks = (settings.hooks !== null && typeof settings.hooks === "object" ? settings.hooks : {}) as Record<string, Array<Record<string, unknown>>>;
  for (const { event, matcher } of events) {
    const entries = (Array.isArray(hooks[event]) ? hooks[event] : []).filter((h) => !(typeof h?.command === "string" && ours.test(h.command)));
    entries.push({ command, timeout, ...(matcher && { matcher }) });
    hooks[event] = entries;
  }
  const merged = { version: settings.version ?? flat!.version, ...settings, hooks };
  return writeIfChanged(settingsFile, `${JSON.stringify(merged, null, 2)}\n`);
}

/**
 * The command the host runs (core/command-line.ts chooses the form) and why: from what the project installs, as its
 * package manager lays it out (io/host-setup/project-install.ts). This executable is named by its real path: run through npx
 * it is a node_modules/.bin link, which the project may point elsewhere.
 */
export function hookCommand(host: CommandHookHost, root: string, self: string, forProject: boolean, platform: string): HookCommandChoice {
  const install = forProject ? findProjectInstall(root, platform) : null;
  const real = realOrSelf(self);
  const choice = chooseHookCommand({
    agent: host.short,
    hostName: host.label,
    platform,
    forProject,
    projectDir: host.install.settings.projectDir,
    install,
    self: real,
  });
  if (forProject || toRootRelative(realOrSelf(root), real) === null) return choice;
  return {
    command: choice.command,
    why: `${choice.why}; but that file is this project's own install, so every project's hook runs what this project installs: a global install (npm install -g ctxinject) is one no project changes`,
  };
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
      try {
        if (runnableFile(join(folder, name + extension), platform) === "runs") return folder;
      } catch {
        // A folder we may not read: the shell would not find it there either.
      }
    }
  }
  return null;
}
