import type { Warning } from "./types.js";

/**
 * The lexical half of confinement (io/fs/confine.ts holds the file system's half): a name a repository, a config, git's
 * index or an agent controls is taken only as a clean root-relative path, one that names something below the root
 * by its segments alone. Pure: no file system.
 */

/**
 * Why a root-relative path is not clean, or null when it is: `/` separators only, no empty, `.` or `..` segment (so
 * no leading or trailing `/`), not absolute, no drive (`C:`), no backslash (a separator on Windows), no NUL.
 */
export function whyUnclean(path: string): string | null {
  // One test for the usual case: a clean path is most of every run's paths.
  if (!SUSPECT.test(path)) return null;
  if (path === "") return "is empty";
  if (path.includes("\0")) return "holds a NUL character";
  if (path.includes("\\")) return "holds a backslash";
  if (path.startsWith("/") || DRIVE.test(path)) return "is absolute";
  const parts = path.split("/");
  if (parts.includes("..")) return "has a `..` segment";
  if (parts.includes(".")) return "has a `.` segment";
  return "has an empty segment";
}

/** A `.`, `..` or empty segment, a backslash, a NUL, or a drive at the start. */
const SUSPECT = /(?:^|\/)\.{0,2}(?:\/|$)|[\\\0]|^[A-Za-z]:/;
const DRIVE = /^[A-Za-z]:/;

/**
 * A configured name (an `agents.files` name, a `rules.dirs` folder) as a clean root-relative path, or why it is
 * not one. A leading `./` and a trailing `/` are how people write folders, and are taken off first; nothing else
 * is mended (`a/../b` is refused, not read as `b`).
 */
export function configuredName(name: string): { path: string } | { why: string } {
  let path = name;
  while (path.startsWith("./")) path = path.slice(2);
  while (path.endsWith("/") && path.length > 1) path = path.slice(0, -1);
  const why = whyUnclean(path);
  return why === null ? { path } : { why };
}

/**
 * The clean paths of a list (the same array when all are: the usual case costs no copy), and those left out. For
 * paths git's index or `git ls-files` lists: a crafted index can hold `../x`, which git itself never writes.
 */
function cleanOnly(paths: string[]): { paths: string[]; dropped: string[] } {
  let kept: string[] | null = null;
  const dropped: string[] = [];
  for (let i = 0; i < paths.length; i++) {
    const path = paths[i]!;
    if (!SUSPECT.test(path)) {
      kept?.push(path);
      continue;
    }
    kept ??= paths.slice(0, i);
    dropped.push(path);
  }
  return { paths: kept ?? paths, dropped };
}

/**
 * A list of tracked paths without the unclean ones, and one warning for all those left out (naming the first):
 * git never writes `../x` or `/etc/passwd` into its index, so an index holding one was crafted (a repository shipped
 * with its `.git`).
 */
export function trackedClean(paths: string[], from: string, warnings: Warning[]): string[] {
  const { paths: kept, dropped } = cleanOnly(paths);
  if (dropped.length > 0) {
    const first = dropped[0]!;
    warnings.push({
      message: `${from} lists ${dropped.length} path${dropped.length === 1 ? "" : "s"} that ${whyUnclean(first)} (${JSON.stringify(first)}${dropped.length > 1 ? ", …" : ""}), which git itself never writes; left out, nothing read there`,
    });
  }
  return kept;
}
