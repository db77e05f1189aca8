import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { join } from "node:path";
import { indexedPaths } from "../core/git-index.js";
import { gitMovedByEnv } from "./git-ignore.js";
import { isDirectory, toRootRelative } from "./paths.js";

/**
 * The instruction files git tracks under `root`, read from the repository's index file instead of a `git ls-files`
 * process (on a 100k-file tree that process is most of `--all`'s time). Null when only git should answer: GIT_DIR-
 * style variables, a worktree or submodule (`.git` is a file), an index this reader does not know; the caller
 * then runs git.
 */
export function indexedFiles(gitTop: string, root: string, spec: { names: string[]; folders: string[] }, env: Record<string, string | undefined>): string[] | null {
  if (gitMovedByEnv(env)) return null;
  const gitDir = join(gitTop, ".git");
  if (!isDirectory(gitDir)) return null;
  const prefix = toRootRelative(gitTop, root);
  if (prefix === null) return null;
  let config = "";
  try {
    config = readFileSync(join(gitDir, "config"), "utf8");
  } catch {
    return null;
  }
  let fd: number;
  try {
    fd = openSync(join(gitDir, "index"), "r");
  } catch (error) {
    // A repository where nothing was ever added has no index: git lists nothing.
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? [] : null;
  }
  try {
    const hashBytes = /^\s*objectformat\s*=\s*sha256\s*$/im.test(config) ? 32 : 20;
    return indexedPaths((into, offset, length) => readSync(fd, into, offset, length, null), { ...spec, prefix, hashBytes });
  } finally {
    closeSync(fd);
  }
}
