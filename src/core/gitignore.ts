import ignore from "ignore";
import { fingerprint } from "./fingerprint.js";
import type { RunMemo } from "./run-memo.js";

/** One file of ignore patterns and the folder its patterns are relative to ("" for the repository's top). */
export interface IgnoreFile {
  dir: string;
  text: string;
}

/**
 * Git's answer to "is this path ignored?" (as `git check-ignore --no-index` gives it) for paths relative to the
 * repository's top. `files` come lowest precedence first: core.excludesFile, .git/info/exclude, then each
 * .gitignore from the top down.
 *
 * Every pattern is rewritten relative to the top and all go into one `ignore` list in that order: git's
 * precedence (a deeper file overrides a higher one, the last matching line of a file wins) is then "the last
 * matching pattern wins", and `ignore` applies git's other rule itself — nothing under an ignored folder comes
 * back. Separate lists per file cannot do this: each would also judge a folder that another file re-includes.
 */
export function gitIgnoreMatcher(files: IgnoreFile[], options: { ignoreCase: boolean; memo?: RunMemo }): (path: string) => boolean {
  let rules: ReturnType<typeof ignore> | undefined;
  const compile = () => {
    const made = ignore({ ignorecase: options.ignoreCase });
    for (const file of files) made.add(file.dir === "" ? file.text : file.text.split(/\r?\n/).map((line) => fromTop(line, file.dir)));
    return made;
  };
  const decide = (path: string) => (rules ??= compile()).ignores(path);
  const warm = options.memo?.warm;
  if (warm === undefined) return decide;
  // The same ignore files always answer the same: an earlier run's answers are reused, and the patterns are only
  // compiled for a path no run has asked about (core/warm.ts).
  const set = fingerprint(JSON.stringify([options.ignoreCase, files]));
  return (path) => warm.ignored(set, path, () => decide(path));
}

/** A pattern of a .gitignore in `dir`, rewritten to mean the same from the top of the repository. */
function fromTop(line: string, dir: string): string {
  if (line.trim() === "" || line.startsWith("#")) return line;
  const negated = line.startsWith("!");
  const pattern = negated ? line.slice(1) : line;
  // A slash at the start or in the middle anchors a pattern to its file's folder; otherwise it matches at any depth.
  const anchored = pattern.replace(/\s+$/, "").replace(/\/$/, "").includes("/");
  const prefix = `${escapeGlob(dir)}/${anchored ? "" : "**/"}`;
  return `${negated ? "!" : ""}${prefix}${anchored ? pattern.replace(/^\//, "") : pattern}`;
}

/** A folder name taken literally inside a pattern. */
const escapeGlob = (text: string): string => text.replace(/[\\*?[\]!#]/g, "\\$&");
