import { existsSync, realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, relative, sep } from "node:path";

/** Root-relative path with `/` separators, or null when abs lies outside root. */
export function toRootRelative(root: string, abs: string): string | null {
  const rel = relative(root, abs);
  if (rel === "") return "";
  if (rel.startsWith("..") || isAbsolute(rel)) return null;
  return sep === "/" ? rel : rel.split(sep).join("/");
}

/** The nearest directory at or above `start` for which `has(dir)` is true. */
export function findUp(start: string, has: (dir: string) => boolean): string | null {
  let dir = start;
  for (;;) {
    if (has(dir)) return dir;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** `.git` may be a directory or, in worktrees and submodules, a file. */
export const hasGit = (dir: string): boolean => existsSync(join(dir, ".git"));

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The path with symlinks resolved, or the path itself when it cannot be (missing, unreadable). */
export function realOrSelf(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}
