import { statSync } from "node:fs";
import type { DoctorInput } from "../core/doctor/index.js";
import { locateOptionsOf, locateSource } from "../core/sources/index.js";
import type { Warning } from "../core/types.js";
import { loadConfig } from "./config.js";
import { discover, walkTree } from "./discover.js";
import { git, splitNul } from "./git.js";
import { readImports } from "./imports.js";
import { expandsImports } from "../core/sources/source.js";
import { under } from "./paths.js";
import { readSourceFiles } from "./read.js";
import { findRoot } from "./root.js";

/**
 * What `doctor` looks at, read from disk: every instruction file (those git tracks, as `build --all` reads them;
 * every one in the tree outside git), the files they import, and every file the globs may be meant for.
 */
export async function readDoctorTree(cwd: string, rootFlag: string | undefined, env: Record<string, string | undefined>): Promise<DoctorInput & { root: string; warnings: Warning[] }> {
  const { root, gitTop } = findRoot(cwd, rootFlag);
  const { config, warnings: configWarnings } = await loadConfig(root, env);
  const located = locateOptionsOf(config);
  const discovered = await discover({ root, gitTop, ...located, scope: { all: true }, env, readIgnored: config.agents.readIgnored });
  const read = readSourceFiles(root, discovered.paths, { allowOutside: config.allowOutside });
  const imported = readImports(root, read.files, (path) => expandsImports(locateSource(path, located)?.module), { allowOutside: config.allowOutside });
  const tracked = trackedFiles(root, gitTop) ?? (await walkTree(root, () => true));
  return {
    root,
    files: [...read.files, ...imported.files],
    tracked: tracked.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    config,
    exists: (path) => statSync(under(root, path), { throwIfNoEntry: false })?.isFile() === true,
    warnings: [...configWarnings, ...discovered.warnings, ...read.warnings, ...imported.warnings],
  };
}

/** Every file git tracks under the root; null outside git (the caller walks the tree). */
function trackedFiles(root: string, gitTop: string | null): string[] | null {
  if (gitTop === null) return null;
  const result = git(root, ["ls-files", "-z", "--cached"]);
  return result.ok ? [...new Set(splitNul(result.stdout))] : null;
}

