/** Arithmetic on root-relative paths (`/` separators, "" for the root): no file system involved. */

export function trimSlashes(path: string): string {
  return path
    .replace(/\\/g, "/")
    .replace(/^\.?\/+/, "")
    .replace(/\/+$/, "");
}

/** `name` without the first of `suffixes` (lower case) it ends with, in any case. */
export function withoutSuffix(name: string, suffixes: readonly string[]): string {
  for (const suffix of suffixes) if (name.slice(-suffix.length).toLowerCase() === suffix) return name.slice(0, -suffix.length);
  return name;
}

export function dirOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "" : path.slice(0, slash);
}

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

const SLASH = 47;

/**
 * Whether `folder` (one or more whole segments, `.claude/rules`) is part of `path`, or is `path`. String searches,
 * not a regexp (a compile on every run), and no strings built: discovery asks this of every path of --all.
 */
export function hasSegments(path: string, folder: string): boolean {
  for (let at = path.indexOf(folder); at !== -1; at = path.indexOf(folder, at + 1)) {
    const after = at + folder.length;
    if ((at === 0 || path.charCodeAt(at - 1) === SLASH) && (after === path.length || path.charCodeAt(after) === SLASH)) return true;
  }
  return false;
}

export function joinPath(dir: string, name: string): string {
  return dir === "" ? name : `${dir}/${name}`;
}

/** How many folders deep a root-relative folder is; the root ("") is 0. */
export function depthOf(dir: string): number {
  if (dir === "") return 0;
  // Counted, not split: --all orders thousands of folders.
  let depth = 1;
  for (let at = dir.indexOf("/"); at !== -1; at = dir.indexOf("/", at + 1)) depth++;
  return depth;
}

/** Every folder from the root ("") down to dir, root first. */
export function ancestorsOf(dir: string): string[] {
  const out = [""];
  if (dir === "") return out;
  const parts = dir.split("/");
  for (let i = 1; i <= parts.length; i++) out.push(parts.slice(0, i).join("/"));
  return out;
}

/** True when dir is `ancestor` or lies below it. */
export function isWithin(dir: string, ancestor: string): boolean {
  return ancestor === "" || dir === ancestor || dir.startsWith(`${ancestor}/`);
}

/** Code-unit order: the same on every machine, whatever the locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The index of the first of the paths (sorted by code unit) that is not before `prefix`. */
export function firstFrom(sorted: readonly string[], prefix: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < prefix) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Where the paths below a folder start and end (end excluded) in a list sorted by code unit. */
export interface PathRange {
  start: number;
  end: number;
}

/** The paths below a folder, as a range of a list sorted by code unit (a binary search for each end; no copy). */
export function rangeUnder(sorted: readonly string[], folder: string): PathRange {
  if (folder === "") return { start: 0, end: sorted.length };
  const prefix = `${folder}/`;
  const start = firstFrom(sorted, prefix);
  // The paths starting with the prefix follow one another: the first one after them, searched the same way.
  let end = start;
  let hi = sorted.length;
  while (end < hi) {
    const mid = (end + hi) >> 1;
    if (sorted[mid]!.startsWith(prefix)) end = mid + 1;
    else hi = mid;
  }
  return { start, end };
}
