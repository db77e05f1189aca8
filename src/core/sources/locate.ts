/** Which module a path belongs to, and the folder its rules are anchored at. */
import { memoSlot, type RunMemo } from "../run-memo.js";
import type { LocateOptions, SourceModule } from "./source.js";

export interface Location {
  module: SourceModule;
  anchor: string;
  matched: string;
}

/**
 * Classifies a root-relative path, or returns null when it is not an instruction file. Modules are asked in
 * list order, each for its folders first, then its names; the first claim wins (`.cursor/rules/README.md` is
 * a Cursor rule, not a README).
 */
export function locate(path: string, modules: readonly SourceModule[], options: LocateOptions, memo?: RunMemo): Location | null {
  return locator(modules, options, memo)(path);
}

export type Locator = (path: string) => Location | null;
/** Paths a locator is asked for before it scans them with one regular expression (see below). */
const REGEXP_AFTER = 128;
interface Locators {
  byObject: WeakMap<LocateOptions, Locator>;
  byContent: Map<string, Locator>;
}
const LOCATORS = memoSlot(() => new WeakMap<readonly SourceModule[], Locators>());

/**
 * The specs read once per list and options in a run (`memo`; without one, on each call): discovery asks for every
 * file of a 100k-file tree. Options equal in content share one locator, so discovery, import reading and selection
 * (each holding its own options object) work each path out once between them.
 */
export function locator(modules: readonly SourceModule[], options: LocateOptions, memo?: RunMemo): Locator {
  if (memo === undefined) return buildLocator(modules, options);
  const locators = memo.get(LOCATORS);
  let cache = locators.get(modules);
  if (!cache) locators.set(modules, (cache = { byObject: new WeakMap(), byContent: new Map() }));
  let found = cache.byObject.get(options);
  if (found) return found;
  const content = JSON.stringify([options.agentFiles, options.ruleDirs, options.skillDirs ?? [], options.mode ?? null]);
  found = cache.byContent.get(content);
  if (found) {
    cache.byObject.set(options, found);
    return found;
  }
  found = buildLocator(modules, options);
  cache.byObject.set(options, found);
  cache.byContent.set(content, found);
  return found;
}

function buildLocator(modules: readonly SourceModule[], options: LocateOptions): Locator {
  // Built once per list and options; each path is then looked up by its file name and checked against the folders,
  // with index loops (for-of allocates an iterator result per step until V8 optimises the loop, and discovery
  // asks for every file of the tree).
  const folders: Array<{
    rank: number;
    module: SourceModule;
    accepts: ((inFolder: string) => boolean) | undefined;
    folder: string;
    start: string;
    inside: string;
  }> = [];
  const byFileName = new Map<string, Array<{ rank: number; module: SourceModule; name: string; end: string }>>();
  modules.forEach((module, rank) => {
    const spec = module.files?.(options);
    if (!spec) return;
    for (const folder of spec.folders) folders.push({ rank, module, accepts: spec.accepts, folder, start: `${folder}/`, inside: `/${folder}/` });
    // The longest name first: `.claude/CLAUDE.md` is itself, not a CLAUDE.md in a folder named `.claude`.
    for (const name of [...spec.names].sort((x, y) => y.length - x.length)) {
      const fileName = name.slice(name.lastIndexOf("/") + 1);
      byFileName.set(fileName, [...(byFileName.get(fileName) ?? []), { rank, module, name, end: `/${name}` }]);
    }
  });
  // Most instruction files are in no module's folder (AGENTS.md, READMEs): once a run has asked for many paths
  // (discovery of a whole tree), one regular expression over the path tells (a native scan), where the folder loop's
  // indexOf calls cost microseconds a path before V8 optimises them. A hook asks for a few dozen: building and
  // compiling that expression (twice: V8 compiles a regexp again for its second use) cost ~0.4 ms, more than the loop.
  let anyFolder: RegExp | null | undefined;
  let asked = 0;
  const mayBeInAFolder = (path: string): boolean => {
    if (folders.length === 0) return false;
    if (++asked < REGEXP_AFTER) return true;
    anyFolder ??= new RegExp(`(?:^|/)(?:${folders.map((f) => f.folder.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})/`);
    return anyFolder.test(path);
  };
  // Discovery, selection and import reading each ask for the same paths: each is worked out once.
  const known = new Map<string, Location | null>();
  const found: Locator = (path) => {
    let location = known.get(path);
    if (location === undefined) known.set(path, (location = claim(path)));
    return location;
  };
  const claim = (path: string): Location | null => {
    // Modules are asked in list order, each for its folders first, then its names: the claim of the lowest rank
    // wins, and a folder's claim beats a name's of the same module.
    let best: Location | null = null;
    let bestRank = Infinity;
    const inAFolder = mayBeInAFolder(path);
    for (let i = 0; inAFolder && i < folders.length; i++) {
      const f = folders[i]!;
      if (f.rank >= bestRank) continue;
      const at = path.startsWith(f.start) ? 0 : path.indexOf(f.inside);
      if (at === -1) continue;
      const inFolder = path.slice(at === 0 ? f.folder.length + 1 : at + f.folder.length + 2);
      if (f.accepts?.(inFolder) ?? true) {
        best = { module: f.module, anchor: at === 0 ? "" : path.slice(0, at), matched: f.folder };
        bestRank = f.rank;
      }
    }
    const named = byFileName.get(path.slice(path.lastIndexOf("/") + 1));
    if (named !== undefined) {
      for (let i = 0; i < named.length; i++) {
        const n = named[i]!;
        if (n.rank >= bestRank) continue;
        if (path === n.name) return { module: n.module, anchor: "", matched: n.name };
        if (path.endsWith(n.end)) return { module: n.module, anchor: path.slice(0, path.length - n.name.length - 1), matched: n.name };
      }
    }
    return best;
  };
  return found;
}

/** Every folder and name the modules read, for discovery (folders are walked whole, names looked up). */
export function discoveryNames(modules: readonly SourceModule[], options: LocateOptions): { folders: string[]; names: string[] } {
  const folders = new Set<string>();
  const names = new Set<string>();
  for (const module of modules) {
    const spec = module.files?.(options);
    spec?.folders.forEach((f) => folders.add(f));
    spec?.names.forEach((n) => names.add(n));
  }
  return { folders: [...folders], names: [...names] };
}

export const isMarkdown = (name: string) => name.endsWith(".md");
export const isMdOrMdc = (name: string) => name.endsWith(".md") || name.endsWith(".mdc");
