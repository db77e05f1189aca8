import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { trackedClean } from "../../core/confined-path.js";
import { indexedPaths } from "../../core/git-index.js";
import type { Warning } from "../../core/types.js";
import { readBoundedText } from "../fs/bounded-read.js";
import { gitMovedByEnv } from "./git-ignore.js";
import { isDirectory, toRootRelative } from "../fs/paths.js";

/** A warning that says the same thing however its text counts: (file, line, code) is its key. */
export interface CodedWarning extends Warning {
  code: string;
}

/** The code of git's index's warning about the paths that are no clean path (`../x`): doctor reads the index twice. */
export const UNCLEAN_INDEX_PATHS = "unclean-index-paths";

/** Git's list (its index, or `git ls-files`) without the paths no clean path below the root, with one coded warning. */
export function indexPathsClean(paths: string[], warnings: Warning[]): string[] {
  const found: Warning[] = [];
  const kept = trackedClean(paths, "git's index", found);
  for (const warning of found) {
    const coded: CodedWarning = { ...warning, code: UNCLEAN_INDEX_PATHS };
    warnings.push(coded);
  }
  return kept;
}

/**
 * The instruction files git tracks under `root` (every file with `spec.every`), read from the repository's index file instead of a `git ls-files`
 * process (on a 100k-file tree that process is most of `--all`'s time). Null when only git should answer: GIT_DIR-
 * style variables, a worktree or submodule (`.git` is a file), an index this reader does not know; the caller
 * then runs git.
 */
export function indexedFiles(
  gitTop: string,
  root: string,
  spec: { names: string[]; folders: string[]; every?: boolean },
  env: Record<string, string | undefined>,
): string[] | null {
  if (gitMovedByEnv(env)) return null;
  const gitDir = join(gitTop, ".git");
  if (!isDirectory(gitDir)) return null;
  const prefix = toRootRelative(gitTop, root);
  if (prefix === null) return null;
  let config = "";
  try {
    config = readBoundedText(join(gitDir, "config"));
  } catch {
    return null;
  }
  let fd: number;
  try {
    // O_NONBLOCK: an index that is a FIFO must not hold the run up at open.
    fd = openSync(join(gitDir, "index"), (constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)) as unknown as string);
  } catch (error) {
    // A repository where nothing was ever added has no index: git lists nothing.
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? [] : null;
  }
  try {
    // Not a regular file (a FIFO, a device): git is asked, and says what is wrong. A regular one is read no
    // further than the size it had when opened (an index may be larger than MAX_FILE_BYTES: 100k entries).
    const stat = fstatSync(fd);
    if (!stat.isFile()) return null;
    let left = stat.size;
    const hashBytes = /^\s*objectformat\s*=\s*sha256\s*$/im.test(config) ? 32 : 20;
    return indexedPaths(
      (into, offset, length) => {
        const got = left === 0 ? 0 : readSync(fd, into, offset, Math.min(length, left), null);
        left -= got;
        return got;
      },
      { ...spec, prefix, hashBytes },
    );
  } finally {
    closeSync(fd);
  }
}
