import { existsSync, realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";

/**
 * `base` joined with a clean root-relative path (no `.` or `..` parts, `/` separators), as path.join would give
 * it, without normalising the whole string again: path.join costs more than the read it names, per file.
 */
export function under(base: string, rel: string): string {
  if (rel === "") return base;
  return base.endsWith("/") || base.endsWith(sep) ? base + rel : `${base}/${rel}`;
}

const UNCLEAN = /\/\.{0,2}(\/|$)/;

/** Root-relative path with `/` separators, or null when abs lies outside root. */
export function toRootRelative(root: string, abs: string): string | null {
  // Clean absolute paths below a clean root (what the readers build): a slice, not path.relative's two resolves.
  if (sep === "/" && abs.startsWith(root) && abs.charCodeAt(root.length) === 47 && !root.endsWith("/") && !UNCLEAN.test(abs)) return abs.slice(root.length + 1);
  const rel = relative(root, abs);
  if (rel === "") return "";
  if (rel.startsWith("..") || isAbsolute(rel)) return null;
  return sep === "/" ? rel : rel.split(sep).join("/");
}

/** The folder an agent runs in, root-relative ("" for the root, or when it runs outside the root). */
export const workingFolderOf = (root: string, cwd: string): string => toRootRelative(root, resolve(cwd)) ?? "";

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
export const hasGit = (dir: string): boolean => existsSync(under(dir, ".git"));

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
