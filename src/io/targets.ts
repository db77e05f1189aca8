import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathMentions } from "../core/prompt/mentions.js";
import { usageError } from "../core/errors.js";
import type { Warning } from "../core/types.js";
import { changedFiles, splitNul, stagedFiles, untrackedFiles } from "./git.js";
import { isDirectory, toRootRelative } from "./paths.js";

export interface TargetOptions {
  files?: string[];
  staged?: boolean;
  /** `--changed` alone compares with HEAD. */
  changed?: string | boolean;
}

/** Root-relative targets from --files (relative to cwd), --staged and --changed. */
export function resolveTargets(cwd: string, root: string, gitTop: string | null, options: TargetOptions): { targets: string[]; warnings: Warning[] } {
  const warnings: Warning[] = [];
  const targets = new Set<string>();
  for (const file of options.files ?? []) {
    // Relative to the current folder, as in any CLI; a path that would leave the root is taken as
    // root-relative instead, so `--root repo --files src/a.ts` works from anywhere.
    const target = asTarget(root, resolve(cwd, file)) ?? asTarget(root, resolve(root, file));
    if (target === null) warnings.push({ message: `--files ${file}: not inside the project root ${root}; ignored` });
    else targets.add(target);
  }
  if (options.staged) {
    for (const path of gitPaths(root, gitTop, "--staged", () => stagedFiles(root))) targets.add(path);
  }
  if (options.changed !== undefined && options.changed !== false) {
    const ref = options.changed === true ? "HEAD" : options.changed;
    const flag = `--changed ${ref}`;
    if (ref.startsWith("-")) throw usageError(`${flag}: not a git revision`);
    for (const path of gitPaths(root, gitTop, flag, () => changedFiles(root, ref, flag))) targets.add(path);
    for (const path of gitPaths(root, gitTop, flag, () => untrackedFiles(root))) targets.add(path);
  }
  return { targets: [...targets], warnings };
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
