/** Which module a path belongs to, and the folder its rules are anchored at. */
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
export function locate(path: string, modules: readonly SourceModule[], options: LocateOptions): Location | null {
  return locator(modules, options)(path);
}

type Locator = (path: string) => Location | null;
const locators = new WeakMap<readonly SourceModule[], WeakMap<LocateOptions, Locator>>();

/** The specs read once per list and options: discovery asks for every file of a 100k-file tree. */
export function locator(modules: readonly SourceModule[], options: LocateOptions): Locator {
  let byOptions = locators.get(modules);
  if (!byOptions) locators.set(modules, (byOptions = new WeakMap()));
  let found = byOptions.get(options);
  if (found) return found;
  // The strings each path is compared with are built once here: in the loop they were a few hundred small strings
  // per path, for every path of the tree.
  const specs = modules.flatMap((module) => {
    if (!module.files) return [];
    const spec = module.files(options);
    const folders = spec.folders.map((folder) => ({ folder, start: `${folder}/`, inside: `/${folder}/` }));
    // The longest name first: `.claude/CLAUDE.md` is itself, not a CLAUDE.md in a folder named `.claude`.
    const names = [...spec.names].sort((a, b) => b.length - a.length).map((name) => ({ name, end: `/${name}` }));
    return [{ module, accepts: spec.accepts, folders, names }];
  });
  found = (path) => {
    for (const { module, accepts, folders, names } of specs) {
      for (const { folder, start, inside } of folders) {
        const at = path.startsWith(start) ? 0 : path.indexOf(inside);
        if (at === -1) continue;
        const inFolder = path.slice(at === 0 ? folder.length + 1 : at + folder.length + 2);
        if (accepts?.(inFolder) ?? true) return { module, anchor: at === 0 ? "" : path.slice(0, at), matched: folder };
      }
      for (const { name, end } of names) {
        if (path === name) return { module, anchor: "", matched: name };
        if (path.endsWith(end)) return { module, anchor: path.slice(0, path.length - name.length - 1), matched: name };
      }
    }
    return null;
  };
  byOptions.set(options, found);
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
