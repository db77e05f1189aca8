import { readdir, readdirSync, type Dirent } from "node:fs";
import { isAbsolute, join, relative } from "node:path";
import type { Warning } from "../core/types.js";
import { ancestorsOf, dirOf, hasSegments, isWithin, joinPath } from "../core/rel-path.js";
import { instructionNames, sourceLocator, type LocateOptions } from "../core/sources/index.js";
import { createRunMemo, type RunMemo } from "../core/run-memo.js";
import { trackedFiles } from "./git/git.js";
import { indexedFiles, indexPathsClean } from "./git/git-index.js";
import { gitIgnored } from "./git/git-ignore.js";
import { entryAt, realOrSelf, under } from "./fs/paths.js";
import { unreadableReason } from "./fs/bounded-read.js";

export interface DiscoverOptions extends LocateOptions {
  root: string;
  /** The top of the git repository holding the root: git's view of the tree decides what is ignored. */
  gitTop: string | null;
  /** Every instruction file in the tree, or only those on the paths from the root to these targets. */
  scope: { all: true } | { all: false; targets: string[] };
  /** Git's variables decide whether the ignore files can be read here or only git can tell. */
  env: Record<string, string | undefined>;
  /** The run's platform: on Windows only git decides what is ignored. */
  platform: string;
  /** Agent files (CLAUDE.local.md, AGENTS.override.md…) are read even where git ignores them: people ignore them on purpose. */
  readIgnored?: boolean;
  /** The run's memo (core/run-memo.ts): its locator and what earlier runs decided about ignored paths. */
  memo?: RunMemo;
  /**
   * For --all: names of further files to list, by file name (the package manifests that say which READMEs --all
   * reads), found in the same pass over git's index or the tree as the instruction files, where a look at each
   * README's folder would cost a stat per manifest name.
   */
  alsoNames?: readonly string[];
}

export interface Discovered {
  /** The instruction files, root-relative, sorted. */
  paths: string[];
  /** The files named in `alsoNames` (for --all; empty otherwise). */
  also: string[];
  warnings: Warning[];
}

/** A path inside node_modules or .git. */
const inNodeModulesOrGit = (path: string): boolean => hasSegments(path, "node_modules") || hasSegments(path, ".git");

/**
 * Root-relative paths of the instruction files in scope, sorted; node_modules, .git and git-ignored paths never
 * appear.
 *
 * - Targeted: only the folders from the root down to each target are looked at (a few stats and the rules
 *   folders on that path), whatever the size of the tree; the ignore files on those paths then say which of them
 *   git ignores (read here; `git check-ignore --no-index` when only git can tell, see git-ignore.ts). Neither
 *   reads git's 100k-entry index. Ignored agent files stay (`readIgnored`): CLAUDE.local.md is ignored on purpose.
 * - `--all` in a repository: the files git tracks (its index, read here; `ls-files --cached` when only git can
 *   read it), the same set the generated file will be committed from. Git's scan for untracked files costs seconds on a large tree, so a new rule joins once added;
 *   personal, ignored files (CLAUDE.local.md) stay out of a file that is committed.
 * - `--all` outside git: a walk of the tree (readdir, many folders at once), never into node_modules or .git.
 */
