/**
 * One file, one entry: a file reached through several paths (a symlinked file, a symlinked folder such as
 * `.claude -> .agents`, or a symlinked folder further up) is drafted once. Without this a symlinked skills folder
 * doubles every skill: each injected twice, each listed twice in the index, two rows in explain.
 *
 * Which path names it: the file's real path when that path was discovered too (it is where the file lives, and it
 * does not change with the order links are found in); otherwise the first of its paths in code-unit order (the
 * order files are registered in). The other paths are kept as the entry's aliases: an agent that loads the file
 * through any of them has it (Claude Code reading `.claude/skills` through the link), and explain names them.
 */
import type { SourceFile } from "./types.js";

interface OneFilePerPath {
  /** One file per real file, in the order given. */
  kept: SourceFile[];
  /** For a kept path, the other paths that reach the same file, in code-unit order. */
  aliasesOf: Map<string, string[]>;
}

/** `files` sorted by path (the order the core registers them in). */
export function oneFilePerRealPath(files: readonly SourceFile[]): OneFilePerPath {
  const aliasesOf = new Map<string, string[]>();
  // Most trees have no symlinks at all: nothing to group, nothing copied.
  if (!files.some((f) => f.realPath !== undefined)) return { kept: files as SourceFile[], aliasesOf };
  const groups = new Map<string, SourceFile[]>();
  for (const file of files) {
    const real = file.realPath ?? file.path;
    const group = groups.get(real);
    if (group) group.push(file);
    else groups.set(real, [file]);
  }
  const keep = new Set<SourceFile>();
  for (const [real, group] of groups) {
    const named = group.find((f) => f.path === real) ?? group[0]!;
    keep.add(named);
    if (group.length > 1)
      aliasesOf.set(
        named.path,
        group.filter((f) => f !== named).map((f) => f.path),
      );
  }
  return { kept: files.filter((f) => keep.has(f)), aliasesOf };
}
