import { existsSync, readdirSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { nearestName } from "../core/nearest-name.js";
import { pathMentions } from "../core/prompt/mentions.js";
import { usageError } from "../core/errors.js";
import type { Warning } from "../core/types.js";
import { changedFiles, splitNul, stagedFiles, untrackedFiles, type GitEnvironment } from "./git/git.js";
import { isDirectory, toRootRelative } from "./fs/paths.js";
import { deniedReason, unreadableReason } from "./fs/bounded-read.js";

export interface TargetOptions {
  files?: string[];
  staged?: boolean;
  /** `--changed` alone compares with HEAD. */
  changed?: string | boolean;
  /**
   * Warn about `files` that do not exist (`--files` typed by a person). Hooks leave it off: an agent's write tool
   * names a file before it exists, and the rules for it apply all the same.
   */
  warnMissing?: boolean;
}

/** Root-relative targets from --files (relative to cwd), --staged and --changed. */
export function resolveTargets(
  cwd: string,
  root: string,
  gitTop: string | null,
  options: TargetOptions,
  env: GitEnvironment,
): { targets: string[]; warnings: Warning[] } {
  const warnings: Warning[] = [];
  const targets = new Set<string>();
  for (const file of options.files ?? []) {
    // Relative to the current folder, as in any CLI; a path that would leave the root is taken as
    // root-relative instead, so `--root repo --files src/a.ts` works from anywhere.
    const target = asTarget(root, resolve(cwd, file)) ?? asTarget(root, resolve(root, file));
    if (target === null) warnings.push({ message: `--files ${file}: not inside the project root ${root}; ignored` });
    else {
      if (options.warnMissing && !existsSync(resolve(root, target))) warnings.push({ file: target, message: missingMessage(root, target) });
      targets.add(target);
    }
  }
  if (options.staged) {
    for (const path of gitPaths(root, gitTop, "--staged", () => stagedFiles(root, env))) targets.add(path);
  }
  if (options.changed !== undefined && options.changed !== false) {
    const ref = options.changed === true ? "HEAD" : options.changed;
    const flag = `--changed ${ref}`;
    if (ref.startsWith("-")) throw usageError(`${flag}: not a git revision`);
    for (const path of gitPaths(root, gitTop, flag, () => changedFiles(root, ref, flag, env))) targets.add(path);
    for (const path of gitPaths(root, gitTop, flag, () => untrackedFiles(root, env))) targets.add(path);
  }
  return { targets: [...targets], warnings };
}

/**
 * A target that does not exist is still built for (its glob rules apply to a file about to be written), with a
 * warning; where a name in the first missing folder level is a small edit away, it is suggested.
 */
function missingMessage(root: string, target: string): string {
  const denied = deniedAt(resolve(root, target));
  if (denied !== null) return `${denied}; the context is still built for this path (rules whose globs match it apply)`;
  const parts = target.replace(/\/$/, "").split("/");
  let at = 0;
  while (at < parts.length - 1 && existsSync(resolve(root, ...parts.slice(0, at + 1)))) at++;
  const folder = parts.slice(0, at).join("/");
  let names: string[] = [];
  try {
    names = readdirSync(resolve(root, folder || "."));
  } catch {
    // An unreadable folder: no suggestion.
  }
  const near = nearestName(parts[at]!, names);
  const still = "the context is still built for this path, as for a file not written yet (rules whose globs match it apply)";
  if (near === null) return `no such file; ${still}`;
  return `no such file; did you mean ${[...parts.slice(0, at), near, ...parts.slice(at + 1)].join("/")}? Else ${still}`;
}

/** Why a path that seems missing cannot be looked at (a folder on its way the user may not read), or null: it is missing. */
function deniedAt(abs: string): string | null {
  try {
    statSync(abs, { throwIfNoEntry: false });
    return null;
  } catch (error) {
    return deniedReason(error) === null ? null : unreadableReason(error);
  }
}

function gitPaths(root: string, gitTop: string | null, flag: string, run: () => ReturnType<typeof stagedFiles>): string[] {
  if (gitTop === null) throw usageError(`${flag} needs a git repository, and ${root} is not in one`);
  const result = run();
  if (!result.ok) throw usageError(`${flag}: git said: ${result.stderr.split("\n")[0]}`);
  return splitNul(result.stdout);
}

/**
 * A path as a target: root-relative, or null outside the root. A folder keeps a trailing slash, so its own
 * AGENTS.md, README and rules apply.
 */
function asTarget(root: string, abs: string): string | null {
  const rel = toRootRelative(root, abs);
  if (rel === null || rel === "") return null;
  return isDirectory(abs) ? `${rel}/` : rel;
}

/** Paths the prompt names that exist under the root (root-relative first, then relative to cwd). */
export function promptTargets(cwd: string, root: string, prompt: string): string[] {
  const found: string[] = [];
  for (const mention of pathMentions(prompt)) {
    for (const base of [root, cwd]) {
      const abs = resolve(base, mention);
      const target = existsSync(abs) ? asTarget(root, abs) : null;
      if (target !== null) {
        found.push(target);
        break;
      }
    }
  }
  return found;
}
