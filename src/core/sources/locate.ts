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
  const specs = modules.flatMap((module) => {
    if (!module.files) return [];
    const spec = module.files(options);
    // The longest name first: `.claude/CLAUDE.md` is itself, not a CLAUDE.md in a folder named `.claude`.
    return [{ module, spec, names: [...spec.names].sort((a, b) => b.length - a.length) }];
  });
  found = (path) => {
    for (const { module, spec, names } of specs) {
      for (const folder of spec.folders) {
        const at = markerAt(path, `${folder}/`);
        if (at === null) continue;
        const inFolder = path.slice(at === 0 ? folder.length + 1 : at + folder.length + 2);
        if (spec.accepts?.(inFolder) ?? true) return { module, anchor: at === 0 ? "" : path.slice(0, at), matched: folder };
      }
      for (const name of names) {
        if (path === name) return { module, anchor: "", matched: name };
        if (path.endsWith(`/${name}`)) return { module, anchor: path.slice(0, path.length - name.length - 1), matched: name };
      }
    }
    return null;
  };
  byOptions.set(options, found);
  return found;
}

/**
 * Where `marker` (e.g. ".cursor/rules/") starts in path: 0 at the start, else the index of the `/` before it,
 * or null. The first occurrence wins.
 */
function markerAt(path: string, marker: string): number | null {
  if (path.startsWith(marker)) return 0;
  const at = path.indexOf(`/${marker}`);
  return at === -1 ? null : at;
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