export async function discover(options: DiscoverOptions): Promise<Discovered> {
  const warnings: Warning[] = [];
  const { gitTop } = options;
  const memo = options.memo ?? createRunMemo();
  const locate = sourceLocator(options, memo);
  let paths: string[] | null = null;
  const also: string[] = [];
  if (options.scope.all) {
    const alsoNames = new Set(options.alsoNames ?? []);
    const isAlso = (path: string) => alsoNames.size > 0 && alsoNames.has(path.slice(path.lastIndexOf("/") + 1));
    if (gitTop !== null) {
      const spec = instructionNames(options);
      const withAlso = { folders: spec.folders, names: [...spec.names, ...alsoNames] };
      paths =
        indexedFiles(gitTop, options.root, withAlso, options.env) ??
        trackedFiles(options.root, [...everywhere(options), ...[...alsoNames].map((n) => `*${n}`)], options.env);
      if (paths !== null) paths = indexPathsClean(paths, warnings);
      if (paths !== null) paths.push(...throughLinkedFolders(options.root, spec.folders, warnings), ...skillsBehindLinks(options.root, paths));
      if (paths !== null && !paths.some((p) => locate(p) !== null))
        warnings.push({ message: "--all reads the files git tracks, and git tracks no instruction file here yet (git add them first)" });
    }
    if (paths === null) {
      paths = await walkTree(options.root, (p) => isAlso(p) || locate(p) !== null || LINKED_SKILL.test(p), "", warnings);
      paths.push(...skillsBehindLinks(options.root, paths));
    }
    if (alsoNames.size > 0) {
      // A manifest that is also an instruction file's name stays among the paths too.
      for (const path of paths) if (isAlso(path) && !inNodeModulesOrGit(path)) also.push(path);
    }
  } else {
    paths = onPaths(options, options.scope.targets, warnings);
    if (gitTop !== null && paths.length > 0) {
      // An agent file ignored by name (CLAUDE.local.md) is read; one inside an ignored folder (dist/) is not.
      const isAgentFile = (path: string) => locate(path)?.module.source === "directory-agents";
      const agentDirs = options.readIgnored === true ? [...new Set(paths.filter(isAgentFile).map(dirOf))].filter((d) => d !== "") : [];
      const asked = [...paths, ...agentDirs.map((d) => `${d}/`)];
      const ignored = gitIgnored(gitTop, options.root, asked, options.env, options.platform, memo);
      const folderIgnored = (path: string) => dirOf(path) !== "" && ignored(`${dirOf(path)}/`);
      paths = paths.filter((path) => !ignored(path) || (options.readIgnored === true && isAgentFile(path) && !folderIgnored(path)));
    }
  }
  // Sorted by UTF-16 code units, as `<` compares strings: the built-in order without a comparator to call per pair.
  const found = paths.filter((p) => !inNodeModulesOrGit(p) && locate(p) !== null).sort();
  return { paths: found, also, warnings };
}

/**
 * Files in the root's instruction folders that lead through a symlink (`.claude/skills -> ../skills`, or
 * `.claude -> .agents`): git's index holds the link, never the files it leads to, while a targeted build reads them
 * through it; without this --all left out every skill of a tree whose skills folders are all links. A file whose
 * real path --all lists too is read under both paths, as a targeted build reads it: the core drafts it once, the
 * other path kept as its alias (core/same-file.ts), so an agent that loads it through the link is said to have it. A
 * link leading out of the root is not followed. One stat per folder name at the root (most are absent; a name whose
 * parent is a file is no folder either), nothing more unless one is there.
 */
function throughLinkedFolders(root: string, folders: readonly string[], warnings: Warning[]): string[] {
  const added: string[] = [];
  let realRoot: string | undefined;
  for (const folder of folders) {
    if (!entryAt(under(root, folder), () => warnings.push({ file: folder, message: LOOP }))?.isDirectory()) continue;
    const real = realOrSelf(under(root, folder));
    realRoot ??= realOrSelf(root);
    if (real === join(realRoot, folder)) continue;
    const rel = relative(realRoot, real);
    if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) continue;
    walkFolderSync(root, folder, added, warnings);
  }
  return added;
}

/**
 * A skill linked one by one (`.claude/skills/pdf -> ../../.agents/skills/pdf`): git's index and a folder walk see the
 * link, a name with no SKILL.md in it; the agent reads the SKILL.md behind it. Only a link directly in a skills
 * folder is looked behind (one stat each): the walks still never follow a linked folder, so a loop cannot trap them.
 */
function skillsBehindLinks(root: string, listed: readonly string[]): string[] {
  const found: string[] = [];
  for (const path of listed) {
    if (!LINKED_SKILL.test(path)) continue;
    const skill = `${path}/SKILL.md`;
    if (entryAt(under(root, skill))?.isFile()) found.push(skill);
  }
  return found;
}

/** What a link loop at an instruction file's or folder's name is told: the reader's words for one --all lists (io/fs/bounded-read.ts). */
const LOOP = "is a symlink loop; skipped";

/** `<folder>/skills/<name>`: where a link to one skill's folder sits. */
const LINKED_SKILL = /(?:^|\/)skills\/[^/]+$/;

/**
 * Pathspecs for every instruction file: plain `*NAME` wildcards, where `*` also matches `/`. Git matches them
 * about twice as fast as the same names under `:(glob)` with a leading `**` (40 names on a 10k-file index: 26 vs 56 ms); what they match too
 * widely (`xAGENTS.md`) locate drops.
 */
function everywhere(options: LocateOptions): string[] {
  const { folders, names } = instructionNames(options);
  return [...folders.map((f) => `*${f}/*`), ...names.map((n) => `*${n}`)];
}

/**
 * Instruction files in the folders from the root down to each target: one readdir per folder on the path, a
 * stat only for names whose first part is there, and a walk of each rules folder found. Synchronous: a few
 * dozen calls, fewer than the thread pool's round trips would cost.
 */
