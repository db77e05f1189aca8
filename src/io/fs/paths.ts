import { accessSync, constants, existsSync, realpathSync, statSync, type Stats } from "node:fs";
import { dirname, posix, resolve, sep, win32, type PlatformPath } from "node:path";

/**
 * `base` joined with a clean root-relative path (no `.` or `..` parts, `/` separators), as path.join would give
 * it, without normalising the whole string again: path.join costs more than the read it names, per file.
 */
export function under(base: string, rel: string): string {
  if (rel === "") return base;
  return base.endsWith("/") || base.endsWith(sep) ? base + rel : `${base}/${rel}`;
}

const UNCLEAN = /\/\.{0,2}(\/|$)/;

/** How a platform spells paths, and whether its usual file systems tell `A` from `a` (NTFS and APFS do not). */
export interface PathStyle {
  path: PlatformPath;
  foldCase: boolean;
}
// node:path is win32 on Windows, else posix (what its default export is): named, because a default import of a
// CommonJS module makes the bundle copy every export onto a wrapper object at each start (~0.25 ms).
export const HOST_PATHS: PathStyle = {
  path: process.platform === "win32" ? win32 : posix,
  foldCase: process.platform === "win32" || process.platform === "darwin",
};

/**
 * Root-relative path with `/` separators, or null when abs lies outside root. Where the file system ignores case
 * (Windows, macOS by default), `/Users/ana/Repo/src/a.ts` is inside `/Users/ana/repo`: a host's file paths and its
 * working folder need not agree on case. The part after the root keeps abs's spelling.
 */
export function toRootRelative(root: string, abs: string, style: PathStyle = HOST_PATHS): string | null {
  const { sep, relative, isAbsolute } = style.path;
  // Clean absolute paths below a clean root (what the readers build): a slice, not path.relative's two resolves.
  if (sep === "/" && abs.startsWith(root) && abs.charCodeAt(root.length) === 47 && !root.endsWith("/") && !UNCLEAN.test(abs)) return abs.slice(root.length + 1);
  const rel = relative(root, abs);
  if (rel === "") return "";
  // path.win32.relative already compares without case; path.posix.relative does not.
  if (isOutside(rel, isAbsolute)) return style.foldCase && sep === "/" ? foldedRelative(root, abs, style.path) : null;
  return sep === "/" ? rel : rel.split(sep).join("/");
}

/** `..` as a whole first segment (a file named `..notes` is inside), or another drive. */
const isOutside = (rel: string, isAbsolute: (p: string) => boolean): boolean =>
  (rel.startsWith("..") && (rel.length === 2 || rel[2] === "/" || rel[2] === "\\")) || isAbsolute(rel);

/** Segment by segment, case and Unicode normalization folded as APFS folds them. */
function foldedRelative(root: string, abs: string, p: PlatformPath): string | null {
  const rootParts = p
    .resolve(root)
    .split("/")
    .filter((s) => s !== "");
  const absParts = p
    .resolve(abs)
    .split("/")
    .filter((s) => s !== "");
  if (absParts.length < rootParts.length) return null;
  for (let i = 0; i < rootParts.length; i++) if (fold(rootParts[i]!) !== fold(absParts[i]!)) return null;
  return absParts.slice(rootParts.length).join("/");
}

const fold = (segment: string): string => segment.normalize("NFC").toLowerCase();

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

/**
 * What is at `path` (links followed), or undefined when nothing is: no such name, or a parent that is a file
 * (`.claude/rules` where `.claude` is a file: ENOTDIR, which `throwIfNoEntry` does not cover), or a symlink loop on
 * the way (ELOOP: it leads nowhere, as a dangling link does; `onLoop` hears of it, to warn). Other errors throw.
 */
export function entryAt(path: string, onLoop?: () => void): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOTDIR") return undefined;
    if (code === "ELOOP") {
      onLoop?.();
      return undefined;
    }
    throw error;
  }
}

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

/**
 * Whether a shell could run `file`: "runs", "missing" (no such file, or no regular file: a folder, a dangling link or
 * a link loop, a path through a file such as a `node_modules` that is one) or "not-executable" (no execute permission
 * for this user). Windows runs a file by its extension: one there runs. Another stat error (EACCES on a folder
 * above) is thrown: each caller decides what it means.
 */
export function runnableFile(file: string, platform: string): "runs" | "missing" | "not-executable" {
  if (entryAt(file)?.isFile() !== true) return "missing";
  if (platform === "win32") return "runs";
  try {
    accessSync(file, constants.X_OK);
    return "runs";
  } catch {
    return "not-executable";
  }
}
