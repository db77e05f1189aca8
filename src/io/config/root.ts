import { resolve } from "node:path";
import { usageError } from "../../core/errors.js";
import { configFileIn } from "./config.js";
import { findUp, hasGit, isDirectory } from "../fs/paths.js";

export interface RootInfo {
  root: string;
  /** The git top level holding root, when there is one: discover then asks git for the tree. */
  gitTop: string | null;
}

/**
 * `--root`; else the git top level (`.git` may be a file); else the nearest directory with a config file;
 * else the current directory.
 */
export function findRoot(cwd: string, rootFlag: string | undefined): RootInfo {
  if (rootFlag !== undefined) {
    const root = resolve(cwd, rootFlag);
    if (!isDirectory(root)) throw usageError(`--root ${rootFlag}: no such directory`);
    return { root, gitTop: findUp(root, hasGit) };
  }
  const gitTop = findUp(cwd, hasGit);
  if (gitTop) return { root: gitTop, gitTop };
  const configDir = findUp(cwd, (dir) => configFileIn(dir) !== null);
  return { root: configDir ?? cwd, gitTop: null };
}