function onPaths(options: DiscoverOptions, targets: string[], warnings: Warning[]): string[] {
  const dirs = new Set<string>();
  for (const target of targets.length > 0 ? targets : [""]) for (const dir of ancestorsOf(target === "" ? "" : dirOf(target))) dirs.add(dir);
  const spec = instructionNames(options);
  const folders = new Set(spec.folders);
  const fileNames = new Set(spec.names);
  // `.clinerules` is a file or a folder: one look at the name, either way.
  const names = [...new Set([...spec.folders, ...spec.names])];
  const found: string[] = [];
  const denied: string[] = [];
  for (const dir of dirs) {
    // Below a folder that cannot be read nothing can be either: it is told once.
    if (denied.some((d) => isWithin(dir, d))) continue;
    const present = new Set(listOrNothing(options.root, dir, warnings, denied));
    for (const name of names) {
      if (!present.has(name.split("/")[0]!)) continue;
      const path = joinPath(dir, name);
      const info = entryAt(under(options.root, path), () => warnings.push({ file: path, message: LOOP }));
      if (info === undefined) continue;
      if (info.isDirectory()) {
        if (folders.has(name)) walkFolderSync(options.root, path, found, warnings);
        else warnings.push({ file: path, message: "is a directory, not a file; skipped" });
      } else if (!info.isFile()) {
        if (fileNames.has(name)) warnings.push({ file: path, message: "is not a regular file (a FIFO, socket or device); skipped" });
      } else if (fileNames.has(name)) found.push(path);
    }
  }
  return found;
}

/**
 * Every file under a rules folder (root-relative `dir`), skipping node_modules and .git and never following a
 * symlinked folder. Synchronous: a targeted build reads a handful of small folders, and its first call through
 * the thread pool would cost more than all of them.
 */
function walkFolderSync(root: string, dir: string, out: string[], warnings: Warning[]): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(under(root, dir), { withFileTypes: true });
  } catch (error) {
    warnUnreadable(error, dir, warnings);
    return;
  }
  for (const entry of entries) {
    if (entry.name === "node_modules" || entry.name === ".git") continue;
    const path = joinPath(dir, entry.name);
    if (entry.isDirectory()) walkFolderSync(root, path, out, warnings);
    else if (entry.isFile()) out.push(path);
    else if (entry.isSymbolicLink()) out.push(path, ...skillsBehindLinks(root, [path]));
  }
}

function listOrNothing(root: string, dir: string, warnings: Warning[], denied: string[]): string[] {
  try {
    return readdirSync(under(root, dir));
  } catch (error) {
    if (warnUnreadable(error, dir, warnings)) denied.push(dir);
    return [];
  }
}

/**
 * A folder that is there but cannot be listed (permission denied) holds instruction files the run never sees: said,
 * naming it, where one that is gone or no folder is nothing to say. True when it warned.
 */
function warnUnreadable(error: unknown, dir: string, warnings: Warning[]): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "ENOENT" || code === "ENOTDIR" || code === "ELOOP") return false;
  warnings.push({ file: dir === "" ? "." : dir, message: `is a folder that ${unreadableReason(error)}; the instruction files in it are skipped` });
  return true;
}

/**
 * Files under `start` (root-relative) that `keep` accepts, skipping node_modules and .git and never following a
 * symlinked folder (loops). Up to 32 folders are read at once: on slow file systems the walk is bound by latency.
 * A folder that cannot be read is named in `warnings`, where given.
 */
export async function walkTree(root: string, keep: (path: string) => boolean, start = "", warnings?: Warning[]): Promise<string[]> {
  const out: string[] = [];
  const queue: string[] = [start];
  let active = 0;
  await new Promise<void>((resolve, reject) => {
    const pump = () => {
      if (queue.length === 0 && active === 0) return resolve();
      while (active < 32 && queue.length > 0) {
        const dir = queue.pop()!;
        active++;
        // The callback API: fs/promises would load streams and readline at start-up for this one call.
        readdir(under(root, dir), { withFileTypes: true }, (error: Error | null, entries: Dirent[]) => {
          try {
            if (error && warnings !== undefined) warnUnreadable(error, dir, warnings);
            for (const entry of error ? [] : entries) {
              if (entry.name === "node_modules" || entry.name === ".git") continue;
              const path = joinPath(dir, entry.name);
              if (entry.isDirectory()) queue.push(path);
              else if ((entry.isFile() || entry.isSymbolicLink()) && keep(path)) out.push(path);
            }
            active--;
            pump();
          } catch (thrown) {
            reject(thrown);
          }
        });
      }
    };
    pump();
  });
  return out;
}
