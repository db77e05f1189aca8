import { resolve } from "node:path";
import { usageError } from "../core/errors.js";
import type { Warning } from "../core/types.js";
import { git, splitNul } from "./git.js";
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
    const rel = toRootRelative(root, resolve(cwd, file)) ?? toRootRelative(root, resolve(root, file));
    if (rel === null || rel === "") warnings.push({ message: `--files ${file}: not inside the project root ${root}; ignored` });
    // A folder as a target keeps its trailing slash: its own AGENTS.md, README and rules then apply.
    else targets.add(isDirectory(resolve(root, rel)) ? `${rel}/` : rel);
  }
  if (options.staged) {
    for (const path of gitPaths(root, gitTop, "--staged", ["diff", "--cached", "--name-only", "--relative", "-z"])) targets.add(path);
  }
  if (options.changed !== undefined && options.changed !== false) {
    const ref = options.changed === true ? "HEAD" : options.changed;
    const flag = `--changed ${ref}`;
    if (ref.startsWith("-")) throw usageError(`${flag}: not a git revision`);
    for (const path of gitPaths(root, gitTop, flag, ["diff", "--name-only", "--relative", "-z", ref, "--"])) targets.add(path);
    for (const path of gitPaths(root, gitTop, flag, ["ls-files", "--others", "--exclude-standard", "-z"])) targets.add(path);
  }
  return { targets: [...targets], warnings };
}

function gitPaths(root: string, gitTop: string | null, flag: string, args: string[]): string[] {
  if (gitTop === null) throw usageError(`${flag} needs a git repository, and ${root} is not in one`);
  const result = git(root, args);
  if (!result.ok) throw usageError(`${flag}: git said: ${result.stderr.split("\n")[0]}`);
  return splitNul(result.stdout);
}
