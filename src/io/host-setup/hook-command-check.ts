import { basename, isAbsolute, resolve } from "node:path";
import { commandWords } from "../../core/command-line.js";
import type { Finding } from "../../core/doctor/finding.js";
import type { CommandHookHost } from "../../hosts/host.js";
import { HOSTS } from "../../hosts/index.js";
import { projectFile, readTarget, userFile, type WriteTarget } from "../fs/confine.js";
import { entryAt, runnableFile } from "../fs/paths.js";
import { ourHook, pathFolderOf, userSettingsPath } from "./hook-settings.js";
import { findProjectInstall } from "./project-install.js";

type Env = Readonly<Record<string, string | undefined>>;

/**
 * doctor's check of the hooks `init` installed: each ctxinject command in a host's settings files (the project's,
 * and the user's own) whose program does not run from here (a path that is gone, a name PATH does not hold, npx with
 * nothing to find) is a finding naming the file, the line, and `init` to run again. A host runs the command on
 * every event, so one that fails prints its error on every prompt while ctxinject is silently absent.
 */
export function hookCommandFindings(root: string, env: Env, platform: string): Finding[] {
  const findings: Finding[] = [];
  for (const host of HOSTS) {
    if (!("settings" in host.install)) continue;
    const hooked = host as CommandHookHost;
    const { settings } = hooked.install;
    const files: Array<{ shown: string; target: () => WriteTarget; user: boolean }> = [
      { shown: settings.project, target: () => projectFile(root, settings.project), user: false },
    ];
    const user = userSettingsPath(settings, env);
    if (user !== null) files.push({ shown: user, target: () => userFile(user), user: true });
    const vars: Record<string, string> = typeof settings.projectDir === "object" ? { [settings.projectDir.variable]: root } : {};
    for (const file of files) {
      let text: string | null;
      let parsed: unknown;
      try {
        text = readTarget(file.target());
        if (text === null) continue;
        parsed = JSON.parse(text);
      } catch {
        // A settings file init could not read either: init itself says why when it is run.
        continue;
      }
      const lines = text.split("\n");
      for (const command of ourCommands(parsed, ourHook(hooked.short))) {
        const why = checked(() => whyNotRunning(command, root, env, platform, vars));
        if (why === null) continue;
        const at = lines.findIndex((line) => line.includes(JSON.stringify(command)));
        findings.push({
          severity: "warning",
          kind: "hook-command",
          agent: hooked.name,
          file: file.shown,
          ...(at >= 0 && { line: at + 1 }),
          message: `${hooked.label} runs \`${command}\` on every event, and it does not run here: ${why}; run \`ctxinject init --${hooked.short}${file.user ? " --user" : ""}\` again`,
        });
      }
    }
  }
  return findings;
}

/** Every string in the settings that is a ctxinject hook command of this host's, once each, in file order. */
function ourCommands(value: unknown, ours: RegExp, found = new Set<string>()): Set<string> {
  if (typeof value === "string") {
    if (ours.test(value)) found.add(value);
  } else if (Array.isArray(value)) for (const item of value) ourCommands(item, ours, found);
  else if (value !== null && typeof value === "object") for (const item of Object.values(value)) ourCommands(item, ours, found);
  return found;
}

/** Why `command` would not start from the project folder, or null when its program (and node's script) is there. */
/** A command that cannot be checked (a folder on its way this user may not read) is no finding: doctor goes on. */
function checked(why: () => string | null): string | null {
  try {
    return why();
  } catch {
    return null;
  }
}

function whyNotRunning(command: string, root: string, env: Env, platform: string, vars: Record<string, string>): string | null {
  const words = commandWords(command, platform, vars);
  if (words === null || words.length === 0) return null;
  const [program, ...rest] = words as [string, ...string[]];
  const missing = programMissing(program, root, env, platform);
  if (missing !== null) return missing;
  const name = basename(program).replace(/\.(exe|cmd)$/i, "");
  if (name === "node") {
    const script = rest.find((word) => !word.startsWith("-"));
    if (script !== undefined && entryAt(resolve(root, script))?.isFile() !== true)
      return `${script} does not exist (the ctxinject init named was moved or removed)`;
  }
  if (name === "npx" && rest.includes("--no-install")) {
    const pkg = rest.find((word) => !word.startsWith("-"));
    if (pkg !== undefined && findProjectInstall(root, platform) === null && pathFolderOf(pkg, env, platform) === null)
      return `npx --no-install finds no ${pkg}: it is neither installed in this project nor on PATH, so npx fails (npm error 404)`;
  }
  return null;
}

function programMissing(program: string, root: string, env: Env, platform: string): string | null {
  if (!/[\\/]/.test(program)) return pathFolderOf(program, env, platform) === null ? `${program} is not on PATH` : null;
  const file = isAbsolute(program) ? program : resolve(root, program);
  const state = runnableFile(file, platform);
  if (state === "missing")
    return `${program} does not exist${/[\\/]node_modules[\\/]\.bin[\\/]/.test(file) ? " (the project's dependencies are not installed here: npm ci, pnpm install, yarn or bun install puts it there)" : ""}`;
  return state === "not-executable" ? `${program} is not executable` : null;
}
